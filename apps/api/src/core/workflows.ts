import type {
  Client as TemporalClient,
  ScheduleOptionsStartWorkflowAction,
  WorkflowHandleWithSignaledRunId,
  WorkflowHandleWithStartDetails,
  WorkflowStartOptions,
} from '@temporalio/client';
import type { TroveSignals, TroveWorkflows } from '@trove/domain';

/*
 * The api may not import the workflow code (it is the worker's), so it starts workflows by name:
 * these helpers take the name from the shared contract and type-check `args` (and `signalArgs`)
 * against it, instead of passing a free string with untyped arguments.
 */

/** Starts the workflow `name` with arguments checked against `TroveWorkflows[name]`. */
export function startWorkflow<K extends keyof TroveWorkflows>(
  client: TemporalClient,
  name: K,
  options: WorkflowStartOptions<TroveWorkflows[K]>,
): Promise<WorkflowHandleWithStartDetails<TroveWorkflows[K]>> {
  return client.workflow.start<TroveWorkflows[K]>(name, options);
}

/** Options of `signalWithStart`: the workflow's start options plus the signal's arguments. */
export type SignalWithStartOptions<K extends keyof TroveWorkflows, S extends keyof TroveSignals> = Omit<
  WorkflowStartOptions<TroveWorkflows[K]>,
  'requestEagerStart'
> & { signalArgs: TroveSignals[S] };

/**
 * Sends `signal` to the workflow `name`, starting it first if it is not running; both argument
 * lists are checked against the contract.
 */
export function signalWithStart<K extends keyof TroveWorkflows, S extends keyof TroveSignals>(
  client: TemporalClient,
  name: K,
  signal: S,
  options: SignalWithStartOptions<K, S>,
): Promise<WorkflowHandleWithSignaledRunId<TroveWorkflows[K]>> {
  // Temporal's options type is conditional on the argument lists: for any one workflow and signal
  // it is the shape above plus `signal`, but TypeScript cannot see that while K and S are generic.
  const withSignal = { ...options, signal } as unknown as Parameters<
    typeof client.workflow.signalWithStart<TroveWorkflows[K], TroveSignals[S]>
  >[1];
  return client.workflow.signalWithStart<TroveWorkflows[K], TroveSignals[S]>(name, withSignal);
}

/** The action of a Temporal Schedule that starts the workflow `name`, its `args` type-checked. */
export function scheduledStart<K extends keyof TroveWorkflows>(
  name: K,
  options: Omit<ScheduleOptionsStartWorkflowAction<TroveWorkflows[K]>, 'type' | 'workflowType'>,
): ScheduleOptionsStartWorkflowAction<TroveWorkflows[K]> {
  return { ...options, type: 'startWorkflow', workflowType: name } as ScheduleOptionsStartWorkflowAction<
    TroveWorkflows[K]
  >;
}
