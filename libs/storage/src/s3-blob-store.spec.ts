import { S3Client } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { S3BlobStore } from './s3-blob-store';

interface SentRequest {
  method: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
}

/**
 * A real S3 client whose requests stop at the last step before the network: the test sees what
 * would go over the wire (method, path, headers) and answers as a server would.
 */
function capturingClient(answer: (request: SentRequest) => { status: number; body?: string } = okAnswer) {
  const sent: SentRequest[] = [];
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: 'http://s3.test',
    forcePathStyle: true,
    credentials: { accessKeyId: 'AKIATEST', secretAccessKey: 'test-secret' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  client.middlewareStack.add(
    () => async (args) => {
      const request = args.request as SentRequest;
      const captured = {
        method: request.method,
        path: request.path,
        query: request.query,
        headers: request.headers,
      };
      sent.push(captured);
      const { status, body } = answer(captured);
      // An HTTP response as the SDK's handlers produce it (HttpResponse.isInstance checks the shape).
      return {
        response: {
          statusCode: status,
          headers: { 'content-type': 'application/xml' },
          body: Readable.from([Buffer.from(body ?? '')]),
        },
        output: undefined as never,
      };
    },
    { step: 'deserialize', priority: 'low', name: 'capture' },
  );
  return { client, sent };
}

/** A 200, with the result element a copy must carry (an empty 200 to a copy is an aborted copy). */
function okAnswer(request: SentRequest): { status: number; body?: string } {
  return request.headers['x-amz-copy-source']
    ? { status: 200, body: '<CopyObjectResult><ETag>"e"</ETag></CopyObjectResult>' }
    : { status: 200 };
}

describe('S3BlobStore', () => {
  it('passes server-side encryption and a SHA-256 checksum on every write, under the key prefix', async () => {
    const { client, sent } = capturingClient();
    const store = new S3BlobStore(client, {
      bucket: 'b',
      prefix: 'trove/',
      serverSideEncryption: 'aws:kms',
      sseKmsKeyId: 'alias/trove',
    });
    await store.put('originals/d/x.pdf', 'hello');
    const put = sent.at(-1)!;
    expect(put.method).toBe('PUT');
    expect(put.path).toBe('/b/trove/originals/d/x.pdf');
    expect(put.headers['x-amz-server-side-encryption']).toBe('aws:kms');
    expect(put.headers['x-amz-server-side-encryption-aws-kms-key-id']).toBe('alias/trove');
    expect(put.headers['x-amz-checksum-sha256']).toBe(createHash('sha256').update('hello').digest('base64'));

    await store.move('incoming/u1', 'originals/d/y.pdf');
    const [copy, remove] = sent.slice(-2);
    expect(copy.headers['x-amz-copy-source']).toBe('b/trove/incoming/u1');
    expect(copy.headers['x-amz-server-side-encryption']).toBe('aws:kms');
    expect(remove.method).toBe('DELETE');
    expect(remove.path).toBe('/b/trove/incoming/u1');
  });

  it('streams a small body as one checked PUT and reports its size and hash', async () => {
    const { client, sent } = capturingClient();
    const store = new S3BlobStore(client, { bucket: 'b', serverSideEncryption: 'AES256' });
    const data = Buffer.alloc(100_000, 'z');
    const stored = await store.putStream('incoming/s', Readable.from([data]));
    expect(stored.sizeBytes).toBe(data.length);
    expect(stored.sha256).toBe(createHash('sha256').update(data).digest('hex'));
    const put = sent.at(-1)!;
    expect(put.headers['x-amz-server-side-encryption']).toBe('AES256');
    expect(put.headers['x-amz-checksum-sha256']).toBe(createHash('sha256').update(data).digest('base64'));
  });

  it('refuses a stream over its limit before anything is sent', async () => {
    const { client, sent } = capturingClient();
    const store = new S3BlobStore(client, { bucket: 'b' });
    await expect(
      store.putStream('incoming/big', Readable.from([Buffer.alloc(2000)]), { maxBytes: 1000 }),
    ).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(sent.filter((r) => r.method === 'PUT')).toEqual([]);
  });

  it('stops reading the source when the bucket refuses the upload', async () => {
    const { client } = capturingClient(() => ({
      status: 403,
      body: '<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>',
    }));
    const store = new S3BlobStore(client, { bucket: 'b', partSizeBytes: 5 * 1024 * 1024 });
    // A source that never ends on its own: only the store can stop it.
    const endless = new Readable({
      read() {
        this.push(Buffer.alloc(1024 * 1024, 1));
      },
    });
    await expect(store.putStream('incoming/denied', endless)).rejects.toMatchObject({ name: 'AccessDenied' });
    expect(endless.destroyed).toBe(true);
  });

  it('turns a missing object into ENOENT and refuses keys that escape', async () => {
    const { client } = capturingClient(() => ({
      status: 404,
      body: '<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
    }));
    const store = new S3BlobStore(client, { bucket: 'b' });
    await expect(store.get('originals/none')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await store.stat('originals/none')).toBeUndefined();
    expect(() => store.getStream('../etc/passwd')).toThrow(/invalid blob key/);
    await expect(store.put('/abs', 'x')).rejects.toThrow(/invalid blob key/);
  });
});
