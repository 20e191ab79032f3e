import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { ApiConfig } from '@trove/config';
import { type Principal, TroveError, TroveErrorCode } from '@trove/domain';
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

  /** Counts one request of the principal's key; throws RateLimitedError over the limit. */
  async consume(principal: Principal): Promise<void> {
    if (!this.limiter) return;
    try {
      await this.limiter.consume(principal.keyId ?? 'bootstrap-admin');
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      throw new RateLimitedError(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)));
    }
  }
}
