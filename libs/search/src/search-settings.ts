import { type RerankConfig, rerankSchema, type SearchConfig, searchSchema } from '@trove/config';
import type { HybridSearchOptions } from './hybrid-search';

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
