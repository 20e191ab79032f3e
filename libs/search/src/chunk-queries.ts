/**
 * The Elasticsearch requests search sends to the chunk index, built in one place beside
 * `ChunkIndex` (which owns the mapping they query): the BM25 and kNN legs, the completion of
 * each leg's scores for convex fusion, and the reads of the result stages (stored vectors for
 * MMR, neighbouring chunks for context). `HybridSearch` and `ResultStages` compose these and
 * handle the answers; nothing else writes a search query.
 */
import type { estypes } from '@elastic/elasticsearch';
import { searchSchema } from '@trove/config';
import { detectLanguage, type SearchHit } from '@trove/domain';
import type { ChunkFilters } from './filters';

/** Boosts of the document title and the heading path against the chunk text (1) in BM25. */
export interface FieldBoosts {
  title: number;
  heading: number;
}

/** The boosts in use unless configured: the defaults of TROVE_SEARCH_TITLE_BOOST and TROVE_SEARCH_HEADING_BOOST. */
const { titleBoost, headingBoost } = searchSchema.parse({});
export const DEFAULT_FIELD_BOOSTS: FieldBoosts = { title: titleBoost, heading: headingBoost };

/** Search hits carry the chunk without its vector (large, and never shown). */
function withoutVector(): estypes.SearchSourceConfig {
  return { excludes: ['embedding'] };
}

/**
 * The BM25 query of the keyword leg: `combined_fields` (BM25F: one term-frequency and length
 * normalisation across text, title and heading path) over the sub-fields analysed for the query's
 * language — English stemming, Russian stemming or CJK bigrams — and over the plain `standard`
 * fields when the query has no letters to tell (numbers, symbols).
 *
 * Measured on the train splits (full SciFact corpus, 809 queries; RuMedDaNet, 1,052): nDCG@10
 * 0.703 and 0.804, against 0.572 and 0.575 for `best_fields` over every analysis at once, whose
 * unstemmed and wrongly-stemmed variants of the same words drowned the right one. See
 * BENCHMARKS.md "Keyword query (train splits)".
 */
export function keywordQuery(query: string, boosts: FieldBoosts = DEFAULT_FIELD_BOOSTS) {
  const language = detectLanguage(query);
  const sub = language === 'und' ? '' : `.${language}`;
  const field = (name: string, boost: number) => (boost === 1 ? `${name}${sub}` : `${name}${sub}^${boost}`);
  return {
    combined_fields: {
      query,
      fields: [field('text', 1), field('title', boosts.title), field('headingPath', boosts.heading)],
    },
  };
}

/**
 * The bool `filter` clauses both legs share: the project, then each filter given. The kNN leg
 * passes them as its `filter`, so HNSW searches among matching chunks and still returns k hits.
 */
export function chunkFilterClauses(
  projectId: string,
  filters: ChunkFilters = {},
): estypes.QueryDslQueryContainer[] {
  const clauses: estypes.QueryDslQueryContainer[] = [{ term: { projectId } }];
  if (filters.documentIds) clauses.push({ terms: { documentId: filters.documentIds } });
  if (filters.languages) clauses.push({ terms: { language: filters.languages } });
  if (filters.hasCode !== undefined) clauses.push({ term: { hasCode: filters.hasCode } });
  return clauses;
}

/** What both legs search: which index, which project's chunks, under which filters. */
export interface LegScope {
  index: string;
  projectId: string;
  filters: ChunkFilters;
}

/** The keyword leg: the `size` best BM25 matches of `query` among the filtered chunks. */
export function keywordSearch(
  scope: LegScope,
  query: string,
  options: { size: number; fieldBoosts: FieldBoosts },
): estypes.SearchRequest {
  return {
    index: scope.index,
    size: options.size,
    query: {
      bool: {
        filter: chunkFilterClauses(scope.projectId, scope.filters),
        must: [keywordQuery(query, options.fieldBoosts)],
      },
    },
    _source: withoutVector(),
  };
}

/**
 * The kNN leg: the `k` nearest chunks to `vector` among the filtered ones, from at least
 * `numCandidates` HNSW candidates per shard, rescored with the float vectors when `oversample` > 0.
 */
