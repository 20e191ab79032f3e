import { ApplicationFailure } from '@temporalio/activity';
import type { Source, SyncRun } from '@trove/domain';
import {
  blobKeys,
  DocumentStatus,
  SourceStatus,
  sourceItemGone,
  sourceUnauthorized,
  SyncMode,
  SyncRunStatus,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { describe, expect, it } from 'vitest';
import {
  discovery,
  FAKE_PLACEHOLDER_MEDIA_TYPE,
  FakeConnector,
  InMemoryBlobStore,
  InMemoryCatalog,
  RecordingChunkIndex,
  runActivity,
} from './fakes.testing';
import { SourceConnectors } from './source-connectors';
import type { PlanLimits } from './source-limits';
import { createSyncActivities } from './sync.activities';
import type { SyncTally } from './sync-runs.activities';

/** The sync activities over in-memory fakes, with one source and the fake connector for it. */
function setup(options: { concurrency?: number; source?: Partial<Source>; limits?: PlanLimits } = {}) {
  const catalog = new InMemoryCatalog();
  const blobs = new InMemoryBlobStore();
  const chunkIndex = new RecordingChunkIndex();
  const connector = new FakeConnector();
  const source = catalog.newSource(options.source as never);
  const activities = createSyncActivities({
    ...catalog.ports(),
    blobs,
    chunkIndex: chunkIndex,
    connectors: new SourceConnectors([connector], { complete: false }),
    units: { concurrency: options.concurrency },
    ...(options.limits ? { limits: options.limits } : {}),
  });
  const call = runActivity;
  const plan = (run: SyncRun) => call(activities.planSync, { runId: run.id });
  /** The document id of each external id of the source. */
  const idOf = (externalId: string) =>
    catalog.itemsOf(source.id).find((d) => d.externalId === externalId)?.id;
  return { catalog, blobs, chunkIndex, connector, source, activities, call, plan, idOf };
}

/** A document with an original and scratch blobs, as an ingested item has. */
async function storedItem(
  ctx: ReturnType<typeof setup>,
  externalId: string,
  changes: Parameters<InMemoryCatalog['newItem']>[2] = {},
) {
  const document = ctx.catalog.newItem(ctx.source, externalId, { version: 'v1', ...changes });
  await ctx.blobs.put(blobKeys.original(document.id, 'a'.repeat(64)), 'original');
  await ctx.blobs.put(blobKeys.parsed(blobKeys.workVersion(document.id, 'a'.repeat(64))), '{}');
  return document;
}

function emptyTally(changes: Partial<SyncTally> = {}): SyncTally {
  return {
    ready: 0,
    chunksEmbedded: 0,
    chunksReused: 0,
    busy: 0,
    failedCount: 0,
    failed: [],
    gone: [],
    ...changes,
  };
}

describe('planSync: one diff against the catalog, whatever the source', () => {
  it('creates placeholder records for new items and lists their ids in discovery order', async () => {
    const ctx = setup();
    ctx.connector.discovery = discovery(['c@1', 'a@1', 'b@1'], { requests: 7 });
    const run = ctx.catalog.newRun(ctx.source, SyncMode.FULL);

    const plan = await ctx.plan(run);

    const documents = ctx.catalog.itemsOf(ctx.source.id);
    expect(documents).toHaveLength(3);
    for (const document of documents) {
      expect(document).toMatchObject({
        status: DocumentStatus.PENDING,
        fileName: `fake:${document.externalId}`,
        mediaType: FAKE_PLACEHOLDER_MEDIA_TYPE,
      });
    }
    expect(plan.changedCount).toBe(3);
    expect(plan.changedKey).toBe(blobKeys.syncPlan(run.id));
    expect(await ctx.blobs.getJson(plan.changedKey)).toEqual([ctx.idOf('c'), ctx.idOf('a'), ctx.idOf('b')]);
    expect(ctx.catalog.runs.get(run.id)!.progress).toMatchObject({
      pagesSeen: 3,
      pagesUnchanged: 0,
      pagesDeleted: 0,
      pagesSkipped: 0,
      apiCalls: 7,
    });
  });

  it('skips items whose READY document has the same version; re-plans changed versions and documents not READY', async () => {
    const ctx = setup();
    const same = await storedItem(ctx, 'same');
    const edited = await storedItem(ctx, 'edited');
    const failed = await storedItem(ctx, 'failed', { status: DocumentStatus.FAILED });
    const pending = await storedItem(ctx, 'pending', { status: DocumentStatus.PENDING });
    ctx.connector.discovery = discovery(['new@v1', 'same@v1', 'edited@v2', 'failed@v1', 'pending@v1']);
    const run = ctx.catalog.newRun(ctx.source, SyncMode.FULL);

    const plan = await ctx.plan(run);

    expect(await ctx.blobs.getJson(plan.changedKey)).toEqual([
      ctx.idOf('new'),
      edited.id,
      failed.id,
      pending.id,
    ]);
    expect(plan.changedCount).toBe(4);
    expect(ctx.catalog.documents.get(same.id)).toEqual(same); // untouched
    expect(ctx.catalog.runs.get(run.id)!.progress).toMatchObject({ pagesSeen: 5, pagesUnchanged: 1 });
    // The known items were handed to the connector (incremental discovery scopes with them).
    expect([...ctx.connector.discoverCalls[0].known].sort()).toEqual(['edited', 'failed', 'pending', 'same']);
  });

  it('removes the documents of items missing from a complete discovery: chunks, records and stored files', async () => {
    const ctx = setup();
    const kept = await storedItem(ctx, 'kept');
    const gone = await storedItem(ctx, 'gone');
    ctx.connector.discovery = discovery(['kept@v1'], { complete: true });
    const run = ctx.catalog.newRun(ctx.source, SyncMode.FULL);

    const plan = await ctx.plan(run);

    expect(plan.changedCount).toBe(0);
    expect(ctx.catalog.documents.has(gone.id)).toBe(false);
    expect(ctx.chunkIndex.deleted()).toEqual([gone.id]);
    expect(ctx.blobs.keys(blobKeys.originals(gone.id))).toEqual([]);
    expect(ctx.blobs.keys(blobKeys.work(gone.id))).toEqual([]);
    expect(ctx.catalog.documents.has(kept.id)).toBe(true);
    expect(ctx.blobs.keys(blobKeys.originals(kept.id))).toHaveLength(1);
    expect(ctx.catalog.runs.get(run.id)!.progress).toMatchObject({ pagesDeleted: 1, pagesUnchanged: 1 });
  });

  it('removes nothing when the discovery is not the whole source, even in a FULL run', async () => {
    const ctx = setup();
    const unlisted = await storedItem(ctx, 'unlisted');
    ctx.connector.discovery = discovery(['other@v1'], { complete: false });
    ctx.connector.vanishing(['unlisted']);
    const run = ctx.catalog.newRun(ctx.source, SyncMode.FULL);

    await ctx.plan(run);

    expect(ctx.catalog.documents.has(unlisted.id)).toBe(true);
    expect(ctx.chunkIndex.deleted()).toEqual([]);
    expect(ctx.connector.vanishedCalls).toEqual([]); // only scheduled runs check deletions
    expect(ctx.catalog.runs.get(run.id)!.progress.pagesDeleted).toBe(0);
  });

  it('planned twice for the same discovery, creates no duplicate and keeps the same ids', async () => {
    const ctx = setup();
    ctx.connector.discovery = discovery(['a@1', 'b@1']);
    const first = await ctx.plan(ctx.catalog.newRun(ctx.source, SyncMode.FULL));
    const firstIds = await ctx.blobs.getJson<string[]>(first.changedKey);

    // Not ingested yet (PENDING): planned again, with the same records.
    const second = await ctx.plan(ctx.catalog.newRun(ctx.source, SyncMode.FULL));

    expect(ctx.catalog.itemsOf(ctx.source.id)).toHaveLength(2);
    expect(await ctx.blobs.getJson<string[]>(second.changedKey)).toEqual(firstIds);
  });

  it('records the skipped items and the warnings (capped) of the discovery', async () => {
    const ctx = setup();
    const skipped = [
      { id: 'https://example.test/private', reason: 'refused by robots.txt' },
      { id: 'https://example.test/broken', reason: 'HTTP 500' },
    ];
    const warnings = Array.from({ length: 150 }, (_, i) => `warning ${i}`);
    ctx.connector.discovery = discovery(['a@1'], { skipped, warnings, requests: 4 });
    const run = ctx.catalog.newRun(ctx.source, SyncMode.FULL);

    await ctx.plan(run);

    const stored = ctx.catalog.runs.get(run.id)!;
    expect(stored.skipped).toEqual(skipped);
    expect(stored.warnings).toEqual(warnings.slice(0, 100));
    expect(stored.progress).toMatchObject({ pagesSeen: 1, pagesSkipped: 2, apiCalls: 4 });
  });

  it('REBUILD plans every item, unchanged ones too, and asks the ingest to embed every chunk again', async () => {
    const ctx = setup({ source: { watermark: '2026-05-01T10:00:00.000Z' } });
    const same = await storedItem(ctx, 'same');
    ctx.connector.discovery = discovery(['same@v1', 'new@v1']);
    const run = ctx.catalog.newRun(ctx.source, SyncMode.REBUILD);

    const plan = await ctx.plan(run);

    expect(ctx.connector.discoverCalls[0].since).toBeUndefined(); // everything, as FULL
    expect(await ctx.blobs.getJson(plan.changedKey)).toEqual([same.id, ctx.idOf('new')]);
    expect(plan.reembed).toBe(true);
    expect(ctx.catalog.runs.get(run.id)!.progress).toMatchObject({ pagesSeen: 2, pagesUnchanged: 0 });
    // FULL over the same listing re-plans only the new item, and reuses vectors.
    const full = await ctx.plan(ctx.catalog.newRun(ctx.source, SyncMode.FULL));
    expect(full.changedCount).toBe(1);
    expect(full.reembed).toBeUndefined();
  });

  it('names a skipped item the listing names by id only with the title of its earlier document', async () => {
    const ctx = setup();
    const known = await storedItem(ctx, 'page-1', { title: 'Salary bands' });
    ctx.connector.discovery = discovery(['a@1'], {
      skipped: [
        { id: 'page-1', reason: 'unshared' },
        { id: 'page-2', reason: 'unshared' },
        { id: 'page-3', reason: 'too large', title: 'Big export' },
      ],
    });
    const run = ctx.catalog.newRun(ctx.source, SyncMode.FULL);

    await ctx.plan(run);

    expect(known.title).toBe('Salary bands');
    expect(ctx.catalog.runs.get(run.id)!.skipped).toEqual([
      { id: 'page-1', reason: 'unshared', title: 'Salary bands' },
      { id: 'page-2', reason: 'unshared' },
      { id: 'page-3', reason: 'too large', title: 'Big export' },
    ]);
  });

  it('INCREMENTAL asks for what changed since the watermark; FULL for everything', async () => {
    const ctx = setup({ source: { watermark: '2026-05-01T10:00:00.000Z' } });
    await ctx.plan(ctx.catalog.newRun(ctx.source, SyncMode.INCREMENTAL));
    await ctx.plan(ctx.catalog.newRun(ctx.source, SyncMode.FULL));
    expect(ctx.connector.discoverCalls.map((c) => c.since)).toEqual(['2026-05-01T10:00:00.000Z', undefined]);
  });

  it('a scheduled INCREMENTAL run (checkDeletions) asks the connector which known items vanished and removes them', async () => {
    const ctx = setup({ source: { watermark: '2026-05-01T10:00:00.000Z' } });
    const a = await storedItem(ctx, 'a');
    const b = await storedItem(ctx, 'b');
    const c = await storedItem(ctx, 'c');
    ctx.connector.discovery = discovery(['a@v2'], { complete: false });
    ctx.connector.vanishing(['b']);

    const scheduled = ctx.catalog.newRun(ctx.source, SyncMode.INCREMENTAL, { checkDeletions: true });
    const plan = await ctx.plan(scheduled);

    expect(ctx.connector.vanishedCalls.map((ids) => [...ids].sort())).toEqual([['a', 'b', 'c']]);
    expect(ctx.catalog.documents.has(b.id)).toBe(false);
    expect(ctx.chunkIndex.deleted()).toEqual([b.id]);
    expect(ctx.catalog.documents.has(c.id)).toBe(true); // not edited, still there: untouched
    expect(await ctx.blobs.getJson(plan.changedKey)).toEqual([a.id]);
    expect(ctx.catalog.runs.get(scheduled.id)!.progress.pagesDeleted).toBe(1);

    // A manual INCREMENTAL run does not check.
    await ctx.plan(ctx.catalog.newRun(ctx.source, SyncMode.INCREMENTAL));
    expect(ctx.connector.vanishedCalls).toHaveLength(1);
  });

  it("hands the connector's watermark and the worker's concurrency to the workflow with the plan", async () => {
    const ctx = setup({ concurrency: 12 });
    ctx.connector.discovery = discovery([], { watermark: '2026-05-02T00:00:00.000Z' });
    expect(await ctx.plan(ctx.catalog.newRun(ctx.source, SyncMode.FULL))).toMatchObject({
      changedCount: 0,
      concurrency: 12,
      watermark: '2026-05-02T00:00:00.000Z',
    });

    const plain = setup();
    const plan = await plain.plan(plain.catalog.newRun(plain.source, SyncMode.FULL));
    expect(plan.concurrency).toBeUndefined();
    expect(plan).not.toHaveProperty('watermark');
  });

  it('refuses to plan for a source being removed (non-retryable), creating nothing', async () => {
    const ctx = setup();
    ctx.connector.discovery = discovery(['a@1']);
    const run = ctx.catalog.newRun(ctx.source, SyncMode.FULL);
    ctx.catalog.sources.set(ctx.source.id, { ...ctx.source, status: SourceStatus.REMOVING });

    const failure = await ctx.plan(run).catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: TroveErrorCode.SourceNotFound, nonRetryable: true });
    expect(ctx.connector.discoverCalls).toEqual([]);
    expect(ctx.catalog.itemsOf(ctx.source.id)).toEqual([]);
  });
});

