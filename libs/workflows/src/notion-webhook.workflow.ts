import {
  ApplicationFailure,
  ChildWorkflowFailure,
  condition,
  continueAsNew,
  defineSignal,
  executeChild,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { NotionEvent } from '@trove/domain';
import { ingestWorkflowId } from '@trove/domain';
import type { WebhookActivities } from '@trove/ingest-activities';
import { AWAIT_STOP, describeFailure, ingestDocument } from './ingest-document.workflow';

/** Events arriving within this quiet period are handled together (bursts are debounced). */
const DEBOUNCE = '2s';
/** With nothing to do for this long, the workflow ends; the next event starts it again. */
const IDLE = '10m';
const BATCHES_PER_EXECUTION = 100;
const CONCURRENT_PAGES = 4;

export const notionEventsSignal = defineSignal<[NotionEvent[]]>('notionEvents');

const activities = proxyActivities<WebhookActivities>({
  cancellationType: AWAIT_STOP,
  startToCloseTimeout: '5m',
  scheduleToCloseTimeout: '1h',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' },
});

/**
 * Applies Notion webhook events for one source. Started with signal-with-start by the webhook
 * endpoint; collects events until a quiet period, then removes deleted pages and re-ingests
 * changed ones (each by its own ingest workflow, as a sync does).
 */
export async function notionWebhookEvents(sourceId: string, carried: NotionEvent[] = []): Promise<void> {
  let pending: NotionEvent[] = [...carried];
  setHandler(notionEventsSignal, (events) => {
    pending.push(...events);
  });
  for (let batch = 0; batch < BATCHES_PER_EXECUTION; batch++) {
    if (!(await condition(() => pending.length > 0, IDLE))) return;
    // Debounce: keep collecting while events keep coming.
    for (;;) {
      const seen = pending.length;
      await condition(() => pending.length > seen, DEBOUNCE);
      if (pending.length === seen) break;
    }
    const events = pending;
    pending = [];
    const work = await activities.applyNotionEvents({ sourceId, events });
    const gone: string[] = [];
    for (let i = 0; i < work.ingest.length; i += CONCURRENT_PAGES) {
      await Promise.all(work.ingest.slice(i, i + CONCURRENT_PAGES).map((id) => ingestChangedPage(id, gone)));
    }
    if (gone.length) await activities.removeDocuments({ documentIds: gone });
  }
  await continueAsNew<typeof notionWebhookEvents>(sourceId, pending);
}

async function ingestChangedPage(documentId: string, gone: string[]): Promise<void> {
  try {
    await executeChild(ingestDocument, {
      workflowId: ingestWorkflowId(documentId),
      args: [{ documentId }],
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    });
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return; // a sync is ingesting it now
    if (!(error instanceof ChildWorkflowFailure)) throw error;
    const { code } = describeFailure(error.cause);
    if (code === 'SOURCE_ITEM_GONE') gone.push(documentId);
    else if (code === 'NOTION_UNAUTHORIZED')
      throw ApplicationFailure.create({
        nonRetryable: true,
        type: code,
        message: 'Notion rejected the token',
      });
  }
}
