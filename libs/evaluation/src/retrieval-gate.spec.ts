import { describe, expect, it } from 'vitest';
import { type EvalQuery } from './beir';
import {
  gateFailures,
  type GateBaseline,
  type GateScores,
  hardDistractors,
  type GateRule,
  measuredSpread,
  rebaseline,
  ruleMargins,
  sampleQueries,
} from './retrieval-gate';

const scores = (hybrid: number, reranked: number, keyword = 0.5, vector = 0.55): GateScores => ({
  scifact: {
    KEYWORD: { ndcg10: keyword, recall10: 0.7 },
    VECTOR: { ndcg10: vector, recall10: 0.7 },
    HYBRID: { ndcg10: hybrid, recall10: 0.8 },
    DEFAULT: { ndcg10: reranked, recall10: 0.8 },
  },
});

const RULES: GateRule[] = [
  { configuration: 'HYBRID', over: ['KEYWORD', 'VECTOR'], what: 'HYBRID over its better leg' },
  { configuration: 'DEFAULT', over: ['HYBRID'], what: 'the default reranker over HYBRID' },
];

const baseline = (figures: GateScores, tolerance = 0.01): GateBaseline => {
  const floors = Object.fromEntries(
    Object.entries(figures).map(([slice, configurations]) => [
      slice,
      Object.fromEntries(Object.entries(configurations).map(([name, f]) => [name, { ...f, tolerance }])),
    ]),
  );
  return { toleranceHow: 'test', scores: floors, margins: ruleMargins(floors, RULES), history: [] };
};

describe('the retrieval gate', () => {
  it('stores each rule’s margin as the baseline’s gap less both tolerances, at least 0', () => {
    // HYBRID 0.6 over VECTOR 0.55: 0.05 − 0.02; DEFAULT 0.68 over HYBRID 0.6: 0.08 − 0.02.
    expect(baseline(scores(0.6, 0.68)).margins).toEqual({ scifact: { HYBRID: 0.03, DEFAULT: 0.06 } });
    expect(baseline(scores(0.6, 0.605)).margins).toEqual({ scifact: { HYBRID: 0.03, DEFAULT: 0 } });
  });

  it('fails a reranker that does nothing when the baseline has it above HYBRID', () => {
    const failures = gateFailures(baseline(scores(0.6, 0.68)), scores(0.6, 0.6), RULES);
    expect(failures).toEqual([
      'scifact DEFAULT ndcg10 0.600 is below the floor 0.670 (baseline 0.680 − tolerance 0.010)',
      'scifact the default reranker over HYBRID: DEFAULT nDCG@10 0.600 is 0.000 above HYBRID 0.600; the margin is 0.060',
    ]);
  });

  it('fails a stacked stage that no longer beats its base, even within its floor', () => {
    // HYBRID got better and the reranker now returns its input: 0.66 passes the floor 0.65, the rule fails it.
    expect(gateFailures(baseline(scores(0.6, 0.68), 0.03), scores(0.66, 0.66), RULES)).toEqual([
      'scifact the default reranker over HYBRID: DEFAULT nDCG@10 0.660 is 0.000 above HYBRID 0.660; the margin is 0.020',
    ]);
    // A margin of 0: the reranker must still not fall below HYBRID.
    expect(gateFailures(baseline(scores(0.6, 0.605)), scores(0.6, 0.6), RULES)).toEqual([]);
    expect(gateFailures(baseline(scores(0.6, 0.605)), scores(0.6, 0.598), RULES)).toEqual([
      'scifact the default reranker over HYBRID: DEFAULT nDCG@10 0.598 is -0.002 above HYBRID 0.600; the margin is 0.000',
    ]);
  });

  it('fails HYBRID that is one of its legs, against the better leg, even when every floor holds', () => {
    // Fusion gone to the vector leg, which improved: HYBRID = VECTOR = 0.6 passes its floor.
    expect(gateFailures(baseline(scores(0.6, 0.68)), scores(0.6, 0.68, 0.5, 0.6), RULES)).toEqual([
      'scifact HYBRID over its better leg: HYBRID nDCG@10 0.600 is 0.000 above VECTOR 0.600; the margin is 0.030',
    ]);
  });

  it('passes figures within the tolerance and above the baseline', () => {
    expect(gateFailures(baseline(scores(0.6, 0.68)), scores(0.595, 0.7), RULES)).toEqual([]);
  });

  it('fails a configuration or slice the run did not measure, and a rule without a margin', () => {
    const measured: GateScores = { scifact: { ...scores(0.6, 0.68).scifact } };
    delete measured.scifact.DEFAULT;
    expect(gateFailures(baseline(scores(0.6, 0.68)), measured, RULES)).toEqual([
      'scifact DEFAULT was not measured',
    ]);
    expect(gateFailures(baseline(scores(0.6, 0.68)), {}, RULES)).toEqual(['scifact was not measured']);
    const noMargins = { ...baseline(scores(0.6, 0.68)), margins: undefined };
    expect(gateFailures(noMargins, scores(0.6, 0.68), RULES)).toEqual([
      'scifact: the baseline has no margin for HYBRID over its better leg',
      'scifact: the baseline has no margin for the default reranker over HYBRID',
    ]);
  });

  it('takes the tolerance from the spread of repeated runs', () => {
    const runs = [scores(0.6, 0.68), scores(0.604, 0.68), scores(0.601, 0.677)];
    expect(measuredSpread(runs)).toBeCloseTo(0.004, 10);
  });
});

