import { describe, expect, it } from 'vitest';
import type { TroveError } from '@trove/domain';
import { llmDuration } from '@trove/metrics';
import { RetryingLlm, type LlmCallPolicy, type LlmChunk } from './llm-call';
import { llmError } from './llm-error';

/** Answers every call with two pieces of text. */
class TwoPieces extends RetryingLlm {
  readonly modelId = 'fake:two-pieces';

  protected async *completeOnce(): AsyncIterable<LlmChunk> {
    yield { text: 'Hello' };
    yield { text: ' there', finishReason: 'stop' };
  }

  protected streamOnce(): AsyncIterable<LlmChunk> {
    return this.completeOnce();
  }

  protected policy(): LlmCallPolicy {
    return { timeoutMs: 5_000, retries: 0, backoffMs: () => 0 };
  }

  protected toError(error: unknown): TroveError {
    return llmError(undefined, String(error));
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }
}

async function completedOk(): Promise<number> {
  const { values } = await llmDuration.get();
  return (
    values.find(
      (v) =>
        v.metricName === 'trove_llm_request_duration_seconds_count' &&
        v.labels.operation === 'complete' &&
        v.labels.outcome === 'ok',
    )?.value ?? 0
  );
}

describe('RetryingLlm.complete', () => {
  it('returns the whole text and counts the call as ok, not abandoned', async () => {
    const before = await completedOk();
    const result = await new TwoPieces().complete({ messages: [{ role: 'user', content: 'hi' }] });
    expect(result).toEqual({ text: 'Hello there', finishReason: 'stop', usage: undefined });
    expect(await completedOk()).toBe(before + 1);
  });
});