export function knnSearch(
  scope: LegScope,
  vector: number[],
  options: { k: number; numCandidates: number; oversample: number },
): estypes.SearchRequest {
  const { k } = options;
  return {
    index: scope.index,
    size: k,
    knn: {
      field: 'embedding',
      query_vector: vector,
      k,
      num_candidates: Math.max(options.numCandidates, k),
      // Pre-filtering: HNSW searches among matching chunks only, so k hits still come back.
      filter: chunkFilterClauses(scope.projectId, scope.filters),
      ...(options.oversample > 0 ? { rescore_vector: { oversample: options.oversample } } : {}),
    },
    _source: withoutVector(),
  };
}

/**
 * One msearch scoring candidates in the leg that missed them (convex fusion): BM25 of `query`
 * for the chunks `bm25Ids` (only kNN found them), and the kNN score of `vector` for `cosineIds`
 * (only BM25 found them). Answers come in that order, each search present only when it has ids.
 */
export function scoreCompletionSearches(
  scope: LegScope,
  request: {
    query: string;
    fieldBoosts: FieldBoosts;
    vector: number[];
    oversample: number;
    bm25Ids: string[];
    cosineIds: string[];
  },
): estypes.MsearchRequestItem[] {
  const { bm25Ids, cosineIds } = request;
  const header = { index: scope.index };
  const bm25Body = {
    size: bm25Ids.length,
    query: {
      bool: {
        filter: [...chunkFilterClauses(scope.projectId, scope.filters), { ids: { values: bm25Ids } }],
        must: [keywordQuery(request.query, request.fieldBoosts)],
      },
    },
    _source: false,
  };
  // A kNN query filtered to those chunks: Elasticsearch searches them exactly (the filter matches
  // fewer than num_candidates) and scores them on the kNN leg's own scale.
  const cosineBody = {
    size: cosineIds.length,
    knn: {
      field: 'embedding',
      query_vector: request.vector,
      k: cosineIds.length,
      num_candidates: cosineIds.length,
      filter: [...chunkFilterClauses(scope.projectId, scope.filters), { ids: { values: cosineIds } }],
      // The float vectors, as the kNN leg scores its own hits (oversample 1: rescore exactly these).
      ...(request.oversample > 0 ? { rescore_vector: { oversample: 1 } } : {}),
    },
    _source: false,
  };
  return [...(bm25Ids.length ? [header, bm25Body] : []), ...(cosineIds.length ? [header, cosineBody] : [])];
}

/**
 * Stored embeddings of these chunks, from doc values: no `_source` (reading the vectors from
 * `_source` through a multi-get measured ~3× slower, see tools/bench/bench-search-features.ts).
 */
export function storedVectorsSearch(index: string, chunkIds: string[]): estypes.SearchRequest {
  return {
    index,
    size: chunkIds.length,
    query: { ids: { values: chunkIds } },
    _source: false,
    docvalue_fields: ['embedding'],
  };
}

/**
 * One query for the ±`radius` neighbours of every hit: a `should` per document over the union of
 * its hits' position windows. Returns undefined when there is nothing to fetch.
 */
export function neighbourQuery(
  projectId: string,
  hits: Pick<SearchHit, 'documentId' | 'position'>[],
  radius: number,
): { query: estypes.QueryDslQueryContainer; size: number } | undefined {
  if (radius < 1 || hits.length === 0) return undefined;
  const windows = new Map<string, Set<number>>();
  for (const hit of hits) {
    const positions = windows.get(hit.documentId) ?? new Set<number>();
    for (let p = Math.max(0, hit.position - radius); p <= hit.position + radius; p++) {
      if (p !== hit.position) positions.add(p);
    }
    windows.set(hit.documentId, positions);
  }
  const should = [...windows].map(([documentId, positions]) => ({
    bool: { filter: [{ term: { documentId } }, { terms: { position: [...positions] } }] },
  }));
  const size = [...windows.values()].reduce((sum, positions) => sum + positions.size, 0);
  return {
    query: { bool: { filter: [{ term: { projectId } }], should, minimum_should_match: 1 } },
    size,
  };
}

/** The neighbouring chunks of `hits` (see neighbourQuery); undefined when there is nothing to fetch. */
export function neighboursSearch(
  index: string,
  projectId: string,
  hits: Pick<SearchHit, 'documentId' | 'position'>[],
  radius: number,
): estypes.SearchRequest | undefined {
  const request = neighbourQuery(projectId, hits, radius);
  if (!request) return undefined;
  return { index, size: request.size, query: request.query, _source: withoutVector() };
}
