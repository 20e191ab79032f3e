/** What the explain view needs of a hit: each leg's rank, and whether a reranker ordered it. */
export interface ExplainedHit {
  rank: number;
  bm25?: { rank: number } | null;
  knn?: { rank: number } | null;
  reranked: boolean;
}

/**
 * Why a hit is where it is, in words a reader of the page understands (the legs' scores stay in
 * the raw view): which searches found it, at what place, and what put it at its rank.
 */
export function explainInWords({ rank, bm25, knn, reranked }: ExplainedHit): string {
  const found = [
    bm25 ? `matched your words (${ordinal(bm25.rank)} by keywords)` : undefined,
    knn ? `matched your meaning (${ordinal(knn.rank)} by meaning)` : undefined,
  ].filter(Boolean);
  const how =
    found.length === 0 ? 'It was found by neither search on its own.' : `It ${found.join(' and ')}.`;
  const order = reranked
    ? `A reranker that reads the question and the passage together placed it ${ordinal(rank)}.`
    : found.length > 1
      ? `Combining both lists placed it ${ordinal(rank)}.`
      : `That places it ${ordinal(rank)}.`;
  return `${how} ${order}`;
}

export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/**
 * The query's words worth marking in a hit's text: three letters or more (so "a", "do", "I" do
 * not light up every line), each once, longest first so a longer word wins over its prefix.
 */
export function highlightTerms(query: string): string[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => [...word].length >= 3);
  return [...new Set(words)].sort((a, b) => b.length - a.length);
}
