import type { SearchHit } from '@trove/domain';
import { TroveError, TroveErrorCode } from '@trove/domain';
import type { StoredChunk } from './chunk-index.ports';
import { elasticsearchError, type IndexNames } from './elasticsearch';
import { neighboursSearch, storedVectorsSearch } from './chunk-queries';
import { attachContext } from './expansion';
import { capPerDocument } from './grouping';
import { maximalMarginalRelevance } from './mmr';
import type { SearchClient } from './search-client';

/** What a request asks of the stages after fusion; unset fields keep the configured defaults. */
export interface ResultOptions {
  /** Drops hits whose final score is below this (the fusion's scale, or the reranker's). */
  minScore?: number;
  /** Diversify with maximal marginal relevance over the stored vectors. */
  mmr?: boolean;
  /** MMR's λ: 1 = relevance only, 0 = diversity only. */
  mmrLambda?: number;
  /** At most this many hits per document. */
  maxPerDocument?: number;
  /** Each hit carries its ±expand neighbouring chunks. */
  expand?: number;
}

/** Configured defaults and bounds of the result stages. */
export interface ResultStageSettings {
  /** MMR when the request does not say (TROVE_SEARCH_MMR). */
  mmr: boolean;
  /** Default λ (TROVE_SEARCH_MMR_LAMBDA). */
  mmrLambda: number;
  /** Candidates MMR chooses among, best first (TROVE_SEARCH_MMR_CANDIDATES). */
  mmrCandidates: number;
  /** Largest `expand` accepted (TROVE_SEARCH_MAX_EXPAND). */
  maxExpand: number;
}

/** The resolved options, checked. */
export type ResolvedResultOptions = Required<Omit<ResultOptions, 'minScore' | 'maxPerDocument'>> &
  Pick<ResultOptions, 'minScore' | 'maxPerDocument'>;

/** Merges the request's options over the configured defaults and refuses bad values. */
export function resolveResultOptions(
  options: ResultOptions,
  settings: ResultStageSettings,
): ResolvedResultOptions {
  const resolved = {
    minScore: options.minScore,
    mmr: options.mmr ?? settings.mmr,
    mmrLambda: options.mmrLambda ?? settings.mmrLambda,
    maxPerDocument: options.maxPerDocument,
    expand: options.expand ?? 0,
  };
  const bad = (message: string) => new TroveError(TroveErrorCode.BadRequest, message);
  if (resolved.minScore !== undefined && !Number.isFinite(resolved.minScore)) {
    throw bad('minScore must be a finite number');
  }
  if (!(resolved.mmrLambda >= 0 && resolved.mmrLambda <= 1)) throw bad('mmrLambda must be between 0 and 1');
  if (
    resolved.maxPerDocument !== undefined &&
    !(Number.isInteger(resolved.maxPerDocument) && resolved.maxPerDocument >= 1)
  ) {
    throw bad('maxPerDocument must be a positive integer');
  }
  if (!Number.isInteger(resolved.expand) || resolved.expand < 0 || resolved.expand > settings.maxExpand) {
    throw bad(`expand must be an integer between 0 and ${settings.maxExpand} (TROVE_SEARCH_MAX_EXPAND)`);
  }
  return resolved;
}

/**
 * The stages after fusion (and reranking), in order: threshold → MMR → per-document cap →
 * limit → context expansion. Each reads from Elasticsearch only when asked for: MMR the stored
 * vectors of its candidates (doc values), expansion the neighbours of the final hits, one query each.
 */
export class ResultStages {
  constructor(
    private readonly es: SearchClient,
    private readonly names: IndexNames,
    private readonly settings: ResultStageSettings,
  ) {}

  async apply(
    projectId: string,
    ranked: SearchHit[],
    limit: number,
    options: ResolvedResultOptions,
    signal?: AbortSignal,
  ): Promise<SearchHit[]> {
    // A reranked search is judged on the reranker's scale: hits past the reranked head have no
    // score on it, so a threshold drops them and MMR chooses among the reranked head only.
    const reranked = ranked.some((hit) => hit.rerankScore !== undefined);
    const finalScore = (hit: SearchHit) => (reranked ? (hit.rerankScore ?? -Infinity) : hit.score);
    let hits =
      options.minScore === undefined ? ranked : ranked.filter((hit) => finalScore(hit) >= options.minScore!);
    if (options.mmr && options.mmrLambda < 1 && hits.length > 1) {
      hits = await this.diversify(hits, options.mmrLambda, finalScore, signal);
    }
    if (options.maxPerDocument !== undefined) hits = capPerDocument(hits, options.maxPerDocument);
    hits = hits.slice(0, limit);
    if (options.expand > 0) hits = await this.expand(projectId, hits, options.expand, signal);
    return hits;
  }

  /** MMR over the best `mmrCandidates` hits; the rest keep their order after them. */
  private async diversify(
    hits: SearchHit[],
    lambda: number,
    finalScore: (hit: SearchHit) => number,
    signal?: AbortSignal,
  ): Promise<SearchHit[]> {
    const scored = hits.findIndex((hit) => !Number.isFinite(finalScore(hit)));
    const pool = hits.slice(0, Math.min(this.settings.mmrCandidates, scored < 0 ? hits.length : scored));
    if (pool.length < 2) return hits;
    const vectors = await this.vectors(
      pool.map((hit) => hit.chunkId),
      signal,
    );
    const order = maximalMarginalRelevance(
      pool.map((hit) => ({
        id: hit.chunkId,
        score: finalScore(hit),
        vector: vectors.get(hit.chunkId) ?? [],
      })),
      lambda,
    );
    const byId = new Map(pool.map((hit) => [hit.chunkId, hit]));
    return [...order.map((id) => byId.get(id)!), ...hits.slice(pool.length)];
  }

  /**
   * Stored embeddings of these chunks, from doc values: one search with no `_source` (reading the
   * vectors from `_source` through a multi-get measured ~3× slower, see tools/bench/bench-search-features.ts).
   */
  async vectors(chunkIds: string[], signal?: AbortSignal): Promise<Map<string, number[]>> {
    try {
      const response = await this.es.search(storedVectorsSearch(this.names.chunks, chunkIds), { signal });
      const vectors = new Map<string, number[]>();
      for (const hit of response.hits.hits) {
        const [vector] = (hit.fields?.embedding as number[][] | undefined) ?? [];
        if (hit._id && vector) vectors.set(hit._id, vector);
      }
      return vectors;
    } catch (error) {
      throw elasticsearchError(error, 'reading stored vectors for diversification');
    }
  }

  private async expand(projectId: string, hits: SearchHit[], radius: number, signal?: AbortSignal) {
    const request = neighboursSearch(this.names.chunks, projectId, hits, radius);
    if (!request) return hits;
    try {
      const response = await this.es.search<StoredChunk>(request, { signal });
      const neighbours = response.hits.hits.flatMap((hit) => (hit._source ? [hit._source] : []));
      return attachContext(hits, neighbours, radius);
    } catch (error) {
      throw elasticsearchError(error, 'reading the neighbouring chunks');
    }
  }
}
