import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { WorkflowFailedError } from '@temporalio/client';
import { type CatalogRepositories, newDocumentId } from '@trove/catalog';
import type { IngestDocumentResult } from '@trove/domain';
import { DocumentStatus, ingestWorkflowId } from '@trove/domain';
import { ChunkIndex, createElasticsearchClient } from '@trove/search';
import { LocalBlobStore } from '@trove/storage';
import { ingestDocument } from '@trove/workflows';
import { LaneWorkers } from '../../../apps/worker/src/lanes';
import { createWorker } from '../../../apps/worker/src/worker';
import { FaultProxy } from '../../support/fault-proxy';
import { longMarkdown } from '../../support/markdown';
import {
  dropTestData,
  EMBEDDER_URL,
  ES_URL,
  ROOT,
  TEMPORAL_BIN,
  uniqueName,
  workerConfig,
} from '../../support/services';

const name = uniqueName('wf');
const proxy = new FaultProxy(new URL(EMBEDDER_URL));
let config: ReturnType<typeof workerConfig>;
let env: TestWorkflowEnvironment;
let bundle: WorkflowBundleWithSourceMap;
let worker: LaneWorkers;
let running: Promise<void>;
const es = createElasticsearchClient(ES_URL);
let catalog: CatalogRepositories;
let chunks: ChunkIndex;
let blobs: LocalBlobStore;
/** Ingest activities refuse documents of a missing (or deleting) project: a real project record. */
let projectId: string;

/** Stores a file and its document record the way the API's upload does. */
const documentIds = new Map<string, string>();
async function addDocument(fileName: string, content: string | Buffer, mediaType = 'text/markdown') {
  const data = Buffer.from(content);
  const documentId = documentIds.get(fileName) ?? newDocumentId();
  documentIds.set(fileName, documentId);
  const blobKey = `originals/${documentId}/${createHash('sha256').update(data).digest('hex').slice(0, 8)}`;
  await blobs.put(blobKey, data);
  const contentHash = createHash('sha256').update(data).digest('hex');
  if (await catalog.documents.getDocument(documentId)) {
    await catalog.documents.updateDocument(documentId, { blobKey, contentHash, sizeBytes: data.length });
  } else {
    await catalog.documents.createDocument({
      id: documentId,
      projectId,
      fileName,
      mediaType,
      sizeBytes: data.length,
      contentHash,
      blobKey,
    });
  }
  return documentId;
}

async function ingest(documentId: string): Promise<IngestDocumentResult> {
  return env.client.workflow.execute(ingestDocument, {
    taskQueue: config.temporal.taskQueue,
    workflowId: ingestWorkflowId(documentId),
    args: [{ documentId }],
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
  });
}

beforeAll(async () => {
  const proxyUrl = await proxy.start();
  config = workerConfig(name);
  config.embedding = { ...config.embedding, baseUrl: `${proxyUrl}/v1` };
  env = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'existing-path', path: TEMPORAL_BIN } },
  });
  bundle = await bundleWorkflowCode({
    workflowsPath: join(ROOT, 'libs/workflows/src/index.ts'),
    logger: quietLogger,
  });
  ({ worker, catalog } = await createWorker(config, {
    connection: env.nativeConnection,
    workflowBundle: bundle,
  }));
  running = worker.run();
  chunks = new ChunkIndex(es, name, 384);
  blobs = new LocalBlobStore(config.storage.blobDir);
  projectId = (await catalog.projects.createProject('Workflow tests')).id;
});

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
  await catalog?.lifecycle.close();
  await proxy.stop();
  await es.close();
  await dropTestData(name);
});

