/**
 * Retrieval metrics as BEIR (pytrec_eval) computes them, over ranked document ids. A ranking may
 * name a document more than once (several chunks of it): only its first, best-ranked occurrence
 * counts, so a document is never credited twice.
 */

/** Graded judgements of one query: document id → relevance (> 0 is relevant). */
export type Judgements = ReadonlyMap<string, number>;

/** The ranking with later repeats of a document removed. */
export function dedupeRanking(ranking: readonly string[]): string[] {
  return [...new Set(ranking)];
}

/**
 * nDCG@k with gain = relevance (pytrec_eval's linear gain; binary qrels give 1 per relevant
 * document) and discount log2(rank + 1); the ideal ranking orders all judgements by relevance.
 */
export function ndcgAt(ranking: readonly string[], judged: Judgements, k: number): number {
  const ideal = [...judged.values()]
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, k);
  const idcg = ideal.reduce((sum, gain, i) => sum + gain / Math.log2(i + 2), 0);
  if (idcg === 0) return 0;
  const dcg = dedupeRanking(ranking)
    .slice(0, k)
    .reduce((sum, id, i) => sum + (judged.get(id) ?? 0) / Math.log2(i + 2), 0);
  return dcg / idcg;
}

/** Recall@k: relevant documents in the top k over all relevant documents. */
export function recallAt(ranking: readonly string[], judged: Judgements, k: number): number {
  const relevant = [...judged.values()].filter((g) => g > 0).length;
  if (relevant === 0) return 0;
  const found = dedupeRanking(ranking)
    .slice(0, k)
    .filter((id) => (judged.get(id) ?? 0) > 0).length;
  return found / relevant;
}

/** Reciprocal rank of the first relevant document within the top k (0 when none). */
export function mrrAt(ranking: readonly string[], judged: Judgements, k: number): number {
  const index = dedupeRanking(ranking)
    .slice(0, k)
    .findIndex((id) => (judged.get(id) ?? 0) > 0);
  return index < 0 ? 0 : 1 / (index + 1);
}

/** The metrics `npm run eval` reports, averaged over queries. */
export interface RetrievalScores {
  ndcg10: number;
  recall10: number;
  recall100: number;
  mrr10: number;
}

/** Means of nDCG@10, Recall@10, Recall@100 and MRR@10 over queries (each query weighs the same). */
export function scoreRuns(runs: { ranking: readonly string[]; judged: Judgements }[]): RetrievalScores {
  const mean = (metric: (r: (typeof runs)[number]) => number) =>
    runs.length === 0 ? 0 : runs.reduce((sum, run) => sum + metric(run), 0) / runs.length;
  return {
    ndcg10: mean((r) => ndcgAt(r.ranking, r.judged, 10)),
    recall10: mean((r) => recallAt(r.ranking, r.judged, 10)),
    recall100: mean((r) => recallAt(r.ranking, r.judged, 100)),
    mrr10: mean((r) => mrrAt(r.ranking, r.judged, 10)),
  };
}

/** Nearest-rank percentile (p in 0–100) of a sample; NaN for an empty sample. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}