describe('planSync: the limits, before anything is fetched or recorded', () => {
  const limits: PlanLimits = { maxBytes: 1_000, maxDocumentsPerSource: 3, maxSyncBytes: 100_000 };

  it('asks the connector to list sizes under the size limit; skips an item over it, removing its document, and says why', async () => {
    const ctx = setup({ limits });
    const grown = await storedItem(ctx, 'grown.txt');
    ctx.connector.discovery = discovery(['a.md@v1#10', 'big.txt@v1#125829039', 'grown.txt@v2#5000']);
    const run = ctx.catalog.newRun(ctx.source, SyncMode.FULL);

    const plan = await ctx.plan(run);

    expect(ctx.connector.discoverCalls[0].maxItemBytes).toBe(1_000);
    expect(await ctx.blobs.getJson(plan.changedKey)).toEqual([ctx.idOf('a.md')]);
    // Never recorded; the document of one that grew past the limit goes, as a deleted item's would.
    expect(ctx.idOf('big.txt')).toBeUndefined();
    expect(ctx.catalog.documents.has(grown.id)).toBe(false);
    const stored = ctx.catalog.runs.get(run.id)!;
    expect(stored.skipped).toEqual([
      {
        id: 'big.txt',
        reason:
          'big.txt has 125,829,039 bytes, over the limit of 1,000 bytes per document (TROVE_DOCUMENT_MAX_BYTES raises it)',
      },
      {
        id: 'grown.txt',
        reason:
          'grown.txt has 5,000 bytes, over the limit of 1,000 bytes per document (TROVE_DOCUMENT_MAX_BYTES raises it)',
      },
    ]);
    expect(stored.progress).toMatchObject({ pagesSeen: 3, pagesSkipped: 2, pagesDeleted: 1 });
    expect(stored.warnings).toEqual([
      '2 item(s) over the document size limit (1,000 bytes, TROVE_DOCUMENT_MAX_BYTES) were not fetched',
    ]);
  });

  it("records at most the source's documents, keeping those it has, and withholds the watermark while items wait", async () => {
    const ctx = setup({ limits });
    const old = await storedItem(ctx, 'old');
    ctx.connector.discovery = discovery(['n1', 'n2', 'old@v1', 'n3', 'n4'], {
      watermark: '2026-06-01T00:00:00.000Z',
    });
    const run = ctx.catalog.newRun(ctx.source, SyncMode.FULL);

    const plan = await ctx.plan(run);

    expect(
      ctx.catalog
        .itemsOf(ctx.source.id)
        .map((d) => d.externalId)
        .sort(),
    ).toEqual(['n1', 'n2', 'old']);
    expect(await ctx.blobs.getJson(plan.changedKey)).toEqual([ctx.idOf('n1'), ctx.idOf('n2')]);
    expect(ctx.catalog.documents.has(old.id)).toBe(true);
    expect(plan).not.toHaveProperty('watermark');
    const stored = ctx.catalog.runs.get(run.id)!;
    expect(stored.skipped.map((s) => s.id)).toEqual(['n3', 'n4']);
    expect(stored.progress).toMatchObject({
      pagesSeen: 5,
      pagesUnchanged: 1,
      pagesSkipped: 2,
      pagesDeleted: 0,
    });

    // Items beyond the limit are not deletions: a known one stays when the limit is lowered.
    const lowered = setup({ limits: { ...limits, maxDocumentsPerSource: 1 } });
    const kept = [await storedItem(lowered, 'k1'), await storedItem(lowered, 'k2')];
    lowered.connector.discovery = discovery(['k1', 'k2']);
    await lowered.plan(lowered.catalog.newRun(lowered.source, SyncMode.FULL));
    for (const document of kept) expect(lowered.catalog.documents.has(document.id)).toBe(true);
  });

  it('counts every skipped item, and the count survives finishSync, however many the run lists', async () => {
    const ctx = setup({ limits: { ...limits, maxDocumentsPerSource: 10 } });
    ctx.connector.discovery = discovery(Array.from({ length: 1_210 }, (_, i) => `f${i}@v1`));
    const run = ctx.catalog.newRun(ctx.source, SyncMode.FULL);

    await ctx.plan(run);
    const finished = await ctx.call(ctx.activities.finishSync, {
      runId: run.id,
      tally: emptyTally({ ready: 10 }),
    });

    expect(finished.skipped).toHaveLength(1_000);
    expect(finished.progress).toMatchObject({ pagesSeen: 1_210, pagesSkipped: 1_200, pagesIngested: 10 });
  });
});

