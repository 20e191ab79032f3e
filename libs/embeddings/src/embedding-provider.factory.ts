import type { EmbeddingProvider } from '@trove/domain';
import type { EmbeddingConfig } from '@trove/config';
import { resolveProfile } from './model-profiles';
import { OllamaEmbeddingProvider } from './ollama.provider';
import { OpenAICompatibleEmbeddingProvider } from './openai-compatible.provider';

/** Builds the configured provider; an unknown provider or profile fails at start-up. */
export function createEmbeddingProvider(config: EmbeddingConfig): EmbeddingProvider {
  const profile = resolveProfile(config.profile, config.model);
  switch (config.provider) {
    case 'openai':
      return new OpenAICompatibleEmbeddingProvider(profile, {
        baseUrl: config.baseUrl,
        apiKey: config.apiKey,
        timeoutMs: config.timeoutMs,
      });
    case 'ollama':
      return new OllamaEmbeddingProvider(profile, { host: config.baseUrl, timeoutMs: config.timeoutMs });
  }
}
