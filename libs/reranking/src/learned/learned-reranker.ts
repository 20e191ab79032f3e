import type { RerankCandidate, Reranker, RerankResult } from '@trove/domain';
import { extractFeatures, FEATURE_NAMES } from './features';
import { contributions, type LinearModel, parseLinearModel } from './linear-model';
import defaultModel from './model.json';

/** How many features the explain view gets per hit. */
const TOP_FEATURES = 3;

/**
 * Reranks with a small linear model over features search already has (leg ranks and scores,
 * query-term coverage, phrase and proximity matches, title match, chunk length and position,
 * language): no model server, microseconds per candidate. Weights come from
 * tools/eval/train-reranker.ts (train splits only) and live in model.json.
 */
export class LearnedReranker implements Reranker {
  readonly id: string;
  private readonly model: LinearModel;

  constructor(model: unknown = defaultModel) {
    this.model = parseLinearModel(model);
    this.id = `learned:${this.model.version}`;
  }

  rerank(query: string, candidates: RerankCandidate[]): Promise<RerankResult[]> {
    const rows = extractFeatures(query, candidates);
    const results = rows.map((row, index): RerankResult => {
      const parts = contributions(this.model, row);
      const topFeatures = parts
        .map((contribution, i) => ({ name: FEATURE_NAMES[i] as string, contribution }))
        .sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution))
        .slice(0, TOP_FEATURES);
      return { index, score: parts.reduce((a, b) => a + b, 0), topFeatures };
    });
    // Ties keep the fused order.
    return Promise.resolve(results.sort((a, b) => b.score - a.score || a.index - b.index));
  }
}
