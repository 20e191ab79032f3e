/** A candidate for diversification: its relevance (any scale) and its stored embedding. */
export interface MmrCandidate {
  id: string;
  score: number;
  vector: number[];
}

/** Cosine similarity; 0 when either vector is all zeros. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * Maximal marginal relevance (Carbonell & Goldstein, 1998): greedily picks the candidate with the
 * highest λ·rel(d) − (1 − λ)·max sim(d, picked). Relevance is the candidates' scores min-max
 * normalised to [0, 1], so it sits on the cosine's scale whatever the fusion (RRF scores are
 * ~0.03, convex ones 0..1). λ = 1 keeps the relevance order; λ = 0 only spreads
 * (after the most relevant, which always comes first).
 * Returns every candidate's id in the new order (callers cap and cut afterwards).
 */
export function maximalMarginalRelevance(candidates: MmrCandidate[], lambda: number): string[] {
  if (candidates.length <= 1 || lambda >= 1) return candidates.map((c) => c.id);
  const scores = candidates.map((c) => c.score);
  const min = Math.min(...scores);
  const range = Math.max(...scores) - min;
  const relevance = scores.map((s) => (range > 0 ? (s - min) / range : 1));
  // Highest similarity of each remaining candidate to anything picked so far.
  const closest = new Array<number>(candidates.length).fill(Number.NEGATIVE_INFINITY);
  const remaining = new Set(candidates.map((_, i) => i));
  const order: string[] = [];
  while (remaining.size > 0) {
    let best = -1;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (const i of remaining) {
      // The first pick is the most relevant whatever λ (nothing to be redundant with yet).
      const value = order.length === 0 ? relevance[i] : lambda * relevance[i] - (1 - lambda) * closest[i];
      // Ties keep the incoming (relevance) order: `remaining` iterates in index order.
      if (value > bestValue) {
        best = i;
        bestValue = value;
      }
    }
    remaining.delete(best);
    order.push(candidates[best].id);
    for (const i of remaining)
      closest[i] = Math.max(closest[i], cosine(candidates[i].vector, candidates[best].vector));
  }
  return order;
}