describe('planSync failures: workflows see only domain codes', () => {
  it.each([
    ['an item gone', sourceItemGone('page is trashed'), TroveErrorCode.SourceItemGone],
    ['a rejected token', sourceUnauthorized('token revoked'), TroveErrorCode.SourceUnauthorized],
    [
      'a source configured wrongly',
      new TroveError(TroveErrorCode.BadRequest, 'no such folder', { permanent: true }),
      TroveErrorCode.BadRequest,
    ],
  ])('%s ends the plan with a non-retryable failure typed with its code', async (_, error, code) => {
    const ctx = setup();
    ctx.connector.discovery = error;
    const failure = await ctx.plan(ctx.catalog.newRun(ctx.source, SyncMode.FULL)).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: code, nonRetryable: true, message: error.message });
  });

  it('a transient TroveError stays retryable, with its code', async () => {
    const ctx = setup();
    ctx.connector.discovery = new TroveError(TroveErrorCode.ServiceUnavailable, 'HTTP 503');
    const failure = await ctx.plan(ctx.catalog.newRun(ctx.source, SyncMode.FULL)).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: TroveErrorCode.ServiceUnavailable, nonRetryable: false });
  });

  it('a plain Error (a network fault) is left to Temporal to retry', async () => {
    const ctx = setup();
    const error = new Error('ECONNRESET');
    ctx.connector.discovery = error;
    const failure = await ctx.plan(ctx.catalog.newRun(ctx.source, SyncMode.FULL)).catch((e: unknown) => e);
    expect(failure).toBe(error);
    expect(failure).not.toBeInstanceOf(ApplicationFailure);
  });
});