describe('ingestDocument workflow (real Temporal, Elasticsearch and embedder)', () => {
  it('ingests Markdown: READY, chunks indexed with heading paths, timings recorded, scratch blobs removed', async () => {
    const id = await addDocument('guide.md', longMarkdown('Guide', 3));
    const result = await ingest(id);
    const document = await catalog.documents.requireDocument(id);
    expect(document.status).toBe(DocumentStatus.READY);
    expect(document.chunkCount).toBe(result.chunkCount);
    expect(result.chunkCount).toBeGreaterThan(3);
    expect(await chunks.countDocumentChunks(id)).toBe(result.chunkCount);
    const stored = await chunks.getDocumentChunks(id);
    expect(stored[0].headingPath).toEqual(['Guide', 'Section 1']);
    expect(stored.map((c) => c.position)).toEqual(stored.map((_, i) => i));
    expect(document.timings.totalMs).toBeGreaterThan(0);
    expect(document.timings.embedMs).toBeGreaterThanOrEqual(0);
    expect(await blobs.exists(`work/${id}`)).toBe(false);
  });

  it('re-running is idempotent: same chunk ids, no duplicates, every embedding reused', async () => {
    const id = await addDocument('twice.md', longMarkdown('Twice', 2));
    const first = await ingest(id);
    const idsBefore = (await chunks.getDocumentChunks(id)).map((c) => c.chunkId);
    const second = await ingest(id);
    const idsAfter = (await chunks.getDocumentChunks(id)).map((c) => c.chunkId);
    expect(idsAfter).toEqual(idsBefore);
    expect(second.chunkCount).toBe(first.chunkCount);
    expect(second.reusedEmbeddings).toBe(second.chunkCount);
  });

  it('a changed file replaces its chunks and leaves none of the old version', async () => {
    const id = await addDocument('changing.md', longMarkdown('Version one', 4));
    await ingest(id);
    const old = new Set((await chunks.getDocumentChunks(id)).map((c) => c.chunkId));
    await addDocument('changing.md', '# Version two\n\nA much shorter text now.\n');
    const result = await ingest(id);
    const now = await chunks.getDocumentChunks(id);
    expect(result.chunkCount).toBe(1);
    expect(now).toHaveLength(1);
    expect(now[0].title).toBe('Version two');
    expect(old.has(now[0].chunkId)).toBe(false);
  });

  it('bad input fails fast and for good: FAILED with a readable reason, one attempt, no chunks', async () => {
    const id = await addDocument('empty.md', '');
    const error = await ingest(id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    const document = await catalog.documents.requireDocument(id);
    expect(document.status).toBe(DocumentStatus.FAILED);
    expect(document.error).toEqual({ code: 'EMPTY_DOCUMENT', message: 'empty.md is empty (0 bytes)' });
    expect(await chunks.countDocumentChunks(id)).toBe(0);
    const history = await env.client.workflow.getHandle(ingestWorkflowId(id)).fetchHistory();
    const failedAttempts = history.events!.filter((e) => e.activityTaskFailedEventAttributes).length;
    expect(failedAttempts).toBe(1);
  });

  it('undecodable bytes behind a Markdown name fail with the byte offset', async () => {
    const id = await addDocument(
      'latin1.md',
      Buffer.concat([Buffer.from('# Caf'), Buffer.from([0xe9]), Buffer.from(' au lait\n\ntext')]),
    );
    await ingest(id).catch(() => undefined);
    const document = await catalog.documents.requireDocument(id);
    expect(document.status).toBe(DocumentStatus.FAILED);
    expect(document.error?.code).toBe('UNDECODABLE_DOCUMENT');
    expect(document.error?.message).toMatch(
      /latin1\.md is not valid UTF-8 \(decoding fails at byte offset \d+\)/,
    );
  });

  it('a transient embedder fault is retried and the document completes once the server answers', async () => {
    const id = await addDocument(
      'retry.md',
      '# Retry\n\nThe embedder answers 503 three times, then recovers.\n',
    );
    proxy.failNext(3);
    const failedBefore = proxy.failed;
    const result = await ingest(id);
    expect(proxy.failed - failedBefore).toBe(3);
    expect(result.chunkCount).toBe(1);
    expect((await catalog.documents.requireDocument(id)).status).toBe(DocumentStatus.READY);
    const history = await env.client.workflow.getHandle(ingestWorkflowId(id)).fetchHistory();
    const embedStart = history.events!.find(
      (e) => e.activityTaskStartedEventAttributes && (e.activityTaskStartedEventAttributes.attempt ?? 1) > 1,
    );
    expect(embedStart?.activityTaskStartedEventAttributes?.attempt).toBe(4);
  });
});

const quietLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: (message: string) => console.error(message),
};
