import { describe, expect, it } from 'vitest';
import type { RerankCandidate } from '@trove/domain';
import { FEATURE_NAMES } from './features';
import { LearnedReranker } from './learned-reranker';
import { type LinearModel, parseLinearModel, trainPairwiseLogistic } from './linear-model';
import committed from './model.json';

const n = FEATURE_NAMES.length;
/** A model scoring by one feature only. */
function oneFeatureModel(name: (typeof FEATURE_NAMES)[number], weight = 1): LinearModel {
  return {
    version: 'test',
    features: [...FEATURE_NAMES],
    mean: new Array<number>(n).fill(0),
    scale: new Array<number>(n).fill(1),
    weights: FEATURE_NAMES.map((f) => (f === name ? weight : 0)),
  };
}

const candidates: RerankCandidate[] = [
  {
    id: 'a',
    text: 'Unrelated text about weather.',
    title: 'A',
    headingPath: [],
    position: 0,
    fusedScore: 0.03,
  },
  {
    id: 'b',
    text: 'Vitamin D deficiency in the elderly.',
    title: 'B',
    headingPath: [],
    position: 2,
    fusedScore: 0.02,
  },
  { id: 'c', text: 'Vitamin supplements.', title: 'C', headingPath: [], position: 1, fusedScore: 0.01 },
];

describe('LearnedReranker', () => {
  it('orders candidates by the model and explains the score with the top contributions', async () => {
    const reranker = new LearnedReranker(oneFeatureModel('terms.coverage'));
    const results = await reranker.rerank('vitamin d deficiency', candidates);
    expect(results.map((r) => r.index)).toEqual([1, 2, 0]);
    expect(results[0].score).toBeCloseTo(1);
    expect(results[0].topFeatures?.[0]).toEqual({ name: 'terms.coverage', contribution: results[0].score });
    expect(reranker.id).toBe('learned:test');
  });

  it('is deterministic: the same input gives the same scores, ties keep the fused order', async () => {
    const reranker = new LearnedReranker();
    const first = await reranker.rerank('vitamin d deficiency', candidates);
    const second = await reranker.rerank('vitamin d deficiency', structuredClone(candidates));
    expect(second).toEqual(first);
    const flat = await new LearnedReranker(oneFeatureModel('chunk.first', 0)).rerank('x', candidates);
    expect(flat.map((r) => r.index)).toEqual([0, 1, 2]);
  });

  // Its speed is measured by `npm run eval` (the rerank p95 column), not asserted here: a timed
  // unit test fails on a loaded machine.
  it('scores every one of 30 long candidates once, with a finite score', async () => {
    const reranker = new LearnedReranker();
    const many = Array.from({ length: 30 }, (_, i) => ({
      ...candidates[i % 3],
      id: `c${i}`,
      text: candidates[i % 3].text.repeat(40),
    }));
    const results = await reranker.rerank('vitamin d deficiency in elderly patients', many);
    expect(results.map((r) => r.index).sort((a, b) => a - b)).toEqual([...Array(30).keys()]);
    expect(results.every((r) => Number.isFinite(r.score))).toBe(true);
  });

  it('refuses a model trained on other features', () => {
    expect(() => parseLinearModel({ ...oneFeatureModel('chunk.first'), features: ['x'] })).toThrow(
      /was trained on features \[x\]/,
    );
    expect(() => parseLinearModel({ ...oneFeatureModel('chunk.first'), weights: [1] })).toThrow(
      /must each have/,
    );
    expect(() => parseLinearModel(committed)).not.toThrow();
  });
});

