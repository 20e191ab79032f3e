import type { RerankConfig } from '@trove/config';
import type { LlmProvider, Reranker } from '@trove/domain';
import { HttpReranker } from './http-reranker';
import { LearnedReranker } from './learned/learned-reranker';
import { LlmReranker } from './llm-reranker';

/**
 * The configured reranker, or undefined for `none`. Refuses at start-up what cannot work:
 * `http` without a URL, `llm` without an LLM.
 */
export function createReranker(config: RerankConfig, llm?: LlmProvider): Reranker | undefined {
  switch (config.provider) {
    case 'none':
      return undefined;
    case 'learned':
      return new LearnedReranker();
    case 'http':
      if (!config.url) throw new Error('TROVE_RERANK_PROVIDER=http needs TROVE_RERANK_URL');
      return new HttpReranker({
        baseUrl: config.url,
        apiKey: config.apiKey,
        model: config.model,
        timeoutMs: config.timeoutMs,
        maxChars: config.maxChars,
      });
    case 'llm':
      if (!llm) throw new Error('TROVE_RERANK_PROVIDER=llm needs an LLM to be configured');
      return new LlmReranker(llm, { timeoutMs: config.timeoutMs, maxChars: config.maxChars });
  }
}
