import { describe, expect, it } from 'vitest';
import { cosine, maximalMarginalRelevance } from './mmr';

// Two near-duplicates (a, a2) and one different candidate (b), relevance a > a2 > b.
const candidates = [
  { id: 'a', score: 0.033, vector: [1, 0, 0] },
  { id: 'a2', score: 0.032, vector: [0.99, 0.1, 0] },
  { id: 'b', score: 0.03, vector: [0, 1, 0] },
];

describe('cosine', () => {
  it('is 1 for parallel, 0 for orthogonal or zero vectors', () => {
    expect(cosine([1, 2], [2, 4])).toBeCloseTo(1);
    expect(cosine([1, 0], [0, 3])).toBe(0);
    expect(cosine([0, 0], [1, 1])).toBe(0);
  });
});

describe('maximalMarginalRelevance', () => {
  it('λ = 1 keeps the relevance order', () => {
    expect(maximalMarginalRelevance(candidates, 1)).toEqual(['a', 'a2', 'b']);
  });

  it('puts the different candidate before the near-duplicate of the best one', () => {
    expect(maximalMarginalRelevance(candidates, 0.5)).toEqual(['a', 'b', 'a2']);
  });

  it('works on RRF-sized scores (normalised), so a high λ still keeps a clear relevance gap', () => {
    // b far less relevant: at λ = 0.9 relevance wins over the duplicate penalty.
    const spread = [candidates[0], candidates[1], { ...candidates[2], score: 0.01 }];
    expect(maximalMarginalRelevance(spread, 0.9)).toEqual(['a', 'a2', 'b']);
  });

  it('always starts with the most relevant and returns every candidate once', () => {
    const order = maximalMarginalRelevance([...candidates].reverse(), 0);
    expect(order[0]).toBe('a');
    expect([...order].sort()).toEqual(['a', 'a2', 'b']);
  });

  it('treats a candidate without a stored vector as unlike the others', () => {
    const missing = [candidates[0], candidates[1], { ...candidates[2], vector: [] }];
    expect(maximalMarginalRelevance(missing, 0.5)).toEqual(['a', 'b', 'a2']);
  });
});
