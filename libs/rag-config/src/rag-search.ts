import type { SearchConfig } from '@trove/config';
import type { LlmProvider } from '@trove/domain';
import { createReranker, namedFeatures } from '@trove/reranking';
import { type HybridSearchOptions, searchSettingsOptions } from '@trove/search';
import type { RagSettings } from './rag-settings';

/**
 * HybridSearch's options as the product runs it: the environment's search settings
 * (TROVE_SEARCH_*), overlaid with the runtime fusion settings, and the configured reranker. The api
 * builds its search from this, and the retrieval gate builds its own the same way, so the gate
 * measures what ships; the caller adds only wiring (the index target, a token counter).
 */
export function ragSearchOptions(
  search: SearchConfig,
  settings: Pick<RagSettings, 'search' | 'rerank'>,
  llm?: LlmProvider,
): Partial<HybridSearchOptions> {
  return {
    ...searchSettingsOptions(search, settings.rerank),
    ...settings.search,
    reranker: createReranker(settings.rerank, llm),
    // Answers record their passages' features (feedback becomes training data for the learned reranker).
    candidateFeatures: namedFeatures,
  };
}
