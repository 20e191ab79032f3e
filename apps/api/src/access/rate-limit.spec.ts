import { describe, expect, it } from 'vitest';
import { ApiKeyRole, type Principal } from '@trove/domain';
import type { ApiConfig } from '@trove/config';
import { RateLimitedError, RequestRateLimit } from './rate-limit';

const limit = (requests: number, seconds = 60) =>
  new RequestRateLimit({
    api: { rateLimitRequests: requests, rateLimitWindowSeconds: seconds },
  } as ApiConfig);
const key = (keyId?: string): Principal => ({ keyId, name: 'k', role: ApiKeyRole.VIEWER, projects: 'ALL' });

describe('RequestRateLimit', () => {
  it('refuses the request over the limit with the seconds left in the window, per key', async () => {
    const limiter = limit(3, 30);
    for (let i = 0; i < 3; i++) await limiter.consume(key('a'));
    const refusal = await limiter.consume(key('a')).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RateLimitedError);
    expect((refusal as RateLimitedError).code).toBe('RATE_LIMITED');
    expect((refusal as RateLimitedError).retryAfterSeconds).toBeGreaterThan(25);
    expect((refusal as RateLimitedError).retryAfterSeconds).toBeLessThanOrEqual(30);
    await expect(limiter.consume(key('b'))).resolves.toBeUndefined();
    await expect(limiter.consume(key(undefined))).resolves.toBeUndefined();
  });

  it('counts failed attempts per client address, apart from any key', async () => {
    const limiter = limit(2);
    await limiter.consumeFailure('10.0.0.1');
    await limiter.consumeFailure('10.0.0.1');
    await expect(limiter.consumeFailure('10.0.0.1')).rejects.toBeInstanceOf(RateLimitedError);
    await expect(limiter.consumeFailure('10.0.0.2')).resolves.toBeUndefined();
    await expect(limiter.consume(key('a'))).resolves.toBeUndefined();
  });

  it('counts nothing when the limit is 0 (off)', async () => {
    const limiter = limit(0);
    const calls = Array.from({ length: 50 }, (_, i) =>
      i % 2 ? limiter.consume(key('a')) : limiter.consumeFailure('10.0.0.1'),
    );
    const refused = (await Promise.allSettled(calls)).filter((outcome) => outcome.status === 'rejected');
    expect(refused).toEqual([]);
  });
});
