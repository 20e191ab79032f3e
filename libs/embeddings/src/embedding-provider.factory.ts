import type { EmbeddingProvider } from '@trove/domain';
import type { EmbeddingConfig } from '@trove/config';
import { type ModelProfile, resolveProfile } from './model-profiles';
import { InstrumentedEmbeddingProvider } from './instrumented.provider';
import { OllamaEmbeddingProvider } from './ollama.provider';
import { OpenAICompatibleEmbeddingProvider } from './openai-compatible.provider';
import { type ListingEmbeddingProvider, QueryLaneEmbeddingProvider } from './query-lane.provider';
import { ScheduledEmbeddingProvider } from './scheduled.provider';

/** Requests at `baseUrl` at once per process to start with, and the fewest it goes down to. */
export const DEFAULT_MAX_IN_FLIGHT = 2;
/** The most requests at `baseUrl` at once the adaptive limit tries, unless configured. */
export const DEFAULT_MAX_IN_FLIGHT_CEILING = 16;

export interface EmbeddingProviderOptions {
  /** Where the query lane says which server query embeddings go to, and the adaptive limit where it moved. */
  log?: (message: string) => void;
}

/**
 * Builds the configured provider; an unknown provider or profile fails at start-up. Requests to
 * `baseUrl` are scheduled, interactive ones first: at most `maxInFlight` at once when it is set,
 * else as many as keep throughput growing (from 2 up to `maxInFlightCeiling`). With a
 * `queryBaseUrl`, query embeddings go to that server while it serves the same model.
 */
export function createEmbeddingProvider(
  config: EmbeddingConfig,
  options: EmbeddingProviderOptions = {},
): EmbeddingProvider {
  const profile = resolveProfile(config.profile, config.model);
  const main = new ScheduledEmbeddingProvider(providerAt(config, profile, config.baseUrl), {
    maxInFlight: config.maxInFlight ?? {
      initial: DEFAULT_MAX_IN_FLIGHT,
      min: Math.min(DEFAULT_MAX_IN_FLIGHT, config.maxInFlightCeiling ?? DEFAULT_MAX_IN_FLIGHT_CEILING),
      max: config.maxInFlightCeiling ?? DEFAULT_MAX_IN_FLIGHT_CEILING,
    },
    onLimit: (limit) => options.log?.(`embedder: ${limit} requests at once at ${config.baseUrl}`),
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
