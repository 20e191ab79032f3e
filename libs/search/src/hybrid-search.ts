import { LRUCache } from 'lru-cache';
import type { EmbeddingProvider, RerankCandidate, RerankResult, SearchHit } from '@trove/domain';
import { SearchMode, TroveError, TroveErrorCode } from '@trove/domain';
import type { StoredChunk } from './chunk-index.ports';
import {
  type FieldBoosts,
  keywordSearch,
  knnSearch,
  type LegScope,
  scoreCompletionSearches,
} from './chunk-queries';
import { elasticsearchError, IndexNames } from './elasticsearch';
import { checkChunkFilters, type ChunkFilters, matchesNothing } from './filters';
import { fuse, type FusionSettings } from './fusion';
import type { FusedResult, RankedId } from './rank-fusion';
import type { SearchClient } from './search-client';
import { type HybridSearchOptions, SEARCH_DEFAULTS, type SearchTarget } from './search-settings';
import { resolveResultOptions, type ResultOptions, ResultStages } from './result-stages';

export interface SearchRequest {
  projectId: string;
  query: string;
  limit: number;
  mode: SearchMode;
  /** Filters applied inside both legs; source and date filters arrive as `documentIds`. */
  filters?: ChunkFilters;
  /** Threshold, MMR, per-document cap and context expansion. */
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
  /** Rerank this request (true) or not (false); unset: rerank when a reranker is configured. */
  rerank?: boolean;
  /** How many of the fused hits the reranker sees, 1 to 100; unset: the configured number. */
  rerankCandidates?: number;
  /** Attach each hit's `explain` (legs, fused score, rerank score, top features). */
  explain?: boolean;
  /**
   * Attach to each of the top fused hits the learned reranker's features of it (`features`),
   * computed among the rerank candidates in fused order as the reranker sees them, when the search
   * was built with `candidateFeatures`: what an answer records for training on feedback.
   */
  features?: boolean;
  /** Retrieval knobs for this request only (the evaluation's sweeps); unset fields keep the configured ones. */
  retrieval?: Partial<RetrievalSettings>;
}

/** How each leg gathers candidates before fusion. */
export interface RetrievalSettings {
  /** Hits each leg contributes before fusion, 1–500. */
  candidates: number;
  /** HNSW candidates examined per shard, 1–10,000 (at least `candidates`). */
  numCandidates: number;
  /** BM25 boosts of the title and the heading path against the text, 0–20. */
  fieldBoosts: FieldBoosts;
  /**
   * Convex fusion only: give every candidate both legs' scores before normalising — the cosine of
   * a chunk only BM25 found and the BM25 score of one only kNN found (one extra Elasticsearch
   * round trip) — instead of the leg's floor. Measured in docs/search-tuning.md.
   */
  completeScores: boolean;
  /**
   * The kNN leg gathers `oversample` × its candidates on the int8-quantized vectors, then scores
   * them again with the stored float vectors (Elasticsearch's `rescore_vector`), and the
   * completion scores the BM25-only chunks with the float vectors too. Quantization quantiles
   * are per segment, so without it the same corpus indexed twice gives slightly different
   * cosines and even different top candidates; 0 keeps the quantized scores. 1–10.
   */
  oversample: number;
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
  /** Scoring candidates in the leg that missed them (convex fusion, completeScores), one round trip. */
  completionMs?: number;
  /** Fusing the legs and shaping the hits. */
  fusionMs?: number;
  /** Threshold, MMR, per-document cap and context expansion (their Elasticsearch reads included). */
  resultsMs?: number;
  /** Retrieval: both legs and fusion, up to the reranker. */
  retrievalMs?: number;
  /** The reranker (features included). */
  rerankMs?: number;
  /** The whole search. */
  totalMs?: number;
}

/** What the rerank stage did for one request. */
export interface RerankReport {
  /** The reranker's id when one was asked for. */
  reranker?: string;
  /** True when the hits are in the reranker's order; false when reranking was off or failed. */
  reranked: boolean;
  /** Why the fused order was kept although reranking was asked for. */
  warning?: string;
  /** Time spent in the reranker (features included), ms. */
  ms?: number;
}

/** Hits with what search did to rank them. */
export interface SearchOutcome {
  hits: SearchHit[];
  rerank: RerankReport;
  timings: SearchTimings;
}

