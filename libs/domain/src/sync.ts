import type { Source, SyncRun } from './model';
import { SyncMode, SyncRunStatus } from './model';

/** A new RUNNING sync run record for a source, with zeroed progress. */
export function newSyncRun(source: Pick<Source, 'id' | 'projectId'>, mode: SyncMode): SyncRun {
  return {
    id: globalThis.crypto.randomUUID(),
    sourceId: source.id,
    projectId: source.projectId,
    mode,
    status: SyncRunStatus.RUNNING,
    startedAt: new Date().toISOString(),
    progress: {
      pagesSeen: 0,
      pagesIngested: 0,
      pagesUnchanged: 0,
      pagesFailed: 0,
      pagesDeleted: 0,
      pagesSkipped: 0,
      apiCalls: 0,
      chunksEmbedded: 0,
      chunksReused: 0,
    },
    skipped: [],
  };
}
