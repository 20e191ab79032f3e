import type { Client } from '@elastic/elasticsearch';
import { LRUCache } from 'lru-cache';
import type { EmbeddingProvider, SearchHit } from '@trove/domain';
import { SearchMode, TroveError, TroveErrorCode } from '@trove/domain';
import { KEYWORD_FIELDS, type StoredChunk } from './chunk-index';
import { elasticsearchError, IndexNames } from './elasticsearch';
import { checkChunkFilters, chunkFilterClauses, type ChunkFilters, matchesNothing } from './filters';
import { fuse, type FusionSettings } from './fusion';
import type { RankedId } from './rank-fusion';
import {
  resolveResultOptions,
  type ResultOptions,
  ResultStages,
  type ResultStageSettings,
} from './result-stages';

export interface SearchRequest {
  projectId: string;
  query: string;
  limit: number;
  mode: SearchMode;
  /** Filters applied inside both legs (issue 11); source and date filters arrive as `documentIds`. */
  filters?: ChunkFilters;
  /** Threshold, MMR, per-document cap and context expansion (issue 11). */
  results?: ResultOptions;
}

export interface SearchCallOptions {
  /** Aborted when nobody waits for the answer any more (the client went away): stops both legs. */
  signal?: AbortSignal;
  /**
   * Fusion for this request only (e.g. an evaluation comparing fusions without a restart);
   * unset fields keep the configured ones.
   */
  fusion?: Partial<FusionSettings>;
  /** Filled in with where the time went (for `ask`, the eval harness and explain views). */
  timings?: SearchTimings;
}

/** Milliseconds spent per stage of one search; legs run concurrently, so they overlap. */
export interface SearchTimings {
  /** Embedding the query (the vector leg's first step). */
  embedMs?: number;
  /** The BM25 leg, client round trip. */
  keywordMs?: number;
  /** Elasticsearch's own time for the BM25 leg (`took`). */
  keywordTookMs?: number;
  /** The kNN leg after the embedding, client round trip. */
  vectorMs?: number;
  /** Elasticsearch's own time for the kNN leg (`took`). */
  vectorTookMs?: number;
  /** Fusing the legs and shaping the hits. */
  fusionMs?: number;
  /** Threshold, MMR, per-document cap and context expansion (their Elasticsearch reads included). */
  resultsMs?: number;
  /** The whole search. */
  totalMs?: number;
}

export interface HybridSearchOptions {
  /** Candidates each leg contributes before fusion. */
  candidates: number;
  /** HNSW candidates examined per shard (recall vs speed). */
  numCandidates: number;
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
}

const DEFAULTS: HybridSearchOptions = {
  candidates: 50,
  numCandidates: 200,
  fusion: 'rrf',
  rrfK: 60,
  convexVectorWeight: 0.5,
  convexNormalization: 'minmax',
  maxQueryChars: 2_000,
  maxQueryTokens: 512,
  queryCacheSize: 1_000,
  maxFilterDocuments: 10_000,
  mmr: false,
  mmrLambda: 0.7,
  mmrCandidates: 50,
  maxExpand: 3,
};

/** BM25 and kNN legs, both filtered by project, fused in the service (RRF or a convex combination). */
export class HybridSearch {
  private readonly names: IndexNames;
  private readonly options: HybridSearchOptions;
  private readonly queryVectors?: LRUCache<string, number[]>;
  private readonly stages: ResultStages;

  constructor(
    private readonly es: Client,
    prefix: string,
    private readonly embedder: EmbeddingProvider,
    options: Partial<HybridSearchOptions> = {},
  ) {
    this.names = new IndexNames(prefix);
    this.options = { ...DEFAULTS, ...options };
    if (this.options.queryCacheSize > 0) {
      this.queryVectors = new LRUCache({ max: this.options.queryCacheSize });
    }
    this.stages = new ResultStages(es, this.names, this.options);
  }

