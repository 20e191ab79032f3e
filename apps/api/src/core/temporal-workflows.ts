import { type Client, ScheduleNotFoundError, type WorkflowStartOptions } from '@temporalio/client';
import type { TroveSignals, TroveWorkflows } from '@trove/domain';
import type { SignalWithStartOptions, StartedWorkflow, Workflows, WorkflowState } from './workflows';

/** Temporal's enum values (temporal.api.enums.v1), without a dependency on the proto package. */
const TASK_QUEUE_TYPE = { workflow: 1, activity: 2 } as const;

interface Timestamp {
  seconds?: { toString(): string } | number | null;
  nanos?: number | null;
}

/** The api's workflow ports over a Temporal client (the only place the api holds one). */
export class TemporalWorkflows implements Workflows {
  constructor(private readonly client: Client) {}

  async start<K extends keyof TroveWorkflows>(
    name: K,
    options: WorkflowStartOptions<TroveWorkflows[K]>,
  ): Promise<StartedWorkflow> {
    return this.client.workflow.start<TroveWorkflows[K]>(name, options);
  }

  async signalWithStart<K extends keyof TroveWorkflows, S extends keyof TroveSignals>(
    name: K,
    signal: S,
    options: SignalWithStartOptions<K, S>,
  ): Promise<void> {
    const workflows = this.client.workflow;
    // Temporal's options type is conditional on the argument lists: for any one workflow and signal
    // it is the shape above plus `signal`, but TypeScript cannot see that while K and S are generic.
    const withSignal = { ...options, signal } as unknown as Parameters<
      typeof workflows.signalWithStart<TroveWorkflows[K], TroveSignals[S]>
    >[1];
    await workflows.signalWithStart<TroveWorkflows[K], TroveSignals[S]>(name, withSignal);
  }

  async cancel(workflowId: string): Promise<void> {
    await this.client.workflow.getHandle(workflowId).cancel();
  }

  async terminate(workflowId: string, reason: string): Promise<void> {
    await this.client.workflow.getHandle(workflowId).terminate(reason);
  }

  result(workflowId: string): Promise<unknown> {
    return this.client.workflow.getHandle(workflowId).result();
  }

  async describe(workflowId: string): Promise<WorkflowState> {
    const { status, taskQueue, raw } = await this.client.workflow.getHandle(workflowId).describe();
    return {
      status: status.name,
      taskQueue,
      workflowTaskPending: !!raw.pendingWorkflowTask,
      pendingActivities: raw.pendingActivities ?? [],
      pendingChildren: (raw.pendingChildren ?? []).flatMap((child) =>
        child.workflowId ? [child.workflowId] : [],
      ),
    };
  }

  async pollerTimes(taskQueue: string, kind: 'workflow' | 'activity'): Promise<number[]> {
    const response = await this.client.workflowService.describeTaskQueue({
      namespace: this.client.options.namespace,
      taskQueue: { name: taskQueue },
      taskQueueType: TASK_QUEUE_TYPE[kind],
    });
    return (response.pollers ?? []).map((poller) => millis(poller.lastAccessTime));
  }

  async createSchedule(options: Parameters<Workflows['createSchedule']>[0]): Promise<void> {
    await this.client.schedule.create(options);
  }

  async deleteSchedule(scheduleId: string): Promise<boolean> {
    try {
      await this.client.schedule.getHandle(scheduleId).delete();
      return true;
    } catch (error) {
      if (error instanceof ScheduleNotFoundError) return false;
      throw error;
    }
  }

  async triggerSchedule(scheduleId: string): Promise<void> {
    await this.client.schedule.getHandle(scheduleId).trigger();
  }

  async ping(): Promise<void> {
    await this.client.workflowService.getSystemInfo({});
  }
}

function millis(timestamp: Timestamp | null | undefined): number {
  if (!timestamp) return 0;
  return Number(timestamp.seconds?.toString() ?? 0) * 1000 + Math.floor((timestamp.nanos ?? 0) / 1e6);
}
