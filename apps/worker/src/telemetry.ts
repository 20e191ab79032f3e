import type { Client } from '@temporalio/client';
import {
  type ActivityInterceptorsFactory,
  DefaultLogger,
  type LogEntry,
  type Logger as TemporalLogger,
} from '@temporalio/worker';
import { laneTaskQueue } from '@trove/domain';
import { loggedError } from '@trove/logging';
import { activityDuration, type BacklogStats, type Lane, secondsSince } from '@trove/metrics';
import type { Logger } from 'pino';

/** Every activity's duration by type and outcome: completed, failed (by code) or cancelled. */
export const activityMetrics: ActivityInterceptorsFactory = (context) => ({
  inbound: {
    async execute(input, next) {
      const started = process.hrtime.bigint();
      const activity = context.info.activityType;
      try {
        const result = await next(input);
        activityDuration.observe({ activity, outcome: 'completed' }, secondsSince(started));
        return result;
      } catch (error) {
        const outcome = context.cancellationSignal.aborted ? 'cancelled' : 'failed';
        // The code is in the log line and in trove_ingest_documents_failed_total; a label per
        // code here would multiply this histogram's series by every code.
        activityDuration.observe({ activity, outcome }, secondsSince(started));
        throw error;
      }
    },
  },
});

const LANES: Lane[] = ['control', 'bulk', 'interactive'];
// Temporal's API enums (temporal.api.enums.v1): TaskQueueType WORKFLOW = 1, ACTIVITY = 2;
// TaskQueueKind NORMAL = 1. Wire values, stable across versions.
const KINDS = [
  ['workflow', 1],
  ['activity', 2],
] as const;
const TASK_QUEUE_KIND_NORMAL = 1;

/**
 * The backlog of each lane's task queue as Temporal reports it (DescribeTaskQueue with
 * `reportStats`: an approximate count and the age of the oldest task, queue-wide, not per worker).
 */
export function taskQueueBacklog(client: Client, namespace: string, taskQueue: string) {
  return async (): Promise<BacklogStats[]> => {
    const queues = LANES.flatMap((lane) =>
      KINDS.filter(([kind]) => lane === 'control' || kind === 'activity').map(([kind, type]) => ({
        lane,
        kind,
        type,
        name: lane === 'control' ? taskQueue : laneTaskQueue(taskQueue, lane),
      })),
    );
    return Promise.all(
      queues.map(async ({ lane, kind, type, name }) => {
        const response = await client.workflowService.describeTaskQueue({
          namespace,
          taskQueue: { name, kind: TASK_QUEUE_KIND_NORMAL },
          taskQueueType: type,
          reportStats: true,
        });
        const stats = response.stats;
        const age = stats?.approximateBacklogAge;
        return {
          lane,
          kind,
          backlog: Number(stats?.approximateBacklogCount ?? 0),
          ageSeconds: age ? Number(age.seconds ?? 0) + (age.nanos ?? 0) / 1e9 : 0,
        };
      }),
    );
  };
}

const LEVELS = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;

/**
 * Temporal's logger (the SDK's own lines and every activity's `Context.log`) writing through
 * pino: activity lines carry the workflow id, run id and activity type as fields. An expected
 * permanent failure (a non-retryable failure with a Trove code) is one line with its code, no
 * stack; the activity's task token (a capability to complete it) is never logged.
 */
export function temporalLogger(
  logger: Logger,
  level: 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' = 'INFO',
): TemporalLogger {
  return new DefaultLogger(level, (entry: LogEntry) => {
    const { error, ...meta } = (entry.meta ?? {}) as Record<string, unknown>;
    delete meta.taskToken;
    const fields = { ...meta, ...(error !== undefined ? { error: loggedError(error) } : {}) };
    logger[LEVELS[entry.level]](fields, entry.message);
  });
}
