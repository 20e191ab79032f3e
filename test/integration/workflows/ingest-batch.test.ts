import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/activity';
import { MockActivityEnvironment, TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { sql } from 'kysely';
import type { CatalogRepositories, DocumentRepository } from '@trove/catalog';
import type { SyncRun, TroveDocument } from '@trove/domain';
import {
  DocumentStatus,
  ingestWorkflowId,
  newSyncRun,
  SourceStatus,
  SyncMode,
  syncWorkflowId,
  TroveErrorCode,
} from '@trove/domain';
import {
  type BatchResult,
  createIngestActivities,
  createIngestBatchActivities,
  type IngestDependencies,
  PAGE_LEASE_HOLDER,
  PAGE_LEASE_MS,
} from '@trove/ingest-activities';
import { ChunkIndex, createElasticsearchClient } from '@trove/search';
import { ingestDocument, syncSource } from '@trove/workflows';
import { FOLDER_SOURCE_TYPE, FolderFormat } from '@trove/connector-folder';
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

// A folder sync through the real worker (real Temporal dev server, Elasticsearch, PostgreSQL and
// embedder) with small documents batched: every document's outcome is its own, a large one
// leaves its batch for its own workflow, and re-running never duplicates or loses a chunk.
const name = uniqueName('batch');
const root = mkdtempSync(join(tmpdir(), `${name}-`));
const SMALL = 37;
const PER_BATCH = 8;
const es = createElasticsearchClient(ES_URL);
let config: ReturnType<typeof workerConfig>;
let env: TestWorkflowEnvironment;
let bundle: WorkflowBundleWithSourceMap;
let worker: LaneWorkers;
let running: Promise<void>;
let catalog: CatalogRepositories;
let ingestDeps: IngestDependencies;
let chunks: ChunkIndex;
let sourceId: string;

const small = (i: number, body = `Note ${i} says the walrus number ${i} sleeps on ice floe ${i * 7}.`) =>
  writeFileSync(join(root, `note-${String(i).padStart(3, '0')}.md`), `# Note ${i}\n\n${body}\n`);

async function sync(mode = SyncMode.FULL): Promise<SyncRun> {
  const source = await catalog.sources.requireSource(sourceId);
  const run = await catalog.runs.createRun(newSyncRun(source, mode));
  return env.client.workflow.execute(syncSource, {
    taskQueue: config.temporal.taskQueue,
    workflowId: syncWorkflowId(sourceId),
    args: [{ runId: run.id }],
  });
}

async function documents(): Promise<Map<string, TroveDocument>> {
  const page = await catalog.documents.pageDocuments(
    (await catalog.sources.requireSource(sourceId)).projectId,
    { sourceId },
    { first: 500 },
  );
  return new Map(page.items.map((d) => [d.fileName, d]));
}

/** Chunks in the index per document, counted by Elasticsearch itself. */
async function indexedCounts(): Promise<Map<string, number>> {
  await chunks.refresh();
  const response = await es.search({
    index: chunks.names.chunks,
    size: 0,
    aggs: { byDocument: { terms: { field: 'documentId', size: 1000 } } },
  });
  const buckets = (response.aggregations!.byDocument as { buckets: { key: string; doc_count: number }[] })
    .buckets;
  return new Map(buckets.map((b) => [b.key, b.doc_count]));
}

/** The documents of the test's schema that have an ingest lease, with its holder. */
async function leases(): Promise<Record<string, string>> {
  const { rows } = await sql<{ id: string; ingest_holder: string }>`
    select id, ingest_holder from documents where ingest_holder is not null`.execute(catalog.lifecycle.db);
  return Object.fromEntries(rows.map((row) => [row.id, row.ingest_holder]));
}

async function textOf(documentId: string): Promise<string> {
  return (await chunks.getDocumentChunks(documentId)).map((c) => c.text).join(' ');
}

/** Waits until the document's own workflow waits in fetchDocument for `holder`'s lease (its heartbeat says so). */
async function fetchWaitingFor(documentId: string, holder: string): Promise<void> {
  await expectEventually(async () => {
    const { raw } = await env.client.workflow.getHandle(ingestWorkflowId(documentId)).describe();
    const fetch = raw.pendingActivities?.find((a) => a.activityType?.name === 'fetchDocument');
    const details = fetch?.heartbeatDetails?.payloads?.[0]?.data;
    if (!details || JSON.parse(Buffer.from(details).toString('utf8')).waitingFor !== holder)
      throw new Error('fetchDocument is not waiting for the lease');
  });
}

const silent = () => undefined;
const quiet = { log: silent, trace: silent, debug: silent, info: silent, warn: silent, error: silent };

beforeAll(async () => {
  for (let i = 0; i < SMALL; i++) small(i);
  // Many chunks: more than a batch takes (TROVE_SYNC_BATCH_MAX_CHUNKS), so it gets its own workflow.
  writeFileSync(join(root, 'large.md'), longMarkdown('Large', 12));
  // Few chunks but more bytes than a batch fetches (TROVE_SYNC_BATCH_MAX_BYTES): its own workflow too.
  writeFileSync(join(root, 'wide.md'), `# Wide\n\n${'A wide note about tides. '.repeat(80)}\n`);
  // Not a PDF at all: fails itself with a readable reason, never its batch-mates.
  writeFileSync(join(root, 'broken.pdf'), Buffer.from('this is not a PDF, only its name says so'));
  config = workerConfig(name);
  config.worker = { ...config.worker, batchDocuments: PER_BATCH, batchMaxChunks: 8, batchMaxBytes: 1_500 };
  env = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'existing-path', path: TEMPORAL_BIN } },
  });
  bundle = await bundleWorkflowCode({ workflowsPath: join(ROOT, 'libs/workflows/src/index.ts') });
  ({ worker, catalog, ingestDeps } = await createWorker(config, {
    connection: env.nativeConnection,
    workflowBundle: bundle,
  }));
  running = worker.run();
  chunks = new ChunkIndex(es, name, 384);
  const projectId = (await catalog.projects.createProject(name)).id;
  sourceId = randomUUID();
  const now = new Date().toISOString();
  await catalog.sources.createSource({
    id: sourceId,
    projectId,
    type: FOLDER_SOURCE_TYPE,
    name: 'batched folder',
    status: SourceStatus.ACTIVE,
    config: { format: FolderFormat.FILES, path: root },
    createdAt: now,
    updatedAt: now,
  });
}, 300_000);

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
  await catalog?.lifecycle.close();
  await es.close();
  await dropTestData(name);
  rmSync(root, { recursive: true, force: true });
});

