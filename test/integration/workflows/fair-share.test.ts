import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode } from '@temporalio/worker';
import { type CatalogRepositories, newDocumentId } from '@trove/catalog';
import type { TroveDocument } from '@trove/domain';
import { blobKeys, DocumentStatus, ingestPriority, uploadsWorkflowId } from '@trove/domain';
import { LocalBlobStore } from '@trove/storage';
import { ingestUploads, uploadedSignal } from '@trove/workflows';
import { EmbedderStub } from '../../../apps/embedder-stub/src/embedder-stub';
import type { LaneWorkers } from '../../../apps/worker/src/lanes';
import { createWorker } from '../../../apps/worker/src/worker';
import {
  dropTestData,
  expectEventually,
  ROOT,
  TEMPORAL_BIN,
  uniqueName,
  workerConfig,
} from '../../support/services';
import { devServerFlags } from '../../support/temporal-settings';
import { quietLogger } from './workflow-history';

// Two projects' uploads through the real worker, on a Temporal dev server of its own started with
// Trove's settings (infra/temporal/dynamic-config.yaml: task queue fairness on), as infra/local
// starts the local one. The bulk lane has one slot and each upload pass keeps 8 batches in
// flight, so project A's import queues 7 batches behind the running one; project B's small import
// is uploaded once they are queued. Each project's uploads carry the project as their fairness
// key (as the api starts them), so B's batch is dispatched at the next free slot, ahead of A's
// queued ones — first come, first served, it would wait for all of them. The embedder is a stub
// of the test's own (the order of dispatch is what is tested, not the model; the shared embedder
// may be busy with other suites).
const name = uniqueName('fair-share');
const A_DOCUMENTS = 16;
const B_DOCUMENTS = 2;
const PER_BATCH = 2;
let config: ReturnType<typeof workerConfig>;
let env: TestWorkflowEnvironment;
let worker: LaneWorkers;
let running: Promise<void>;
let catalog: CatalogRepositories;
let blobs: LocalBlobStore;
const embedder = new EmbedderStub({ dimensions: 384, model: 'multilingual-e5-small-q4' });

/** What the api's uploads do: originals stored, records PENDING, the project's workflow woken once. */
async function upload(projectId: string, label: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const data = Buffer.from(
      `# ${label} ${i}\n\nNote ${i} of ${label}: the lighthouse keeper logs tide ${i}.\n`,
    );
    const id = newDocumentId();
    const blobKey = blobKeys.upload(id, randomUUID());
    await blobs.put(blobKey, data);
    await catalog.documents.createDocument({
      id,
      projectId,
      fileName: `${label}-${i}.md`,
      mediaType: 'text/markdown',
      sizeBytes: data.length,
      contentHash: createHash('sha256').update(data).digest('hex'),
      blobKey,
    });
    ids.push(id);
  }
  await env.client.workflow.signalWithStart(ingestUploads, {
    taskQueue: config.temporal.taskQueue,
    workflowId: uploadsWorkflowId(projectId),
    args: [{ projectId }],
    signal: uploadedSignal,
    signalArgs: [],
    priority: ingestPriority(projectId),
  });
  return ids;
}

async function allReady(ids: string[]): Promise<TroveDocument[]> {
  return expectEventually(
    async () => {
      const docs = await catalog.documents.getDocuments(ids);
      const waiting = docs.filter((d) => d.status !== DocumentStatus.READY);
      if (docs.length !== ids.length || waiting.length)
        throw new Error(`${waiting.length} of ${ids.length} not READY (${waiting[0]?.status})`);
      return docs;
    },
    { timeoutMs: 240_000, intervalMs: 200 },
  );
}

/** Batch activities the project's upload workflow has scheduled so far. */
async function batchesScheduled(projectId: string): Promise<number> {
  const history = await env.client.workflow.getHandle(uploadsWorkflowId(projectId)).fetchHistory();
  return (history.events ?? []).filter(
    (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'ingestBatch',
  ).length;
}

beforeAll(async () => {
  config = workerConfig(name);
  config.embedding = { ...config.embedding, baseUrl: await embedder.start() };
  config.worker = {
    ...config.worker,
    maxConcurrentActivities: 1,
    syncConcurrency: 8,
    batchDocuments: PER_BATCH,
  };
  env = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'existing-path', path: TEMPORAL_BIN }, extraArgs: devServerFlags() },
  });
  const bundle = await bundleWorkflowCode({
    workflowsPath: join(ROOT, 'libs/workflows/src/index.ts'),
    logger: quietLogger,
  });
  ({ worker, catalog } = await createWorker(config, {
    connection: env.nativeConnection,
    workflowBundle: bundle,
  }));
  running = worker.run();
  blobs = new LocalBlobStore(config.storage.blobDir);
}, 300_000);

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
  await catalog?.lifecycle.close();
  await embedder.stop();
  await dropTestData(name);
});

describe("projects take turns in the bulk lane (Temporal's task queue fairness)", () => {
  it("a small import queued behind another project's backlog is READY while most of that backlog still waits", async () => {
    const a = (await catalog.projects.createProject(`${name} A`)).id;
    const b = (await catalog.projects.createProject(`${name} B`)).id;
    const aIds = await upload(a, 'a', A_DOCUMENTS);
    // A's whole window is scheduled: one batch in the lane's only slot, the rest in its backlog.
    await expectEventually(
      async () => {
        const scheduled = await batchesScheduled(a);
        if (scheduled < A_DOCUMENTS / PER_BATCH) throw new Error(`${scheduled} batches of A scheduled`);
      },
      { timeoutMs: 120_000, intervalMs: 100 },
    );
    const bIds = await upload(b, 'b', B_DOCUMENTS);

    const bDocs = await allReady(bIds);
    const aDocs = await allReady(aIds);
    // Order by the worker's own clock (each document's indexedAt), not by when this test looked.
    const bDone = Math.max(...bDocs.map((d) => Date.parse(d.indexedAt!)));
    const aAfterB = aDocs.filter((d) => Date.parse(d.indexedAt!) > bDone).length;
    // With turns, B's batch runs after one or two of A's 8; first come, first served, after all 8.
    expect(
      aAfterB,
      `${aAfterB} of A's ${A_DOCUMENTS} documents turned READY after B's import`,
    ).toBeGreaterThanOrEqual(A_DOCUMENTS / 2);
  }, 300_000);
});
