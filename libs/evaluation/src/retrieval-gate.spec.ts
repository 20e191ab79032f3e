import { describe, expect, it } from 'vitest';
import { type EvalQuery } from './beir';
import {
  gateFailures,
  type GateBaseline,
  type GateScores,
  hardDistractors,
  measuredSpread,
  rebaseline,
  sampleQueries,
} from './retrieval-gate';

const scores = (hybrid: number, learned: number): GateScores => ({
  scifact: {
    HYBRID: { ndcg10: hybrid, recall10: 0.8 },
    'HYBRID+learned': { ndcg10: learned, recall10: 0.8 },
  },
});

const baseline = (figures: GateScores, tolerance = 0.01): GateBaseline => ({
  toleranceHow: 'test',
  scores: Object.fromEntries(
    Object.entries(figures).map(([slice, configurations]) => [
      slice,
      Object.fromEntries(Object.entries(configurations).map(([name, f]) => [name, { ...f, tolerance }])),
    ]),
  ),
  history: [],
});

describe('the retrieval gate floors', () => {
  it('fail a reranker that does nothing when the baseline has it above HYBRID', () => {
    const failures = gateFailures(baseline(scores(0.6, 0.68)), scores(0.6, 0.6));
    expect(failures).toEqual([
      'scifact HYBRID+learned nDCG@10 0.600 does not beat HYBRID 0.600 (the baseline has it 0.080 above)',
      'scifact HYBRID+learned ndcg10 0.600 is below the floor 0.670 (baseline 0.680 − tolerance 0.010)',
    ]);
  });

  it('fail a stacked stage that no longer beats its base, even within its floor', () => {
    // HYBRID got better and the reranker now returns its input: 0.66 passes the floor 0.65, the lift rule fails it.
    expect(gateFailures(baseline(scores(0.6, 0.68), 0.03), scores(0.66, 0.66))).toEqual([
      'scifact HYBRID+learned nDCG@10 0.660 does not beat HYBRID 0.660 (the baseline has it 0.080 above)',
    ]);
    // No lift asked for when the baseline's own lift is within the tolerance.
    expect(gateFailures(baseline(scores(0.6, 0.605)), scores(0.6, 0.6))).toEqual([]);
  });

  it('pass figures within the tolerance and above the baseline', () => {
    expect(gateFailures(baseline(scores(0.6, 0.68)), scores(0.595, 0.7))).toEqual([]);
  });

  it('fail a configuration or slice the run did not measure', () => {
    const measured: GateScores = { scifact: { HYBRID: { ndcg10: 0.6, recall10: 0.8 } } };
    expect(gateFailures(baseline(scores(0.6, 0.68)), measured)).toEqual([
      'scifact HYBRID+learned was not measured',
    ]);
    expect(gateFailures(baseline(scores(0.6, 0.68)), {})).toEqual(['scifact was not measured']);
  });

  it('take the tolerance from the spread of repeated runs', () => {
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
    // HYBRID moved by 0.02 between the runs, HYBRID+learned not at all: each keeps its own tolerance.
    expect(next.scores.scifact.HYBRID.tolerance).toBeCloseTo(3 * 0.02, 10);
    expect(next.scores.scifact['HYBRID+learned'].tolerance).toBe(0.01);
    expect(next.toleranceHow).toMatch(/2 runs/);
  });

  it('raises figures without a reason', () => {
    const next = rebaseline(baseline(scores(0.5, 0.5)), runs, { date: 'd' });
    expect(next.scores.scifact['HYBRID+learned'].ndcg10).toBe(0.7);
    expect(next.history.at(-1)?.lowered).toEqual([]);
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