describe('finishSync', () => {
  it('advances the watermark only forward', async () => {
    const ctx = setup({ source: { watermark: '2026-05-02T00:00:00.000Z' } });
    const finish = (watermark?: string) =>
      ctx.call(ctx.activities.finishSync, {
        runId: ctx.catalog.newRun(ctx.source, SyncMode.INCREMENTAL).id,
        tally: emptyTally(),
        watermark,
      });
    const watermark = () => ctx.catalog.sources.get(ctx.source.id)!.watermark;

    await finish('2026-05-01T00:00:00.000Z'); // older: a slow run that started before the last one
    expect(watermark()).toBe('2026-05-02T00:00:00.000Z');
    await finish(undefined);
    expect(watermark()).toBe('2026-05-02T00:00:00.000Z');
    await finish('2026-05-03T00:00:00.000Z');
    expect(watermark()).toBe('2026-05-03T00:00:00.000Z');

    const fresh = setup();
    await fresh.call(fresh.activities.finishSync, {
      runId: fresh.catalog.newRun(fresh.source, SyncMode.FULL).id,
      tally: emptyTally(),
      watermark: '2026-01-01T00:00:00.000Z',
    });
    expect(fresh.catalog.sources.get(fresh.source.id)!.watermark).toBe('2026-01-01T00:00:00.000Z');
  });

  it('completes the run, records the sync time and makes the source ACTIVE again', async () => {
    const ctx = setup({ source: { status: SourceStatus.NEEDS_TOKEN } });
    const run = ctx.catalog.newRun(ctx.source, SyncMode.FULL);
    const before = new Date().toISOString();

    const finished = await ctx.call(ctx.activities.finishSync, {
      runId: run.id,
      tally: emptyTally({ ready: 2 }),
    });

    const source = ctx.catalog.sources.get(ctx.source.id)!;
    expect(source.status).toBe(SourceStatus.ACTIVE);
    expect(source.lastSyncAt! >= before).toBe(true);
    expect(finished).toMatchObject({ status: SyncRunStatus.COMPLETED, finishedAt: source.lastSyncAt });
    expect(ctx.catalog.runs.get(run.id)).toMatchObject({
      status: SyncRunStatus.COMPLETED,
      progress: { pagesIngested: 2 },
    });
  });

  it('removes the documents of items that vanished before their fetch, and lists them as skipped', async () => {
    const ctx = setup();
    const gone = await storedItem(ctx, 'https://example.test/gone');
    const kept = await storedItem(ctx, 'https://example.test/kept');
    const run = ctx.catalog.newRun(ctx.source, SyncMode.FULL, {
      skipped: [{ id: 'https://example.test/private', reason: 'refused by robots.txt' }],
    });
    await ctx.catalog.updateRun(run.id, { progress: { ...run.progress, pagesDeleted: 3, pagesSkipped: 1 } });

    const finished = await ctx.call(ctx.activities.finishSync, {
      runId: run.id,
      tally: emptyTally({
        ready: 1,
        gone: [
          { documentId: gone.id, reason: 'HTTP 404' },
          { documentId: 'already-removed', reason: 'HTTP 410' }, // e.g. by a webhook meanwhile
        ],
      }),
    });

    expect(ctx.catalog.documents.has(gone.id)).toBe(false);
    expect(ctx.chunkIndex.deleted()).toEqual([gone.id]);
    expect(ctx.blobs.keys(blobKeys.originals(gone.id))).toEqual([]);
    expect(ctx.catalog.documents.has(kept.id)).toBe(true);
    expect(finished.skipped).toEqual([
      { id: 'https://example.test/private', reason: 'refused by robots.txt' },
      { id: 'https://example.test/gone', reason: 'HTTP 404', title: gone.title },
    ]);
    expect(finished.progress).toMatchObject({ pagesDeleted: 4, pagesSkipped: 2, pagesIngested: 1 });
    expect(ctx.catalog.runs.get(run.id)!.skipped).toEqual(finished.skipped);
  });

  it('count every failed page in progress and at the finish, not only the kept details', async () => {
    const ctx = setup();
    const run = ctx.catalog.newRun(ctx.source, SyncMode.FULL);
    /** 250 failed pages, of which the tally keeps the details of the first 200. */
    const tally = emptyTally({
      ready: 7,
      chunksEmbedded: 30,
      chunksReused: 5,
      failedCount: 250,
      failed: Array.from({ length: 200 }, (_, i) => ({ documentId: `d${i}`, reason: 'PARSE_FAILED' })),
    });
    await ctx.call(ctx.activities.recordProgress, { runId: run.id, tally });
    expect(ctx.catalog.runs.get(run.id)!.progress).toMatchObject({ pagesIngested: 7, pagesFailed: 250 });
    const finished = await ctx.call(ctx.activities.finishSync, { runId: run.id, tally });
    expect(finished.progress).toMatchObject({
      pagesIngested: 7,
      pagesFailed: 250,
      chunksEmbedded: 30,
      chunksReused: 5,
    });
  });

  it("deletes the run's scratch blobs (the plan), and only those", async () => {
    const ctx = setup();
    ctx.connector.discovery = discovery(['a@1']);
    const run = ctx.catalog.newRun(ctx.source, SyncMode.FULL);
    const other = ctx.catalog.newRun(ctx.source, SyncMode.FULL);
    const plan = await ctx.plan(run);
    await ctx.plan(other);
    expect(await ctx.blobs.exists(plan.changedKey)).toBe(true);

    await ctx.call(ctx.activities.finishSync, { runId: run.id, tally: emptyTally() });

    expect(ctx.blobs.keys(blobKeys.syncRun(run.id))).toEqual([]);
    expect(ctx.blobs.keys(blobKeys.syncRun(other.id))).toHaveLength(1);
  });
});

