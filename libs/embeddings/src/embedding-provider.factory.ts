import type { EmbeddingProvider } from '@trove/domain';
import type { EmbeddingConfig } from '@trove/config';
import { type ModelProfile, resolveProfile } from './model-profiles';
import { InstrumentedEmbeddingProvider } from './instrumented.provider';
import { OllamaEmbeddingProvider } from './ollama.provider';
import { OpenAICompatibleEmbeddingProvider } from './openai-compatible.provider';
import { type ListingEmbeddingProvider, QueryLaneEmbeddingProvider } from './query-lane.provider';
import { ScheduledEmbeddingProvider } from './scheduled.provider';

/** Requests at `baseUrl` at once per process, unless configured (see `maxInFlight`). */
export const DEFAULT_MAX_IN_FLIGHT = 2;

export interface EmbeddingProviderOptions {
  /** Where the query lane says which server query embeddings go to. */
  log?: (message: string) => void;
}

/**
 * Builds the configured provider; an unknown provider or profile fails at start-up. Requests to
 * `baseUrl` are scheduled (at most `maxInFlight` at once, interactive ones first). With a
 * `queryBaseUrl`, query embeddings go to that server while it serves the same model.
 */
export function createEmbeddingProvider(
  config: EmbeddingConfig,
  options: EmbeddingProviderOptions = {},
): EmbeddingProvider {
  const profile = resolveProfile(config.profile, config.model);
  const main = new ScheduledEmbeddingProvider(providerAt(config, profile, config.baseUrl), {
    maxInFlight: config.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT,
  });
  if (!config.queryBaseUrl || config.queryBaseUrl === config.baseUrl) return main;
  return new QueryLaneEmbeddingProvider(main, providerAt(config, profile, config.queryBaseUrl), {
    laneUrl: config.queryBaseUrl,
    log: options.log,
  });
}

function providerAt(
  config: EmbeddingConfig,
  profile: ModelProfile,
  baseUrl: string,
): ListingEmbeddingProvider {
  switch (config.provider) {
    case 'openai':
      return new InstrumentedEmbeddingProvider(
        new OpenAICompatibleEmbeddingProvider(profile, {
          baseUrl,
          apiKey: config.apiKey,
          timeoutMs: config.timeoutMs,
        }),
      );
    case 'ollama':
      return new InstrumentedEmbeddingProvider(
        new OllamaEmbeddingProvider(profile, { host: baseUrl, timeoutMs: config.timeoutMs }),
      );
  }
}
