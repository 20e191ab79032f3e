import type { Client } from '@temporalio/client';

// Reading workflow histories in tests: every execution of a run across continue-as-new, and the
// sliding window of child workflows as the workflow kept it.

/** The parts of a history event read here. */
export interface HistoryEvent {
  workflowExecutionStartedEventAttributes?: { continuedExecutionRunId?: string | null } | null;
  workflowTaskCompletedEventAttributes?: unknown;
  startChildWorkflowExecutionInitiatedEventAttributes?: unknown;
  startChildWorkflowExecutionFailedEventAttributes?: unknown;
  childWorkflowExecutionCompletedEventAttributes?: unknown;
  childWorkflowExecutionFailedEventAttributes?: unknown;
  childWorkflowExecutionCanceledEventAttributes?: unknown;
  childWorkflowExecutionTimedOutEventAttributes?: unknown;
  childWorkflowExecutionTerminatedEventAttributes?: unknown;
  activityTaskScheduledEventAttributes?: unknown;
  workflowExecutionCompletedEventAttributes?: unknown;
  workflowExecutionContinuedAsNewEventAttributes?: unknown;
}

/** The histories of every execution of a workflow, oldest first, following continue-as-new back. */
export async function executions(client: Client, workflowId: string): Promise<HistoryEvent[][]> {
  const histories: HistoryEvent[][] = [];
  let runId: string | undefined = (await client.workflow.getHandle(workflowId).describe()).runId;
  while (runId) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events: HistoryEvent[] = history.events ?? [];
    histories.unshift(events);
    runId = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId ?? undefined;
  }
  return histories;
}

/**
 * The window as the workflow kept it: after each of its workflow tasks (its commands included),
 * how many child workflows it had started so far and how many of them were still open. Exact
 * whatever the machine's load, unlike timings.
 */
export function windowAfterTasks(events: HistoryEvent[]): { started: number; open: number }[] {
  const closes = (e: HistoryEvent) =>
    Boolean(
      e.childWorkflowExecutionCompletedEventAttributes ||
      e.childWorkflowExecutionFailedEventAttributes ||
      e.childWorkflowExecutionCanceledEventAttributes ||
      e.childWorkflowExecutionTimedOutEventAttributes ||
      e.childWorkflowExecutionTerminatedEventAttributes ||
      e.startChildWorkflowExecutionFailedEventAttributes,
    );
  const isCommand = (e: HistoryEvent) =>
    Boolean(
      e.startChildWorkflowExecutionInitiatedEventAttributes ||
      e.activityTaskScheduledEventAttributes ||
      e.workflowExecutionCompletedEventAttributes ||
      e.workflowExecutionContinuedAsNewEventAttributes,
    );
  const after: { started: number; open: number }[] = [];
  let started = 0;
  let closed = 0;
  events.forEach((event, i) => {
    if (closes(event)) closed++;
    if (event.startChildWorkflowExecutionInitiatedEventAttributes) started++;
    if (!event.workflowTaskCompletedEventAttributes) return;
    let commandsStarted = 0;
    for (let j = i + 1; j < events.length && isCommand(events[j]); j++) {
      if (events[j].startChildWorkflowExecutionInitiatedEventAttributes) commandsStarted++;
    }
    after.push({ started: started + commandsStarted, open: started + commandsStarted - closed });
  });
  return after;
}

/** A workflow bundler logger that only reports errors. */
export const quietLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: (message: string) => console.error(message),
};
