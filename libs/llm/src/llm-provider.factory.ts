import { LLM_DEFAULT_BASE_URLS, type LlmConfig, type LocalLlmConfig, localLlmSchema } from '@trove/config';
import type { LlmProvider } from '@trove/domain';
import { localModel, localModelDir } from './local-models';
import { LocalLlm } from './local.provider';
import { OllamaLlm } from './ollama.provider';
import { OpenAiCompatibleLlm } from './openai-compatible.provider';

/**
 * Builds the configured LLM, or undefined when none is configured (`ask` then answers
 * extractively). A provider without a model, or a local model not in the catalogue, fails at
 * start-up. `local` sizes the in-process model (environment only; the schema's defaults when unset).
 */
export function createLlmProvider(
  config: LlmConfig | undefined,
  local: LocalLlmConfig = localLlmSchema.parse({}),
): LlmProvider | undefined {
  if (!config || config.provider === 'none') return undefined;
  const settings = {
    temperature: config.temperature,
    maxTokens: config.maxTokens,
    timeoutMs: config.timeoutMs,
    idleTimeoutMs: config.idleTimeoutMs,
    retries: config.retries,
  };
  if (config.provider === 'local') {
    return new LocalLlm({
      ...settings,
      model: localModel(config.model),
      modelDir: localModelDir(local.modelDir),
      contextTokens: config.contextTokens,
      threads: local.threads,
      parallel: local.parallel,
      queue: local.queue,
    });
  }
  if (!config.model)
    throw new Error(`TROVE_LLM_MODEL is required when TROVE_LLM_PROVIDER is ${config.provider}`);
  const remote = { ...settings, model: config.model, apiKey: config.apiKey };
  switch (config.provider) {
    case 'openai':
      return new OpenAiCompatibleLlm({
        ...remote,
        baseUrl: config.baseUrl ?? LLM_DEFAULT_BASE_URLS.openai,
      });
    case 'ollama':
      return new OllamaLlm({ ...remote, host: config.baseUrl ?? LLM_DEFAULT_BASE_URLS.ollama });
  }
}
