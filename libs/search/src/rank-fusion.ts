export interface RankedId {
  id: string;
  score: number;
}

export interface FusedResult {
  id: string;
  score: number;
  /** Rank (1-based) and raw score in each input list that contained the id. */
  legs: ({ rank: number; score: number } | undefined)[];
}

/**
 * Reciprocal rank fusion (Cormack et al., 2009): score(d) = Σ 1 / (k + rank_i(d)).
 * Computed here because the distribution we run has no server-side RRF (an x-pack feature).
 */
export function reciprocalRankFusion(lists: RankedId[][], k = 60): FusedResult[] {
  const fused = new Map<string, FusedResult>();
  lists.forEach((list, legIndex) => {
    list.forEach((item, position) => {
      const rank = position + 1;
      let entry = fused.get(item.id);
      if (!entry) {
        entry = { id: item.id, score: 0, legs: lists.map(() => undefined) };
        fused.set(item.id, entry);
      }
      if (entry.legs[legIndex]) return; // a list naming an id twice counts its best rank only
      entry.legs[legIndex] = { rank, score: item.score };
      entry.score += 1 / (k + rank);
    });
  });
  // Ties: the id ranked best in any list first, then by id for a stable order.
  return [...fused.values()].sort(
    (a, b) => b.score - a.score || bestRank(a) - bestRank(b) || a.id.localeCompare(b.id),
  );
}

function bestRank(result: FusedResult): number {
  return Math.min(...result.legs.map((leg) => leg?.rank ?? Number.POSITIVE_INFINITY));
}
