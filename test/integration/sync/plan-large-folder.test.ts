import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openCatalog, type CatalogRepositories } from '@trove/catalog';
import type { SyncRun } from '@trove/domain';
import { DocumentStatus, newSyncRun, SourceStatus, SyncMode } from '@trove/domain';
import {
  FOLDER_SOURCE_TYPE,
  FolderConnector,
  FolderFormat,
  type FolderSource,
} from '@trove/connector-folder';
import { createSyncActivities, SourceConnectors, type SyncPlan } from '@trove/ingest-activities';
import { ChunkIndex, createElasticsearchClient } from '@trove/search';
import { LocalBlobStore } from '@trove/storage';
import { DATABASE_URL, dropTestData, ES_URL, schemaName, uniqueName } from '../../support/services';

// A folder source with more items than the old catalog could list (10,000): the plan's diff must
// see every one of them. Real PostgreSQL, Elasticsearch and files; the plan activity alone (no
// ingest), so the test stays fast.
const FILES = 10_500;
const name = uniqueName('plan-large');
const root = mkdtempSync(join(tmpdir(), `${name}-`));
const es = createElasticsearchClient(ES_URL);
let catalog: CatalogRepositories;
let activities: ReturnType<typeof createSyncActivities>;
let projectId: string;
let sourceId: string;

const file = (i: number) => join(root, `part-${Math.floor(i / 1000)}`, `note-${i}.md`);
const write = (i: number, text = `# Note ${i}\n\nBody of note ${i}.\n`) => writeFileSync(file(i), text);

async function plan(mode = SyncMode.FULL): Promise<{ run: SyncRun; changed: string[] }> {
  const source = await catalog.sources.requireSource(sourceId);
  const run = await catalog.runs.createRun(newSyncRun(source, mode));
  const env = new MockActivityEnvironment();
  const planned: SyncPlan = await env.run(activities.planSync, { runId: run.id });
  const changed = await activities.readPlanBatch({
    changedKey: planned.changedKey,
    offset: 0,
    limit: FILES * 2,
  });
  expect(changed).toHaveLength(planned.changedCount);
  return { run: (await catalog.runs.getRun(run.id))!, changed };
}

/** What an ingest would leave: every document READY at the version the plan saw. */
async function markAllIngested(): Promise<void> {
  const listing = await new FolderConnector({ roots: [root], cacheDir: join(root, '.cache') }, blobs()).list(
    (await catalog.sources.requireSource(sourceId)) as FolderSource,
  );
  const versions = new Map(listing.items.map((item) => [item.externalId, item.version]));
  const items = await catalog.documents.sourceItems(sourceId);
  await catalog.lifecycle.db.transaction().execute(async (tx) => {
    for (const item of items) {
      await tx
        .updateTable('documents')
        .set({ status: DocumentStatus.READY, version: versions.get(item.externalId) ?? null })
        .where('id', '=', item.id)
        .execute();
    }
  });
}

let blobStore: LocalBlobStore;
const blobs = () => blobStore;

beforeAll(async () => {
  for (let i = 0; i < FILES; i++) {
    if (i % 1000 === 0) mkdirSync(join(root, `part-${i / 1000}`), { recursive: true });
    write(i);
  }
  catalog = openCatalog({ url: DATABASE_URL, schema: schemaName(name) });
  await catalog.lifecycle.ensure();
  blobStore = new LocalBlobStore(mkdtempSync(join(tmpdir(), `${name}-blobs-`)));
  const chunkIndex = new ChunkIndex(es, name, 384);
  await chunkIndex.ensure();
  const { writeChecks, projects, sources, runs, documents } = catalog;
  activities = createSyncActivities({
    writeChecks,
    projects,
    sources,
    runs,
    documents,
    blobs: blobStore,
    chunkIndex,
    connectors: new SourceConnectors(
      [new FolderConnector({ roots: [root], cacheDir: join(root, '.cache') }, blobStore)],
      { complete: false },
    ),
  });
  projectId = (await catalog.projects.createProject(name)).id;
  sourceId = randomUUID();
  const now = new Date().toISOString();
  await catalog.sources.createSource({
    id: sourceId,
    projectId,
    type: FOLDER_SOURCE_TYPE,
    name: 'large folder',
    status: SourceStatus.ACTIVE,
    config: { format: FolderFormat.FILES, path: root },
    createdAt: now,
    updatedAt: now,
  });
}, 300_000);

afterAll(async () => {
  await catalog?.lifecycle.close();
  await es.close();
  await dropTestData(name);
  rmSync(root, { recursive: true, force: true });
});

describe(`planning a folder source of ${FILES.toLocaleString('en')} files`, () => {
  it('the first plan creates one document per file, in bulk, and reports every one as seen', async () => {
    const { run, changed } = await plan();
    expect(run.progress).toMatchObject({ pagesSeen: FILES, pagesUnchanged: 0, pagesDeleted: 0 });
    expect(new Set(changed).size).toBe(FILES);
    const count = await sql<{
      n: number;
    }>`select count(*)::int as n from documents where source_id = ${sourceId}`.execute(catalog.lifecycle.db);
    expect(count.rows[0].n).toBe(FILES);
  }, 300_000);

  it('after edits, additions and deletions beyond the 10,000th item, the diff is exact', async () => {
    await markAllIngested();
    const before = new Map(
      (await catalog.documents.sourceItems(sourceId)).map((item) => [item.externalId, item.id]),
    );
    // Changes spread over the whole listing, most of them past the first 10,000 items.
    const edited = [5, 10_001, 10_250, 10_499];
    const removed = [7, 10_002, 10_300];
    for (const i of edited) write(i, `# Note ${i}\n\nEdited body ${i}.\n`);
    for (const i of removed) rmSync(file(i));
    writeFileSync(join(root, 'part-10', 'added.md'), '# Added\n\nA new note.\n');

    const { run, changed } = await plan(SyncMode.INCREMENTAL);
    expect(run.progress).toMatchObject({
      pagesSeen: FILES - removed.length + 1,
      pagesUnchanged: FILES - removed.length - edited.length,
      pagesDeleted: removed.length,
    });
    const idOf = (i: number) => before.get(`part-${Math.floor(i / 1000)}/note-${i}.md`)!;
    const after = await catalog.documents.sourceItems(sourceId);
    const added = after.find((item) => item.externalId === 'part-10/added.md')!;
    expect(new Set(changed)).toEqual(new Set([...edited.map(idOf), added.id]));
    // Edited files keep their documents; removed files lose theirs; nothing is duplicated.
    expect(after).toHaveLength(FILES - removed.length + 1);
    const ids = new Set(after.map((item) => item.id));
    for (const i of removed) expect(ids.has(idOf(i))).toBe(false);
    for (const i of edited) expect(ids.has(idOf(i))).toBe(true);
  }, 300_000);

  it('planning again without changes re-ingests nothing', async () => {
    await markAllIngested();
    const { run, changed } = await plan();
    expect(changed).toEqual([]);
    expect(run.progress.pagesUnchanged).toBe(FILES - 3 + 1);
  }, 300_000);
});
