import { describe, expect, it } from 'vitest';
import { dedupeRanking, mrrAt, ndcgAt, percentile, recallAt, scoreRuns } from './metrics';

const judged = (entries: Record<string, number>) => new Map(Object.entries(entries));

// A toy run of three queries, every value worked out by hand (log2(3) = 1.58496, log2(5) = 2.32193):
// A: relevant d1, d2 at ranks 2 and 4 → DCG = 1/log2(3) + 1/log2(5) = 1.06161,
//    IDCG = 1 + 1/log2(3) = 1.63093, nDCG = 0.65092; recall 1; MRR 1/2.
// B: relevant d5, only two hits, neither relevant → 0 everywhere.
// C: relevant d8 first, then repeated (a second chunk of it) → 1 everywhere, never above 1.
const toy = [
  { ranking: ['d3', 'd1', 'd4', 'd2'], judged: judged({ d1: 1, d2: 1 }) },
  { ranking: ['d6', 'd7'], judged: judged({ d5: 1 }) },
  { ranking: ['d8', 'd8', 'd9'], judged: judged({ d8: 1 }) },
];

describe('retrieval metrics', () => {
  it('score the toy run as computed by hand', () => {
    expect(ndcgAt(toy[0].ranking, toy[0].judged, 10)).toBeCloseTo(0.650921, 5);
    expect(recallAt(toy[0].ranking, toy[0].judged, 10)).toBe(1);
    expect(mrrAt(toy[0].ranking, toy[0].judged, 10)).toBe(0.5);
    const scores = scoreRuns(toy);
    expect(scores.ndcg10).toBeCloseTo((0.650921 + 0 + 1) / 3, 5);
    expect(scores.recall10).toBeCloseTo(2 / 3, 10);
    expect(scores.recall100).toBeCloseTo(2 / 3, 10);
    expect(scores.mrr10).toBeCloseTo(0.5, 10);
  });

  it('give 0 when nothing relevant is retrieved, also with fewer than k results', () => {
    expect(ndcgAt(['x'], judged({ a: 1 }), 10)).toBe(0);
    expect(recallAt([], judged({ a: 1 }), 10)).toBe(0);
    expect(mrrAt(['x', 'y'], judged({ a: 1 }), 10)).toBe(0);
  });

  it('credit a document once however many of its chunks are hit', () => {
    expect(dedupeRanking(['a', 'a', 'b', 'a'])).toEqual(['a', 'b']);
    // Without de-duplication the second d8 would add 1/log2(3) and push nDCG above 1.
    expect(ndcgAt(['d8', 'd8'], judged({ d8: 1 }), 10)).toBe(1);
    // Repeats do not take rank positions: d8 is at rank 2 once d9's repeat is dropped.
    expect(ndcgAt(['d9', 'd9', 'd8'], judged({ d8: 1 }), 10)).toBeCloseTo(1 / Math.log2(3), 10);
    expect(mrrAt(['d9', 'd9', 'd8'], judged({ d8: 1 }), 10)).toBe(0.5);
    expect(recallAt(['d8', 'd8'], judged({ d8: 1, d1: 1 }), 10)).toBe(0.5);
  });

  it('cut at k: a relevant document at rank 11 counts for Recall@100 only', () => {
    const ranking = [...Array.from({ length: 10 }, (_, i) => `n${i}`), 'hit'];
    expect(recallAt(ranking, judged({ hit: 1 }), 10)).toBe(0);
    expect(recallAt(ranking, judged({ hit: 1 }), 100)).toBe(1);
    expect(mrrAt(ranking, judged({ hit: 1 }), 10)).toBe(0);
    expect(ndcgAt(ranking, judged({ hit: 1 }), 10)).toBe(0);
  });

  it('use graded gains when judgements go above 1', () => {
    // DCG = 1 + 2/log2(3) = 2.26186; IDCG = 2 + 1/log2(3) = 2.63093.
    expect(ndcgAt(['b', 'a'], judged({ a: 2, b: 1 }), 10)).toBeCloseTo(0.859719, 5);
    expect(ndcgAt(['a', 'b'], judged({ a: 2, b: 1 }), 10)).toBe(1);
    // Recall and MRR stay binary: any grade above 0 is relevant.
    expect(recallAt(['b'], judged({ a: 2, b: 1 }), 10)).toBe(0.5);
    expect(mrrAt(['b', 'a'], judged({ a: 2, b: 1 }), 10)).toBe(1);
  });

  it('ignore judgements of 0 (judged not relevant)', () => {
    expect(recallAt(['a'], judged({ a: 1, z: 0 }), 10)).toBe(1);
    expect(ndcgAt(['z', 'a'], judged({ a: 1, z: 0 }), 10)).toBeCloseTo(1 / Math.log2(3), 10);
  });

  it('average to 0 over no queries', () => {
    expect(scoreRuns([])).toEqual({ ndcg10: 0, recall10: 0, recall100: 0, mrr10: 0 });
  });
});

describe('percentile', () => {
  it('takes the nearest rank', () => {
    const values = [100, 10, 90, 20, 80, 30, 70, 40, 60, 50];
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 95)).toBe(100);
    expect(percentile(values, 0)).toBe(10);
    expect(
      percentile(
        Array.from({ length: 20 }, (_, i) => i + 1),
        95,
      ),
    ).toBe(19);
    expect(percentile([7], 95)).toBe(7);
  });

  it('is NaN for no values', () => {
    expect(percentile([], 50)).toBeNaN();
  });
});
