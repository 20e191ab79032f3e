import { type FusedResult, type RankedId, reciprocalRankFusion } from './rank-fusion';

/** How the keyword and vector legs are merged into one ranking. */
export type FusionMethod = 'rrf' | 'convex';

/** How each leg's raw scores are put on a common scale before a convex combination. */
export type ScoreNormalization = 'minmax' | 'zscore';

export interface FusionSettings {
  method: FusionMethod;
  /** RRF: the rank offset k in 1 / (k + rank); larger k flattens the head of each list. */
  k: number;
  /** Convex: the vector leg's weight w in w·norm(knn) + (1 − w)·norm(bm25), 0 to 1. */
  vectorWeight: number;
  /** Convex: normalisation of each leg's scores, per query over that leg's candidates. */
  normalization: ScoreNormalization;
}

/**
 * Normalises one leg's scores over its candidates.
 * `minmax` maps to [0, 1]; a leg whose scores are all equal (one candidate, or ties) maps every
 * candidate to 1, since each is that leg's best. `zscore` is (s − mean) / σ with the population σ;
 * with σ = 0 every candidate gets 0.
 */
export function normalizeScores(scores: number[], method: ScoreNormalization): number[] {
  if (scores.length === 0) return [];
  if (method === 'minmax') {
    const min = Math.min(...scores);
    const range = Math.max(...scores) - min;
    return scores.map((score) => (range > 0 ? (score - min) / range : 1));
  }
  const mean = scores.reduce((sum, score) => sum + score, 0) / scores.length;
  const sd = Math.sqrt(scores.reduce((sum, score) => sum + (score - mean) ** 2, 0) / scores.length);
  return scores.map((score) => (sd > 0 ? (score - mean) / sd : 0));
}

/**
 * Convex combination of normalised scores (Bruch et al., "An Analysis of Fusion Functions for
 * Hybrid Retrieval"): score(d) = w·norm(knn(d)) + (1 − w)·norm(bm25(d)).
 * A candidate missing from a leg gets that leg's floor: 0 for min-max, the leg's lowest z-score
 * for z-score: it was not retrieved, so it counts as no better than the leg's worst candidate.
 * An empty leg contributes 0 to everyone; under z-score a leg of equal scores (σ = 0) gives all
 * its candidates 0, the same as a missing doc. Ties: the rank in the heavier leg, then the best rank in any leg
 * (as RRF), then the id.
 */
export function convexCombination(
  keyword: RankedId[],
  vector: RankedId[],
  vectorWeight: number,
  normalization: ScoreNormalization = 'minmax',
): FusedResult[] {
  const legs = [keyword, vector].map((list) => {
    const unique = firstOccurrences(list);
    const normalized = normalizeScores(
      unique.map(({ item }) => item.score),
      normalization,
    );
    const byId = new Map(
      unique.map(({ item, rank }, i) => [item.id, { rank, score: item.score, norm: normalized[i] }]),
    );
    // Min-max: 0, the bottom of the scale (a one-candidate leg normalises to 1, and its minimum
    // would hand the same 1 to every doc it did not retrieve). Z-score: the leg's lowest z.
    const floor = normalization === 'minmax' || !normalized.length ? 0 : Math.min(...normalized);
    return { byId, floor };
  });
  const weights = [1 - vectorWeight, vectorWeight];
  const ids = new Set([...legs[0].byId.keys(), ...legs[1].byId.keys()]);
  const fused = [...ids].map((id): FusedResult => {
    const entries = legs.map((leg) => leg.byId.get(id));
    const score = legs.reduce((sum, leg, i) => sum + weights[i] * (entries[i]?.norm ?? leg.floor), 0);
    return { id, score, legs: entries.map((entry) => entry && { rank: entry.rank, score: entry.score }) };
  });
  // Ties: the heavier leg's rank first, so weight 1 (or 0) orders exactly like that leg alone.
  const heavier = vectorWeight > 0.5 ? 1 : vectorWeight < 0.5 ? 0 : undefined;
  const heavierRank = (result: FusedResult) =>
    heavier === undefined ? 0 : (result.legs[heavier]?.rank ?? Number.POSITIVE_INFINITY);
  return fused.sort(
    (a, b) =>
      b.score - a.score ||
      compareRanks(heavierRank(a), heavierRank(b)) ||
      compareRanks(bestRank(a), bestRank(b)) ||
      a.id.localeCompare(b.id),
  );
}

/** Ascending, with two missing ranks (∞) equal rather than NaN. */
function compareRanks(a: number, b: number): number {
  return a === b ? 0 : a - b;
}

/** Fuses the keyword (BM25) and vector (kNN) legs by the given method. */
export function fuse(keyword: RankedId[], vector: RankedId[], settings: FusionSettings): FusedResult[] {
  return settings.method === 'convex'
    ? convexCombination(keyword, vector, settings.vectorWeight, settings.normalization)
    : reciprocalRankFusion([keyword, vector], settings.k);
}

/** A list naming an id twice counts its first (best-ranked) occurrence only, as RRF does. */
function firstOccurrences(list: RankedId[]): { item: RankedId; rank: number }[] {
  const seen = new Set<string>();
  return list
    .map((item, position) => ({ item, rank: position + 1 }))
    .filter(({ item }) => !seen.has(item.id) && seen.add(item.id));
}

function bestRank(result: FusedResult): number {
  return Math.min(...result.legs.map((leg) => leg?.rank ?? Number.POSITIVE_INFINITY));
}
