/** Whether a RUNNING sync run is moving. The stored status stays RUNNING either way: a stall ends by itself. */
export enum SyncHealthState {
  OK = 'OK',
  /** Its progress has not moved for TROVE_SYNC_STALL_SECONDS. */
  STALLED = 'STALLED',
}

/** Why a stalled run is not moving, as Temporal tells it. */
export enum StallReason {
  /** No worker polls the task queue its next task is on: start one (or check its task queue). */
  NO_WORKER = 'NO_WORKER',
  /** An activity fails and is being retried; `message` holds its last error. */
  ACTIVITY_RETRYING = 'ACTIVITY_RETRYING',
  /** An activity is held by a rate limit (the source's, e.g. Notion answering 429). */
  RATE_LIMITED = 'RATE_LIMITED',
  /** The run's workflow is closed or unknown to Temporal: the run will not move again. */
  WORKFLOW_NOT_RUNNING = 'WORKFLOW_NOT_RUNNING',
  /** Temporal shows work under way without a fault (a slow activity), or could not be asked. */
  UNKNOWN = 'UNKNOWN',
}

/** A pending activity of the sync workflow or of one of its child ingests, as Temporal describes it. */
export interface PendingActivityView {
  activityType: string;
  /** The workflow it belongs to (the sync's, or a child ingest's). */
  workflowId: string;
  /** Not started by a worker yet (waiting in its task queue, or for its next retry). */
  scheduled: boolean;
  attempt: number;
  lastFailure?: { type?: string; message: string };
  /** Its task queue when Temporal says; otherwise one of the workflow's queues. */
  taskQueue?: string;
}

/** What Temporal says about a run's workflow, gathered by SyncRunHealthService. */
export interface StallEvidence {
  /** False: the workflow is closed or not found. */
  running: boolean;
  /** The workflow's own (control) task queue. */
  taskQueue: string;
  /** The queues work of this workflow may wait on when an activity's own queue is unknown. */
  laneQueues: string[];
  /** A workflow task waits to be picked up (the workflow has not run its next step). */
  workflowTaskPending: boolean;
  activities: PendingActivityView[];
  /** Live pollers per task queue ("<queue>/workflow" or "<queue>/activity"). */
  pollers: Record<string, number>;
}

export interface StallDiagnosis {
  reason: StallReason;
  message: string;
}

const RATE_LIMIT = /\b429\b|rate[ _-]?limit/i;

/** The key of a task queue's poller count in `StallEvidence.pollers`. */
export function pollerKey(taskQueue: string, kind: 'workflow' | 'activity'): string {
  return `${taskQueue}/${kind}`;
}

/**
 * Why a run whose progress stopped is not moving, from what Temporal says, most actionable first:
 * the workflow is gone; a task waits on a queue nobody polls; an activity is rate limited; an
 * activity is retrying (with its last error); else work is under way with no fault to show.
 */
export function classifyStall(evidence: StallEvidence): StallDiagnosis {
  if (!evidence.running) {
    return {
      reason: StallReason.WORKFLOW_NOT_RUNNING,
      message: "the sync's workflow is not running in Temporal; this run will not move again",
    };
  }
  const polled = (queue: string, kind: 'workflow' | 'activity') =>
    (evidence.pollers[pollerKey(queue, kind)] ?? 0) > 0;

  for (const activity of evidence.activities) {
    if (!activity.scheduled) continue;
    const queues = activity.taskQueue ? [activity.taskQueue] : [evidence.taskQueue, ...evidence.laneQueues];
    const unpolled = queues.filter((queue) => !polled(queue, 'activity'));
    if (unpolled.length === queues.length) {
      return {
        reason: StallReason.NO_WORKER,
        message: `no worker is polling task queue ${unpolled.join(', ')}: activity ${activity.activityType} waits for one`,
      };
    }
  }
  if (evidence.workflowTaskPending && !polled(evidence.taskQueue, 'workflow')) {
    return {
      reason: StallReason.NO_WORKER,
      message: `no worker is polling task queue ${evidence.taskQueue}: the sync's workflow waits for one`,
    };
  }

  const failing = evidence.activities.filter((a) => a.lastFailure);
  // A source's or the embedder's 429 that outlasted the client's own retries fails the attempt.
  const limited = failing.find((a) =>
    RATE_LIMIT.test(`${a.lastFailure!.type ?? ''} ${a.lastFailure!.message}`),
  );
  if (limited) {
    return {
      reason: StallReason.RATE_LIMITED,
      message: `activity ${limited.activityType} waits for a rate limit (attempt ${limited.attempt}): ${limited.lastFailure!.message}`,
    };
  }
  if (failing.length > 0) {
    const worst = failing.reduce((a, b) => (b.attempt > a.attempt ? b : a));
    const others = failing.length > 1 ? ` (and ${failing.length - 1} more failing)` : '';
    const type = worst.lastFailure!.type ? `${worst.lastFailure!.type}: ` : '';
    return {
      reason: StallReason.ACTIVITY_RETRYING,
      message: `activity ${worst.activityType} is retrying (attempt ${worst.attempt})${others}; last error: ${type}${worst.lastFailure!.message}`,
    };
  }
  if (evidence.activities.length > 0) {
    const names = [...new Set(evidence.activities.map((a) => a.activityType))].join(', ');
    return {
      reason: StallReason.UNKNOWN,
      message: `activity ${names} is pending without a failure so far (slow, waiting for a free worker slot, or on a worker that died and whose heartbeat has not timed out yet)`,
    };
  }
  return {
    reason: StallReason.UNKNOWN,
    message: 'Temporal shows no pending activity and no worker missing',
  };
}
