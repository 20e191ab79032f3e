import { LLM_DEFAULT_BASE_URLS, type LlmConfig } from '@trove/config';
import type { LlmProvider } from '@trove/domain';
import { OllamaLlm } from './ollama.provider';
import { OpenAiCompatibleLlm } from './openai-compatible.provider';

/**
 * Builds the configured LLM, or undefined when none is configured (`ask` then answers
 * extractively). A provider without a model fails at start-up.
 */
export function createLlmProvider(config: LlmConfig | undefined): LlmProvider | undefined {
  if (!config || config.provider === 'none') return undefined;
  if (!config.model)
    throw new Error(`TROVE_LLM_MODEL is required when TROVE_LLM_PROVIDER is ${config.provider}`);
  const settings = {
    model: config.model,
    temperature: config.temperature,
    maxTokens: config.maxTokens,
    timeoutMs: config.timeoutMs,
    idleTimeoutMs: config.idleTimeoutMs,
    retries: config.retries,
    apiKey: config.apiKey,
  };
  switch (config.provider) {
    case 'openai':
      return new OpenAiCompatibleLlm({
        ...settings,
        baseUrl: config.baseUrl ?? LLM_DEFAULT_BASE_URLS.openai,
      });
    case 'ollama':
      return new OllamaLlm({ ...settings, host: config.baseUrl ?? LLM_DEFAULT_BASE_URLS.ollama });
  }
}
