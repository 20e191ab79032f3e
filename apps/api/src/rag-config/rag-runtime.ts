import type { Client as ElasticsearchClient } from '@elastic/elasticsearch';
import { Answerer, type AnswerEvent, type AnswerResult, type AskRequest } from '@trove/answering';
import type { TokenCounter } from '@trove/chunking';
import type { ApiConfig } from '@trove/config';
import type { EmbeddingProvider, LlmProvider } from '@trove/domain';
import type { IndexGenerations } from '@trove/index-generations';
import { createLlmProvider } from '@trove/llm';
import { ragSearchOptions, type RagConfigStore, type RagSettings } from '@trove/rag-config';
import { HybridSearch, type SearchCallOptions, type SearchOutcome, type SearchRequest } from '@trove/search';
import type { CitationLinks } from '../core/citation-links';

/** What the resolvers search with: the current settings' HybridSearch. */
export type Searcher = Pick<HybridSearch, 'searchWithReport'>;
/** What the resolvers answer with: the current settings' Answerer. */
export type Asker = Pick<Answerer, 'ask' | 'stream'>;

interface Built {
  search: HybridSearch;
  answerer: Answerer;
  llm?: LlmProvider;
}

export interface RagRuntimeDeps {
  store: RagConfigStore;
  es: ElasticsearchClient;
  embedder: EmbeddingProvider;
  generations: IndexGenerations;
  links: CitationLinks;
  tokenCounter: TokenCounter;
  config: ApiConfig;
}

/**
 * Search, reranking, the LLM and answers as the current RAG settings say: built again when the
 * settings' version changes (a change through the API on any api instance), reused otherwise —
 * clients are not created per request.
 */
export class RagRuntime {
  private readonly current: () => Promise<Built>;

  constructor(private readonly deps: RagRuntimeDeps) {
    this.current = deps.store.follow((settings) => this.build(settings));
  }

  /** Searches with whatever settings are current at the time of each call. */
  readonly searcher: Searcher = {
    searchWithReport: async (request: SearchRequest, options?: SearchCallOptions): Promise<SearchOutcome> =>
      (await this.current()).search.searchWithReport(request, options),
  };

  /** Answers with whatever settings are current when the question arrives. */
  readonly asker: Asker = {
    ask: async (request: AskRequest, options?: { signal?: AbortSignal }): Promise<AnswerResult> =>
      (await this.current()).answerer.ask(request, options),
    stream: (request: AskRequest, options?: { signal?: AbortSignal }): AsyncGenerator<AnswerEvent> => {
      const current = () => this.current();
      return (async function* () {
        yield* (await current()).answerer.stream(request, options);
      })();
    },
  };

  private build(settings: RagSettings): Built {
    const { es, embedder, generations, links, tokenCounter, config } = this.deps;
    // TROVE_LLM_PROVIDER=none (the default): answers use the fallback mode, offline. A local model
    // is loaded once per process whatever the rebuilds (libs/llm LocalModelHost).
    const llm = createLlmProvider(settings.llm, config.localLlm);
    const search = new HybridSearch(es, config.elasticsearch.indexPrefix, embedder, {
      ...ragSearchOptions(config.search, settings, llm),
      target: async () => {
        const active = await generations.active();
        return { index: active.generation.indexName, embedder: active.embedder };
      },
      countTokens: (text) => tokenCounter.count(text),
    });
    const answerer = new Answerer({
      search,
      embedder,
      // The active generation's vectors, compared with questions embedded by its model.
      vectors: async (ids, signal) => (await generations.active()).index.vectorsByChunkIds(ids, signal),
      tokenCounter,
      llm,
      llmLimits: llm && { contextTokens: settings.llm.contextTokens, maxTokens: settings.llm.maxTokens },
      citationUrl: (hit) => links.render(hit.citation, hit.citationUrl),
      settings: settings.answers,
    });
    return { search, answerer, llm };
  }
}
