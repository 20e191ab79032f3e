import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { WebhookDeliveryRecords } from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import { rateLimitRefusals } from '@trove/metrics';
import { WEBHOOK_DELIVERIES } from '../core/catalog.providers';
import { RateLimitedError } from '../access/rate-limit';
import { CONFIG } from '../core/tokens';

/** RATE_LIMITED (429) for webhook deliveries, with the seconds until the budget refills. */
export class WebhookThrottledError extends RateLimitedError {
  constructor(retryAfterSeconds: number) {
    super(retryAfterSeconds);
    this.message = `too many refused webhook deliveries; retry after ${retryAfterSeconds} s`;
    this.name = 'WebhookThrottledError';
  }
}

/** Refusals tallied for one source during the current window. */
interface Tally {
  /** Refusals past the budget: counted here, added to the catalog in one update per window. */
  throttled: number;
  /** Refusals within the budget that were not logged (only the window's first one is). */
  unlogged: number;
}

/**
 * Sources (path ids, so attacker-chosen) tallied per window: beyond this many, refusals of further
 * sources are still answered and counted in the catalog's budget, but not tallied or summarised.
 */
const MAX_TALLIED_SOURCES = 1_000;

/**
 * Budgets for refused webhook deliveries (forged, stale, malformed), in this process:
 * per client address (checked before any work, so a flood costs no catalog lookups) and per
 * source (bounding counter updates and log lines however many addresses send). Only the first
 * refusal of a source per window is logged; the rest are summarised in one line and, when past
 * the budget, added to the source's refused-deliveries counter in one update.
 */
@Injectable()
export class WebhookRefusals implements OnModuleDestroy {
  private readonly logger = new Logger('SourceWebhook');
  private readonly perAddress?: RateLimiterMemory;
  private readonly perSource?: RateLimiterMemory;
  private readonly windowSeconds: number;
  private tallies = new Map<string, Tally>();
  private readonly flusher: NodeJS.Timeout;

  constructor(
    @Inject(WEBHOOK_DELIVERIES) private readonly deliveries: Pick<WebhookDeliveryRecords, 'rejected'>,
    @Inject(CONFIG) config: Pick<ApiConfig, 'webhooks'>,
  ) {
    const { refusalsPerAddress, refusalsPerSource, refusalWindowSeconds } = config.webhooks;
    this.windowSeconds = refusalWindowSeconds;
    if (refusalsPerAddress > 0) {
      this.perAddress = new RateLimiterMemory({ points: refusalsPerAddress, duration: refusalWindowSeconds });
    }
    if (refusalsPerSource > 0) {
      this.perSource = new RateLimiterMemory({ points: refusalsPerSource, duration: refusalWindowSeconds });
    }
    this.flusher = setInterval(() => this.flush(), refusalWindowSeconds * 1000);
    this.flusher.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.flusher);
    this.flush();
  }

  /** Before any work: an address that spent its refusal budget is answered 429 at once. */
  async admit(sourceId: string, address: string | undefined): Promise<void> {
    if (!this.perAddress || address === undefined) return;
    const state = await this.perAddress.get(address);
    if (state && state.consumedPoints >= this.perAddress.points) {
      this.tally(sourceId, 'throttled');
      rateLimitRefusals.inc({ limiter: 'webhook' });
      throw new WebhookThrottledError(secondsUntil(state));
    }
  }

  /**
   * A refused delivery: within both budgets it is counted in the catalog (and logged when it is
   * the source's first of the window) and its own error is answered; past either budget it is
   * tallied and answered 429.
   */
  async refused(sourceId: string, address: string | undefined, error: Error, reason: string): Promise<Error> {
    const spent = await Promise.all([consume(this.perAddress, address), consume(this.perSource, sourceId)]);
    const over = spent.find((state) => state !== undefined);
    if (over) {
      this.tally(sourceId, 'throttled');
      rateLimitRefusals.inc({ limiter: 'webhook' });
      return new WebhookThrottledError(secondsUntil(over));
    }
    this.deliveries.rejected(sourceId).catch((failure: Error) => {
      this.logger.warn(
        `could not count a refused webhook delivery of source ${sourceId}: ${failure.message}`,
      );
    });
    if (this.tallies.has(sourceId)) {
      this.tally(sourceId, 'unlogged');
    } else {
      this.tally(sourceId, undefined);
      this.logger.warn(
        `refused a webhook delivery for source ${sourceId}: ${reason} ` +
          `(further refusals for it in the next ${this.windowSeconds} s are summarised)`,
      );
    }
    return error;
  }

  /** Ends the window: one summary line and one counter update per source that had more refusals. */
  private flush(): void {
    const tallies = this.tallies;
    this.tallies = new Map();
    for (const [sourceId, { throttled, unlogged }] of tallies) {
      if (throttled + unlogged === 0) continue;
      this.logger.warn(
        `source ${sourceId}: ${throttled + unlogged} more webhook deliveries refused in the last ` +
          `${this.windowSeconds} s (${throttled} of them throttled with 429)`,
      );
      this.deliveries.rejected(sourceId, throttled).catch((failure: Error) => {
        this.logger.warn(
          `could not count refused webhook deliveries of source ${sourceId}: ${failure.message}`,
        );
      });
    }
  }

  private tally(sourceId: string, kind: keyof Tally | undefined): void {
    let tally = this.tallies.get(sourceId);
    if (!tally) {
      if (this.tallies.size >= MAX_TALLIED_SOURCES) return;
      tally = { throttled: 0, unlogged: 0 };
      this.tallies.set(sourceId, tally);
    }
    if (kind) tally[kind]++;
  }
}

/** Consumes one point; the limiter's state when that went over the budget, else undefined. */
async function consume(
  limiter: RateLimiterMemory | undefined,
  key: string | undefined,
): Promise<RateLimiterRes | undefined> {
  if (!limiter || key === undefined) return undefined;
  try {
    await limiter.consume(key);
    return undefined;
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) return refusal;
    throw refusal;
  }
}

function secondsUntil(state: RateLimiterRes): number {
  return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
}
