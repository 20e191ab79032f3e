import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { WorkflowNotFoundError } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode } from '@temporalio/worker';
import { type CatalogRepositories, newDocumentId } from '@trove/catalog';
import type { TroveDocument } from '@trove/domain';
import { blobKeys, DocumentStatus, ingestWorkflowId, uploadsWorkflowId } from '@trove/domain';
import { ChunkIndex, createElasticsearchClient } from '@trove/search';
import { LocalBlobStore } from '@trove/storage';
import { deleteProject, ingestUploads, uploadedSignal } from '@trove/workflows';
import type { LaneWorkers } from '../../../apps/worker/src/lanes';
import { createWorker } from '../../../apps/worker/src/worker';
import { longMarkdown } from '../../support/markdown';
import {
  dropTestData,
  ES_URL,
  expectEventually,
  ROOT,
  TEMPORAL_BIN,
  uniqueName,
  workerConfig,
} from '../../support/services';

// Uploads through the real worker (real Temporal dev server, Elasticsearch, PostgreSQL and
// embedder): each upload records a PENDING document and signals the project's `ingestUploads`,
// which ingests them in batches; a large one gets its own workflow, a broken one fails alone,
// and deleting the project stops the uploads workflow first.
const name = uniqueName('uploads');
const PER_BATCH = 8;
const es = createElasticsearchClient(ES_URL);
let config: ReturnType<typeof workerConfig>;
let env: TestWorkflowEnvironment;
let worker: LaneWorkers;
let running: Promise<void>;
let catalog: CatalogRepositories;
let blobs: LocalBlobStore;
let chunks: ChunkIndex;
let projectId: string;

/** What the api's upload does: the original stored, the record PENDING, the workflow signalled. */
async function upload(fileName: string, text: string | Buffer): Promise<string> {
  const data = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const id = newDocumentId();
  const blobKey = blobKeys.upload(id, randomUUID());
  await blobs.put(blobKey, data);
  await catalog.documents.createDocument({
    id,
    projectId,
    fileName,
    mediaType: fileName.endsWith('.pdf') ? 'application/pdf' : 'text/markdown',
    sizeBytes: data.length,
    contentHash: createHash('sha256').update(data).digest('hex'),
    blobKey,
  });
  await env.client.workflow.signalWithStart(ingestUploads, {
    taskQueue: config.temporal.taskQueue,
    workflowId: uploadsWorkflowId(projectId),
    args: [{ projectId }],
    signal: uploadedSignal,
    signalArgs: [],
  });
  return id;
}

const note = (i: number) =>
  `# Upload ${i}\n\nUpload ${i} says the heron number ${i} fishes at pier ${i * 3}.\n`;

async function settled(ids: string[]): Promise<Map<string, TroveDocument>> {
  return expectEventually(
    async () => {
      const docs = await catalog.documents.getDocuments(ids);
      const waiting = docs.filter(
        (d) => d.status !== DocumentStatus.READY && d.status !== DocumentStatus.FAILED,
      );
      if (docs.length !== ids.length || waiting.length) throw new Error(`${waiting.length} still waiting`);
      return new Map(docs.map((d) => [d.id, d]));
    },
    { timeoutMs: 240_000, intervalMs: 250 },
  );
}

/** Chunks in the index per document, counted by Elasticsearch itself. */
async function indexedCounts(): Promise<Map<string, number>> {
  await chunks.refresh();
  const response = await es.search({
    index: chunks.names.chunks,
    size: 0,
    query: { term: { projectId } },
    aggs: { byDocument: { terms: { field: 'documentId', size: 1000 } } },
  });
  const buckets = (response.aggregations!.byDocument as { buckets: { key: string; doc_count: number }[] })
    .buckets;
  return new Map(buckets.map((b) => [b.key, b.doc_count]));
}

