import PQueue from 'p-queue';
import type { EmbeddingPriority, EmbeddingPurpose, EmbedOptions } from '@trove/domain';
import { embedderWait } from '@trove/metrics';
import type { ListingEmbeddingProvider } from './query-lane.provider';

export interface ScheduledEmbeddingOptions {
  /** Requests this process has at the server at once; the rest wait here, by priority. */
  maxInFlight: number;
}

/**
 * p-queue sends the highest number first, FIFO among equal ones. Interactive requests rank above
 * any bulk one; bulk ones rank by their work's age (older first).
 */
function queuePriority(priority: EmbeddingPriority, since: number): number {
  return priority === 'interactive' ? Number.MAX_SAFE_INTEGER : -since;
}

/** A query is someone waiting; a passage is bulk work unless its caller says otherwise. */
export function priorityOf(purpose: EmbeddingPurpose, options?: EmbedOptions): EmbeddingPriority {
  return options?.priority ?? (purpose === 'query' ? 'interactive' : 'bulk');
}

/**
 * At most `maxInFlight` requests of this process at the embedding server; the others wait in a
 * priority queue, interactive work (a webhook edit's passages, a query) ahead of bulk batches, and
 * among those the oldest work first (`since`), so a batch is embedded through before the next
 * begins: many slots keep batches ready without every batch finishing late together.
 *
 * A local embedder serves one request at a time: without this, every bulk slot's batch would sit
 * in the server's own queue, and an interactive batch would arrive behind all of them. Here it
 * waits for at most the requests already at the server. An aborted caller leaves the queue
 * without its request being sent.
 */
export class ScheduledEmbeddingProvider implements ListingEmbeddingProvider {
  private readonly queue: PQueue;

  constructor(
    private readonly inner: ListingEmbeddingProvider,
    options: ScheduledEmbeddingOptions,
  ) {
    this.queue = new PQueue({ concurrency: options.maxInFlight });
  }

  get dimensions(): number {
    return this.inner.dimensions;
  }

  get modelId(): string {
    return this.inner.modelId;
  }

  /** Requests waiting for their turn, not counting those at the server. */
  get waiting(): number {
    return this.queue.size;
  }

  embed(texts: string[], purpose: EmbeddingPurpose, options?: EmbedOptions): Promise<number[][]> {
    const priority = priorityOf(purpose, options);
    const queued = process.hrtime.bigint();
    return this.queue.add(
      () => {
        embedderWait.observe({ priority }, Number(process.hrtime.bigint() - queued) / 1e9);
        options?.signal?.throwIfAborted();
        return this.inner.embed(texts, purpose, options);
      },
      { priority: queuePriority(priority, options?.since ?? Date.now()) },
    );
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  models(): Promise<string[]> {
    return this.inner.models();
  }
}
