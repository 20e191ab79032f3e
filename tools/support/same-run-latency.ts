import { SearchMode } from '@trove/domain';
import { percentile } from '@trove/evaluation';

/**
 * The order a latency benchmark runs its configurations in: query by query, every configuration
 * once per query, the first one rotating (A B C, B C A, C A B, …). Load on the shared machine then
 * falls on all configurations alike, and none always runs first (cold) or right after another
 * configuration searched the same text (warm).
 */
export function interleave<Q, C>(
  queries: readonly Q[],
  configurations: readonly C[],
): { query: Q; queryIndex: number; configuration: C }[] {
  const n = configurations.length;
  return queries.flatMap((query, queryIndex) =>
    configurations.map((_, j) => ({
      query,
      queryIndex,
      configuration: configurations[(queryIndex + j) % n],
    })),
  );
}

/** One query's raw legs, each timed as a request of its own (ms); a leg not run is undefined. */
export interface RawLegs {
  /** Embedding the query alone (one embedder request). */
  embedMs?: number;
  /** The BM25 leg's Elasticsearch request alone. */
  keywordMs?: number;
  /** The kNN leg's Elasticsearch request alone, with the vector already computed. */
  vectorMs?: number;
}

/** The legs a search of this mode makes: KEYWORD only BM25, VECTOR embedding and kNN, HYBRID all three. */
export function legsOf(mode: SearchMode): (keyof RawLegs)[] {
  switch (mode) {
    case SearchMode.KEYWORD:
      return ['keywordMs'];
    case SearchMode.VECTOR:
      return ['embedMs', 'vectorMs'];
    case SearchMode.HYBRID:
      return ['embedMs', 'keywordMs', 'vectorMs'];
  }
}

/**
 * A mode's raw time for one query: the sum of the separate requests its search makes (as if run
 * one after another), e.g. HYBRID = embed + BM25 + kNN. Throws when one of them was not timed.
 */
export function rawMs(mode: SearchMode, legs: RawLegs): number {
  return legsOf(mode).reduce((sum, leg) => {
    const ms = legs[leg];
    if (ms === undefined) throw new Error(`the raw ${leg} of a ${mode} search was not timed`);
    return sum + ms;
  }, 0);
}

/** The definition of `raw` and of the ratio, written under every table that shows them. */
export const RAW_DEFINITION =
  'raw = the sum, per query, of the separate requests the mode makes, each timed alone in the same run ' +
  '(KEYWORD: BM25; VECTOR: query embedding + kNN; HYBRID: query embedding + BM25 + kNN), as if run one after another; ' +
  'p95 / raw = p95 of the searches ÷ p95 of raw, over the same queries, the configurations and the raw legs ' +
  'interleaved query by query (each query runs every configuration once, the first one rotating).';

/** p95 / p95(raw), two decimals; '–' when raw is missing or 0. */
export function latencyRatio(p95: number, rawP95: number | undefined): string {
  return rawP95 ? (p95 / rawP95).toFixed(2) : '–';
}

/** p95 of a list, rounded to `digits`; undefined for an empty list. */
export function p95(values: readonly number[], digits = 1): number | undefined {
  return values.length ? Number(percentile(values, 95).toFixed(digits)) : undefined;
}
