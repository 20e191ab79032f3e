import { describe, expect, it } from 'vitest';
import { convexCombination, fuse, normalizeScores } from './fusion';
import type { FusedResult } from './rank-fusion';

const list = (...pairs: [string, number][]) => pairs.map(([id, score]) => ({ id, score }));

/** Ids in order, scores to 10 decimals (the sums are floating point). */
const ranking = (fused: FusedResult[]) => fused.map((r) => [r.id, Number(r.score.toFixed(10))]);

describe('normalizeScores', () => {
  it('min-max maps the leg onto [0, 1]', () => {
    expect(normalizeScores([10, 6, 2], 'minmax')).toEqual([1, 0.5, 0]);
  });

  it('min-max of one value, or of equal values, is 1 without dividing by zero', () => {
    expect(normalizeScores([7.3], 'minmax')).toEqual([1]);
    expect(normalizeScores([4, 4], 'minmax')).toEqual([1, 1]);
  });

  it('z-score uses the population standard deviation, and 0 when it is 0', () => {
    // mean 4, σ = sqrt((4 + 0 + 4) / 3) = sqrt(8/3)
    const sd = Math.sqrt(8 / 3);
    const z = normalizeScores([6, 4, 2], 'zscore');
    expect(z[0]).toBeCloseTo(2 / sd);
    expect(z[1]).toBeCloseTo(0);
    expect(z[2]).toBeCloseTo(-2 / sd);
    expect(normalizeScores([3], 'zscore')).toEqual([0]);
  });

  it('returns nothing for an empty leg', () => {
    expect(normalizeScores([], 'minmax')).toEqual([]);
    expect(normalizeScores([], 'zscore')).toEqual([]);
  });
});

