import { setTimeout as sleep } from 'node:timers/promises';
import {
  TroveError,
  type LlmCompletion,
  type LlmRequest,
  type LlmStreamEvent,
  type LlmUsage,
} from '@trove/domain';
import { errorCodeLabel, llmDuration, llmErrors, secondsSince } from '@trove/metrics';
import { openSpan, TroveAttribute } from '@trove/tracing';
import { llmCancelled, llmError, llmTimeout } from './llm-error';

/** What one attempt yields: text deltas, and at some point why it stopped and what it used. */
export interface LlmChunk {
  text?: string;
  finishReason?: string;
  usage?: LlmUsage;
}

/** Opens one attempt of a call; must honour `signal` (abort the HTTP request when it fires). */
export type LlmAttempt = (signal: AbortSignal) => AsyncIterable<LlmChunk>;

export interface LlmCallPolicy {
  /** The whole call, retries and every token included. */
  timeoutMs: number;
  /** Streams: the longest wait for the first chunk and between two chunks. */
  idleTimeoutMs?: number;
  /** Further attempts after a transient fault, only while no text has been delivered. */
  retries: number;
  /** Wait before retry `n` (0-based). */
  backoffMs: (retry: number) => number;
  /**
   * Streams: an attempt that ends without a finish reason was cut (a dropped connection can end
   * an HTTP body without an error) and fails instead of passing a truncated answer for whole.
   */
  requireFinishReason?: boolean;
}

/** Exponential backoff with jitter: ~0.5 s, 1 s, 2 s… capped at 8 s. */
export function defaultBackoff(retry: number): number {
  const base = Math.min(8_000, 500 * 2 ** retry);
  return base / 2 + Math.random() * (base / 2);
}

/**
 * Runs an LLM call: yields text deltas, then one `done` event with the whole text. Enforces the
 * deadline and the idle limit by aborting the attempt's request (so the server stops
 * generating), retries transient faults (`toError` says which) until the first text was
 * delivered, and turns the caller's abort into CANCELLED. Breaking out of the iteration also
 * aborts the request.
 */
export async function* runLlmCall(
  attempt: LlmAttempt,
  policy: LlmCallPolicy,
  toError: (error: unknown) => TroveError,
  callerSignal?: AbortSignal,
): AsyncGenerator<LlmStreamEvent> {
  if (callerSignal?.aborted) throw llmCancelled();
  // One deadline for the whole call; each attempt gets its own controller.
  const deadline = new AbortController();
  const deadlineTimer = setTimeout(() => deadline.abort(), policy.timeoutMs);
  const stopAll = AbortSignal.any(callerSignal ? [deadline.signal, callerSignal] : [deadline.signal]);
  let text = '';
  let delivered = false;
  try {
    for (let retry = 0; ; retry++) {
      const request = new AbortController();
      const onStop = () => request.abort();
      stopAll.addEventListener('abort', onStop, { once: true });
      let idle: NodeJS.Timeout | undefined;
      let idleFired = false;
      const armIdle = () => {
        if (policy.idleTimeoutMs === undefined) return;
        clearTimeout(idle);
        idle = setTimeout(() => {
          idleFired = true;
          request.abort();
        }, policy.idleTimeoutMs);
      };
      // A rejected promise that settles the race below as soon as the request is aborted, even
      // when the underlying iterator does not notice the abort by itself.
      const aborted = new Promise<never>((_, reject) => {
        request.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      });
      aborted.catch(() => undefined);
      let finishReason: string | undefined;
      let usage: LlmUsage | undefined;
      const iterator = attempt(request.signal)[Symbol.asyncIterator]();
      try {
        armIdle();
        for (;;) {
          const next = await Promise.race([iterator.next(), aborted]);
          if (next.done) break;
          armIdle();
          const chunk = next.value;
          if (chunk.finishReason) finishReason = chunk.finishReason;
          if (chunk.usage) usage = chunk.usage;
          if (chunk.text) {
            text += chunk.text;
            delivered = true;
            yield { type: 'delta', text: chunk.text };
          }
        }
        if (policy.requireFinishReason && !finishReason) {
          throw llmError(undefined, 'the stream ended before the server said the answer was complete');
        }
        yield { type: 'done', text, finishReason, usage };
        return;
      } catch (error) {
        if (callerSignal?.aborted) throw llmCancelled();
        if (deadline.signal.aborted) throw llmTimeout(`no complete answer within ${policy.timeoutMs} ms`);
        if (idleFired) {
          throw llmTimeout(
            delivered
              ? `no token for ${policy.idleTimeoutMs} ms`
              : `no first token within ${policy.idleTimeoutMs} ms`,
          );
        }
        const failure = error instanceof TroveError ? error : toError(error);
        if (failure.permanent || delivered || retry >= policy.retries) throw failure;
      } finally {
        clearTimeout(idle);
        stopAll.removeEventListener('abort', onStop);
        // Closes the connection when the consumer stopped early or the attempt failed.
        request.abort();
        void iterator.return?.().catch(() => undefined);
      }
      try {
        await sleep(policy.backoffMs(retry), undefined, { signal: stopAll });
      } catch {
        if (callerSignal?.aborted) throw llmCancelled();
        throw llmTimeout(`no complete answer within ${policy.timeoutMs} ms`);
      }
    }
  } finally {
    clearTimeout(deadlineTimer);
  }
}