describe('a sync ingests small documents in batches', () => {
  it('every document ends on its own: small ones READY, the broken one FAILED with its reason, the large one READY by itself', async () => {
    const run = await sync();
    expect(run.status).toBe('COMPLETED');
    expect(run.progress).toMatchObject({ pagesIngested: SMALL + 2, pagesFailed: 1 });
    const docs = await documents();
    expect(docs.size).toBe(SMALL + 3);
    const broken = docs.get('broken.pdf')!;
    expect(broken.status).toBe(DocumentStatus.FAILED);
    expect(broken.error?.message).toMatch(/pdf/i);
    const large = docs.get('large.md')!;
    expect(large.status).toBe(DocumentStatus.READY);
    expect(large.chunkCount).toBeGreaterThan(8);
    // The large one went through its own workflow; the small ones did not.
    await expect(env.client.workflow.getHandle(ingestWorkflowId(large.id)).describe()).resolves.toBeTruthy();
    const wide = docs.get('wide.md')!;
    expect(wide.status).toBe(DocumentStatus.READY);
    expect(wide.chunkCount).toBeLessThanOrEqual(8);
    await expect(env.client.workflow.getHandle(ingestWorkflowId(wide.id)).describe()).resolves.toBeTruthy();
    const anySmall = docs.get('note-000.md')!;
    await expect(env.client.workflow.getHandle(ingestWorkflowId(anySmall.id)).describe()).rejects.toThrow();

    const counts = await indexedCounts();
    for (const [fileName, document] of docs) {
      if (fileName === 'broken.pdf') {
        expect(counts.get(document.id)).toBeUndefined();
        continue;
      }
      expect(document.status, fileName).toBe(DocumentStatus.READY);
      expect(document.chunkCount, fileName).toBeGreaterThan(0);
      expect(counts.get(document.id), fileName).toBe(document.chunkCount);
      expect(document.timings.totalMs, fileName).toBeGreaterThan(0);
      expect(document.indexedAt, fileName).toBeTruthy();
    }
    // What the batch fetched is recorded with the outcome: the original, its size and version.
    expect(anySmall).toMatchObject({
      sizeBytes: 64,
      version: expect.any(String),
      blobKey: expect.stringMatching(/^originals\//),
    });
    const stored = await chunks.getDocumentChunks(anySmall.id);
    expect(stored[0].text).toContain('walrus number 0');
    expect(stored[0].citation).toMatchObject({ documentId: anySmall.id });
  }, 300_000);

  it('an edit replaces the old chunks; a forced re-run keeps the same chunk ids and reuses every embedding', async () => {
    small(3, 'Note 3 now says the narwhal counts icebergs.');
    const edited = await sync(SyncMode.INCREMENTAL);
    expect(edited.status).toBe('COMPLETED');
    // Only the edit is ingested (and the FAILED one retried): every batched page kept its version.
    expect(edited.progress).toMatchObject({ pagesIngested: 1, pagesFailed: 1, pagesUnchanged: SMALL + 1 });
    let docs = await documents();
    const note3 = docs.get('note-003.md')!;
    const texts = (await chunks.getDocumentChunks(note3.id)).map((c) => c.text).join(' ');
    expect(texts).toContain('narwhal');
    expect(texts).not.toContain('walrus');

    const idsBefore = new Map<string, string[]>();
    for (const d of docs.values())
      idsBefore.set(
        d.id,
        (await chunks.getDocumentChunks(d.id)).map((c) => c.chunkId),
      );
    // Forget every version: the next sync re-ingests every document, as a retried batch would.
    await sql`update documents set version = null where source_id = ${sourceId}`.execute(
      catalog.lifecycle.db,
    );
    const again = await sync(SyncMode.FULL);
    expect(again.status).toBe('COMPLETED');
    expect(again.progress.chunksEmbedded).toBe(0);
    docs = await documents();
    const counts = await indexedCounts();
    for (const d of docs.values()) {
      expect(
        (await chunks.getDocumentChunks(d.id)).map((c) => c.chunkId),
        d.fileName,
      ).toEqual(idsBefore.get(d.id));
      if (d.status === DocumentStatus.READY) expect(counts.get(d.id), d.fileName).toBe(d.chunkCount);
    }
  }, 300_000);
});

describe('a batch and a per-document ingest never write one document at the same time', () => {
  const OTHER_BATCH = 'batch:another-sync/run/1';

  it('an ingest of a page a batch holds waits for it; the sync hands that page back and counts it busy; the newest text wins', async () => {
    small(5, 'Note 5 now says the penguin guards the egg.');
    small(6, 'Note 6 now says the seal naps on the rocks.');
    let docs = await documents();
    const note5 = docs.get('note-005.md')!;
    const note6 = docs.get('note-006.md')!;
    // Another batch holds note 5 while a per-document ingest of it (a webhook edit) starts.
    expect((await catalog.documents.claimDocuments([note5.id], OTHER_BATCH, 600_000)).claimed).toEqual([
      note5.id,
    ]);
    const alone = await env.client.workflow.start(ingestDocument, {
      taskQueue: config.temporal.taskQueue,
      workflowId: ingestWorkflowId(note5.id),
      args: [{ documentId: note5.id }],
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    });
    await fetchWaitingFor(note5.id, OTHER_BATCH);

    const run = await sync(SyncMode.INCREMENTAL);
    expect(run.status).toBe('COMPLETED');
    // Note 6 was ingested by its batch; note 5 was handed back, and its own ingest, still waiting,
    // kept it (busy: not counted). The broken PDF is retried by every run, and fails again.
    expect(run.progress).toMatchObject({ pagesIngested: 1, pagesFailed: 1 });
    docs = await documents();
    expect(docs.get('note-006.md')!.status).toBe(DocumentStatus.READY);
    expect(await textOf(note6.id)).toContain('seal');
    expect(await textOf(note5.id)).toContain('walrus');
    expect(await leases()).toEqual({ [note5.id]: OTHER_BATCH });

    await catalog.documents.releaseDocuments([note5.id], OTHER_BATCH);
    await alone.result();
    expect((await catalog.documents.requireDocument(note5.id)).status).toBe(DocumentStatus.READY);
    const text = await textOf(note5.id);
    expect(text).toContain('penguin');
    expect(text).not.toContain('walrus');
    expect(await leases()).toEqual({});
  }, 300_000);

  it("a per-document ingest's lease left behind (its worker died) is taken over by the workflow the sync starts", async () => {
    small(7, 'Note 7 now says the orca hunts in pods.');
    const note7 = (await documents()).get('note-007.md')!;
    await catalog.documents.claimDocuments([note7.id], PAGE_LEASE_HOLDER, PAGE_LEASE_MS);

    const run = await sync(SyncMode.INCREMENTAL);

    expect(run.status).toBe('COMPLETED');
    expect(run.progress).toMatchObject({ pagesIngested: 1, pagesFailed: 1 }); // the broken PDF again
    await expect(env.client.workflow.getHandle(ingestWorkflowId(note7.id)).describe()).resolves.toBeTruthy();
    expect((await catalog.documents.requireDocument(note7.id)).status).toBe(DocumentStatus.READY);
    expect(await textOf(note7.id)).toContain('orca');
    expect(await leases()).toEqual({});
  }, 300_000);

  it('fetchDocument of a page a batch holds fails with the retryable DOCUMENT_BUSY, then fetches once released; failDocument releases it', async () => {
    const note8 = (await documents()).get('note-008.md')!;
    const activities = createIngestActivities({ ...ingestDeps, busyWaitMs: 0 });
    await catalog.documents.claimDocuments([note8.id], OTHER_BATCH, 600_000);

    const failure = await new MockActivityEnvironment(undefined, { logger: quiet })
      .run(activities.fetchDocument, { documentId: note8.id })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: TroveErrorCode.DocumentBusy, nonRetryable: false });
    expect((await catalog.documents.requireDocument(note8.id)).status).toBe(DocumentStatus.READY);

    await catalog.documents.releaseDocuments([note8.id], OTHER_BATCH);
    await new MockActivityEnvironment().run(activities.fetchDocument, { documentId: note8.id });
    expect(await leases()).toEqual({ [note8.id]: PAGE_LEASE_HOLDER });
    await new MockActivityEnvironment().run(activities.failDocument, {
      documentId: note8.id,
      code: TroveErrorCode.ParseFailed,
      message: 'given up on purpose',
    });
    expect(await leases()).toEqual({});
  }, 120_000);

  it('a batch hands back a page a per-document ingest holds, ingests the rest, and releases its leases even when it fails', async () => {
    const docs = await documents();
    const [held, free] = [docs.get('note-009.md')!, docs.get('note-010.md')!];
    const batches = createIngestBatchActivities(ingestDeps);
    await catalog.documents.claimDocuments([held.id], PAGE_LEASE_HOLDER, PAGE_LEASE_MS);

    const result: BatchResult = await new MockActivityEnvironment().run(batches.ingestBatch, {
      documentIds: [held.id, free.id],
    });
    expect(result).toMatchObject({ handedBack: [held.id], failed: [] });
    expect(result.ready.map((r) => r.documentId)).toEqual([free.id]);
    expect(await leases()).toEqual({ [held.id]: PAGE_LEASE_HOLDER });
    await catalog.documents.releaseDocuments([held.id], PAGE_LEASE_HOLDER);

    // Cancelled (its sync is being deleted) once it holds its pages: it throws, and lets them go.
    const cancelled = new MockActivityEnvironment(undefined, { logger: quiet });
    const claimed: string[][] = [];
    const claim = catalog.documents.claimDocuments.bind(catalog.documents);
    const spy = Object.assign(Object.create(catalog.documents) as DocumentRepository, {
      claimDocuments: async (...args: Parameters<DocumentRepository['claimDocuments']>) => {
        const got = await claim(...args);
        claimed.push([...got.claimed].sort());
        cancelled.cancel();
        return got;
      },
    });
    const failing = createIngestBatchActivities({ ...ingestDeps, documents: spy });
    const error = await cancelled
      .run(failing.ingestBatch, { documentIds: [held.id, free.id] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(claimed).toEqual([[held.id, free.id].sort()]);
    expect(await leases()).toEqual({});
  }, 120_000);
});
