import { Inject, Injectable, Logger } from '@nestjs/common';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { ApiConfig } from '@trove/config';
import { laneTaskQueue, type SyncRun, SyncRunStatus, syncWorkflowId } from '@trove/domain';
import { CONFIG, WORKFLOWS } from '../core/tokens';
import type { PendingActivity, WorkflowInspection, WorkflowState } from '../core/workflows';
import {
  classifyStall,
  type PendingActivityView,
  pollerKey,
  type StallEvidence,
  StallReason,
  SyncHealthState,
} from './sync-stall';

/** A run's health: STALLED with Temporal's reason once its progress has not moved for the threshold. */
export interface SyncRunHealth {
  state: SyncHealthState;
  reason?: StallReason;
  message?: string;
  /** When the run's progress last moved (a stalled run has not moved since). */
  since?: string;
}

/** How a run's health is read (SyncRunHealthService; fakes in tests). */
export interface SyncRunHealthReader {
  of(run: SyncRun): Promise<SyncRunHealth>;
}

/** Temporal is asked about one run at most this often, however many readers and followers it has. */
const DIAGNOSIS_TTL_MS = 5_000;
/** Child ingests described per run: enough to find a failing one, bounded for a wide window. */
const CHILDREN_DESCRIBED = 8;
/** A poller not seen for this long is gone (a long poll is renewed at least every 70 s or so). */
const POLLER_FRESH_MS = 90_000;
/** Temporal's PendingActivityState.SCHEDULED (temporal.api.enums.v1). */
const PENDING_ACTIVITY_STATE_SCHEDULED = 1;

/**
 * Whether a RUNNING run moves. Computed when read, never stored: a run whose progress is older
 * than TROVE_SYNC_STALL_SECONDS is STALLED with the reason its workflow's description gives
 * (an activity retrying with its last error, no worker polling the queue its task waits on, a
 * rate limit); its next progress write makes it OK again.
 */
@Injectable()
export class SyncRunHealthService implements SyncRunHealthReader {
  private readonly logger = new Logger('SyncRunHealth');
  private readonly diagnoses = new Map<string, { at: number; diagnosis: Promise<SyncRunHealth> }>();

  constructor(
    @Inject(WORKFLOWS) private readonly workflows: WorkflowInspection,
    @Inject(CONFIG) private readonly config: ApiConfig,
  ) {}

  async of(run: SyncRun, now = Date.now()): Promise<SyncRunHealth> {
    if (run.status !== SyncRunStatus.RUNNING) return { state: SyncHealthState.OK };
    const since = run.progressAt ?? run.startedAt;
    if (now - Date.parse(since) < this.config.api.syncStallSeconds * 1000) {
      this.diagnoses.delete(run.id);
      return { state: SyncHealthState.OK, since };
    }
    for (const [id, entry] of this.diagnoses)
      if (now - entry.at >= DIAGNOSIS_TTL_MS) this.diagnoses.delete(id);
    let entry = this.diagnoses.get(run.id);
    if (!entry) {
      entry = { at: now, diagnosis: this.diagnose(run) };
      this.diagnoses.set(run.id, entry);
    }
    return { ...(await entry.diagnosis), since };
  }

  private async diagnose(run: SyncRun): Promise<SyncRunHealth> {
    try {
      const { reason, message } = classifyStall(await this.evidence(syncWorkflowId(run.sourceId)));
      return { state: SyncHealthState.STALLED, reason, message };
    } catch (error) {
      this.logger.warn(`could not describe the workflow of sync run ${run.id}: ${String(error)}`);
      return {
        state: SyncHealthState.STALLED,
        reason: StallReason.UNKNOWN,
        message: 'Temporal could not be asked why (see the api log)',
      };
    }
  }

  /** The sync workflow's and its child ingests' pending work, and the pollers of the queues it waits on. */
  private async evidence(workflowId: string): Promise<StallEvidence> {
    let description: WorkflowState;
    try {
      description = await this.workflows.describe(workflowId);
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return notRunning();
      throw error;
    }
    if (description.status !== 'RUNNING') return notRunning();
    const taskQueue = description.taskQueue;
    const activities = pendingActivities(workflowId, description.pendingActivities);
    for (const child of description.pendingChildren.slice(0, CHILDREN_DESCRIBED)) {
      try {
        const { pendingActivities: pending } = await this.workflows.describe(child);
        activities.push(...pendingActivities(child, pending));
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) throw error; // closed meanwhile
      }
    }
    const laneQueues = [laneTaskQueue(taskQueue, 'bulk'), laneTaskQueue(taskQueue, 'interactive')];
    const activityQueues = new Set([taskQueue, ...laneQueues]);
    for (const activity of activities) if (activity.taskQueue) activityQueues.add(activity.taskQueue);
    const pollers: Record<string, number> = {};
    pollers[pollerKey(taskQueue, 'workflow')] = await this.livePollers(taskQueue, 'workflow');
    for (const queue of activityQueues)
      pollers[pollerKey(queue, 'activity')] = await this.livePollers(queue, 'activity');
    return {
      running: true,
      taskQueue,
      laneQueues,
      workflowTaskPending: description.workflowTaskPending,
      activities,
      pollers,
    };
  }

  /** Pollers of a task queue seen recently (Temporal lists pollers for minutes after they left). */
  private async livePollers(taskQueue: string, kind: 'workflow' | 'activity'): Promise<number> {
    const seen = await this.workflows.pollerTimes(taskQueue, kind);
    const now = Date.now();
    return seen.filter((at) => now - at < POLLER_FRESH_MS).length;
  }
}

function pendingActivities(workflowId: string, pending: PendingActivity[]): PendingActivityView[] {
  return pending.map((activity) => {
    const failure = activity.lastFailure;
    const type = failure?.applicationFailureInfo?.type ?? undefined;
    const view: PendingActivityView = {
      activityType: activity.activityType?.name ?? 'unknown',
      workflowId,
      scheduled: activity.state === PENDING_ACTIVITY_STATE_SCHEDULED,
      attempt: activity.attempt ?? 1,
    };
    if (failure?.message) view.lastFailure = { ...(type ? { type } : {}), message: failure.message };
    const queue = activity.activityOptions?.taskQueue?.name;
    if (queue) view.taskQueue = queue;
    return view;
  });
}

function notRunning(): StallEvidence {
  return {
    running: false,
    taskQueue: '',
    laneQueues: [],
    workflowTaskPending: false,
    activities: [],
    pollers: {},
  };
}
