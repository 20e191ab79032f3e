import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { ApiConfig } from '@trove/config';
import { type Principal, TroveError, TroveErrorCode } from '@trove/domain';
import { type RateLimiter, rateLimitRefusals } from '@trove/metrics';
import { CONFIG } from '../core/tokens';

/** RATE_LIMITED with the seconds a client should wait (sent as `Retry-After`). */
export class RateLimitedError extends TroveError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      TroveErrorCode.RateLimited,
      `too many requests for this API key; retry after ${retryAfterSeconds} s`,
    );
    this.name = 'RateLimitedError';
  }
}

/**
 * Requests per API key per window (TROVE_RATE_LIMIT_REQUESTS per TROVE_RATE_LIMIT_WINDOW_SECONDS),
 * counted in this process: behind a load balancer each api instance counts its own share.
 */
@Injectable()
export class RequestRateLimit {
  private readonly limiter?: RateLimiterMemory;

  constructor(@Inject(CONFIG) config: Pick<ApiConfig, 'api'>) {
    const { rateLimitRequests, rateLimitWindowSeconds } = config.api;
    if (rateLimitRequests > 0) {
      this.limiter = new RateLimiterMemory({ points: rateLimitRequests, duration: rateLimitWindowSeconds });
    }
  }

  /** Counts one request of the principal's key, or of the person whatever credential they use; throws RateLimitedError over the limit. */
  consume(principal: Principal): Promise<void> {
    if (principal.userId !== undefined) return this.count(`user:${principal.userId}`, 'api_key');
    return this.count(`key:${principal.keyId ?? 'bootstrap-admin'}`, 'api_key');
  }

  /**
   * Counts a request whose key was missing or not valid against the client's address, with the
   * same budget: guessing keys (each guess in Trove's format costs a catalog lookup) is slowed
   * down like any other flood, and costs no key holder its budget.
   */
  consumeFailure(address: string): Promise<void> {
    return this.count(`failed:${address}`, 'failed_key');
  }

  private async count(bucket: string, limiter: RateLimiter): Promise<void> {
    if (!this.limiter) return;
    try {
      await this.limiter.consume(bucket);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      rateLimitRefusals.inc({ limiter });
      throw new RateLimitedError(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)));
    }
  }
}
