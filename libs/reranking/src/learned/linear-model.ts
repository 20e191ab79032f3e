import { z } from 'zod';
import { FEATURE_NAMES } from './features';

/** A linear scoring model over standardised features, as committed in `model.json`. */
export const linearModelSchema = z.object({
  version: z.string().min(1),
  /** Names of the features, in the order of `mean`, `scale` and `weights`. */
  features: z.array(z.string()),
  mean: z.array(z.number().finite()),
  scale: z.array(z.number().finite().positive()),
  weights: z.array(z.number().finite()),
  /** How the model was trained (data sets, splits, queries, pairs): provenance, not used to score. */
  training: z.record(z.unknown()).optional(),
});

export type LinearModel = z.infer<typeof linearModelSchema>;

/** Checks a model against the features this code computes: a stale model.json fails at start-up. */
export function parseLinearModel(raw: unknown): LinearModel {
  const model = linearModelSchema.parse(raw);
  const n = FEATURE_NAMES.length;
  if (model.features.join() !== FEATURE_NAMES.join()) {
    throw new Error(
      `reranker model ${model.version} was trained on features [${model.features.join(', ')}], this code computes [${FEATURE_NAMES.join(', ')}]; run tools/eval/train-reranker.ts`,
    );
  }
  if ([model.mean, model.scale, model.weights].some((a) => a.length !== n)) {
    throw new Error(`reranker model ${model.version}: mean, scale and weights must each have ${n} values`);
  }
  return model;
}

/** Each feature's contribution w·(x − mean)/scale to a candidate's score. */
export function contributions(model: LinearModel, features: number[]): number[] {
  return features.map((x, i) => (model.weights[i] * (x - model.mean[i])) / model.scale[i]);
}

/** One query's candidates with graded labels (> 0 relevant), for training. */
export interface TrainingGroup {
  features: number[][];
  labels: number[];
}

/** "Candidate `better` should score above candidate `worse`", with how much that counts. */
export interface TrainingPair {
  better: number;
  worse: number;
  weight: number;
}

/** One question's candidates with explicit pairs instead of labels (from feedback). */
export interface PairwiseGroup {
  features: number[][];
  pairs: readonly TrainingPair[];
}

export interface TrainingOptions {
  /** Passes of full-batch gradient descent. */
  epochs?: number;
  learningRate?: number;
  /** L2 penalty on the weights. */
  l2?: number;
  /**
   * Every query weighs the same whatever its number of pairs (true), rather than every pair
   * (false): otherwise queries with many relevant candidates decide the model. With it, every
   * extra group weighs one query too.
   */
  equalQueries?: boolean;
  /** Pairs from elsewhere (feedback), learned beside the labelled groups' pairs. */
  extra?: readonly PairwiseGroup[];
  /**
   * The most weight all `extra` pairs together may have, as a share of the labelled pairs'
   * weight: beyond it they are scaled down, so however many there are, they cannot outweigh the
   * judgments. Infinity: no cap.
   */
  extraCap?: number;
}

export interface TrainingFit {
  mean: number[];
  scale: number[];
  weights: number[];
  /** Pairs from the labelled groups. */
  pairs: number;
  loss: number;
  /** Pairs from `extra`, and their total weight after the cap relative to the labelled pairs'. */
  extraPairs: number;
  extraShare: number;
  /** Whether the cap scaled the extra pairs down. */
  extraCapped: boolean;
}

/**
 * Pairwise logistic regression (a linear RankNet): for every (relevant, non-relevant) pair of one
 * query's candidates, and every pair of `extra`, minimises the weighted mean of
 * log(1 + e^−(s_better − s_worse)), with features standardised over the labelled training rows
 * (extra rows do not move the standardisation). Full-batch gradient descent from zero weights:
 * the same data gives the same model.
 */
export function trainPairwiseLogistic(groups: TrainingGroup[], options: TrainingOptions = {}): TrainingFit {
  const {
    epochs = 400,
    learningRate = 0.5,
    l2 = 1e-3,
    equalQueries = false,
    extra = [],
    extraCap = Number.POSITIVE_INFINITY,
  } = options;
  if (!(extraCap >= 0)) throw new Error(`extraCap must be 0 or more, not ${extraCap}`);
  const rows = groups.flatMap((g) => g.features);
  if (rows.length === 0) throw new Error('no training rows');
  const n = rows[0].length;
  const mean = Array.from({ length: n }, (_, i) => rows.reduce((s, r) => s + r[i], 0) / rows.length);
  const scale = Array.from({ length: n }, (_, i) => {
    const sd = Math.sqrt(rows.reduce((s, r) => s + (r[i] - mean[i]) ** 2, 0) / rows.length);
    return sd > 1e-9 ? sd : 1;
  });
  const standard = (r: number[]) => r.map((x, i) => (x - mean[i]) / scale[i]);
  // Pair differences x_better − x_worse; the loss depends on nothing else.
  const diffs: number[][] = [];
  const pairWeights: number[] = [];
  let queriesWithPairs = 0;
  for (const group of groups) {
    const z = group.features.map(standard);
    const first = diffs.length;
    group.labels.forEach((a, i) =>
      group.labels.forEach((b, j) => {
        if (a > b) diffs.push(z[i].map((x, k) => x - z[j][k]));
      }),
    );
    const pairs = diffs.length - first;
    if (pairs > 0) queriesWithPairs += 1;
    for (let p = 0; p < pairs; p++) pairWeights.push(equalQueries ? 1 / pairs : 1);
  }
  if (diffs.length === 0) throw new Error('no pair with different labels to learn from');
  const baseWeight = equalQueries ? queriesWithPairs : diffs.length;
  const basePairs = diffs.length;

  const extraWeights: number[] = [];
  for (const group of extra) {
    const z = group.features.map(standard);
    const usable = group.pairs.filter((p) => p.weight > 0 && p.better !== p.worse);
    const groupWeight = usable.reduce((s, p) => s + p.weight, 0);
    for (const pair of usable) {
      diffs.push(z[pair.better].map((x, k) => x - z[pair.worse][k]));
      extraWeights.push(equalQueries ? pair.weight / groupWeight : pair.weight);
    }
  }
  const extraRaw = extraWeights.reduce((s, w) => s + w, 0);
  const extraCapped = extraRaw > extraCap * baseWeight;
  const extraScale = extraCapped ? (extraCap * baseWeight) / extraRaw : 1;
  for (const w of extraWeights) pairWeights.push(w * extraScale);
  const totalWeight = baseWeight + extraRaw * extraScale;

  const weights = new Array<number>(n).fill(0);
  let loss = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    const gradient = weights.map((w) => l2 * w);
    loss = 0;
    diffs.forEach((d, p) => {
      const weight = pairWeights[p] / totalWeight;
      const margin = d.reduce((s, x, k) => s + x * weights[k], 0);
      loss += weight * Math.log1p(Math.exp(-margin));
      const g = -weight / (1 + Math.exp(margin));
      for (let k = 0; k < n; k++) gradient[k] += g * d[k];
    });
    for (let k = 0; k < n; k++) weights[k] -= learningRate * gradient[k];
  }
  return {
    mean,
    scale,
    weights,
    pairs: basePairs,
    loss,
    extraPairs: diffs.length - basePairs,
    extraShare: (extraRaw * extraScale) / baseWeight,
    extraCapped,
  };
}
