import { ApplicationFailure, Context } from '@temporalio/activity';
import { isTroveError } from '@trove/domain';
import { type IngestPipeline, type IngestStage, ingestStageDuration, secondsSince } from '@trove/metrics';

/**
 * Runs an activity body: a permanent TroveError (bad input, an item gone, a rejected token)
 * becomes a non-retryable failure typed with its code, so workflows see only domain codes;
 * everything else is retried by Temporal.
 */
export async function activity<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ApplicationFailure) throw error;
    if (isTroveError(error)) {
      throw ApplicationFailure.create({
        nonRetryable: error.permanent,
        type: error.code,
        message: error.message,
        cause: error,
      });
    }
    throw error;
  }
}

/** Each of `activities` run through `activity`: their permanent TroveErrors are not retried. */
export function eachAsActivity<T extends Record<string, (input: never) => Promise<unknown>>>(
  activities: T,
): T {
  const wrapped: Record<string, (input: never) => Promise<unknown>> = {};
  for (const [name, body] of Object.entries(activities))
    wrapped[name] = (input) => activity(() => body(input));
  return wrapped as T;
}

/**
 * Heartbeats every few seconds while `work` runs, so a worker crash is noticed within the
 * heartbeat timeout even when one call (a large embedding batch) takes long.
 */
export async function withHeartbeats<T>(details: unknown, work: () => Promise<T>): Promise<T> {
  const context = Context.current();
  context.heartbeat(details);
  const timer = setInterval(() => context.heartbeat(details), HEARTBEAT_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

const HEARTBEAT_EVERY_MS = 5_000;

/** `body`, its duration observed as an ingest stage when it succeeds (a failure is the activity's to count). */
export function stage<T>(
  name: IngestStage,
  pipeline: IngestPipeline,
  body: () => Promise<T>,
): () => Promise<T> {
  return async () => {
    const started = process.hrtime.bigint();
    const result = await body();
    ingestStageDuration.observe({ stage: name, pipeline }, secondsSince(started));
    return result;
  };
}
