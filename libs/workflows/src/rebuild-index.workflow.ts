import {
  ApplicationFailure,
  CancellationScope,
  continueAsNew,
  isCancellation,
  proxyActivities,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { IndexRebuildProgress, RebuildIndexInput } from '@trove/domain';
import { laneTaskQueue } from '@trove/domain';
import type { IndexRebuildActivities } from '@trove/ingest-activities';

/**
 * Copy steps: an embedding server that stays down for long fails the rebuild (the old index
 * stays active, nothing is lost) instead of retrying for days.
 */
/** Copying re-embeds every chunk: bulk work, on the bulk lane's slots. */
const steps = () =>
  proxyActivities<IndexRebuildActivities>({
    taskQueue: laneTaskQueue(workflowInfo().taskQueue, 'bulk'),
    startToCloseTimeout: '30m',
    heartbeatTimeout: '2m',
    retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 20 },
  });

/** Swapping and cleaning up must finish once begun. */
const untilDone = proxyActivities<IndexRebuildActivities>({
  startToCloseTimeout: '10m',
  scheduleToCloseTimeout: '7d',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});

/** Pages copied per run before continuing as new, to keep the history small on large indices. */
const PAGES_PER_RUN = 400;

/**
 * Rebuilds the chunk index for a new embedding model beside the active one, then swaps:
 * wait until every process writes both indices → copy the active index page by page with the
 * new model's vectors (reusing stored ones when the model is unchanged) → reconcile what changed
 * meanwhile → make the new generation ACTIVE and point the alias at it → after a grace period,
 * drop the old index. Searches use the active generation throughout. Cancelled or failed, the
 * new index is dropped and the old one stays active.
 */
export async function rebuildIndex(input: RebuildIndexInput): Promise<IndexRebuildProgress> {
  const { generationId } = input;
  let progress: IndexRebuildProgress = input.progress ?? {};
  try {
    if (input.after === undefined && input.progress === undefined) {
      // Ingests read the live generations through a cache: after this, all of them write both.
      await sleep(input.settleMs);
      progress = await steps().startIndexCopy({ generationId });
    }
    let after = input.after;
    for (let pages = 0; ; pages += 1) {
      if (pages === PAGES_PER_RUN && after !== undefined) {
        return await continueAsNew<typeof rebuildIndex>({ ...input, after, progress });
      }
      const page = await steps().copyIndexPage({ generationId, after, progress });
      progress = {
        ...progress,
        chunksCopied: (progress.chunksCopied ?? 0) + page.copied,
        chunksEmbedded: (progress.chunksEmbedded ?? 0) + page.embedded,
        chunksReused: (progress.chunksReused ?? 0) + page.reused,
        chunksSkipped: (progress.chunksSkipped ?? 0) + page.skipped,
      };
      if (page.after === undefined) break;
      after = page.after;
    }
    progress = await steps().reconcileIndex({ generationId, progress });
  } catch (error) {
    if (isCancellation(error)) {
      await CancellationScope.nonCancellable(() =>
        untilDone.abandonRebuild({ generationId, cancelled: true, reason: 'cancelled' }),
      );
      throw error;
    }
    const reason =
      error instanceof ApplicationFailure || error instanceof Error
        ? ((error as { cause?: Error }).cause?.message ?? error.message)
        : String(error);
    await untilDone.abandonRebuild({ generationId, cancelled: false, reason });
    throw error;
  }
  const { retiredGenerationId } = await untilDone.activateGeneration({ generationId });
  if (retiredGenerationId !== undefined) {
    // Searches that resolved the old generation just before the swap still read its index.
    await sleep(input.graceMs);
    await untilDone.dropGenerationIndex({ generationId: retiredGenerationId });
  }
  return progress;
}
