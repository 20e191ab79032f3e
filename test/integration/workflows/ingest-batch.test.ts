import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { sql } from 'kysely';
import { Catalog } from '@trove/catalog';
import type { SyncRun, TroveDocument } from '@trove/domain';
import {
  DocumentStatus,
  FolderFormat,
  ingestWorkflowId,
  newSyncRun,
  SourceStatus,
  SourceType,
  SyncMode,
  syncWorkflowId,
} from '@trove/domain';
import { ChunkIndex, createElasticsearchClient } from '@trove/search';
import { syncSource } from '@trove/workflows';
import type { LaneWorkers } from '../../../apps/worker/src/lanes';
import { createWorker } from '../../../apps/worker/src/worker';
import { longMarkdown } from '../../support/markdown';
import { dropTestData, ES_URL, ROOT, TEMPORAL_BIN, uniqueName, workerConfig } from '../../support/services';

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
let catalog: Catalog;
let chunks: ChunkIndex;
let sourceId: string;

const small = (i: number, body = `Note ${i} says the walrus number ${i} sleeps on ice floe ${i * 7}.`) =>
  writeFileSync(join(root, `note-${String(i).padStart(3, '0')}.md`), `# Note ${i}\n\n${body}\n`);

async function sync(mode = SyncMode.FULL): Promise<SyncRun> {
  const source = await catalog.requireSource(sourceId);
  const run = await catalog.createRun(newSyncRun(source, mode));
  return env.client.workflow.execute(syncSource, {
    taskQueue: config.temporal.taskQueue,
    workflowId: syncWorkflowId(sourceId),
    args: [{ runId: run.id }],
  });
}

async function documents(): Promise<Map<string, TroveDocument>> {
  const page = await catalog.pageDocuments(
    (await catalog.requireSource(sourceId)).projectId,
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
  ({ worker, catalog } = await createWorker(config, {
    connection: env.nativeConnection,
    workflowBundle: bundle,
  }));
  running = worker.run();
  chunks = new ChunkIndex(es, name, 384);
  const projectId = (await catalog.createProject(name)).id;
  sourceId = randomUUID();
  const now = new Date().toISOString();
  await catalog.createSource({
    id: sourceId,
    projectId,
    type: SourceType.FOLDER,
    name: 'batched folder',
    status: SourceStatus.ACTIVE,
    folder: { format: FolderFormat.FILES, path: root },
    createdAt: now,
    updatedAt: now,
  });
}, 300_000);

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
  await catalog?.close();
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
    const stored = await chunks.getDocumentChunks(anySmall.id);
    expect(stored[0].text).toContain('walrus number 0');
    expect(stored[0].citation).toMatchObject({ documentId: anySmall.id });
  }, 300_000);

  it('an edit replaces the old chunks; a forced re-run keeps the same chunk ids and reuses every embedding', async () => {
    small(3, 'Note 3 now says the narwhal counts icebergs.');
    const edited = await sync(SyncMode.INCREMENTAL);
    expect(edited.status).toBe('COMPLETED');
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
    await sql`update documents set version = null where source_id = ${sourceId}`.execute(catalog.db);
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