describe('endCancelledSync', () => {
  it("ends a running run as CANCELLED, keeping the canceller's reason, and drops its plan", async () => {
    const ctx = setup();
    const run = ctx.catalog.newRun(ctx.source, SyncMode.FULL, {
      error: { code: TroveErrorCode.Cancelled, message: 'cancelled by alice' },
    });
    const other = ctx.catalog.newRun(ctx.source, SyncMode.FULL);
    await ctx.blobs.putJson(blobKeys.syncPlan(run.id), ['a']);
    await ctx.blobs.putJson(blobKeys.syncPlan(other.id), ['b']);

    await ctx.call(ctx.activities.endCancelledSync, { runId: run.id });
    await ctx.call(ctx.activities.endCancelledSync, { runId: other.id });

    expect(ctx.catalog.runs.get(run.id)).toMatchObject({
      status: SyncRunStatus.CANCELLED,
      finishedAt: expect.any(String),
      error: { code: TroveErrorCode.Cancelled, message: 'cancelled by alice' },
    });
    expect(ctx.catalog.runs.get(other.id)!.error).toEqual({
      code: TroveErrorCode.Cancelled,
      message: 'the sync was cancelled',
    });
    expect(ctx.blobs.keys(blobKeys.syncRun(run.id))).toEqual([]);
  });

  it('leaves a run that already ended as it ended', async () => {
    const ctx = setup();
    const run = ctx.catalog.newRun(ctx.source, SyncMode.FULL, { status: SyncRunStatus.COMPLETED });
    await ctx.call(ctx.activities.endCancelledSync, { runId: run.id });
    expect(ctx.catalog.runs.get(run.id)!.status).toBe(SyncRunStatus.COMPLETED);
  });
});