  async search(request: SearchRequest, options: SearchCallOptions = {}): Promise<SearchHit[]> {
    const query = request.query.trim();
    this.checkQuery(query);
    if (request.limit < 1 || request.limit > 100) {
      throw new TroveError(TroveErrorCode.BadRequest, 'limit must be between 1 and 100');
    }
    const started = performance.now();
    const timings = options.timings ?? {};
    const fusion = this.fusionFor(options.fusion);
    const results = resolveResultOptions(request.results ?? {}, this.options);
    const filters = request.filters ?? {};
    checkChunkFilters(filters, { maxDocumentIds: this.options.maxFilterDocuments });
    if (matchesNothing(filters)) return [];
    const candidates = Math.max(this.options.candidates, request.limit);
    const wantKeyword = request.mode !== SearchMode.VECTOR;
    const wantVector = request.mode !== SearchMode.KEYWORD;

    // One signal for both legs: the caller's, or the first leg to fail stops the other.
    const legs = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, legs.signal]) : legs.signal;
    const run = <T>(leg: Promise<T>) =>
      leg.catch((error: unknown) => {
        legs.abort();
        throw error;
      });
    let keyword: Awaited<ReturnType<HybridSearch['keywordLeg']>> | undefined;
    let vector: Awaited<ReturnType<HybridSearch['vectorLeg']>> | undefined;
    try {
      [keyword, vector] = await Promise.all([
        wantKeyword
          ? run(this.keywordLeg(request.projectId, query, candidates, filters, signal, timings))
          : undefined,
        wantVector
          ? run(this.vectorLeg(request.projectId, query, candidates, filters, signal, timings))
          : undefined,
      ]);
    } catch (error) {
      if (options.signal?.aborted) {
        throw new TroveError(TroveErrorCode.Cancelled, 'the search was cancelled by its caller', {
          cause: error,
        });
      }
      throw error;
    }

    const fusionStarted = performance.now();
    const sources = new Map<string, StoredChunk>();
    for (const leg of [keyword, vector]) leg?.sources.forEach((source, id) => sources.set(id, source));
    const fused = fuse(keyword?.ranked ?? [], vector?.ranked ?? [], fusion);

    const ranked = fused.map((result): SearchHit => {
      const source = sources.get(result.id)!;
      const [bm25, knn] = result.legs;
      return {
        chunkId: source.chunkId,
        documentId: source.documentId,
        projectId: source.projectId,
        title: source.title,
        headingPath: source.headingPath,
        text: source.text,
        position: source.position,
        score: result.score,
        citation: source.citation,
        citationUrl: source.citationUrl,
        anchor: source.anchor,
        page: source.page,
        pageEnd: source.pageEnd,
        chapter: source.chapter,
        bm25,
        knn,
      };
    });
    timings.fusionMs = performance.now() - fusionStarted;
    // Threshold → MMR → per-document cap → limit → context expansion (result-stages.ts).
    const stagesStarted = performance.now();
    const hits = await this.stages.apply(request.projectId, ranked, request.limit, results, signal);
    const done = performance.now();
    timings.resultsMs = done - stagesStarted;
    timings.totalMs = done - started;
    return hits;
  }

  /** The configured fusion with the request's overrides, checked before any work is done. */
  private fusionFor(override: Partial<FusionSettings> = {}): FusionSettings {
    const fusion: FusionSettings = {
      method: override.method ?? this.options.fusion,
      k: override.k ?? this.options.rrfK,
      vectorWeight: override.vectorWeight ?? this.options.convexVectorWeight,
      normalization: override.normalization ?? this.options.convexNormalization,
    };
    if (!Number.isInteger(fusion.k) || fusion.k < 1 || fusion.k > 1000) {
      throw new TroveError(TroveErrorCode.BadRequest, 'fusion k must be an integer between 1 and 1000');
    }
    if (!(fusion.vectorWeight >= 0 && fusion.vectorWeight <= 1)) {
      throw new TroveError(TroveErrorCode.BadRequest, 'fusion vectorWeight must be between 0 and 1');
    }
    return fusion;
  }

  /** Refuses empty and over-long queries before any work is done. */
  private checkQuery(query: string): void {
    if (!query) throw new TroveError(TroveErrorCode.BadRequest, 'the search query is empty');
    const { maxQueryChars, maxQueryTokens, countTokens } = this.options;
    if (query.length > maxQueryChars) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        `the search query has ${query.length} characters; the limit is ${maxQueryChars} (TROVE_SEARCH_MAX_QUERY_CHARS)`,
      );
    }
    const tokens = countTokens?.(query) ?? 0;
    if (tokens > maxQueryTokens) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        `the search query has about ${tokens} tokens; the limit is ${maxQueryTokens} (TROVE_SEARCH_MAX_QUERY_TOKENS)`,
      );
    }
  }

  /** The query's embedding, from the cache when the same query was embedded recently. */
  private async queryVector(query: string, signal: AbortSignal): Promise<number[]> {
    const cached = this.queryVectors?.get(query);
    if (cached) return cached;
    const [vector] = await this.embedder.embed([query], 'query', { signal });
    this.queryVectors?.set(query, vector);
    return vector;
  }

  private async keywordLeg(
    projectId: string,
    query: string,
    size: number,
    filters: ChunkFilters,
    signal: AbortSignal,
    timings: SearchTimings,
  ) {
    const started = performance.now();
    try {
      const response = await this.es.search<StoredChunk>(
        {
          index: this.names.chunks,
          size,
          query: {
            bool: {
              filter: chunkFilterClauses(projectId, filters),
              must: [
                { multi_match: { query, fields: KEYWORD_FIELDS, type: 'best_fields', tie_breaker: 0.3 } },
              ],
            },
          },
          _source: { excludes: ['embedding'] },
        },
        { signal },
      );
      timings.keywordMs = performance.now() - started;
      timings.keywordTookMs = response.took;
      return collect(response.hits.hits);
    } catch (error) {
      throw elasticsearchError(error, 'running the keyword search');
    }
  }

  private async vectorLeg(
    projectId: string,
    query: string,
    k: number,
    filters: ChunkFilters,
    signal: AbortSignal,
    timings: SearchTimings,
  ) {
    const embedStarted = performance.now();
    const vector = await this.queryVector(query, signal);
    const started = performance.now();
    timings.embedMs = started - embedStarted;
    try {
      const response = await this.es.search<StoredChunk>(
        {
          index: this.names.chunks,
          size: k,
          knn: {
            field: 'embedding',
            query_vector: vector,
            k,
            num_candidates: Math.max(this.options.numCandidates, k),
            // Pre-filtering: HNSW searches among matching chunks only, so k hits still come back.
            filter: chunkFilterClauses(projectId, filters),
          },
          _source: { excludes: ['embedding'] },
        },
        { signal },
      );
      timings.vectorMs = performance.now() - started;
      timings.vectorTookMs = response.took;
      return collect(response.hits.hits);
    } catch (error) {
      throw elasticsearchError(error, 'running the vector search');
    }
  }
}

function collect(hits: { _id?: string; _score?: number | null; _source?: StoredChunk }[]) {
  const ranked: RankedId[] = [];
  const sources = new Map<string, StoredChunk>();
  for (const hit of hits) {
    if (!hit._id || !hit._source) continue;
    ranked.push({ id: hit._id, score: hit._score ?? 0 });
    sources.set(hit._id, hit._source);
  }
  return { ranked, sources };
}