describe('trainPairwiseLogistic', () => {
  it('learns to put the relevant candidate first from the feature that separates them', () => {
    // Feature 0 is noise, feature 1 marks the relevant candidate.
    const groups = Array.from({ length: 20 }, (_, q) => ({
      features: [
        [((q * 7) % 5) / 5, 1],
        [((q * 3) % 5) / 5, 0],
        [((q * 11) % 5) / 5, 0],
      ],
      labels: [1, 0, 0],
    }));
    const fit = trainPairwiseLogistic(groups, { epochs: 200 });
    expect(fit.weights[1]).toBeGreaterThan(1);
    expect(Math.abs(fit.weights[0])).toBeLessThan(fit.weights[1] / 4);
    expect(fit.pairs).toBe(40);
    expect(trainPairwiseLogistic(groups, { epochs: 200 })).toEqual(fit);
  });

  it('with equalQueries, a query with many pairs weighs no more than one with a single pair', () => {
    // Query A (many pairs) says feature 0 marks relevance, query B (one pair) says feature 1 does.
    const a = {
      features: [
        [1, 0],
        [1, 0],
        [1, 0],
        [0, 1],
        [0, 1],
        [0, 1],
      ],
      labels: [1, 1, 1, 0, 0, 0],
    };
    const b = {
      features: [
        [0, 1],
        [1, 0],
      ],
      labels: [1, 0],
    };
    const byPair = trainPairwiseLogistic([a, b], { epochs: 200 });
    const byQuery = trainPairwiseLogistic([a, b], { epochs: 200, equalQueries: true });
    expect(byPair.pairs).toBe(10);
    // Pair-weighted, A's nine pairs outvote B's one; query-weighted, the two pull equally.
    expect(byPair.weights[0] - byPair.weights[1]).toBeGreaterThan(0.5);
    expect(Math.abs(byQuery.weights[0] - byQuery.weights[1])).toBeLessThan(1e-6);
  });

  describe('with extra pairs (feedback)', () => {
    // The judged queries say a high feature 0 marks relevance; the extra pairs say a low one does.
    const judged = Array.from({ length: 10 }, (_, q) => ({
      features: [
        [1, (q % 3) / 3],
        [0, ((q + 1) % 3) / 3],
      ],
      labels: [1, 0],
    }));
    const contrary = Array.from({ length: 30 }, () => ({
      features: [
        [0, 0.5],
        [1, 0.5],
      ],
      pairs: [{ better: 0, worse: 1, weight: 1 }],
    }));

    it('learns from them, and without a cap enough of them overturn the judgments', () => {
      const fit = trainPairwiseLogistic(judged, { epochs: 200, equalQueries: true, extra: contrary });
      expect(fit.extraPairs).toBe(30);
      expect(fit.extraShare).toBe(3);
      expect(fit.extraCapped).toBe(false);
      expect(fit.weights[0]).toBeLessThan(0);
    });

    it('caps their total weight at a share of the judged pairs, so the judgments keep deciding', () => {
      const fit = trainPairwiseLogistic(judged, {
        epochs: 200,
        equalQueries: true,
        extra: contrary,
        extraCap: 0.2,
      });
      expect(fit.extraCapped).toBe(true);
      expect(fit.extraShare).toBeCloseTo(0.2);
      expect(fit.weights[0]).toBeGreaterThan(0.5);
      // Under the cap they count in full, and standardisation stays that of the judged rows.
      const few = trainPairwiseLogistic(judged, {
        epochs: 200,
        equalQueries: true,
        extra: contrary.slice(0, 1),
        extraCap: 0.2,
      });
      expect(few.extraShare).toBeCloseTo(0.1);
      expect(few.extraCapped).toBe(false);
      expect(few.mean).toEqual(trainPairwiseLogistic(judged, { epochs: 200 }).mean);
    });

    it('gives the same model as before when there are none', () => {
      const plain = trainPairwiseLogistic(judged, { epochs: 50 });
      expect(trainPairwiseLogistic(judged, { epochs: 50, extra: [], extraCap: 0.1 })).toEqual(plain);
      expect(plain.extraPairs).toBe(0);
    });
  });

  it('refuses data with nothing to compare', () => {
    expect(() => trainPairwiseLogistic([{ features: [[1], [2]], labels: [0, 0] }])).toThrow(/no pair/);
  });
});