/**
 * BM25 and kNN legs, both filtered by project, fused in the service (RRF or a convex combination).
 * The requests themselves come from chunk-queries.ts, beside the index they query.
 */
export class HybridSearch {
  private readonly names: IndexNames;
  private readonly options: HybridSearchOptions;
  private readonly queryVectors?: LRUCache<string, number[]>;
  private readonly stages: ResultStages;

  constructor(
    private readonly es: SearchClient,
    prefix: string,
    private readonly embedder: EmbeddingProvider,
    options: Partial<HybridSearchOptions> = {},
  ) {
    this.names = new IndexNames(prefix);
    this.options = { ...SEARCH_DEFAULTS, ...options };
    if (this.options.queryCacheSize > 0) {
      this.queryVectors = new LRUCache({ max: this.options.queryCacheSize });
    }
    this.stages = new ResultStages(es, this.names, this.options);
  }

  /** The hits of a search, best first. */
  async search(request: SearchRequest, options: SearchCallOptions = {}): Promise<SearchHit[]> {
    return (await this.searchWithReport(request, options)).hits;
  }

  /** The hits of a search with what the rerank stage did and per-stage timings. */
  async searchWithReport(request: SearchRequest, options: SearchCallOptions = {}): Promise<SearchOutcome> {
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
    if (matchesNothing(filters)) return { hits: [], rerank: { reranked: false }, timings };
    const rerankCandidates = this.rerankCandidatesFor(options);
    const retrieval = this.retrievalFor(options.retrieval);
    const candidates = Math.max(retrieval.candidates, request.limit);
    // Both legs read one generation's index, queried with its model (a rebuild may swap meanwhile).
    const target = this.options.target
      ? await this.options.target()
      : { index: this.names.chunks, embedder: this.embedder };
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
          ? run(
              this.keywordLeg(
                target,
                retrieval,
                request.projectId,
                query,
                candidates,
                filters,
                signal,
                timings,
              ),
            )
          : undefined,
        wantVector
          ? run(
              this.vectorLeg(
                target,
                retrieval,
                request.projectId,
                query,
                candidates,
                filters,
                signal,
                timings,
              ),
            )
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

    if (keyword && vector && fusion.method === 'convex' && retrieval.completeScores) {
      const completionStarted = performance.now();
      await this.completeScores(
        target,
        retrieval,
        request.projectId,
        query,
        filters,
        keyword,
        vector,
        signal,
      );
      timings.completionMs = performance.now() - completionStarted;
    }

    const fusionStarted = performance.now();
    const sources = new Map<string, StoredChunk>();
    for (const leg of [keyword, vector]) leg?.sources.forEach((source, id) => sources.set(id, source));
    const all = fuse(keyword?.ranked ?? [], vector?.ranked ?? [], fusion);
    timings.fusionMs = performance.now() - fusionStarted;
    timings.retrievalMs = performance.now() - started;
    const features = options.features ? this.featuresOf(query, all, sources, rerankCandidates) : undefined;
    const reranked = await this.rerankStage(query, all, sources, rerankCandidates, options.signal);
    timings.rerankMs = reranked.report.ms;

    const ranked = reranked.ordered.map((result): SearchHit => {
      const source = sources.get(result.id)!;
      const [bm25, knn] = result.legs;
      const rerank = reranked.scores.get(result.id);
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
        ...(source.ocr ? { ocr: true, ocrConfidence: source.ocrConfidence } : {}),
        bm25,
        knn,
        rerankScore: rerank?.score,
        ...(features?.has(result.id) ? { features: features.get(result.id) } : {}),
        explain: options.explain
          ? {
              bm25,
              knn,
              fusedScore: result.score,
              rerankScore: rerank?.score,
              topFeatures: rerank?.topFeatures,
            }
          : undefined,
      };
    });
    // Threshold → MMR → per-document cap → limit → context expansion (result-stages.ts).
    const stagesStarted = performance.now();
    const hits = await this.stages.apply(request.projectId, ranked, request.limit, results, signal);
    const done = performance.now();
    timings.resultsMs = done - stagesStarted;
    timings.totalMs = done - started;
    return { hits, rerank: reranked.report, timings };
  }

  /**
   * One leg's Elasticsearch request on its own, as `searchWithReport` sends it (the same index,
   * query body, candidates and filters), with nothing else around it: the same-run baseline a
   * benchmark compares whole searches with. The kNN leg takes the query's vector, so that
   * embedding the query is timed apart. `timings` gets `keywordMs` or `vectorMs` (client round
   * trip) and the matching `…TookMs`.
   */
  async legRequest(
    leg: { kind: 'keyword' } | { kind: 'vector'; vector: number[] },
    request: Omit<SearchRequest, 'mode' | 'results'>,
    options: Pick<SearchCallOptions, 'retrieval' | 'signal'> = {},
  ): Promise<{ ranked: RankedId[]; timings: SearchTimings }> {
    const query = request.query.trim();
    this.checkQuery(query);
    const filters = request.filters ?? {};
    checkChunkFilters(filters, { maxDocumentIds: this.options.maxFilterDocuments });
    const retrieval = this.retrievalFor(options.retrieval);
    const candidates = Math.max(retrieval.candidates, request.limit);
    const target = this.options.target
      ? await this.options.target()
      : { index: this.names.chunks, embedder: this.embedder };
    const signal = options.signal ?? new AbortController().signal;
    const timings: SearchTimings = {};
    const { ranked } =
      leg.kind === 'keyword'
        ? await this.keywordLeg(
            target,
            retrieval,
            request.projectId,
            query,
            candidates,
            filters,
            signal,
            timings,
          )
        : await this.knnRequest(
            target,
            retrieval,
            request.projectId,
            leg.vector,
            candidates,
            filters,
            signal,
            timings,
          );
    return { ranked, timings };
  }

  /** The configured retrieval knobs with this request's overrides, range-checked. */
  private retrievalFor(overrides: Partial<RetrievalSettings> = {}): RetrievalSettings {
    const settings = {
      candidates: overrides.candidates ?? this.options.candidates,
      numCandidates: overrides.numCandidates ?? this.options.numCandidates,
      fieldBoosts: { ...this.options.fieldBoosts, ...overrides.fieldBoosts },
      completeScores: overrides.completeScores ?? this.options.completeScores,
      oversample: overrides.oversample ?? this.options.oversample,
    };
    const bad = (what: string) => new TroveError(TroveErrorCode.BadRequest, what);
    if (!Number.isInteger(settings.candidates) || settings.candidates < 1 || settings.candidates > 500) {
      throw bad('candidates must be an integer between 1 and 500');
    }
    if (
      !Number.isInteger(settings.numCandidates) ||
      settings.numCandidates < 1 ||
      settings.numCandidates > 10_000
    ) {
      throw bad('numCandidates must be an integer between 1 and 10000');
    }
    if (!(settings.oversample === 0 || (settings.oversample >= 1 && settings.oversample <= 10))) {
      throw bad('oversample must be 0 (off) or between 1 and 10');
    }
    for (const [field, boost] of Object.entries(settings.fieldBoosts)) {
      if (!(boost >= 0 && boost <= 20)) throw bad(`the ${field} boost must be between 0 and 20`);
    }
    return settings;
  }

  /** How many fused hits to rerank, or 0 when this request is not reranked; checked before any work. */
  private rerankCandidatesFor(options: SearchCallOptions): number {
    const wanted = options.rerank ?? this.options.reranker !== undefined;
    if (!wanted) return 0;
    if (!this.options.reranker) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        'reranking was asked for but no reranker is configured (TROVE_RERANK_PROVIDER)',
      );
    }
    const n = options.rerankCandidates ?? this.options.rerankCandidates;
    if (!Number.isInteger(n) || n < 1 || n > 100) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        'rerankCandidates must be an integer between 1 and 100',
      );
    }
    return n;
  }

  /**
   * The fused list with its top `count` in the reranker's order (candidates the reranker left out
   * follow in fused order, then the rest). A failing reranker never fails the search: the fused
   * order is kept and the report says why; only the caller's own cancellation propagates.
   */
  private async rerankStage(
    query: string,
    fused: FusedResult[],
    sources: Map<string, StoredChunk>,
    count: number,
    signal: AbortSignal | undefined,
  ): Promise<{ ordered: FusedResult[]; scores: Map<string, RerankResult>; report: RerankReport }> {
    const reranker = this.options.reranker;
    const scores = new Map<string, RerankResult>();
    if (count === 0 || !reranker || fused.length === 0) {
      return {
        ordered: fused,
        scores,
        report: { reranker: count ? reranker?.id : undefined, reranked: false },
      };
    }
    const head = fused.slice(0, count);
    const candidates = head.map((result) => rerankCandidate(result, sources.get(result.id)!));
    const started = performance.now();
    try {
      const results = await reranker.rerank(query, candidates, { signal });
      const ms = performance.now() - started;
      const seen = new Set<number>();
      for (const r of results) {
        if (!Number.isInteger(r.index) || r.index < 0 || r.index >= head.length || seen.has(r.index)) {
          throw new TroveError(
            TroveErrorCode.RerankFailed,
            `reranker ${reranker.id} returned index ${r.index}`,
          );
        }
        if (!Number.isFinite(r.score)) {
          throw new TroveError(
            TroveErrorCode.RerankFailed,
            `reranker ${reranker.id} returned score ${r.score}`,
          );
        }
        seen.add(r.index);
        scores.set(head[r.index].id, r);
      }
      const ordered = [
        ...results.map((r) => head[r.index]),
        ...head.filter((_, i) => !seen.has(i)),
        ...fused.slice(count),
      ];
      return { ordered, scores, report: { reranker: reranker.id, reranked: true, ms } };
    } catch (error) {
      if (signal?.aborted) {
        throw new TroveError(TroveErrorCode.Cancelled, 'the search was cancelled by its caller', {
          cause: error,
        });
      }
      scores.clear();
      const warning = `reranker ${reranker.id} failed, fused order kept: ${(error as Error).message}`;
      return {
        ordered: fused,
        scores,
        report: { reranker: reranker.id, reranked: false, warning, ms: performance.now() - started },
      };
    }
  }

  /**
   * The features of the fused top candidates by id: those the reranker sees (the configured
   * number when this request is not reranked, as the learned reranker would see them).
   */
  private featuresOf(
    query: string,
    fused: FusedResult[],
    sources: Map<string, StoredChunk>,
    count: number,
  ): Map<string, Record<string, number>> | undefined {
    const compute = this.options.candidateFeatures;
    if (!compute) return undefined;
    const head = fused.slice(0, count || this.options.rerankCandidates);
    const rows = compute(
      query,
      head.map((result) => rerankCandidate(result, sources.get(result.id)!)),
    );
    return new Map(head.map((result, i) => [result.id, rows[i]]));
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
  private async queryVector(
    embedder: EmbeddingProvider,
    query: string,
    signal: AbortSignal,
  ): Promise<number[]> {
    // Keyed by model too: after a model change the old vectors would not match the new index.
    const key = `${embedder.modelId}\u0000${query}`;
    const cached = this.queryVectors?.get(key);
    if (cached) return cached;
    const [vector] = await embedder.embed([query], 'query', { signal });
    this.queryVectors?.set(key, vector);
    return vector;
  }

  private async keywordLeg(
    target: SearchTarget,
    retrieval: RetrievalSettings,
    projectId: string,
    query: string,
    size: number,
    filters: ChunkFilters,
    signal: AbortSignal,
    timings: SearchTimings,
  ) {
    const started = performance.now();
    try {
      const scope: LegScope = { index: target.index, projectId, filters };
      const response = await this.es.search<StoredChunk>(
        keywordSearch(scope, query, { size, fieldBoosts: retrieval.fieldBoosts }),
        { signal },
      );
      timings.keywordMs = performance.now() - started;
      timings.keywordTookMs = response.took;
      return collect(response.hits.hits);
    } catch (error) {
      throw elasticsearchError(error, 'running the keyword search');
    }
  }

  /**
   * Scores each candidate in the leg that did not return it, so convex fusion compares every
   * candidate on both scales: BM25 (the same query, restricted to those chunks; 0 when no term
   * matches) for chunks only kNN found, and the kNN score, (1 + cos) / 2, for chunks only BM25
   * found. One msearch; each leg's list is then re-sorted by score.
   */
  private async completeScores(
    target: SearchTarget,
    retrieval: RetrievalSettings,
    projectId: string,
    query: string,
    filters: ChunkFilters,
    keyword: { ranked: RankedId[] },
    vector: { ranked: RankedId[]; vector: number[] },
    signal: AbortSignal,
  ): Promise<void> {
    const inKeyword = new Set(keyword.ranked.map((r) => r.id));
    const inVector = new Set(vector.ranked.map((r) => r.id));
    const needBm25 = [...inVector].filter((id) => !inKeyword.has(id));
    const needCosine = [...inKeyword].filter((id) => !inVector.has(id));
    if (needBm25.length === 0 && needCosine.length === 0) return;
    const searches = scoreCompletionSearches(
      { index: target.index, projectId, filters },
      {
        query,
        fieldBoosts: retrieval.fieldBoosts,
        vector: vector.vector,
        oversample: retrieval.oversample,
        bm25Ids: needBm25,
        cosineIds: needCosine,
      },
    );
    const msearch = async (bodies: typeof searches) => {
      try {
        return (await this.es.msearch({ searches: bodies }, { signal })).responses;
      } catch (error) {
        throw elasticsearchError(error, 'scoring candidates in both legs');
      }
    };
    const transient = (status: number) => status === 429 || status >= 500;
    const responses = await msearch(searches);
    // An msearch answers 200 even when one of its searches failed, so the client's own retry (on
    // another node) never sees a search that hit a shard of a node going away (502/503): those
    // searches alone are sent once more, when the cluster has usually moved the shard.
    const failed = responses.flatMap((response, i) =>
      'error' in response && transient(response.status) ? [i] : [],
    );
    if (failed.length > 0) {
      // Each search is a header and a body.
      const again = await msearch(failed.flatMap((i) => searches.slice(2 * i, 2 * i + 2)));
      failed.forEach((i, j) => (responses[i] = again[j]));
    }
    const scores = responses.map((response) => {
      if ('error' in response) {
        throw new TroveError(
          transient(response.status) ? TroveErrorCode.ServiceUnavailable : TroveErrorCode.IndexFailed,
          `Elasticsearch answered ${response.status} while scoring candidates in both legs: ${response.error.root_cause?.[0]?.reason ?? response.error.reason ?? response.error.type}`,
          { permanent: !transient(response.status) },
        );
      }
      return new Map(response.hits.hits.map((hit) => [hit._id!, hit._score ?? 0]));
    });
    const bm25Scores = needBm25.length ? scores[0] : new Map<string, number>();
    const cosineScores = needCosine.length ? scores[scores.length - 1] : new Map<string, number>();
    // No matching term is a BM25 score of 0; a chunk missing from the cosine answer (deleted
    // meanwhile) keeps the leg's floor by staying out of the list.
    keyword.ranked.push(...needBm25.map((id) => ({ id, score: bm25Scores.get(id) ?? 0 })));
    vector.ranked.push(
      ...needCosine.filter((id) => cosineScores.has(id)).map((id) => ({ id, score: cosineScores.get(id)! })),
    );
    for (const list of [keyword.ranked, vector.ranked]) list.sort((a, b) => b.score - a.score);
  }

  private async vectorLeg(
    target: SearchTarget,
    retrieval: RetrievalSettings,
    projectId: string,
    query: string,
    k: number,
    filters: ChunkFilters,
    signal: AbortSignal,
    timings: SearchTimings,
  ) {
    const embedStarted = performance.now();
    const vector = await this.queryVector(target.embedder, query, signal);
    timings.embedMs = performance.now() - embedStarted;
    return this.knnRequest(target, retrieval, projectId, vector, k, filters, signal, timings);
  }

  /** The kNN leg's Elasticsearch request for a query vector already computed. */
  private async knnRequest(
    target: SearchTarget,
    retrieval: RetrievalSettings,
    projectId: string,
    vector: number[],
    k: number,
    filters: ChunkFilters,
    signal: AbortSignal,
    timings: SearchTimings,
  ) {
    const started = performance.now();
    try {
      const scope: LegScope = { index: target.index, projectId, filters };
      const response = await this.es.search<StoredChunk>(
        knnSearch(scope, vector, {
          k,
          numCandidates: retrieval.numCandidates,
          oversample: retrieval.oversample,
        }),
        { signal },
      );
      timings.vectorMs = performance.now() - started;
      timings.vectorTookMs = response.took;
      return { ...collect(response.hits.hits), vector };
    } catch (error) {
      throw elasticsearchError(error, 'running the vector search');
    }
  }
}

/** What the reranker is told about a fused hit. */
function rerankCandidate(result: FusedResult, source: StoredChunk): RerankCandidate {
  const [bm25, knn] = result.legs;
  return {
    id: result.id,
    text: source.text,
    title: source.title,
    headingPath: source.headingPath,
    position: source.position,
    tokenCount: source.tokenCount,
    language: source.language,
    bm25,
    knn,
    fusedScore: result.score,
  };
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
