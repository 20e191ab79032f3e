import type { EmbeddingPriority, EmbeddingPurpose, EmbedOptions } from '@trove/domain';
import { embedderInFlightLimit, embedderWait } from '@trove/metrics';
import { AdaptiveLimit, type AdaptiveLimitOptions } from './adaptive-limit';
import { EmbeddingError } from './embedding-error';
import { FairScheduler } from './fair-scheduler';
import type { ListingEmbeddingProvider } from './query-lane.provider';

export interface ScheduledEmbeddingOptions {
  /**
   * Requests this process has at the server at once; the rest wait here, by priority. A number:
   * fixed. Bounds: found by trying between them (`AdaptiveLimit`).
   */
  maxInFlight: number | AdaptiveLimitOptions;
  /** Told each time an adaptive limit moves. */
  onLimit?: (limit: number) => void;
}

/** A query is someone waiting; a passage is bulk work unless its caller says otherwise. */
export function priorityOf(purpose: EmbeddingPurpose, options?: EmbedOptions): EmbeddingPriority {
  return options?.priority ?? (purpose === 'query' ? 'interactive' : 'bulk');
}

/**
 * At most `maxInFlight` requests of this process at the embedding server; the others wait here,
 * interactive work (a webhook edit's passages, a query) ahead of bulk batches. Bulk requests of
 * different tenants (projects) take turns, so one project's import or one huge document holds
 * the embedder for at most one request at a time while others wait; a tenant's own requests go
 * oldest work first (`since`), so a batch is embedded through before the next begins: many slots
 * keep batches ready without every batch finishing late together.
 *
 * A local embedder serves one request at a time: without this, every bulk slot's batch would sit
 * in the server's own queue, and an interactive batch would arrive behind all of them. Here it
 * waits for at most the requests already at the server. An aborted caller leaves the queue
 * without its request being sent.
 */
export class ScheduledEmbeddingProvider implements ListingEmbeddingProvider {
  private readonly queue: FairScheduler;
  private readonly adaptive: AdaptiveLimit | undefined;

  constructor(
    private readonly inner: ListingEmbeddingProvider,
    options: ScheduledEmbeddingOptions,
  ) {
    const { maxInFlight } = options;
    if (typeof maxInFlight === 'number') {
      this.queue = new FairScheduler(maxInFlight);
      embedderInFlightLimit.set(maxInFlight);
      return;
    }
    this.adaptive = new AdaptiveLimit(maxInFlight, (limit) => {
      this.queue.setConcurrency(limit);
      embedderInFlightLimit.set(limit);
      options.onLimit?.(limit);
    });
    this.queue = new FairScheduler(this.adaptive.limit);
    embedderInFlightLimit.set(this.adaptive.limit);
  }

  /** Requests sent to the server at once now. */
  get maxInFlight(): number {
    return this.adaptive?.limit ?? this.queue.concurrencyNow;
  }

  get dimensions(): number {
    return this.inner.dimensions;
  }

  get modelId(): string {
    return this.inner.modelId;
  }

  /** Requests waiting for their turn, not counting those at the server. */
  get waiting(): number {
    return this.queue.waiting;
  }

  embed(texts: string[], purpose: EmbeddingPurpose, options?: EmbedOptions): Promise<number[][]> {
    const priority = priorityOf(purpose, options);
    const queued = process.hrtime.bigint();
    return this.queue.run(
      () => {
        embedderWait.observe({ priority }, Number(process.hrtime.bigint() - queued) / 1e9);
        const sent = this.inner.embed(texts, purpose, options);
        return this.adaptive ? this.measured(sent, texts) : sent;
      },
      {
        interactive: priority === 'interactive',
        tenant: options?.tenant ?? '',
        since: options?.since ?? Date.now(),
        signal: options?.signal,
      },
    );
  }

  /** Tells the adaptive limit how the request went once it is back. */
  private async measured(sent: Promise<number[][]>, texts: string[]): Promise<number[][]> {
    const size = texts.reduce((sum, text) => sum + text.length, 0);
    const record = (overloaded: boolean) =>
      this.adaptive!.record({
        at: performance.now(),
        size,
        overloaded,
        saturated: this.queue.waiting > 0,
      });
    try {
      const vectors = await sent;
      record(false);
      return vectors;
    } catch (error) {
      record(isOverload(error));
      throw error;
    }
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  models(): Promise<string[]> {
    return this.inner.models();
  }
}

/** The server said it has too much to do: a 429, a 503, or no answer in time. */
function isOverload(error: unknown): boolean {
  return error instanceof EmbeddingError && (error.timedOut || error.status === 429 || error.status === 503);
}