/**
 * Runs a call to its end and returns the `done` event. The iteration is read to its very end,
 * not left at `done`: a call left there would count as abandoned, not `ok`.
 */
export async function lastEvent(events: AsyncIterable<LlmStreamEvent>) {
  let done: Extract<LlmStreamEvent, { type: 'done' }> | undefined;
  for await (const event of events) {
    if (event.type === 'done') done = event;
  }
  if (done) return done;
  throw new Error('an LLM call ended without its done event');
}

/**
 * What every chat provider shares: `complete` and `stream` run the provider's single attempts
 * under one call policy (deadline, idle limit, retries before the first token, cancellation).
 * A provider says how to make one attempt and how to read its failures.
 */
export abstract class RetryingLlm {
  protected abstract completeOnce(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmChunk>;
  protected abstract streamOnce(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmChunk>;
  protected abstract policy(): LlmCallPolicy;
  protected abstract toError(error: unknown): TroveError;
  /** `openai:<model>` or `ollama:<model>`: named on each call's span. */
  abstract get modelId(): string;

  async complete(request: LlmRequest): Promise<LlmCompletion> {
    const { text, finishReason, usage } = await lastEvent(
      measured(
        'complete',
        this.modelId,
        runLlmCall(
          (signal) => this.completeOnce(request, signal),
          { ...this.policy(), idleTimeoutMs: undefined, requireFinishReason: false },
          (error) => this.toError(error),
          request.signal,
        ),
      ),
    );
    return { text, finishReason, usage };
  }

  stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    return measured(
      'stream',
      this.modelId,
      runLlmCall(
        (signal) => this.streamOnce(request, signal),
        this.policy(),
        (error) => this.toError(error),
        request.signal,
      ),
    );
  }
}

/**
 * A call's events, timed from the first request to its last event (retries included) and
 * counted by outcome: `ok`, the error code it failed with, or `abandoned` when the caller stopped
 * reading (a client that went away) before the end. The call is one `llm.complete` or
 * `llm.stream` span with the model (never the prompt or the answer).
 */
async function* measured(
  operation: 'complete' | 'stream',
  model: string,
  events: AsyncGenerator<LlmStreamEvent>,
): AsyncGenerator<LlmStreamEvent> {
  const started = process.hrtime.bigint();
  const span = openSpan(`llm.${operation}`, { [TroveAttribute.model]: model });
  let outcome = 'abandoned';
  let failure: unknown;
  try {
    yield* events;
    outcome = 'ok';
  } catch (error) {
    failure = error;
    outcome = errorCodeLabel(error);
    llmErrors.inc({ operation, code: outcome });
    throw error;
  } finally {
    llmDuration.observe({ operation, outcome }, secondsSince(started));
    span.end(failure);
  }
}
