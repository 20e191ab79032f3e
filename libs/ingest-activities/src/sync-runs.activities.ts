import type { SyncProgress, SyncRun } from '@trove/domain';
import {
  appendProgressSample,
  blobKeys,
  newSyncRun,
  ProjectStatus,
  SourceStatus,
  SyncMode,
  SyncRunStatus,
  SyncStage,
  isTroveError,
  TroveErrorCode,
} from '@trove/domain';
import { eachAsActivity } from './activity-failure';
import { removeDocuments, requireRun, type SourceDocumentDependencies } from './source-documents';

/** How the page ingests of a sync ended; kept small (counts, capped lists) for workflow payloads. */
export interface SyncTally {
  ready: number;
  chunksEmbedded: number;
  chunksReused: number;
  /** Ids whose ingest was already running (e.g. started by a webhook): left to that run. */
  busy: number;
  /** Every failed page, counted; `failed` keeps the details of the first few only. */
  failedCount: number;
  failed: { documentId: string; reason: string }[];
  /** Items that vanished between discovery and fetch (deleted, unshared, trashed). */
  gone: { documentId: string; reason: string }[];
}

/** A run a source's schedule started, and the project it ingests for. */
export interface ScheduledRun {
  runId: string;
  projectId: string;
}

/**
 * A sync run's bookkeeping, the same for every kind of source: scheduled runs, the plan's
 * batches, live progress, and how the run ends (counts, watermark, the source's status). A write
 * the catalog refuses for good (its data, a constraint) fails the activity without retries.
 */
export function createSyncRunActivities(deps: SourceDocumentDependencies) {
  const { projects, sources, runs, documents, blobs } = deps;
  const activities = {
    /**
     * For a scheduled sync: a new INCREMENTAL run record, and the source's project (the run's
     * fairness key), unless the source is gone or needs a token.
     */
    async createScheduledRun(input: { sourceId: string }): Promise<ScheduledRun | undefined> {
      const source = await sources.getSource(input.sourceId);
      if (!source || source.status !== SourceStatus.ACTIVE) return undefined;
      const project = await projects.getProject(source.projectId);
      if (project?.status !== ProjectStatus.ACTIVE) return undefined;
      const run = await runs.createRun({
        ...newSyncRun(source, SyncMode.INCREMENTAL),
        checkDeletions: true,
      });
      return { runId: run.id, projectId: source.projectId };
    },

    async cancelRun(input: { runId: string; reason: string }): Promise<void> {
      await runs.updateRun(input.runId, {
        status: SyncRunStatus.FAILED,
        finishedAt: new Date().toISOString(),
        error: { code: TroveErrorCode.Skipped, message: input.reason },
      });
    },

    /**
     * Ends a cancelled run as CANCELLED (keeping the reason its canceller recorded, if any) and
     * drops its plan. What it ingested stays: those pages are unchanged for the next sync, which
     * ingests the rest. A run that already ended is left as it is.
     */
    async endCancelledSync(input: { runId: string }): Promise<void> {
      const run = await runs.getRun(input.runId);
      if (!run) return;
      if (run.status === SyncRunStatus.RUNNING) {
        await runs.updateRun(run.id, {
          status: SyncRunStatus.CANCELLED,
          finishedAt: new Date().toISOString(),
          error: run.error ?? { code: TroveErrorCode.Cancelled, message: 'the sync was cancelled' },
        });
      }
      await blobs.deletePrefix(blobKeys.syncRun(run.id));
    },

    async readPlanBatch(input: { changedKey: string; offset: number; limit: number }): Promise<string[]> {
      const ids = await blobs.getJson<string[]>(input.changedKey);
      return ids.slice(input.offset, input.offset + input.limit);
    },

    /** Live progress while pages are being ingested (the run's counts so far, and a sample for its rate). */
    async recordProgress(input: { runId: string; tally: SyncTally }): Promise<void> {
      const run = await requireRun(runs, input.runId);
      const { tally } = input;
      const pages = tally.ready + tally.failedCount + tally.busy + tally.gone.length;
      await runs.updateRun(run.id, {
        // Also for a run planned before stages were recorded (in flight across an upgrade).
        stage: SyncStage.INGESTING,
        recentProgress: appendProgressSample(run.recentProgress, { at: Date.now(), pages }),
        progress: {
          ...run.progress,
          pagesIngested: input.tally.ready,
          pagesFailed: input.tally.failedCount,
          chunksEmbedded: input.tally.chunksEmbedded,
          chunksReused: input.tally.chunksReused,
        },
      });
    },

    /** Records how the page ingests ended, removes items that vanished, advances the watermark. */
    async finishSync(input: { runId: string; tally: SyncTally; watermark?: string }): Promise<SyncRun> {
      const run = await requireRun(runs, input.runId);
      const source = await sources.requireSource(run.sourceId);
      if (run.stage !== SyncStage.FINISHING) await runs.updateRun(run.id, { stage: SyncStage.FINISHING });
      const skipped = [...run.skipped];
      let gone = 0;
      for (const item of input.tally.gone) {
        const document = await documents.getDocument(item.documentId);
        if (document) {
          skipped.push({
            id: document.externalId ?? document.id,
            reason: item.reason,
            title: document.title,
          });
          await removeDocuments(deps, [document.id]);
          gone++;
        }
      }
      const progress: SyncProgress = {
        ...run.progress,
        pagesIngested: input.tally.ready,
        chunksEmbedded: input.tally.chunksEmbedded,
        chunksReused: input.tally.chunksReused,
        pagesFailed: input.tally.failedCount,
        pagesDeleted: run.progress.pagesDeleted + gone,
        // The plan counted every skipped item, also those beyond the ones it listed.
        pagesSkipped: run.progress.pagesSkipped + gone,
      };
      const finishedAt = new Date().toISOString();
      // Watermarks compare as strings (ISO times do): an older one never replaces a newer one.
      const watermark =
        input.watermark && (!source.watermark || input.watermark > source.watermark)
          ? input.watermark
          : source.watermark;
      await sources.updateSource(source.id, {
        watermark,
        lastSyncAt: finishedAt,
        status: SourceStatus.ACTIVE,
      });
      await runs.updateRun(run.id, { status: SyncRunStatus.COMPLETED, finishedAt, progress, skipped });
      await blobs.deletePrefix(blobKeys.syncRun(run.id));
      return { ...run, status: SyncRunStatus.COMPLETED, finishedAt, progress, skipped };
    },

    /**
     * Marks the run failed; a rejected token also marks the source as needing a new one. A run
     * whose error the catalog refuses for good still ends FAILED, with a message saying so.
     */
    async failSync(input: { runId: string; code: string; message: string }): Promise<void> {
      const run = await requireRun(runs, input.runId);
      // The source first: whoever sees the run end must also see its effect on the source.
      if (input.code === TroveErrorCode.SourceUnauthorized) {
        await sources.updateSource(run.sourceId, { status: SourceStatus.NEEDS_TOKEN });
      }
      const failed = (message: string) =>
        runs.updateRun(run.id, {
          status: SyncRunStatus.FAILED,
          finishedAt: new Date().toISOString(),
          error: { code: input.code, message },
        });
      try {
        await failed(input.message);
      } catch (error) {
        if (!isTroveError(error) || !error.permanent) throw error;
        await failed(`the run failed, and its error could not be stored: ${error.message}`);
      }
      await blobs.deletePrefix(blobKeys.syncRun(run.id));
    },
  };
  return eachAsActivity(activities);
}
