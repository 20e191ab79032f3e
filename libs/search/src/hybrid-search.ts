import type { Client } from '@elastic/elasticsearch';
import { LRUCache } from 'lru-cache';
import type { EmbeddingProvider, SearchHit } from '@trove/domain';
import { SearchMode, TroveError, TroveErrorCode } from '@trove/domain';
import { KEYWORD_FIELDS, type StoredChunk } from './chunk-index';
import { elasticsearchError, IndexNames } from './elasticsearch';
import { fuse, type FusionSettings } from './fusion';
import type { RankedId } from './rank-fusion';

export interface SearchRequest {
  projectId: string;
  query: string;
  limit: number;
  mode: SearchMode;
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
};

/** BM25 and kNN legs, both filtered by project, fused in the service (RRF or a convex combination). */
export class HybridSearch {
  private readonly names: IndexNames;
  private readonly options: HybridSearchOptions;
  private readonly queryVectors?: LRUCache<string, number[]>;

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
        wantKeyword ? run(this.keywordLeg(request.projectId, query, candidates, signal, timings)) : undefined,
        wantVector ? run(this.vectorLeg(request.projectId, query, candidates, signal, timings)) : undefined,
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
    const fused = fuse(keyword?.ranked ?? [], vector?.ranked ?? [], fusion).slice(0, request.limit);

    const hits = fused.map((result): SearchHit => {
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
    const done = performance.now();
    timings.fusionMs = done - fusionStarted;
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
              filter: [{ term: { projectId } }],
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
            filter: { term: { projectId } },
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
