import type { SearchMode } from '@trove/domain';
import { type EvalQuery } from './beir';
import { type RetrievalScores, scoreRuns } from './metrics';

/**
 * Chunks of one document a ranking holds unless told otherwise: 1 ranks documents by their best
 * chunk, so a top 10 holds 10 documents as BEIR's judgements expect.
 */
export const DEFAULT_PER_DOCUMENT = 1;

/** The search request an evaluation sends (a subset of the search lib's). */
export interface RankingRequest {
  projectId: string;
  query: string;
  limit: number;
  mode: SearchMode;
  results?: { maxPerDocument: number };
}

/**
 * The part of HybridSearch an evaluation calls, typed structurally so this lib does not depend on
 * the search lib; `Options` are its per-call options, `Outcome` its report.
 */
export interface RankingSearch<Options, Outcome extends { hits: readonly { documentId: string }[] }> {
  searchWithReport(request: RankingRequest, options?: Options): Promise<Outcome>;
}

export interface RankingSettings<Options, Outcome> {
  projectId: string;
  mode: SearchMode;
  /** Chunks per document in a ranking: 1 (the default) ranks documents, 0 ranks chunks. */
  perDocument?: number;
  /** A hit's document id → the corpus id the judgements name (identity by default). */
  corpusId?: (documentId: string) => string;
  /** Options of each call, made fresh per call (e.g. a timings object to fill in). */
  options?: () => Options;
  /** Also run a top-`deepLimit` search per query and score Recall@100 on it. */
  deepLimit?: number;
  /** Sees each query's top-10 call: its outcome, the options it ran with and its duration. */
  observe?: (call: { query: EvalQuery; outcome: Outcome; options?: Options; ms: number }) => void;
}

export interface QueryRanking {
  query: EvalQuery;
  /** Corpus ids of the top 10, best first. */
  ranking: string[];
  /** Corpus ids of the deep list when `deepLimit` was set. */
  deep?: string[];
}

/**
 * The one search-and-score path of `npm run eval` and the retrieval gate: each query's top 10
 * (documents by default), scored against its judgements as BEIR does. nDCG@10, Recall@10 and
 * MRR@10 come from the top 10; Recall@100 from the deep list when asked for, else from the top 10.
 */
export async function evaluateRetrieval<Options, Outcome extends { hits: readonly { documentId: string }[] }>(
  search: RankingSearch<Options, Outcome>,
  queries: readonly EvalQuery[],
  settings: RankingSettings<Options, Outcome>,
): Promise<{ scores: RetrievalScores; runs: QueryRanking[] }> {
  const runs: QueryRanking[] = [];
  for (const query of queries) runs.push(await rankQuery(search, query, settings));
  return { scores: scoreRankings(runs), runs };
}

/**
 * One query's step of `evaluateRetrieval`: its timed top 10 (seen by `observe`), then the deep
 * list when asked for. A caller that interleaves configurations query by query ranks with this
 * and scores with `scoreRankings`, getting the figures `evaluateRetrieval` would.
 */
export async function rankQuery<Options, Outcome extends { hits: readonly { documentId: string }[] }>(
  search: RankingSearch<Options, Outcome>,
  query: EvalQuery,
  settings: RankingSettings<Options, Outcome>,
): Promise<QueryRanking> {
  const perDocument = settings.perDocument ?? DEFAULT_PER_DOCUMENT;
  const corpusId = settings.corpusId ?? ((id: string) => id);
  const rank = async (limit: number) => {
    const options = settings.options?.();
    const started = performance.now();
    const outcome = await search.searchWithReport(
      {
        projectId: settings.projectId,
        query: query.text,
        limit,
        mode: settings.mode,
        ...(perDocument ? { results: { maxPerDocument: perDocument } } : {}),
      },
      options,
    );
    const ms = performance.now() - started;
    return { outcome, options, ms, documents: outcome.hits.map((hit) => corpusId(hit.documentId)) };
  };
  const top = await rank(10);
  settings.observe?.({ query, outcome: top.outcome, options: top.options, ms: top.ms });
  const deep = settings.deepLimit ? (await rank(settings.deepLimit)).documents : undefined;
  return { query, ranking: top.documents, ...(deep ? { deep } : {}) };
}

/** BEIR scores of rankings: nDCG@10, Recall@10 and MRR@10 from each top 10, Recall@100 from the deep lists. */
export function scoreRankings(runs: readonly QueryRanking[]): RetrievalScores {
  const shallow = scoreRuns(runs.map((r) => ({ ranking: r.ranking, judged: r.query.relevant })));
  const deep = scoreRuns(runs.map((r) => ({ ranking: r.deep ?? r.ranking, judged: r.query.relevant })));
  return { ...shallow, recall100: deep.recall100 };
}
