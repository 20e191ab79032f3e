import {
  ApplicationFailure,
  ChildWorkflowFailure,
  ContinueAsNew,
  continueAsNew,
  executeChild,
  isCancellation,
  proxyActivities,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { SyncRun } from '@trove/domain';
import { ingestWorkflowId, syncWorkflowId } from '@trove/domain';
import type { SyncActivities, SyncPlan, SyncTally } from '@trove/ingest-activities';
import { AWAIT_STOP, describeFailure, ingestDocument } from './ingest-document.workflow';

/** Pages ingested at once (child workflows); the Notion pacing limits the rate further. */
const CONCURRENT_PAGES = 4;
/** Continue as new after this many pages, far below Temporal's event-history limits. */
const PAGES_PER_EXECUTION = 400;
const FAILURE_DETAILS_KEPT = 200;
// Failure types of the ingest activities (kept as literals: workflow code imports no activity code).
const SOURCE_ITEM_GONE = 'SOURCE_ITEM_GONE';
const NOTION_UNAUTHORIZED = 'NOTION_UNAUTHORIZED';

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
}

/**
 * One sync run of a source: plan (discover, diff, delete what vanished) → ingest each changed
 * page as its own child workflow, a few at a time → finish (watermark, counts). Pages already
 * ingested before a crash or a continue-as-new are not processed again.
 */
export async function syncSource(input: SyncSourceInput): Promise<SyncRun> {
  const tally: SyncTally = input.tally
    ? // A tally carried over from a run before failedCount existed counted its kept details.
      { ...input.tally, failedCount: input.tally.failedCount ?? input.tally.failed.length }
    : { ready: 0, chunksEmbedded: 0, chunksReused: 0, busy: 0, failedCount: 0, failed: [], gone: [] };
  try {
    const plan = input.plan ?? (await planning.planSync({ runId: input.runId }));
    let offset = input.offset ?? 0;
    let processed = 0;
    while (offset < plan.changedCount) {
      if (processed >= PAGES_PER_EXECUTION) {
        return await continueAsNew<typeof syncSource>({ runId: input.runId, plan, offset, tally });
      }
      const ids = await bookkeeping.readPlanBatch({
        changedKey: plan.changedKey,
        offset,
        limit: CONCURRENT_PAGES,
      });
      await Promise.all(ids.map((documentId) => ingestPage(documentId, tally)));
      offset += ids.length;
      processed += ids.length;
      await bookkeeping.recordProgress({ runId: input.runId, tally });
    }
    return await bookkeeping.finishSync({ runId: input.runId, tally, newestEdit: plan.newestEdit });
  } catch (error) {
    // Continuing as new is thrown too: it is how this execution ends, not a failure of the run.
    if (isCancellation(error) || error instanceof ContinueAsNew) throw error;
    const { code, message } = describeFailure(error);
    await bookkeeping.failSync({ runId: input.runId, code, message });
    throw ApplicationFailure.create({ nonRetryable: true, type: code, message });
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
    if (code === NOTION_UNAUTHORIZED)
      throw ApplicationFailure.create({ nonRetryable: true, type: code, message });
    if (code === SOURCE_ITEM_GONE) {
      tally.gone.push({ documentId, reason: message });
      return;
    }
    tally.failedCount++;
    if (tally.failed.length < FAILURE_DETAILS_KEPT) tally.failed.push({ documentId, reason: message });
  }
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