describe('rebaseline', () => {
  const runs = [scores(0.6, 0.7), scores(0.62, 0.7)];

  it('refuses to lower a figure without a reason, naming what would drop', () => {
    expect(() => rebaseline(baseline(scores(0.7, 0.7)), runs, { date: 'd' })).toThrow(
      /would lower scifact HYBRID ndcg10 from 0\.700 to 0\.610.*--reason/,
    );
  });

  it('lowers with a reason and writes the reason, the runs and the tolerance into the file', () => {
    const next = rebaseline(baseline(scores(0.7, 0.7)), runs, { date: 'd', reason: 'new chunker' });
    expect(next.scores.scifact.HYBRID.ndcg10).toBe(0.61);
    expect(next.history.at(-1)).toMatchObject({
      date: 'd',
      reason: 'new chunker',
      runs: 2,
      lowered: ['scifact HYBRID ndcg10 0.700 → 0.610'],
    });
    // HYBRID moved by 0.02 between the runs, DEFAULT not at all: each keeps its own tolerance.
    expect(next.scores.scifact.HYBRID.tolerance).toBeCloseTo(3 * 0.02, 10);
    expect(next.scores.scifact.DEFAULT.tolerance).toBe(0.01);
    expect(next.toleranceHow).toMatch(/2 runs/);
  });

  it('raises figures without a reason', () => {
    const next = rebaseline(baseline(scores(0.5, 0.5)), runs, { date: 'd' });
    expect(next.scores.scifact.DEFAULT.ndcg10).toBe(0.7);
    expect(next.history.at(-1)?.lowered).toEqual([]);
  });

  it('stores the rules’ margins from the new figures and tolerances', () => {
    const next = rebaseline(undefined, [scores(0.6, 0.7), scores(0.6, 0.7)], { date: 'd', rules: RULES });
    // HYBRID 0.6 − VECTOR 0.55 − 0.01 − 0.01; DEFAULT 0.7 − HYBRID 0.6 − 0.01 − 0.01.
    expect(next.margins).toEqual({ scifact: { HYBRID: 0.03, DEFAULT: 0.08 } });
  });

  it('needs at least 3 runs to set a tolerance, unless told to keep the old one', () => {
    expect(() => rebaseline(undefined, runs, { date: 'd', minRuns: 3 })).toThrow(/at least 3 runs/);
  });
});

describe('slice building', () => {
  const q = (id: string): EvalQuery => ({ id, text: id, relevant: new Map([[`rel-${id}`, 1]]) });

  it('samples the same queries for the same seed', () => {
    const queries = Array.from({ length: 50 }, (_, i) => q(`q${i}`));
    const a = sampleQueries(queries, 10, 7).map((x) => x.id);
    expect(a).toHaveLength(10);
    expect(new Set(a).size).toBe(10);
    expect(sampleQueries(queries, 10, 7).map((x) => x.id)).toEqual(a);
    expect(sampleQueries(queries, 10, 8).map((x) => x.id)).not.toEqual(a);
  });

  it('keeps the top non-relevant documents of each ranking, without repeats', () => {
    const judged = new Map([['r', 1]]);
    const bm25 = ['r', 'a', 'b', 'c', 'd'];
    const knn = ['b', 'e', 'r', 'f'];
    expect(hardDistractors([bm25, knn], judged, 2)).toEqual(['a', 'b', 'e']);
    expect(hardDistractors([bm25, knn], judged, 3)).toEqual(['a', 'b', 'c', 'e', 'f']);
  });
});
