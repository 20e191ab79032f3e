import {
  allHandlersFinished,
  ApplicationFailure,
  ChildWorkflowFailure,
  condition,
  continueAsNew,
  defineSignal,
  executeChild,
  ParentClosePolicy,
  patched,
  proxyActivities,
  setHandler,
  sleep,
  startChild,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { SourceEvent, SourceEventsTiming, TroveSignals } from '@trove/domain';
import { ingestWorkflowId, TroveErrorCode } from '@trove/domain';
import type { WebhookActivities } from '@trove/ingest-activities';
import { AWAIT_STOP, describeFailure, ingestDocument } from './ingest-document.workflow';
import { scheduledSync } from './sync-source.workflow';

/** Used when the starter passes no timing (the api passes its configuration). */
const DEFAULT_TIMING: SourceEventsTiming = { quietMs: 2_000, maxDelayMs: 15_000, historyLimit: 4_000 };
/** With nothing to do for this long, the workflow ends; the next event starts it again. */
const IDLE = '10m';
const CONCURRENT_PAGES = 4;

export const sourceEventsSignal = defineSignal<TroveSignals['sourceEvents']>(
  'sourceEvents' satisfies keyof TroveSignals,
);

/**
 * The signal's name before it was generic. A workflow started by the previous release, and an api
 * of that release still running during an upgrade, send this one: it is handled exactly as
 * `sourceEventsSignal`, so their events are applied rather than left unhandled.
 */
export const notionEventsSignal = defineSignal<TroveSignals['notionEvents']>(
  'notionEvents' satisfies keyof TroveSignals,
);

const activities = proxyActivities<WebhookActivities>({
  cancellationType: AWAIT_STOP,
  startToCloseTimeout: '5m',
  scheduleToCloseTimeout: '1h',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' },
});

/**
 * Applies the webhook events of one source, whatever its type (the source's connector reduces
 * them). Started with signal-with-start by the webhook endpoint; collects events until a quiet
 * period — or, under a steady stream, until the maximum delay since the first pending event —
 * then removes deleted items and re-ingests changed ones (each by its own ingest workflow, as a
 * sync does). Continues as new, carrying pending events, well before Temporal's history limits.
 */
export async function sourceEvents(
  sourceId: string,
  carried: SourceEvent[] = [],
  timing: Partial<SourceEventsTiming> = {},
  carriedBacklog: string[] = [],
): Promise<void> {
  const { quietMs, maxDelayMs, historyLimit } = { ...DEFAULT_TIMING, ...timing };
  let pending: SourceEvent[] = [...carried];
  /** Documents still to ingest from applied events: worked off a few at a time. */
  let backlog = [...carriedBacklog];
  let received = 0;
  /** When the oldest pending event arrived (workflow time): the maximum delay counts from here. */
  let firstPendingAt = Date.now();
  const receive = (events: SourceEvent[]) => {
    if (!pending.length) firstPendingAt = Date.now();
    pending.push(...events);
    received += events.length;
  };
  setHandler(sourceEventsSignal, receive);
  setHandler(notionEventsSignal, receive);
  const overdue = () => pending.length > 0 && Date.now() - firstPendingAt >= maxDelayMs;
  const historyFull = () => {
    const info = workflowInfo();
    return info.continueAsNewSuggested || info.historyLength >= historyLimit;
  };

  while (!historyFull()) {
    // New events are applied when the backlog is done, or before it once they are overdue.
    if (!backlog.length || overdue()) {
      // A signal may land in the same task as the idle timeout: only leave with nothing pending.
      if (!(await condition(() => pending.length > 0, IDLE)) && pending.length === 0) return;
      // Debounce with one timer per quiet period (not one per signal, which doubled the history).
      for (let seen = received; ; seen = received) {
        const left = maxDelayMs - (Date.now() - firstPendingAt);
        if (left <= 0 || historyFull()) break;
        await sleep(Math.min(quietMs, left));
        if (received === seen) break;
      }
      const events = pending;
      pending = [];
      const { ingest, resync } = await activities.applySourceEvents({ sourceId, events });
      backlog = [...new Set([...backlog, ...ingest])];
      // Events no item-level update expresses (a pushed commit, a changed database): an
      // INCREMENTAL run, started as a schedule starts one (skipped if a sync is running).
      if (resync && patched('webhook-resync')) {
        await startChild(scheduledSync, {
          workflowId: `webhook-sync-${sourceId}-${uuid4()}`,
          args: [sourceId],
          parentClosePolicy: ParentClosePolicy.ABANDON,
        });
      }
    }
    // Signals keep adding history while pages ingest: check the limit after every few pages
    // and carry the rest over rather than finishing a long batch in this run.
    const gone: string[] = [];
    await Promise.all(backlog.splice(0, CONCURRENT_PAGES).map((id) => ingestChangedPage(id, gone)));
    if (gone.length) await activities.removeDocuments({ documentIds: gone });
  }
  // The handler is synchronous, so every signal received so far is in `pending`; should one arrive
  // while this run closes, the server refuses the close and the task reruns with it.
  await condition(allHandlersFinished);
  // A run continues as its own workflow type: a run of the old type stays one until it idles out.
  await continueAsNew<typeof sourceEvents>(sourceId, pending, timing, backlog);
}

/**
 * `sourceEvents` under the workflow type the previous release started (`notionWebhookEvents`).
 * Temporal finds a workflow's code by its type, the export name, so runs started before the rename
 * — and their continue-as-new runs, which keep the type — still have code to replay and finish
 * with. Registering handlers adds no command, so their histories replay unchanged. A run of this
 * type ends once it idles (10 minutes without events); the next event starts a `sourceEvents` run
 * under the same workflow id. A function of its own, not a re-export, because starting by function
 * uses the function's name as the type.
 */
export async function notionWebhookEvents(...args: Parameters<typeof sourceEvents>): Promise<void> {
  return sourceEvents(...args);
}

async function ingestChangedPage(documentId: string, gone: string[]): Promise<void> {
  try {
    await executeChild(ingestDocument, {
      workflowId: ingestWorkflowId(documentId),
      // Someone edited the page just now: its ingest never queues behind an import.
      args: [{ documentId, lane: 'interactive' }],
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    });
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return; // a sync is ingesting it now
    if (!(error instanceof ChildWorkflowFailure)) throw error;
    const { code } = describeFailure(error.cause);
    if (code === TroveErrorCode.SourceItemGone) gone.push(documentId);
    else if (code === TroveErrorCode.SourceUnauthorized)
      throw ApplicationFailure.create({
        nonRetryable: true,
        type: code,
        message: 'the source rejected its credentials',
      });
  }
}
