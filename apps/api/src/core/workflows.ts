import type {
  ScheduleOptions,
  ScheduleOptionsStartWorkflowAction,
  WorkflowExecutionStatusName,
  WorkflowStartOptions,
} from '@temporalio/client';
import type { TroveSignals, TroveWorkflows } from '@trove/domain';

/*
 * What the api's services ask of Temporal, as narrow ports: `TemporalWorkflows` implements them
 * over @temporalio/client, a test fake implements the ones its subject uses. The api may not
 * import the workflow code (it is the worker's), so workflows are started by name: the name comes
 * from the shared contract and `args` (and `signalArgs`) are type-checked against it, instead of
 * a free string with untyped arguments. Errors are Temporal's own (`WorkflowNotFoundError`,
 * `WorkflowExecutionAlreadyStartedError`, `ScheduleNotFoundError`), so callers tell them apart.
 */

/** A workflow execution started (or joined) by the api. */
export interface StartedWorkflow {
  readonly workflowId: string;
  /** Waits until it closes: its result, or its failure. */
  result(): Promise<unknown>;
}

/** Options of `signalWithStart`: the workflow's start options plus the signal's arguments. */
export type SignalWithStartOptions<K extends keyof TroveWorkflows, S extends keyof TroveSignals> = Omit<
  WorkflowStartOptions<TroveWorkflows[K]>,
  'requestEagerStart'
> & { signalArgs: TroveSignals[S] };

/** Starting workflows by their contract names. */
export interface WorkflowStarts {
  /** Starts the workflow `name` with arguments checked against `TroveWorkflows[name]`. */
  start<K extends keyof TroveWorkflows>(
    name: K,
    options: WorkflowStartOptions<TroveWorkflows[K]>,
  ): Promise<StartedWorkflow>;
  /**
   * Sends `signal` to the workflow `name`, starting it first if it is not running; both argument
   * lists are checked against the contract.
   */
  signalWithStart<K extends keyof TroveWorkflows, S extends keyof TroveSignals>(
    name: K,
    signal: S,
    options: SignalWithStartOptions<K, S>,
  ): Promise<void>;
}

/** Stopping or awaiting a running workflow by id; `WorkflowNotFoundError` when there is none. */
export interface WorkflowControl {
  /** Asks it to cancel (it cleans up and closes by itself). */
  cancel(workflowId: string): Promise<void>;
  /** Ends it at once, recording `reason`. */
  terminate(workflowId: string, reason: string): Promise<void>;
  /** Waits until its latest run closes: its result, or its failure. */
  result(workflowId: string): Promise<unknown>;
}

/** The parts of Temporal's PendingActivityInfo a stall diagnosis reads. */
export interface PendingActivity {
  activityType?: { name?: string | null } | null;
  state?: number | null;
  attempt?: number | null;
  lastFailure?: { message?: string | null; applicationFailureInfo?: { type?: string | null } | null } | null;
  activityOptions?: { taskQueue?: { name?: string | null } | null } | null;
}

/** A workflow execution as a stall diagnosis sees it. */
export interface WorkflowState {
  status: WorkflowExecutionStatusName;
  taskQueue: string;
  /** A workflow task is scheduled or running (the workflow code has work to do). */
  workflowTaskPending: boolean;
  pendingActivities: PendingActivity[];
  /** Workflow ids of its running children. */
  pendingChildren: string[];
}

/** Reading a workflow's state and who polls a task queue (why a run does not move). */
export interface WorkflowInspection {
  describe(workflowId: string): Promise<WorkflowState>;
  /** When each poller of the task queue last polled, ms since the epoch (0 when not said). */
  pollerTimes(taskQueue: string, kind: 'workflow' | 'activity'): Promise<number[]>;
}

/** Temporal Schedules (a source's periodic sync); actions come from `scheduledStart`. */
export interface WorkflowSchedules {
  createSchedule(options: ScheduleOptions): Promise<void>;
  /** Removes the schedule; false when there was none. */
  deleteSchedule(scheduleId: string): Promise<boolean>;
  /** Starts its action now, as the schedule does at each interval; `ScheduleNotFoundError` when none. */
  triggerSchedule(scheduleId: string): Promise<void>;
}

/** Whether Temporal answers (readiness). */
export interface WorkflowServiceHealth {
  ping(): Promise<void>;
}

/** Everything the api asks of Temporal (`WORKFLOWS`). */
export interface Workflows
  extends WorkflowStarts, WorkflowControl, WorkflowInspection, WorkflowSchedules, WorkflowServiceHealth {}

/** The action of a Temporal Schedule that starts the workflow `name`, its `args` type-checked. */
export function scheduledStart<K extends keyof TroveWorkflows>(
  name: K,
  options: Omit<ScheduleOptionsStartWorkflowAction<TroveWorkflows[K]>, 'type' | 'workflowType'>,
): ScheduleOptionsStartWorkflowAction<TroveWorkflows[K]> {
  return { ...options, type: 'startWorkflow', workflowType: name } as ScheduleOptionsStartWorkflowAction<
    TroveWorkflows[K]
  >;
}