describe('convexCombination', () => {
  // bm25: a 10 → 1, b 6 → 0.5, c 2 → 0;  knn: b 0.9 → 1, d 0.8 → 0.5, a 0.7 → 0
  const keyword = list(['a', 10], ['b', 6], ['c', 2]);
  const vector = list(['b', 0.9], ['d', 0.8], ['a', 0.7]);

  it('weights the normalised legs; a doc missing from a leg gets 0 there (min-max)', () => {
    const fused = convexCombination(keyword, vector, 0.5);
    // b: .5·1 + .5·.5 = .75; a: .5·0 + .5·1 = .5; d: .5·.5 + .5·0 = .25; c: .5·0 + .5·0 = 0
    expect(ranking(fused)).toEqual([
      ['b', 0.75],
      ['a', 0.5],
      ['d', 0.25],
      ['c', 0],
    ]);
    expect(fused[0].legs).toEqual([
      { rank: 2, score: 6 },
      { rank: 1, score: 0.9 },
    ]);
    expect(fused[2].legs).toEqual([undefined, { rank: 2, score: 0.8 }]);
  });

  it('with weight 1 ranks like the vector leg, with weight 0 like the keyword leg', () => {
    expect(convexCombination(keyword, vector, 1).map((r) => r.id)).toEqual(['b', 'd', 'a', 'c']);
    expect(convexCombination(keyword, vector, 0).map((r) => r.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('breaks a tie in favour of the heavier leg, even against a better rank in the lighter one', () => {
    // w = .75, bm25 only 'k' (→ 1), knn 'v1' 1, 'v2' 0:  k .25·1 = .25 — no tie; use w = 1:
    // k 0 (bm25 rank 1), v2 0 (knn rank 2): v2 first because knn is the heavier leg
    const fused = convexCombination(list(['k', 9]), list(['v1', 0.9], ['v2', 0.1]), 1);
    expect(fused.map((r) => r.id)).toEqual(['v1', 'v2', 'k']);
  });

  it('leans towards the heavier leg', () => {
    // w = .8: b .8·1 + .2·.5 = .9; d .8·.5 = .4; a .2·1 = .2; c 0
    const fused = convexCombination(keyword, vector, 0.8);
    expect(fused.map((r) => r.id)).toEqual(['b', 'd', 'a', 'c']);
    expect(fused[1].score).toBeCloseTo(0.4);
    expect(fused[2].score).toBeCloseTo(0.2);
  });

  it('breaks ties by best rank in any leg, then by id', () => {
    const fused = convexCombination(list(['y', 3], ['x', 1]), list(['x', 0.2], ['z', 0.1], ['y', 0.1]), 0.5);
    // bm25: y 1, x 0;  knn: x 1, z 0, y 0  →  y .5, x .5 (both best rank 1: id order), z 0
    expect(ranking(fused)).toEqual([
      ['x', 0.5],
      ['y', 0.5],
      ['z', 0],
    ]);
  });

  it('gives a single candidate in a leg the full weight of that leg, and docs it missed 0', () => {
    const fused = convexCombination(list(['a', 4.2]), list(['b', 0.9], ['a', 0.5]), 0.5);
    // bm25: a 1 (one value), b missing → 0;  knn: b 1, a 0  →  a .5, b .5, both best rank 1: id order
    expect(ranking(fused)).toEqual([
      ['a', 0.5],
      ['b', 0.5],
    ]);
  });

  it('handles empty legs: one empty leg ranks by the other, both empty give nothing', () => {
    const fused = convexCombination([], list(['p', 0.9], ['q', 0.6], ['r', 0.3]), 0.5);
    expect(ranking(fused)).toEqual([
      ['p', 0.5],
      ['q', 0.25],
      ['r', 0],
    ]);
    expect(fused[0].legs).toEqual([undefined, { rank: 1, score: 0.9 }]);
    expect(convexCombination([], [], 0.5)).toEqual([]);
  });

  it('with z-scores, a doc missing from a leg gets that leg’s lowest z-score', () => {
    // bm25 [6, 4, 2] → [+s, 0, −s] with s = 2 / sqrt(8/3) ≈ 1.2247; knn only 'd' → z 0, floor 0
    const s = 2 / Math.sqrt(8 / 3);
    const fused = convexCombination(list(['a', 6], ['b', 4], ['c', 2]), list(['d', 0.5]), 0.5, 'zscore');
    const scores = Object.fromEntries(fused.map((r) => [r.id, r.score]));
    expect(scores.a).toBeCloseTo(0.5 * s);
    expect(scores.b).toBeCloseTo(0);
    expect(scores.c).toBeCloseTo(-0.5 * s);
    // d is missing from bm25: it gets bm25's floor −s there, not 0
    expect(scores.d).toBeCloseTo(-0.5 * s);
    expect(fused.map((r) => r.id)).toEqual(['a', 'b', 'd', 'c']);
  });

  it('counts an id named twice in a leg once, at its first rank', () => {
    const fused = convexCombination(list(['a', 5], ['a', 3], ['b', 1]), [], 0);
    expect(ranking(fused)).toEqual([
      ['a', 1],
      ['b', 0],
    ]);
    expect(fused[1].legs[0]).toEqual({ rank: 3, score: 1 });
  });
});

describe('fuse', () => {
  const keyword = list(['a', 10], ['b', 6]);
  const vector = list(['b', 0.9], ['c', 0.8]);

  it('runs RRF with the given k', () => {
    const fused = fuse(keyword, vector, { method: 'rrf', k: 1, vectorWeight: 0.5, normalization: 'minmax' });
    // k = 1: b 1/3 + 1/2; a 1/2; c 1/3
    expect(fused.map((r) => r.id)).toEqual(['b', 'a', 'c']);
    expect(fused[0].score).toBeCloseTo(1 / 3 + 1 / 2);
    expect(fused[2].score).toBeCloseTo(1 / 3);
  });

  it('runs the convex combination with the given weight', () => {
    const fused = fuse(keyword, vector, {
      method: 'convex',
      k: 60,
      vectorWeight: 1,
      normalization: 'minmax',
    });
    // c and a both score 0: c is in the (heavier) vector leg, a is not
    expect(ranking(fused)).toEqual([
      ['b', 1],
      ['c', 0],
      ['a', 0],
    ]);
  });
});
