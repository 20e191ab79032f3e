import { type EvalQuery, seededRandom } from './beir';
import { type RetrievalScores } from './metrics';

/** The figures the retrieval gate holds per slice and configuration (e.g. HYBRID, DEFAULT). */
export type GateFigures = Pick<RetrievalScores, 'ndcg10' | 'recall10'>;
/** slice name → configuration name → figures. */
export type GateScores = Record<string, Record<string, GateFigures>>;
/** A baseline figure pair with the tolerance below it that still passes. */
export type GateFloor = GateFigures & { tolerance: number };

const METRICS = ['ndcg10', 'recall10'] as const;

/**
 * An order the gate holds between configurations: `configuration`'s nDCG@10 must beat the best of
 * `over` by the margin the baseline stores for it (e.g. HYBRID over its better leg).
 */
export interface GateRule {
  configuration: string;
  over: readonly string[];
  /** How a failure names the rule. */
  what: string;
}

/** One rewrite of the baseline: when, why, from how many runs, and what it lowered. */
export interface RebaselineRecord {
  date: string;
  reason?: string;
  runs: number;
  spread: number;
  lowered: string[];
}

/**
 * The committed baseline: each figure's floor is its value minus its configuration's tolerance,
 * taken from that configuration's own run-to-run spread (a noisy reranker does not widen the
 * floors of the deterministic modes); each rule's margin is the baseline's own gap less the two
 * tolerances, the smallest gap both figures within their tolerances leave.
 */
export interface GateBaseline {
  /** How the tolerances and margins were obtained (runs, spread, multiple). */
  toleranceHow: string;
  scores: Record<string, Record<string, GateFloor>>;
  /** slice → rule's configuration → the nDCG@10 it must stay above the best of the rule's others. */
  margins?: Record<string, Record<string, number>>;
  history: RebaselineRecord[];
}

const round3 = (n: number) => Number(n.toFixed(3));

/**
 * Each figure below its floor, each rule broken, a slice or configuration not measured: one line
 * each (empty when the gate passes).
 */
export function gateFailures(
  baseline: GateBaseline,
  measured: GateScores,
  rules: readonly GateRule[] = [],
): string[] {
  const failures: string[] = [];
  for (const [slice, configurations] of Object.entries(baseline.scores)) {
    if (!measured[slice]) {
      failures.push(`${slice} was not measured`);
      continue;
    }
    for (const [name, figures] of Object.entries(configurations)) {
      const got = measured[slice][name];
      if (!got) {
        failures.push(`${slice} ${name} was not measured`);
        continue;
      }
      for (const metric of METRICS) {
        const floor = figures[metric] - figures.tolerance;
        // Rounded to the 3 digits the figures are stored with, so 0.67 − 0.01 passes 0.66.
        if (round3(got[metric]) < round3(floor)) {
          failures.push(
            `${slice} ${name} ${metric} ${got[metric].toFixed(3)} is below the floor ${floor.toFixed(3)} ` +
              `(baseline ${figures[metric].toFixed(3)} − tolerance ${figures.tolerance.toFixed(3)})`,
          );
        }
      }
    }
    failures.push(...ruleFailures(slice, baseline, measured[slice], rules));
  }
  return failures;
}

/** The rules a slice's run breaks: a configuration not ahead of the best of its others by its margin. */
function ruleFailures(
  slice: string,
  baseline: GateBaseline,
  measured: Record<string, GateFigures>,
  rules: readonly GateRule[],
): string[] {
  const failures: string[] = [];
  for (const rule of rules) {
    const margin = baseline.margins?.[slice]?.[rule.configuration];
    if (margin === undefined) {
      failures.push(`${slice}: the baseline has no margin for ${rule.what}`);
      continue;
    }
    const got = measured[rule.configuration];
    const others = rule.over.filter((name) => measured[name]);
    if (!got || others.length < rule.over.length) continue; // reported as not measured
    const best = others.reduce((a, b) => (measured[b].ndcg10 > measured[a].ndcg10 ? b : a));
    const gap = round3(got.ndcg10) - round3(measured[best].ndcg10);
    if (round3(gap) < round3(margin)) {
      failures.push(
        `${slice} ${rule.what}: ${rule.configuration} nDCG@10 ${got.ndcg10.toFixed(3)} is ${gap.toFixed(3)} ` +
          `above ${best} ${measured[best].ndcg10.toFixed(3)}; the margin is ${margin.toFixed(3)}`,
      );
    }
  }
  return failures;
}

/** The largest difference between two runs of one configuration's figures (both metrics). */
export function configurationSpread(runs: readonly GateScores[], slice: string, name: string): number {
  let spread = 0;
  for (const metric of METRICS) {
    const values = runs.map((run) => run[slice]?.[name]?.[metric] ?? Number.NaN);
    spread = Math.max(spread, Math.max(...values) - Math.min(...values));
  }
  return spread;
}

/** The largest run-to-run difference of any figure of any slice and configuration. */
export function measuredSpread(runs: readonly GateScores[]): number {
  let spread = 0;
  for (const [slice, configurations] of Object.entries(runs[0] ?? {})) {
    for (const name of Object.keys(configurations)) {
      spread = Math.max(spread, configurationSpread(runs, slice, name));
    }
  }
  return spread;
}

/** A configuration's tolerance is this multiple of its measured run-to-run spread… */
export const SPREAD_MULTIPLE = 3;
/**
 * …but never below this: runs without spread would otherwise fail on the first HNSW tie, and one
 * query of 40 whose relevant document drops from rank 1 to 2 costs about 0.009 nDCG@10.
 */
export const MIN_TOLERANCE = 0.01;

