import { type NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { type IngestLane, laneTaskQueue } from '@trove/domain';
import type { Lane, LaneSlotStats } from '@trove/metrics';
import { workerTracing } from '@trove/tracing';
import { activityMetrics } from './telemetry';
import { workflowBundle } from './workflow-bundle';

/** Activity slots per task queue: control work, and each ingest lane. */
export interface LaneSlots {
  control: number;
  bulk: number;
  interactive: number;
}

export interface LaneWorkerOptions {
  connection: NativeConnection;
  namespace?: string;
  /** The control task queue: workflows, and the activities of control work. */
  taskQueue: string;
  activities: object;
  slots: LaneSlots;
  /** The workflows: a bundle made by the caller (tests), or the module to bundle them from. */
  workflows: { workflowBundle: NonNullable<WorkerOptions['workflowBundle']> } | { workflowsPath: string };
  /** Where the workflow bundle made from `workflows.workflowsPath` is kept between starts. */
  workflowBundleCacheDir?: string;
  log?: (message: string) => void;
}

const LANES: IngestLane[] = ['bulk', 'interactive'];

/**
 * One Temporal worker per task queue, polled by this process: the control queue runs every
 * workflow and control activity; each ingest lane (`bulk`, `interactive`) its own activities,
 * with its own slots, so an import filling the bulk lane never delays planning, a deletion or a
 * webhook edit. Every queue's worker knows every activity; a queue only receives what is
 * scheduled on it.
 */
export class LaneWorkers {
  private constructor(
    private readonly workers: Worker[],
    private readonly slots: LaneSlots,
  ) {}

  static async create(options: LaneWorkerOptions): Promise<LaneWorkers> {
    // When tracing is on: workflow interceptors in the bundle, a span per activity, the sink that
    // exports the workflows' spans.
    const tracing = workerTracing();
    const common = {
      connection: options.connection,
      ...(options.namespace ? { namespace: options.namespace } : {}),
      activities: options.activities,
      // Every activity's span (tracing), then its duration and outcome, by type (metrics).
      interceptors: { activity: [...(tracing.interceptors.activity ?? []), activityMetrics] },
    };
    // The bundle is made here, with the tracing interceptors in it, so it can be kept between starts.
    const bundle =
      'workflowBundle' in options.workflows
        ? options.workflows.workflowBundle
        : await workflowBundle({
            workflowsPath: options.workflows.workflowsPath,
            workflowInterceptorModules: tracing.interceptors.workflowModules,
            cacheDir: options.workflowBundleCacheDir,
            log: options.log,
          });
    const control = await Worker.create({
      ...common,
      workflowBundle: bundle,
      sinks: tracing.sinks,
      taskQueue: options.taskQueue,
      maxConcurrentActivityTaskExecutions: options.slots.control,
    });
    const lanes = await Promise.all(
      LANES.map((lane) =>
        Worker.create({
          ...common,
          taskQueue: laneTaskQueue(options.taskQueue, lane),
          maxConcurrentActivityTaskExecutions: options.slots[lane],
        }),
      ),
    );
    return new LaneWorkers([control, ...lanes], options.slots);
  }

  /** Runs every queue's worker until shut down (SIGINT/SIGTERM), or until one of them fails. */
  async run(): Promise<void> {
    const runs = this.workers.map((worker) => worker.run());
    try {
      await Promise.race(runs);
    } finally {
      // One stopped (a shutdown or a fatal error): the others stop too, then all are awaited.
      this.shutdown();
      await Promise.allSettled(runs);
    }
    await Promise.all(runs);
  }

  shutdown(): void {
    for (const worker of this.workers) if (worker.getState() === 'RUNNING') worker.shutdown();
  }

  /** Each lane's activity slots: busy now, and configured (metrics). */
  slotUsage(): LaneSlotStats[] {
    const lanes: Lane[] = ['control', ...LANES];
    return this.workers.map((worker, i) => ({
      lane: lanes[i],
      used: worker.getStatus().numInFlightActivities,
      slots: this.slots[lanes[i]],
    }));
  }

  /** The control worker's state (the one that runs workflows). */
  getState(): ReturnType<Worker['getState']> {
    return this.workers[0].getState();
  }
}
