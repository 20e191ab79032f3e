import type { AnswerPassage } from '@trove/answering';
import type { AnswerHit } from '@trove/domain';

/**
 * The passages an answer was built on, as its record keeps them: rank among the passages, the
 * search's fused score, and the learned reranker's features as search computed them for the hit
 * (among the rerank candidates in fused order: the rows the model scores and is trained on). A
 * hit without them (a search not built with `candidateFeatures`) keeps none, and feedback on it
 * is left out of training rather than learned from other numbers.
 */
export function answerHits(passages: AnswerPassage[]): AnswerHit[] {
  return passages.map(({ hit }, i) => ({
    chunkId: hit.chunkId,
    documentId: hit.documentId,
    rank: i + 1,
    score: hit.score,
    features: hit.features ?? {},
  }));
}
