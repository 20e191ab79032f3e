import { HeadObjectCommand, ListMultipartUploadsCommand, type S3Client } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '@trove/storage';
import { BUILD_WAIT_MS } from '../../support/installed';
import { createBucket, deleteBucket, ensureSeaweedfs, s3Client } from '../../support/object-store';
import { uniqueName } from '../../support/services';

const MiB = 1024 * 1024;

/**
 * The S3 blob store against a real S3-compatible server (SeaweedFS from infra/local): streamed
 * writes and reads, the server's checksum checks, a multipart upload, deletion by prefix and the
 * missing-object error the callers rely on.
 */
describe('S3BlobStore against SeaweedFS', () => {
  const bucket = uniqueName('blobs');
  let client: S3Client;
  let store: S3BlobStore;

  beforeAll(async () => {
    await ensureSeaweedfs();
    await createBucket(bucket);
    client = s3Client();
    // The smallest part S3 allows, so a 12 MiB stream is a three-part upload.
    store = new S3BlobStore(client, { bucket, prefix: 'trove/', partSizeBytes: 5 * MiB });
  }, BUILD_WAIT_MS);

  afterAll(async () => {
    client?.destroy();
    await deleteBucket(bucket);
  });

  it('streams a blob in and out, with its size, SHA-256 and samples, and byte ranges', async () => {
    const data = pattern(300_000);
    const stored = await store.putStream('incoming/a', Readable.from(chunks(data, 16_384)), {
      maxBytes: data.length,
      sampleBytes: 1024,
    });
    expect(stored).toMatchObject({ sizeBytes: data.length, sha256: sha256(data) });
    expect(stored.head.equals(data.subarray(0, 1024))).toBe(true);
    expect(stored.tail.equals(data.subarray(-1024))).toBe(true);

    await store.move('incoming/a', 'originals/d1/a.bin');
    expect(await store.exists('incoming/a')).toBe(false);
    expect((await store.stat('originals/d1/a.bin'))?.sizeBytes).toBe(data.length);
    expect((await collect(store.getStream('originals/d1/a.bin'))).equals(data)).toBe(true);
    const range = await collect(store.getStream('originals/d1/a.bin', { start: 70_000, end: 70_099 }));
    expect(range.equals(data.subarray(70_000, 70_100))).toBe(true);

    const reader = await store.openReader('originals/d1/a.bin');
    expect(reader.size).toBe(data.length);
    expect((await reader.read(10, 20)).equals(data.subarray(10, 20))).toBe(true);
    expect((await collect(reader.readRange(299_990, 400_000))).equals(data.subarray(299_990))).toBe(true);
    await reader.close();

    await store.putJson('originals/d1/parsed.json', { title: 'Ü' });
    expect(await store.getJson('originals/d1/parsed.json')).toEqual({ title: 'Ü' });
  });

  it('refuses a stream whose bytes do not match the announced SHA-256 and keeps nothing', async () => {
    const data = pattern(50_000);
    await expect(
      store.putStream('incoming/bad', Readable.from([data]), { sha256: sha256(Buffer.from('other')) }),
    ).rejects.toThrow(/do not match their SHA-256/);
    expect(await store.exists('incoming/bad')).toBe(false);
    // The announced hash of the right bytes passes.
    await store.putStream('incoming/good', Readable.from([data]), { sha256: sha256(data) });
    expect(await store.exists('incoming/good')).toBe(true);
  });

  it('has the server check each request body against its checksum', async () => {
    // What a corrupted transfer looks like to the server: a body whose declared SHA-256 differs.
    const { PutObjectCommand } = await import('@aws-sdk/client-s3');
    await expect(
      client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: 'trove/raw/corrupt',
          Body: Buffer.from('the bytes that arrived'),
          ChecksumSHA256: createHash('sha256').update('the bytes that were sent').digest('base64'),
        }),
      ),
    ).rejects.toThrow();
    expect(await store.exists('raw/corrupt')).toBe(false);
  });

  it('writes a stream above the part size as a multipart upload', async () => {
    const data = pattern(12 * MiB + 123);
    const stored = await store.putStream('originals/d2/big.bin', Readable.from(chunks(data, 64 * 1024)));
    expect(stored).toMatchObject({ sizeBytes: data.length, sha256: sha256(data) });
    // A multipart object's ETag names its part count: 5 + 5 + 2 MiB.
    const head = await client.send(
      new HeadObjectCommand({ Bucket: bucket, Key: 'trove/originals/d2/big.bin' }),
    );
    expect(head.ETag).toMatch(/-3"$/);
    const copy = await collect(store.getStream('originals/d2/big.bin'));
    expect(copy.length).toBe(data.length);
    expect(sha256(copy)).toBe(sha256(data));
  });

  it('passes server-side encryption through on every write: put, multipart upload and move', async () => {
    const encrypted = new S3BlobStore(client, {
      bucket,
      prefix: 'sse/',
      serverSideEncryption: 'AES256',
      partSizeBytes: 5 * MiB,
    });
    const big = pattern(11 * MiB);
    await encrypted.put('incoming/small', 'secret words');
    await encrypted.putStream('originals/d3/big.bin', Readable.from(chunks(big, 64 * 1024)));
    await encrypted.move('incoming/small', 'originals/d3/small.txt');
    for (const key of ['originals/d3/small.txt', 'originals/d3/big.bin']) {
      const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: `sse/${key}` }));
      expect(head.ServerSideEncryption, key).toBe('AES256');
    }
    expect((await encrypted.get('originals/d3/small.txt')).toString()).toBe('secret words');
    expect(sha256(await collect(encrypted.getStream('originals/d3/big.bin')))).toBe(sha256(big));
  });

  it('aborts a multipart upload over the size limit and leaves no parts behind', async () => {
    const data = pattern(11 * MiB);
    await expect(
      store.putStream('incoming/huge', Readable.from(chunks(data, 64 * 1024)), { maxBytes: 10 * MiB }),
    ).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(await store.exists('incoming/huge')).toBe(false);
    const uploads = await client.send(
      new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: 'trove/incoming/huge' }),
    );
    expect(uploads.Uploads ?? []).toEqual([]);
  });

  it('deletes a blob and everything under it, and nothing beside it', async () => {
    await store.put('docs/p1/x', 'x');
    await store.put('docs/p1/sub/y', 'y');
    await store.put('docs/p10/z', 'z');
    await store.deletePrefix('docs/p1/');
    expect(await store.exists('docs/p1/x')).toBe(false);
    expect(await store.exists('docs/p1/sub/y')).toBe(false);
    expect(await store.exists('docs/p10/z')).toBe(true);
    const keys: string[] = [];
    for await (const blob of store.list('docs/')) keys.push(blob.key);
    expect(keys).toEqual(['docs/p10/z']);
  });

  it('fails for a missing object as for a missing file (ENOENT)', async () => {
    expect(await store.stat('originals/none')).toBeUndefined();
    expect(await store.exists('originals/none')).toBe(false);
    await expect(store.get('originals/none')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(collect(store.getStream('originals/none'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.openReader('originals/none')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.put('../evil', 'x')).rejects.toThrow(/invalid blob key/);
  });
});

function pattern(size: number): Buffer {
  const data = Buffer.alloc(size);
  for (let i = 0; i < size; i += 1) data[i] = (i * 31 + (i >> 11)) & 0xff;
  return data;
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

function* chunks(data: Buffer, size: number): Generator<Buffer> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}
