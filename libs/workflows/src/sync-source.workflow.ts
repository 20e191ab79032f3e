import {
  ApplicationFailure,
  CancellationScope,
  ContinueAsNew,
  continueAsNew,
  executeChild,
  isCancellation,
  proxyActivities,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { SyncRun } from '@trove/domain';
import { ingestPriority, syncWorkflowId, TroveErrorCode } from '@trove/domain';
import type { ScheduledRun, SyncActivities, SyncPlan, SyncTally } from '@trove/ingest-activities';
import { AWAIT_STOP, describeFailure } from './ingest-document.workflow';
import { emptyTally, IngestWindow } from './ingest-window';

/** Continue as new after this many pages, far below Temporal's event-history limits. */
const PAGES_PER_EXECUTION = 400;
/** Plan ids read per activity: a few reads per execution, small payloads. */
const PLAN_IDS_PER_READ = 200;
/** Live progress is written when this much workflow time or this many pages passed since the last write. */
const PROGRESS_INTERVAL_MS = 2_000;
const PROGRESS_EVERY_PAGES = 100;

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
 * One sync run of a source: plan (discover, diff, delete what vanished) → ingest the changed
 * pages, small ones in batches and large ones each as its own child workflow, keeping
 * `plan.concurrency` units in flight → finish
 * (watermark, counts). Each execution ingests the next `pagesPerExecution` pages of the plan and
 * waits for all of them before continuing as new, so no page is processed twice or skipped.
 */
export async function syncSource(input: SyncSourceInput): Promise<SyncRun> {
  const tally: SyncTally = input.tally
    ? // A tally carried over from a run before failedCount existed counted its kept details.
      { ...input.tally, failedCount: input.tally.failedCount ?? input.tally.failed.length }
    : emptyTally();
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
    if (error instanceof ContinueAsNew) throw error;
    if (isCancellation(error)) {
      // The children and activities in flight were cancelled with the run; recording its end must
      // not be. Pages ingested so far stay: the next sync finds them unchanged.
      await CancellationScope.nonCancellable(() => bookkeeping.endCancelledSync({ runId: input.runId }));
      throw error;
    }
    const { code, message } = describeFailure(error);
    await bookkeeping.failSync({ runId: input.runId, code, message });
    throw ApplicationFailure.create({ nonRetryable: true, type: code, message });
  }
}

/**
 * Ingests the plan's pages `from` (inclusive) to `to` (exclusive) through the window of units
 * (batches of small pages, single pages as child workflows), reading the plan's ids as it goes.
 */
async function ingestPages(
  plan: SyncPlan,
  from: number,
  to: number,
  tally: SyncTally,
  progress: ProgressRecorder,
): Promise<void> {
  let read = from;
  const next = async (): Promise<string[]> => {
    if (read >= to) return [];
    const limit = Math.min(PLAN_IDS_PER_READ, to - read);
    const ids = await bookkeeping.readPlanBatch({ changedKey: plan.changedKey, offset: read, limit });
    if (ids.length !== limit) {
      throw ApplicationFailure.create({
        nonRetryable: true,
        type: TroveErrorCode.SyncPlanShort,
        message: `the sync plan gave ${ids.length} page ids at offset ${read}, ${limit} expected`,
      });
    }
    read += ids.length;
    return ids;
  };
  const window = new IngestWindow(plan, tally, {
    unitDone: (pages) => progress.pagesDone(pages),
    failure: () => progress.failure,
  });
  try {
    await window.run(next);
  } finally {
    await progress.idle();
  }
  if (progress.failure) throw progress.failure.error;
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

/**
 * What a source's Temporal Schedule starts: a new INCREMENTAL run, executed as the source's sync
 * workflow with its project as the fairness key (a schedule's action carries no priority, so the
 * run gets it here; its children and activities inherit it). If a sync is already running, this
 * run is recorded as skipped.
 */
export async function scheduledSync(sourceId: string): Promise<void> {
  // A history recorded before the activity named the project holds the run id alone.
  const created: ScheduledRun | string | undefined = await bookkeeping.createScheduledRun({ sourceId });
  if (!created) return;
  const { runId, projectId } = typeof created === 'string' ? { runId: created, projectId: '' } : created;
  try {
    await executeChild(syncSource, {
      workflowId: syncWorkflowId(sourceId),
      args: [{ runId }],
      ...(projectId ? { priority: ingestPriority(projectId) } : {}),
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    await bookkeeping.cancelRun({ runId, reason: 'another sync of this source was running' });
  }
}
