import { type RerankConfig, rerankSchema, type SearchConfig, searchSchema } from '@trove/config';
import type { EmbeddingProvider, RerankCandidate, Reranker } from '@trove/domain';
import type { FieldBoosts } from './chunk-queries';
import type { FusionSettings } from './fusion';
import type { ResultStageSettings } from './result-stages';

export interface HybridSearchOptions {
  /** Candidates each leg contributes before fusion (TROVE_SEARCH_CANDIDATES). */
  candidates: number;
  /** HNSW candidates examined per shard, recall vs speed (TROVE_SEARCH_NUM_CANDIDATES). */
  numCandidates: number;
  /** BM25 boosts of title and heading path (TROVE_SEARCH_TITLE_BOOST, TROVE_SEARCH_HEADING_BOOST). */
  fieldBoosts: FieldBoosts;
  /** Convex fusion scores every candidate in both legs (TROVE_SEARCH_COMPLETE_SCORES). */
  completeScores: boolean;
  /** kNN candidates rescored with the float vectors, × k; 0 = off (TROVE_SEARCH_KNN_OVERSAMPLE). */
  oversample: number;
  /** Default fusion (TROVE_SEARCH_FUSION). */
  fusion: FusionSettings['method'];
  /** RRF's k (TROVE_SEARCH_RRF_K). */
  rrfK: number;
  /** Convex: the vector leg's weight, 0 to 1 (TROVE_SEARCH_CONVEX_VECTOR_WEIGHT). */
  convexVectorWeight: number;
  /** Convex: normalisation of each leg's scores (TROVE_SEARCH_CONVEX_NORMALIZATION). */
  convexNormalization: FusionSettings['normalization'];
  /** Longest query accepted, in characters: embedding time grows with the query. */
  maxQueryChars: number;
  /** Longest query accepted, in the embedding model's tokens (E5 reads at most 512). */
  maxQueryTokens: number;
  /** Counts tokens as the embedding model would (e.g. chunking's SegmenterTokenCounter). */
  countTokens?: (text: string) => number;
  /** Query vectors kept in memory (repeated queries skip the embedder); 0 turns the cache off. */
  queryCacheSize: number;
  /** Most document ids one search may filter on (TROVE_SEARCH_MAX_FILTER_DOCUMENTS). */
  maxFilterDocuments: number;
  /** MMR on when a request does not say (TROVE_SEARCH_MMR). */
  mmr: ResultStageSettings['mmr'];
  /** MMR's default λ (TROVE_SEARCH_MMR_LAMBDA). */
  mmrLambda: ResultStageSettings['mmrLambda'];
  /** Fused candidates MMR chooses among (TROVE_SEARCH_MMR_CANDIDATES). */
  mmrCandidates: ResultStageSettings['mmrCandidates'];
  /** Largest context expansion accepted (TROVE_SEARCH_MAX_EXPAND). */
  maxExpand: ResultStageSettings['maxExpand'];
  /**
   * The index and model to search, asked once per search: the ACTIVE index generation while its
   * model may change (IndexGenerations). Unset: the alias with the constructor's embedder.
   */
  target?: () => Promise<SearchTarget>;
  /** Reorders the fused top candidates; unset: no reranking (a request asking for it is refused). */
  reranker?: Reranker;
  /** How many fused hits are reranked (TROVE_RERANK_CANDIDATES). */
  rerankCandidates: number;
  /**
   * The learned reranker's features of candidates by name (`namedFeatures` of @trove/reranking),
   * for searches asking for `features`; unset: hits carry none.
   */
  candidateFeatures?: (query: string, candidates: RerankCandidate[]) => Record<string, number>[];
}

/** A concrete chunk index and the model its vectors come from. */
export interface SearchTarget {
  index: string;
  embedder: EmbeddingProvider;
}

/** The options of HybridSearch that come from settings, not from wiring (index target, reranker, token counter). */
export type SearchSettingsOptions = Omit<
  HybridSearchOptions,
  'target' | 'reranker' | 'countTokens' | 'candidateFeatures'
>;

/**
 * HybridSearch's options from the search settings (TROVE_SEARCH_*) and the rerank settings'
 * candidate count (TROVE_RERANK_CANDIDATES): the one mapping the api and every tool build search
 * with, so a default changed in libs/config changes search everywhere.
 */
export function searchSettingsOptions(
  search: SearchConfig,
  rerank: Pick<RerankConfig, 'candidates'>,
): SearchSettingsOptions {
  return {
    candidates: search.candidates,
    numCandidates: search.numCandidates,
    fieldBoosts: { title: search.titleBoost, heading: search.headingBoost },
    completeScores: search.completeScores,
    oversample: search.oversample,
    fusion: search.fusion,
    rrfK: search.rrfK,
    convexVectorWeight: search.convexVectorWeight,
    convexNormalization: search.convexNormalization,
    maxQueryChars: search.maxQueryChars,
    maxQueryTokens: search.maxQueryTokens,
    queryCacheSize: search.queryCacheSize,
    maxFilterDocuments: search.maxFilterDocuments,
    mmr: search.mmr,
    mmrLambda: search.mmrLambda,
    mmrCandidates: search.mmrCandidates,
    maxExpand: search.maxExpand,
    rerankCandidates: rerank.candidates,
  };
}

/** What HybridSearch uses for an option its caller leaves out: the settings' own defaults. */
export const SEARCH_DEFAULTS: SearchSettingsOptions = searchSettingsOptions(
  searchSchema.parse({}),
  rerankSchema.parse({}),
);
