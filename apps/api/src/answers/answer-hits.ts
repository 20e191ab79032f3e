import type { AnswerPassage } from '@trove/answering';
import type { AnswerHit } from '@trove/domain';
import { namedFeatures } from '@trove/reranking';

/**
 * The passages an answer was built on, as its record keeps them: rank among the passages, the
 * search's fused score, and the learned reranker's features computed from the hit as search
 * returned it (leg ranks and scores, text, title, position) against the question retrieval used.
 * A hit one leg missed simply has that leg's "missing" features.
 */
export function answerHits(question: string, passages: AnswerPassage[]): AnswerHit[] {
  const features = namedFeatures(
    question,
    passages.map(({ hit }) => ({
      id: hit.chunkId,
      text: hit.text,
      title: hit.title,
      headingPath: hit.headingPath,
      position: hit.position,
      bm25: hit.bm25,
      knn: hit.knn,
      fusedScore: hit.score,
    })),
  );
  return passages.map(({ hit }, i) => ({
    chunkId: hit.chunkId,
    documentId: hit.documentId,
    rank: i + 1,
    score: hit.score,
    features: features[i],
  }));
}
