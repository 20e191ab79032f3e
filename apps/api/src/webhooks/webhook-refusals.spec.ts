import { Logger } from '@nestjs/common';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ApiConfig, webhooksSchema } from '@trove/config';
import { TroveError, TroveErrorCode } from '@trove/domain';
import { WebhookRefusals, WebhookThrottledError } from './webhook-refusals';

function setup(limits: { refusalsPerAddress: number; refusalsPerSource: number }) {
  const rejected = vi.fn(async (_sourceId: string, _count?: number) => undefined);
  const config = { webhooks: webhooksSchema.parse({ ...limits, refusalWindowSeconds: 60 }) } as Pick<
    ApiConfig,
    'webhooks'
  >;
  const warn = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  return { refusals: new WebhookRefusals({ rejected }, config), rejected, warn };
}

const refusal = () => new TroveError(TroveErrorCode.Unauthenticated, 'webhook delivery not accepted');

afterEach(() => {
  vi.restoreAllMocks();
});

describe('WebhookRefusals', () => {
  it("answers an address's refusals until its budget is spent, then 429 before any work", async () => {
    const { refusals, rejected } = setup({ refusalsPerAddress: 2, refusalsPerSource: 100 });
    const error = refusal();
    await refusals.admit('s1', '10.0.0.1');
    expect(await refusals.refused('s1', '10.0.0.1', error, 'a bad signature')).toBe(error);
    expect(await refusals.refused('s1', '10.0.0.1', error, 'a bad signature')).toBe(error);
    expect(await refusals.refused('s1', '10.0.0.1', error, 'a bad signature')).toBeInstanceOf(
      WebhookThrottledError,
    );
    const admitted = await refusals.admit('s1', '10.0.0.1').catch((e: unknown) => e);
    expect(admitted).toBeInstanceOf(WebhookThrottledError);
    expect((admitted as WebhookThrottledError).code).toBe(TroveErrorCode.RateLimited);
    expect((admitted as WebhookThrottledError).retryAfterSeconds).toBeGreaterThan(0);
    // Another address is not held back.
    await expect(refusals.admit('s1', '10.0.0.2')).resolves.toBeUndefined();
    // Two counted one by one; the two throttled ones in one update when the window ends.
    expect(rejected.mock.calls).toEqual([['s1'], ['s1']]);
    refusals.onModuleDestroy();
    expect(rejected.mock.calls).toEqual([['s1'], ['s1'], ['s1', 2]]);
  });

  it("caps a source's counted refusals from many addresses; logs its first refusal and one summary", async () => {
    const { refusals, rejected, warn } = setup({ refusalsPerAddress: 100, refusalsPerSource: 3 });
    const answers: unknown[] = [];
    for (let i = 0; i < 10; i++) {
      answers.push(await refusals.refused('s1', `10.0.0.${i}`, refusal(), 'a bad signature'));
    }
    expect(answers.map((a) => a instanceof WebhookThrottledError)).toEqual([
      false,
      false,
      false,
      ...Array(7).fill(true),
    ]);
    expect(await refusals.refused('s2', '10.0.0.1', refusal(), 'a bad signature')).not.toBeInstanceOf(
      WebhookThrottledError,
    );
    refusals.onModuleDestroy();
    expect(rejected.mock.calls).toEqual([['s1'], ['s1'], ['s1'], ['s2'], ['s1', 7]]);
    const lines = warn.mock.calls.map(([message]) => String(message));
    expect(lines).toEqual([
      expect.stringMatching(/^refused a webhook delivery for source s1: a bad signature/),
      expect.stringMatching(/^refused a webhook delivery for source s2: a bad signature/),
      'source s1: 9 more webhook deliveries refused in the last 60 s (7 of them throttled with 429)',
    ]);
  });
});
