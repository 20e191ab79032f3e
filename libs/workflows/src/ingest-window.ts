import {
  ApplicationFailure,
  ChildWorkflowFailure,
  executeChild,
  isCancellation,
  proxyActivities,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ingestWorkflowId, laneTaskQueue, TroveErrorCode } from '@trove/domain';
import type { IngestBatchActivities, IngestUnits, SyncTally } from '@trove/ingest-activities';
import { AWAIT_STOP, describeFailure, ingestDocument, untilServiceReturns } from './ingest-document.workflow';

/** Units ingested at once (batches or child workflows in flight) when the settings do not say. */
const DEFAULT_CONCURRENT_UNITS = 4;
const FAILURE_DETAILS_KEPT = 200;

/** How one unit (a batch, or one document) ended: it never rejects, so nothing is left unobserved. */
type Settled =
  { key: number; pages: number; ok: true } | { key: number; pages: number; ok: false; error: unknown };

export interface IngestWindowOptions {
  /** Called when a unit finished, with how many documents it took from the source of ids. */
  unitDone?: (documents: number) => void;
  /** A failure found outside the window (e.g. a progress write) that should stop it. */
  failure?: () => { error: unknown } | undefined;
  /**
   * A batch that failed for good (after its retries) hands its documents to the per-document
   * pipeline, which records each one's own outcome, instead of ending the window (uploads: no
   * run to fail, and no document may stay PENDING without a reason).
   */
  isolateFailedBatches?: boolean;
}

/**
 * Ingests documents as a sliding window of units: a batch of `units.batchDocuments` small
 * documents ingested by one activity, or one document as its own child workflow (when batches are
 * off, or for a document a batch handed back: a large one, or one whose faults need its own
 * retries). A new unit starts as soon as one finishes, so a slow unit holds one slot, not the whole
 * window. `run` returns once every started unit has finished. A failure that ends the window (a
 * rejected token, cancellation, a bookkeeping fault) stops new starts and is rethrown only after
 * the units in flight finished: no ingest outlives the workflow that started it.
 */
export class IngestWindow {
  constructor(
    private readonly units: IngestUnits,
    private readonly tally: SyncTally,
    private readonly options: IngestWindowOptions = {},
  ) {}

  /** Ingests every id `next` gives (in order) until it gives none. */
  async run(next: () => Promise<string[]>): Promise<void> {
    const window = Math.max(1, this.units.concurrency ?? DEFAULT_CONCURRENT_UNITS);
    const perBatch = Math.max(1, this.units.batchDocuments ?? 1);
    const inFlight = new Map<number, Promise<Settled>>();
    const ready: string[] = [];
    /** Documents a batch handed back, each to be ingested as its own child workflow. */
    const alone: string[] = [];
    let exhausted = false;
    let started = 0;
    let fatal: { error: unknown } | undefined;
    const settle = (key: number, pages: number, work: Promise<void>) =>
      work.then(
        (): Settled => ({ key, pages, ok: true }),
        (error: unknown): Settled => ({ key, pages, ok: false, error }),
      );
    for (;;) {
      try {
        while (!fatal && inFlight.size < window && (alone.length > 0 || ready.length > 0 || !exhausted)) {
          const key = started++;
          if (alone.length > 0) {
            // Handed back by a batch, which counted it already.
            inFlight.set(key, settle(key, 0, this.ingestOne(alone.shift()!)));
            continue;
          }
          while (ready.length < perBatch && !exhausted) {
            const ids = await next();
            if (ids.length === 0) exhausted = true;
            ready.push(...ids);
          }
          if (ready.length === 0) break;
          const ids = ready.splice(0, perBatch);
          inFlight.set(
            key,
            settle(key, ids.length, perBatch > 1 ? this.ingestBatch(ids, alone) : this.ingestOne(ids[0])),
          );
        }
      } catch (error) {
        fatal ??= { error };
      }
      if (inFlight.size === 0) break;
      const done = await Promise.race(inFlight.values());
      inFlight.delete(done.key);
      if (!done.ok) fatal ??= { error: done.error };
      this.options.unitDone?.(done.pages);
      fatal ??= this.options.failure?.();
    }
    if (fatal) throw fatal.error;
  }

