import type { EmbeddingPurpose, EmbedOptions } from '@trove/domain';
import { embedderDuration, embedderErrors, errorCodeLabel, timed } from '@trove/metrics';
import { TroveAttribute, withSpan } from '@trove/tracing';
import type { ListingEmbeddingProvider } from './query-lane.provider';

/**
 * A provider whose calls are timed and whose failures are counted by error code (metrics), each
 * call in an `embed` span (traces).
 */
export class InstrumentedEmbeddingProvider implements ListingEmbeddingProvider {
  constructor(private readonly inner: ListingEmbeddingProvider) {}

  get dimensions(): number {
    return this.inner.dimensions;
  }

  get modelId(): string {
    return this.inner.modelId;
  }

  async embed(texts: string[], purpose: EmbeddingPurpose, options?: EmbedOptions): Promise<number[][]> {
    // A span around the call (its HTTP request is a child): the model and how many texts, never the texts.
    return withSpan(
      'embed',
      {
        [TroveAttribute.model]: this.modelId,
        [TroveAttribute.count]: texts.length,
        [TroveAttribute.purpose]: purpose,
      },
      async () => {
        try {
          return await timed(embedderDuration, { purpose }, () => this.inner.embed(texts, purpose, options));
        } catch (error) {
          embedderErrors.inc({ purpose, code: errorCodeLabel(error) });
          throw error;
        }
      },
    );
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  models(): Promise<string[]> {
    return this.inner.models();
  }
}
