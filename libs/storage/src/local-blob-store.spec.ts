import { createHash } from 'node:crypto';
import { readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import { LocalBlobStore } from './local-blob-store';

describe('LocalBlobStore', () => {
  let root: string;
  let store: LocalBlobStore;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'trove-blobs-'));
    store = new LocalBlobStore(root);
  });

  it('round-trips bytes and JSON and leaves no temp files', async () => {
    await store.put('docs/a/original', Buffer.from([0, 1, 2, 255]));
    await store.putJson('docs/a/parsed.json', { title: 'Ü' });
    expect([...(await store.get('docs/a/original'))]).toEqual([0, 1, 2, 255]);
    expect(await store.getJson('docs/a/parsed.json')).toEqual({ title: 'Ü' });
    expect((await readdir(join(root, 'docs/a'))).sort()).toEqual(['original', 'parsed.json']);
  });

  it('deletes by prefix', async () => {
    await store.put('docs/a/x', 'x');
    await store.put('docs/b/x', 'x');
    await store.deletePrefix('docs/a/');
    expect(await store.exists('docs/a/x')).toBe(false);
    expect(await store.exists('docs/b/x')).toBe(true);
  });

  it('opens a blob for streamed reads of byte ranges, with its size', async () => {
    await store.put('archives/a.zip', Buffer.from('0123456789'));
    const read = async (stream: Readable) => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    };
    const reader = await store.openReader('archives/a.zip');
    try {
      expect(reader.size).toBe(10);
      const [middle, tail] = await Promise.all([read(reader.readRange(2, 5)), read(reader.readRange(7, 10))]);
      expect([middle, tail]).toEqual(['234', '789']);
      expect(await read(reader.readRange(4, 4))).toBe('');
      expect(await read(reader.readRange(0, 10))).toBe('0123456789');
      expect((await reader.read(3, 6)).toString('utf8')).toBe('345');
      expect((await reader.read(8, 20)).toString('utf8')).toBe('89');
    } finally {
      await reader.close();
    }
    await expect(store.openReader('../evil')).rejects.toThrow(/invalid blob key/);
    await expect(store.openReader('archives/missing.zip')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses keys that escape the root', async () => {
    await expect(store.put('../evil', 'x')).rejects.toThrow(/invalid blob key/);
    await expect(store.get('docs/../../etc/passwd')).rejects.toThrow(/invalid blob key/);
    await expect(store.get('/etc/passwd')).rejects.toThrow(/invalid blob key/);
  });

  it('streams a blob to disk with its size, SHA-256 and head/tail samples', async () => {
    const data = Buffer.alloc(300_000, 'a');
    data.write('HEAD', 0);
    data.write('TAIL', data.length - 4);
    const stored = await store.putStream('incoming/x', Readable.from(chunks(data, 16_384)), {
      maxBytes: data.length,
      sampleBytes: 1024,
    });
    expect(stored.sizeBytes).toBe(data.length);
    expect(stored.sha256).toBe(createHash('sha256').update(data).digest('hex'));
    expect(stored.head.length).toBe(1024);
    expect(stored.head.subarray(0, 4).toString()).toBe('HEAD');
    expect(stored.tail.length).toBe(1024);
    expect(stored.tail.subarray(-4).toString()).toBe('TAIL');
    expect((await store.get('incoming/x')).equals(data)).toBe(true);
  });

  it('samples the exact last bytes when they span many small chunks', async () => {
    const data = Buffer.from(Array.from({ length: 5_000 }, (_, i) => i % 251));
    const stored = await store.putStream('incoming/y', Readable.from(chunks(data, 700)), {
      sampleBytes: 1024,
    });
    expect(stored.tail.equals(data.subarray(-1024))).toBe(true);
    expect(stored.head.equals(data.subarray(0, 1024))).toBe(true);
  });

  it('refuses a stream one byte over the limit and leaves no file behind', async () => {
    const data = Buffer.alloc(100_001, 'b');
    await expect(
      store.putStream('incoming/y', Readable.from(chunks(data, 8_192)), { maxBytes: 100_000 }),
    ).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(await readdir(join(root, 'incoming'))).toEqual([]);
  });

  it('moves a blob to another key', async () => {
    await store.put('incoming/z', 'z');
    await store.move('incoming/z', 'originals/d/z');
    expect(await store.exists('incoming/z')).toBe(false);
    expect((await store.get('originals/d/z')).toString()).toBe('z');
  });

  it('reads a blob as a stream, whole or a byte range, and states its size and time', async () => {
    const data = Buffer.from(Array.from({ length: 100_000 }, (_, i) => i % 251));
    await store.put('originals/d/big', data);
    const stat = await store.stat('originals/d/big');
    expect(stat?.sizeBytes).toBe(data.length);
    expect(stat?.modifiedAt).toBeInstanceOf(Date);
    expect((await collect(store.getStream('originals/d/big'))).equals(data)).toBe(true);
    const range = await collect(store.getStream('originals/d/big', { start: 70_000, end: 70_099 }));
    expect(range.equals(data.subarray(70_000, 70_100))).toBe(true);
    expect(await store.stat('originals/d/none')).toBeUndefined();
    await expect(collect(store.getStream('originals/d/none'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('closes the file when a stream is destroyed before its end', async () => {
    await store.put('originals/d/big', Buffer.alloc(1024 * 1024, 'q'));
    const stream = store.getStream('originals/d/big');
    await new Promise((resolve) => stream.once('open', resolve));
    expect(openFiles()).toContain(join(root, 'originals/d/big'));
    const closed = new Promise((resolve) => stream.once('close', resolve));
    stream.destroy();
    await closed;
    expect(openFiles()).not.toContain(join(root, 'originals/d/big'));
  });
});

/** What this process has open (Linux). */
function openFiles(): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      return [readlinkSync(join('/proc/self/fd', fd))];
    } catch {
      return [];
    }
  });
}

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

function* chunks(data: Buffer, size: number): Generator<Buffer> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}