/**
 * The baseline rewritten from repeated runs: each figure the mean of the runs, the tolerance
 * `SPREAD_MULTIPLE` × their spread (at least `MIN_TOLERANCE`). Lowering any figure needs a reason,
 * which is written into the history with what was lowered.
 */
export function rebaseline(
  previous: GateBaseline | undefined,
  runs: readonly GateScores[],
  options: { date: string; reason?: string; minRuns?: number; rules?: readonly GateRule[] },
): GateBaseline {
  const minRuns = options.minRuns ?? 1;
  if (runs.length < Math.max(1, minRuns)) {
    throw new Error(
      `a new baseline needs at least ${minRuns} runs to measure the spread; got ${runs.length}`,
    );
  }
  const round = (n: number) => Number(n.toFixed(3));
  const scores: GateBaseline['scores'] = {};
  for (const [slice, configurations] of Object.entries(runs[0])) {
    scores[slice] = {};
    for (const name of Object.keys(configurations)) {
      const mean = (metric: (typeof METRICS)[number]) =>
        round(runs.reduce((sum, run) => sum + run[slice][name][metric], 0) / runs.length);
      const tolerance = round(
        Math.max(SPREAD_MULTIPLE * configurationSpread(runs, slice, name), MIN_TOLERANCE),
      );
      scores[slice][name] = { ndcg10: mean('ndcg10'), recall10: mean('recall10'), tolerance };
    }
  }
  const lowered: string[] = [];
  for (const [slice, configurations] of Object.entries(previous?.scores ?? {})) {
    for (const [name, figures] of Object.entries(configurations)) {
      for (const metric of METRICS) {
        const next = scores[slice]?.[name]?.[metric];
        if (next === undefined || next < figures[metric]) {
          lowered.push(
            `${slice} ${name} ${metric} ${figures[metric].toFixed(3)} → ${next === undefined ? 'removed' : next.toFixed(3)}`,
          );
        }
      }
    }
  }
  if (lowered.length > 0 && !options.reason?.trim()) {
    throw new Error(
      `the new baseline would lower ${lowered.map((l) => l.replace(/ (\S+) → (\S+)$/, ' from $1 to $2')).join(', ')}; ` +
        'rerun with --reason "why these figures may drop"',
    );
  }
  const margins = ruleMargins(scores, options.rules ?? []);
  const spread = round(measuredSpread(runs));
  return {
    toleranceHow:
      `each configuration's tolerance is ${SPREAD_MULTIPLE} × the largest spread of its nDCG@10 and R@10 over ` +
      `${runs.length} runs, at least ${MIN_TOLERANCE}; figures are the means of those runs (largest spread of any ` +
      `figure ${spread.toFixed(3)}); each rule's margin is its configuration's nDCG@10 less the best other's, ` +
      `less both tolerances, at least 0`,
    scores,
    ...(options.rules?.length ? { margins } : {}),
    history: [
      ...(previous?.history ?? []),
      {
        date: options.date,
        ...(options.reason?.trim() ? { reason: options.reason.trim() } : {}),
        runs: runs.length,
        spread,
        lowered,
      },
    ],
  };
}

/**
 * Each rule's margin per slice: the baseline's gap between the rule's configuration and the best of
 * its others, less both tolerances (so figures that each stay within their tolerance keep the
 * order), at least 0. A rule whose configuration was not measured on a slice gets no margin.
 */
export function ruleMargins(
  scores: GateBaseline['scores'],
  rules: readonly GateRule[],
): Record<string, Record<string, number>> {
  const margins: Record<string, Record<string, number>> = {};
  for (const [slice, floors] of Object.entries(scores)) {
    for (const rule of rules) {
      const own = floors[rule.configuration];
      const others = rule.over.map((name) => floors[name]).filter(Boolean);
      if (!own || others.length < rule.over.length) continue;
      const best = others.reduce((a, b) => (b.ndcg10 > a.ndcg10 ? b : a));
      const margin = own.ndcg10 - best.ndcg10 - own.tolerance - best.tolerance;
      (margins[slice] ??= {})[rule.configuration] = Math.max(0, round3(margin));
    }
  }
  return margins;
}

/** `count` queries drawn without replacement with a seeded shuffle, in their drawn order. */
export function sampleQueries(queries: readonly EvalQuery[], count: number, seed: number): EvalQuery[] {
  const pool = [...queries];
  const random = seededRandom(seed);
  const wanted = Math.min(count, pool.length);
  for (let i = 0; i < wanted; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, wanted);
}

/**
 * Hard distractors of one query: the first `perRanking` documents of each ranking (e.g. BM25 and
 * kNN over the full corpus) that are not judged relevant, without repeats, in ranking order.
 */
export function hardDistractors(
  rankings: readonly (readonly string[])[],
  judged: ReadonlyMap<string, number>,
  perRanking: number,
): string[] {
  const picked = new Set<string>();
  for (const ranking of rankings) {
    ranking
      .filter((id) => !((judged.get(id) ?? 0) > 0))
      .slice(0, perRanking)
      .forEach((id) => picked.add(id));
  }
  return [...picked];
}

/** One slice of the gate: sampled queries with their judged documents and hard distractors. */
export interface RetrievalSlice {
  name: string;
  dataset: string;
  split: string;
  built: {
    date: string;
    command: string;
    how: string;
    fullCorpusDocuments: number;
    /** nDCG@10 of the slice's queries over the full corpus, per mode, when it was built. */
    fullCorpusNdcg10: Record<string, number>;
  };
  queries: { id: string; relevant: string[]; distractors: string[] }[];
  /** Every document the slice indexes: the judged ones and the distractors, sorted. */
  documents: string[];
}

/** The committed slice definition (test/integration/search/retrieval-slices.json). */
export interface RetrievalSlices {
  slices: RetrievalSlice[];
}