beforeAll(async () => {
  config = workerConfig(name);
  config.worker = { ...config.worker, batchDocuments: PER_BATCH, batchMaxChunks: 8 };
  env = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'existing-path', path: TEMPORAL_BIN } },
  });
  const bundle = await bundleWorkflowCode({ workflowsPath: join(ROOT, 'libs/workflows/src/index.ts') });
  ({ worker, catalog } = await createWorker(config, {
    connection: env.nativeConnection,
    workflowBundle: bundle,
  }));
  running = worker.run();
  blobs = new LocalBlobStore(config.storage.blobDir);
  chunks = new ChunkIndex(es, name, 384);
  projectId = (await catalog.projects.createProject(name)).id;
}, 300_000);

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
  await catalog?.lifecycle.close();
  await es.close();
  await dropTestData(name);
});

describe('uploads are ingested in batches by one workflow per project', () => {
  const ids: string[] = [];
  const firstIndexed = new Map<string, string | undefined>();
  let large: string;
  let broken: string;

  it('small uploads batched, a large one by its own workflow, a broken one FAILED alone', async () => {
    for (let i = 0; i < 19; i++) ids.push(await upload(`note-${i}.md`, note(i)));
    large = await upload('large.md', longMarkdown('Large upload', 12));
    broken = await upload('broken.pdf', Buffer.from('this is not a PDF, only its name says so'));
    const docs = await settled([...ids, large, broken]);

    expect(docs.get(broken)!.status).toBe(DocumentStatus.FAILED);
    expect(docs.get(broken)!.error?.message).toMatch(/pdf/i);
    expect(docs.get(large)!.status).toBe(DocumentStatus.READY);
    expect(docs.get(large)!.chunkCount).toBeGreaterThan(8);
    // The large one went through its own workflow; the small ones did not.
    await expect(env.client.workflow.getHandle(ingestWorkflowId(large)).describe()).resolves.toBeTruthy();
    await expect(env.client.workflow.getHandle(ingestWorkflowId(ids[0])).describe()).rejects.toThrow();

    const counts = await indexedCounts();
    for (const id of [...ids, large]) {
      const d = docs.get(id)!;
      expect(d.status, d.fileName).toBe(DocumentStatus.READY);
      expect(counts.get(id), d.fileName).toBe(d.chunkCount);
    }
    expect(counts.get(broken)).toBeUndefined();
    for (const id of ids) firstIndexed.set(id, docs.get(id)!.indexedAt);
    const stored = await chunks.getDocumentChunks(ids[5]);
    expect(stored[0].text).toContain('heron number 5');

    // One workflow took every upload: it waits for more rather than ending per upload.
    const { status } = await env.client.workflow.getHandle(uploadsWorkflowId(projectId)).describe();
    expect(status.name).toBe('RUNNING');
  }, 300_000);

  it('a later upload wakes the same workflow, which ingests only what is new', async () => {
    const handle = env.client.workflow.getHandle(uploadsWorkflowId(projectId));
    const before = (await handle.describe()).runId;
    const later = await upload('later.md', note(99));
    const docs = await settled([later]);
    expect(docs.get(later)!.status).toBe(DocumentStatus.READY);
    expect((await handle.describe()).runId).toBe(before);
    // Nothing settled earlier was ingested again: their indexedAt did not move.
    for (const d of await catalog.documents.getDocuments(ids))
      expect(d.indexedAt).toBe(firstIndexed.get(d.id));
    const batches = (await handle.fetchHistory()).events!.filter(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'ingestBatch',
    ).length;
    // 19 small + large + broken in batches of 8 (3, or 4 if the first upload started a pass alone), then one.
    expect(batches).toBeGreaterThanOrEqual(4);
    expect(batches).toBeLessThanOrEqual(6);
  }, 300_000);

  it('deleting the project stops the uploads workflow and removes every chunk', async () => {
    await env.client.workflow.execute(deleteProject, {
      taskQueue: config.temporal.taskQueue,
      workflowId: `delete-${projectId}`,
      args: [projectId],
    });
    expect(await catalog.projects.getProject(projectId)).toBeUndefined();
    expect((await indexedCounts()).size).toBe(0);
    // Closed by the deletion, then its execution deleted from Temporal (asynchronously) with the project.
    await expectEventually(
      async () => {
        const described = await env.client.workflow
          .getHandle(uploadsWorkflowId(projectId))
          .describe()
          .catch((error: Error) => error);
        if (!(described instanceof WorkflowNotFoundError))
          throw new Error(`the uploads workflow is still there: ${JSON.stringify(described)}`);
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
  }, 300_000);
});
