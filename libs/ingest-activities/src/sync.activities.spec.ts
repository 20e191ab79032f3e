import type { Catalog } from '@trove/catalog';
import type { BlobStore, Source, SyncRun } from '@trove/domain';
import { newSyncRun, SourceType, SyncMode } from '@trove/domain';
import type { ChunkIndex } from '@trove/search';
import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import type { FolderSources } from './folder-source';
import type { NotionSources } from './notion-source';
import { createSyncActivities, type SyncPlan, type SyncTally } from './notion-sync.activities';

const source = { id: 's1', projectId: 'p1', type: SourceType.FOLDER } as Source;

/** Activities over a catalog holding one run; `updates` collects what was written to it. */
function activitiesWithRun(concurrency?: number) {
  let run: SyncRun = { ...newSyncRun(source, SyncMode.FULL), id: 'r1' };
  const updates: Partial<SyncRun>[] = [];
  const catalog = {
    getRun: async () => run,
    updateRun: async (_id: string, update: Partial<SyncRun>) => {
      updates.push(update);
      run = { ...run, ...update };
    },
    requireSource: async () => source,
    updateSource: async () => undefined,
    getDocument: async () => undefined,
    requireActiveSource: async () => ({}),
    sourceItems: async () => [],
    ensureSourceDocuments: async () => new Map(),
  } as unknown as Catalog;
  const blobs = {
    putJson: async () => undefined,
    deletePrefix: async () => undefined,
  } as unknown as BlobStore;
  const folders = {
    list: async () => ({ format: 'plain', items: [], skipped: [], warnings: [] }),
  } as unknown as FolderSources;
  const activities = createSyncActivities({
    catalog,
    blobs,
    chunkIndex: { deleteDocumentsChunks: async () => 0 } as unknown as ChunkIndex,
    notion: {} as NotionSources,
    folders,
    concurrency,
  });
  return { activities, updates };
}

/** 250 failed pages, of which the tally keeps the details of the first 200. */
const tally: SyncTally = {
  ready: 7,
  chunksEmbedded: 30,
  chunksReused: 5,
  busy: 0,
  failedCount: 250,
  failed: Array.from({ length: 200 }, (_, i) => ({ documentId: `d${i}`, reason: 'PARSE_FAILED' })),
  gone: [],
};

describe('sync activities', () => {
  it('count every failed page in progress and at the finish, not only the kept details', async () => {
    const { activities, updates } = activitiesWithRun();
    await activities.recordProgress({ runId: 'r1', tally });
    expect(updates.at(-1)?.progress).toMatchObject({ pagesIngested: 7, pagesFailed: 250 });
    const finished = await activities.finishSync({ runId: 'r1', tally });
    expect(finished.progress).toMatchObject({ pagesIngested: 7, pagesFailed: 250, chunksEmbedded: 30 });
  });

  it("hand the worker's sync concurrency to the workflow with the plan", async () => {
    const plan = (concurrency?: number): Promise<SyncPlan> =>
      new MockActivityEnvironment().run(activitiesWithRun(concurrency).activities.planSync, { runId: 'r1' });
    expect(await plan(12)).toMatchObject({ changedCount: 0, concurrency: 12 });
    expect((await plan()).concurrency).toBeUndefined();
  });
});
