import {
  ApplicationFailure,
  ChildWorkflowFailure,
  ContinueAsNew,
  continueAsNew,
  executeChild,
  isCancellation,
  proxyActivities,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { SyncRun } from '@trove/domain';
import { ingestWorkflowId, laneTaskQueue, syncWorkflowId, TroveErrorCode } from '@trove/domain';
import type { IngestBatchActivities, SyncActivities, SyncPlan, SyncTally } from '@trove/ingest-activities';
import { AWAIT_STOP, describeFailure, ingestDocument, untilServiceReturns } from './ingest-document.workflow';

/** Pages ingested at once (child workflows in flight) when the plan does not say. */
const DEFAULT_CONCURRENT_PAGES = 4;
/** Continue as new after this many pages, far below Temporal's event-history limits. */
const PAGES_PER_EXECUTION = 400;
/** Plan ids read per activity: a few reads per execution, small payloads. */
const PLAN_IDS_PER_READ = 200;
/** Live progress is written when this much workflow time or this many pages passed since the last write. */
const PROGRESS_INTERVAL_MS = 2_000;
const PROGRESS_EVERY_PAGES = 100;
const FAILURE_DETAILS_KEPT = 200;

const planning = proxyActivities<SyncActivities>({
  cancellationType: AWAIT_STOP,
  startToCloseTimeout: '1h',
  heartbeatTimeout: '2m',
  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 5 },
});

const bookkeeping = proxyActivities<SyncActivities>({
  cancellationType: AWAIT_STOP,
  startToCloseTimeout: '2m',
  scheduleToCloseTimeout: '2h',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' },
});

export interface SyncSourceInput {
  runId: string;
  /** Carried across continue-as-new. */
  plan?: SyncPlan;
  offset?: number;
  tally?: SyncTally;
  /** Pages per execution before continuing as new (400; tests use fewer). */
  pagesPerExecution?: number;
}

/**
 * One sync run of a source: plan (discover, diff, delete what vanished) → ingest each changed
 * page as its own child workflow, keeping `plan.concurrency` of them in flight → finish
 * (watermark, counts). Each execution ingests the next `pagesPerExecution` pages of the plan and
 * waits for all of them before continuing as new, so no page is processed twice or skipped.
 */
export async function syncSource(input: SyncSourceInput): Promise<SyncRun> {
  const tally: SyncTally = input.tally
    ? // A tally carried over from a run before failedCount existed counted its kept details.
      { ...input.tally, failedCount: input.tally.failedCount ?? input.tally.failed.length }
    : { ready: 0, chunksEmbedded: 0, chunksReused: 0, busy: 0, failedCount: 0, failed: [], gone: [] };
  try {
    const plan = input.plan ?? (await planning.planSync({ runId: input.runId }));
    const from = input.offset ?? 0;
    const pagesPerExecution = Math.max(1, input.pagesPerExecution ?? PAGES_PER_EXECUTION);
    const to = Math.min(plan.changedCount, from + pagesPerExecution);
    const progress = new ProgressRecorder(input.runId, tally);
    await ingestPages(plan, from, to, tally, progress);
    if (to < plan.changedCount) {
      await progress.flush();
      return await continueAsNew<typeof syncSource>({
        runId: input.runId,
        plan,
        offset: to,
        tally,
        pagesPerExecution: input.pagesPerExecution,
      });
    }
    return await bookkeeping.finishSync({ runId: input.runId, tally, watermark: plan.watermark });
  } catch (error) {
    // Continuing as new is thrown too: it is how this execution ends, not a failure of the run.
    if (isCancellation(error) || error instanceof ContinueAsNew) throw error;
    const { code, message } = describeFailure(error);
    await bookkeeping.failSync({ runId: input.runId, code, message });
    throw ApplicationFailure.create({ nonRetryable: true, type: code, message });
  }
}

/** How one unit (a batch, or one page) ended for the window: it never rejects, so nothing is left unobserved. */
type Settled =
  { key: number; pages: number; ok: true } | { key: number; pages: number; ok: false; error: unknown };

/**
 * Ingests the plan's pages `from` (inclusive) to `to` (exclusive) as a sliding window of units: a
 * batch of `plan.batchDocuments` small pages ingested by one activity, or one page as its own
 * child workflow (when batches are off, or for a page a batch handed back: a large one, or one
 * whose faults need its own retries). A new unit starts as soon as one finishes, so a slow unit
 * holds one slot, not the whole window. Returns once every started unit has finished. A failure
 * that ends the run (a rejected token, cancellation, a bookkeeping fault) stops new starts and is
 * rethrown only after the units in flight finished: no ingest of this run outlives it.
 */
