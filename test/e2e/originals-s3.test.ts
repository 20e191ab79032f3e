import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '@trove/storage';
import { createBucket, deleteBucket, ensureSeaweedfs, s3Client, s3Env } from '../support/object-store';
import { expectEventually, uniqueName } from '../support/services';
import { BLOB_CANARY_FILE, TroveStack } from '../support/stack';

/**
 * One install whose api and worker keep every blob in a bucket of a real S3-compatible server
 * (SeaweedFS): an upload is stored there and ingested from there, its signed original link is
 * streamed from there, and deleting the project removes its objects. The stack also checks that
 * the access keys never reach a log or a response (they are canaries).
 */
const bucket = uniqueName('originals');
let stack: TroveStack;
let objects: S3BlobStore;
let projectId: string;
let documentId: string;

const TEXT = Buffer.from(
  `# Storage handbook\n\nOriginals live in object storage, and the worker reads them from the bucket.\n\n${'Filler sentence about archives and buckets. '.repeat(400)}\n`,
);

async function keys(prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for await (const blob of objects.list(prefix)) found.push(blob.key);
  return found;
}

beforeAll(async () => {
  await ensureSeaweedfs();
  await createBucket(bucket);
  objects = new S3BlobStore(s3Client(), { bucket });
  stack = new TroveStack(s3Env(bucket));
  await stack.start();
  projectId = await stack.createProject('Originals in a bucket');
}, 300_000);
afterAll(async () => {
  await stack?.stop();
  await deleteBucket(bucket);
});

describe('originals in object storage (TROVE_BLOB_STORE=s3)', () => {
  it('stores an upload in the bucket and ingests it from there to READY', async () => {
    const upload = await stack.upload(projectId, 'handbook.md', TEXT);
    expect(upload.status).toBe(202);
    documentId = upload.body.id as string;
    expect((await stack.settled(documentId)).status).toBe('READY');
    const stored = await keys(`originals/${documentId}/`);
    expect(stored).toHaveLength(1);
    // Nothing but the stack's canary in the blob folder: every blob went to the bucket.
    expect(readdirSync(stack.blobDir)).toEqual([BLOB_CANARY_FILE]);
    const hits = await stack.query<{ search: { hits: { documentId: string }[] } }>(
      'query($input: SearchInput!) { search(input: $input) { hits { documentId } } }',
      { input: { projectId, query: 'originals object storage bucket', mode: 'KEYWORD', limit: 5 } },
    );
    expect(hits.search.hits.map((h) => h.documentId)).toContain(documentId);
  });

  it('streams the original from the bucket through the signed link, whole and as a range', async () => {
    const { document } = await stack.query<{ document: { url: string } }>(
      'query($id: ID!) { document(id: $id) { url } }',
      { id: documentId },
    );
    const whole = await fetch(document.url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe(String(TEXT.length));
    const body = Buffer.from(await whole.arrayBuffer());
    expect(createHash('sha256').update(body).digest('hex')).toBe(
      createHash('sha256').update(TEXT).digest('hex'),
    );

    const part = await fetch(document.url, { headers: { Range: 'bytes=2-17' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 2-17/${TEXT.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(TEXT.subarray(2, 18))).toBe(true);
  });

  it('removes the project’s objects from the bucket when the project is deleted', async () => {
    expect((await keys()).some((key) => key.includes(documentId))).toBe(true);
    const deleted = await stack.query<{ deleteProject: boolean }>(
      'mutation($id: ID!) { deleteProject(id: $id) }',
      {
        id: projectId,
      },
    );
    expect(deleted.deleteProject).toBe(true);
    await expectEventually(
      async () => {
        const left = (await keys()).filter((key) => key.includes(documentId));
        expect(left).toEqual([]);
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
  });
});
