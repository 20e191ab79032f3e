import type { Source, SyncRun } from './model';
import { SyncMode, SyncRunStatus, SyncStage } from './model';

/** A new RUNNING sync run record for a source, with zeroed progress. */
export function newSyncRun(source: Pick<Source, 'id' | 'projectId'>, mode: SyncMode): SyncRun {
  const startedAt = new Date().toISOString();
  return {
    id: globalThis.crypto.randomUUID(),
    sourceId: source.id,
    projectId: source.projectId,
    mode,
    status: SyncRunStatus.RUNNING,
    startedAt,
    stage: SyncStage.PLANNING,
    progressAt: startedAt,
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