  /**
   * Ingests a batch in one activity on the bulk lane and tallies each document's outcome;
   * documents it hands back go to `alone`, to be ingested one by one.
   */
  private async ingestBatch(documentIds: string[], alone: string[]): Promise<void> {
    let result;
    try {
      result = await batchActivities().ingestBatch({
        documentIds,
        limits: this.units.batchLimits,
        ...(this.units.reembed ? { reembed: true } : {}),
      });
    } catch (error) {
      if (!this.options.isolateFailedBatches || !mayIsolate(error)) throw error;
      alone.push(...documentIds);
      return;
    }
    const { tally } = this;
    for (const page of result.ready) {
      tally.ready++;
      tally.chunksEmbedded += page.chunkCount - page.reused;
      tally.chunksReused += page.reused;
    }
    for (const { documentId, code, message } of result.failed) countFailure(tally, documentId, code, message);
    alone.push(...result.handedBack);
  }

  /** Ingests one document as its own child workflow (shared id: never two at once). */
  private async ingestOne(documentId: string): Promise<void> {
    const { tally } = this;
    try {
      const result = await executeChild(ingestDocument, {
        workflowId: ingestWorkflowId(documentId),
        args: [{ documentId, ...(this.units.reembed ? { reembed: true } : {}) }],
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      });
      tally.ready++;
      tally.chunksEmbedded += result.chunkCount - result.reusedEmbeddings;
      tally.chunksReused += result.reusedEmbeddings;
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError) {
        tally.busy++;
        return;
      }
      if (!(error instanceof ChildWorkflowFailure)) throw error;
      const { code, message } = describeFailure(error.cause);
      if (code === TroveErrorCode.SourceUnauthorized)
        throw ApplicationFailure.create({ nonRetryable: true, type: code, message });
      countFailure(tally, documentId, code, message);
    }
  }
}

/** What writes hear once their project or source is being deleted (or is gone). */
export const OWNER_GONE: ReadonlySet<string> = new Set<string>([
  TroveErrorCode.ProjectDeleting,
  TroveErrorCode.ProjectNotFound,
  TroveErrorCode.SourceNotFound,
]);

function mayIsolate(error: unknown): boolean {
  // A cancelled batch (the workflow is being cancelled) is not a batch fault.
  if (isCancellation(error)) return false;
  const { code } = describeFailure(error);
  return !OWNER_GONE.has(code) && code !== TroveErrorCode.SourceUnauthorized;
}

/** The batch activity on the bulk lane: retried as a whole a few times, then it isolates its pages. */
function batchActivities() {
  return proxyActivities<IngestBatchActivities>({
    taskQueue: laneTaskQueue(workflowInfo().taskQueue, 'bulk'),
    cancellationType: AWAIT_STOP,
    startToCloseTimeout: '10m',
    heartbeatTimeout: '30s',
    scheduleToCloseTimeout: '2h',
    retry: untilServiceReturns,
  });
}

/** A document that failed for good: gone from its source, or failed with a reason. */
export function countFailure(tally: SyncTally, documentId: string, code: string, message: string): void {
  if (code === TroveErrorCode.SourceItemGone) {
    tally.gone.push({ documentId, reason: message });
    return;
  }
  tally.failedCount++;
  if (tally.failed.length < FAILURE_DETAILS_KEPT) tally.failed.push({ documentId, reason: message });
}

/** A fresh tally of outcomes. */
export function emptyTally(): SyncTally {
  return { ready: 0, chunksEmbedded: 0, chunksReused: 0, busy: 0, failedCount: 0, failed: [], gone: [] };
}