async function ingestPages(
  plan: SyncPlan,
  from: number,
  to: number,
  tally: SyncTally,
  progress: ProgressRecorder,
): Promise<void> {
  const window = Math.max(1, plan.concurrency ?? DEFAULT_CONCURRENT_PAGES);
  const perBatch = Math.max(1, plan.batchDocuments ?? 1);
  const inFlight = new Map<number, Promise<Settled>>();
  const ready: string[] = [];
  /** Pages a batch handed back, each to be ingested as its own child workflow. */
  const alone: string[] = [];
  let read = from;
  let started = 0;
  let fatal: { error: unknown } | undefined;
  const settle = (key: number, pages: number, work: Promise<void>) =>
    work.then(
      (): Settled => ({ key, pages, ok: true }),
      (error: unknown): Settled => ({ key, pages, ok: false, error }),
    );
  for (;;) {
    try {
      while (!fatal && inFlight.size < window && (alone.length > 0 || ready.length > 0 || read < to)) {
        const key = started++;
        if (alone.length > 0) {
          // Handed back by a batch, which counted it already.
          inFlight.set(key, settle(key, 0, ingestPage(alone.shift()!, tally)));
          continue;
        }
        while (ready.length < perBatch && read < to) {
          const limit = Math.min(PLAN_IDS_PER_READ, to - read);
          const ids = await bookkeeping.readPlanBatch({ changedKey: plan.changedKey, offset: read, limit });
          if (ids.length !== limit) {
            throw ApplicationFailure.create({
              nonRetryable: true,
              type: TroveErrorCode.SyncPlanShort,
              message: `the sync plan gave ${ids.length} page ids at offset ${read}, ${limit} expected`,
            });
          }
          ready.push(...ids);
          read += ids.length;
        }
        const ids = ready.splice(0, perBatch);
        inFlight.set(
          key,
          settle(
            key,
            ids.length,
            perBatch > 1 ? ingestBatch(plan, ids, tally, alone) : ingestPage(ids[0], tally),
          ),
        );
      }
    } catch (error) {
      fatal ??= { error };
    }
    if (inFlight.size === 0) break;
    const done = await Promise.race(inFlight.values());
    inFlight.delete(done.key);
    if (!done.ok) fatal ??= { error: done.error };
    progress.pagesDone(done.pages);
    fatal ??= progress.failure;
  }
  await progress.idle();
  fatal ??= progress.failure;
  if (fatal) throw fatal.error;
}

/**
 * Ingests a batch of pages in one activity on the bulk lane and tallies each page's outcome;
 * pages it hands back go to `alone`, to be ingested one by one.
 */
async function ingestBatch(
  plan: SyncPlan,
  documentIds: string[],
  tally: SyncTally,
  alone: string[],
): Promise<void> {
  const { batches } = ingestLanes();
  const result = await batches.ingestBatch({ documentIds, limits: plan.batchLimits });
  for (const page of result.ready) {
    tally.ready++;
    tally.chunksEmbedded += page.chunkCount - page.reused;
    tally.chunksReused += page.reused;
  }
  for (const { documentId, code, message } of result.failed) countFailure(tally, documentId, code, message);
  alone.push(...result.handedBack);
}

/** The batch activity on the bulk lane: retried as a whole a few times, then it isolates its pages. */
function ingestLanes() {
  return {
    batches: proxyActivities<IngestBatchActivities>({
      taskQueue: laneTaskQueue(workflowInfo().taskQueue, 'bulk'),
      cancellationType: AWAIT_STOP,
      startToCloseTimeout: '10m',
      heartbeatTimeout: '30s',
      scheduleToCloseTimeout: '2h',
      retry: untilServiceReturns,
    }),
  };
}

/**
 * Writes live progress now and then, not per page (workflow time: replays decide the same). A
 * write runs beside the window instead of holding it; one at a time, so they land in order.
 */
class ProgressRecorder {
  /** Set once a write failed (after its retries): the run ends with it. */
  failure?: { error: unknown };
  /** Zero: the first finished page is written at once, so a watcher sees the run move. */
  private recordedAt = 0;
  private unrecorded = 0;
  private writing?: Promise<void>;

  constructor(
    private readonly runId: string,
    private readonly tally: SyncTally,
  ) {}

  /** Counts finished pages; starts a write if one is due and none is under way. */
  pagesDone(pages: number): void {
    this.unrecorded += Math.max(1, pages);
    const due =
      this.unrecorded >= PROGRESS_EVERY_PAGES || Date.now() - this.recordedAt >= PROGRESS_INTERVAL_MS;
    if (due && !this.writing && !this.failure) this.write();
  }

  /** Waits for the write under way, if any. */
  async idle(): Promise<void> {
    await this.writing;
  }

  /** Writes what was not written yet, and waits for it; throws if a write failed. */
  async flush(): Promise<void> {
    await this.idle();
    if (!this.failure && this.unrecorded > 0) this.write();
    await this.idle();
    if (this.failure) throw this.failure.error;
  }

  private write(): void {
    this.unrecorded = 0;
    this.recordedAt = Date.now();
    // The tally is serialized into the activity's input here, before later pages change it.
    this.writing = bookkeeping.recordProgress({ runId: this.runId, tally: this.tally }).then(
      () => {
        this.writing = undefined;
      },
      (error: unknown) => {
        this.writing = undefined;
        this.failure = { error };
      },
    );
  }
}

async function ingestPage(documentId: string, tally: SyncTally): Promise<void> {
  try {
    const result = await executeChild(ingestDocument, {
      workflowId: ingestWorkflowId(documentId),
      args: [{ documentId }],
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

/** A page that failed for good: gone from its source, or failed with a reason. */
function countFailure(tally: SyncTally, documentId: string, code: string, message: string): void {
  if (code === TroveErrorCode.SourceItemGone) {
    tally.gone.push({ documentId, reason: message });
    return;
  }
  tally.failedCount++;
  if (tally.failed.length < FAILURE_DETAILS_KEPT) tally.failed.push({ documentId, reason: message });
}

/**
 * What a source's Temporal Schedule starts: a new INCREMENTAL run, executed as the source's sync
 * workflow. If a sync is already running, this run is recorded as skipped.
 */
export async function scheduledSync(sourceId: string): Promise<void> {
  const runId = await bookkeeping.createScheduledRun({ sourceId });
  if (!runId) return;
  try {
    await executeChild(syncSource, { workflowId: syncWorkflowId(sourceId), args: [{ runId }] });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    await bookkeeping.cancelRun({ runId, reason: 'another sync of this source was running' });
  }
}