describe('failSync', () => {
  it('with SOURCE_UNAUTHORIZED marks the source as needing a new token', async () => {
    const ctx = setup();
    ctx.connector.discovery = discovery(['a@1']);
    const run = ctx.catalog.newRun(ctx.source, SyncMode.FULL);
    await ctx.plan(run);

    await ctx.call(ctx.activities.failSync, {
      runId: run.id,
      code: TroveErrorCode.SourceUnauthorized,
      message: 'token revoked',
    });

    expect(ctx.catalog.sources.get(ctx.source.id)!.status).toBe(SourceStatus.NEEDS_TOKEN);
    expect(ctx.catalog.runs.get(run.id)).toMatchObject({
      status: SyncRunStatus.FAILED,
      error: { code: TroveErrorCode.SourceUnauthorized, message: 'token revoked' },
    });
    expect(ctx.catalog.runs.get(run.id)!.finishedAt).toBeDefined();
    expect(ctx.blobs.keys(blobKeys.syncRun(run.id))).toEqual([]);
  });

  it('with another code leaves the source as it was', async () => {
    const ctx = setup({ source: { watermark: '2026-05-01T00:00:00.000Z' } });
    const run = ctx.catalog.newRun(ctx.source, SyncMode.FULL);

    await ctx.call(ctx.activities.failSync, {
      runId: run.id,
      code: TroveErrorCode.SyncPlanShort,
      message: 'plan short',
    });

    expect(ctx.catalog.sources.get(ctx.source.id)).toMatchObject({
      status: SourceStatus.ACTIVE,
      watermark: '2026-05-01T00:00:00.000Z',
    });
    expect(ctx.catalog.runs.get(run.id)).toMatchObject({
      status: SyncRunStatus.FAILED,
      error: { code: TroveErrorCode.SyncPlanShort },
    });
  });

  it('for a run that no longer exists fails for good with SYNC_RUN_NOT_FOUND', async () => {
    const ctx = setup();
    const failure = await ctx
      .call(ctx.activities.failSync, { runId: 'gone', code: TroveErrorCode.Internal, message: 'x' })
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ type: TroveErrorCode.SyncRunNotFound, nonRetryable: true });
  });
});

describe('createScheduledRun', () => {
  it('records an INCREMENTAL run that checks deletions, only for an ACTIVE source', async () => {
    const ctx = setup();
    const created = await ctx.call(ctx.activities.createScheduledRun, { sourceId: ctx.source.id });
    // The project comes back with the run: the sync's fairness key.
    expect(created?.projectId).toBe(ctx.source.projectId);
    expect(ctx.catalog.runs.get(created!.runId)).toMatchObject({
      mode: SyncMode.INCREMENTAL,
      checkDeletions: true,
      status: SyncRunStatus.RUNNING,
    });

    const locked = setup({ source: { status: SourceStatus.NEEDS_TOKEN } });
    expect(
      await locked.call(locked.activities.createScheduledRun, { sourceId: locked.source.id }),
    ).toBeUndefined();
    expect(await ctx.call(ctx.activities.createScheduledRun, { sourceId: 'missing' })).toBeUndefined();
  });
});
