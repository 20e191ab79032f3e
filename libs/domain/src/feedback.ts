/**
 * Feedback on answers: a vote (+1 or −1) on an answer or on one of its passages, and the line of
 * the feedback export (JSON Lines) that carries it with the question and the hits the answer was
 * made from, their reranking features included, so training needs no search. The API writes these
 * lines, `trove feedback export` saves them, tools/eval/train-reranker.ts `--feedback` reads them.
 */

/** The `format` of every export line; a reader refuses lines of another format. */
export const FEEDBACK_EXPORT_FORMAT = 'trove.feedback/1';

/** What a vote is about: the answer as a whole, or one passage (a hit) of it. */
export type FeedbackTarget = 'answer' | 'passage';

/** Up (+1) or down (−1). */
export type FeedbackVote = 1 | -1;

/** Longest comment kept with a vote, in characters. */
export const FEEDBACK_COMMENT_MAX = 2000;

/** A hit of the answer as the answers log recorded it. */
export interface FeedbackHit {
  chunkId: string;
  documentId: string;
  /** 1-based position in the answer's hits (the order search served). */
  rank: number;
  /** The score search served it with (reranked, or fused). */
  score: number;
  /** The learned reranker's features of the hit, by name (`FEATURE_NAMES` of @trove/reranking). */
  features: Record<string, number>;
}

/** One line of the feedback export. */
export interface FeedbackExportLine {
  format: typeof FEEDBACK_EXPORT_FORMAT;
  /** The vote's id (`fbk_…`). */
  id: string;
  answerId: string;
  projectId: string;
  /** The question as asked. */
  question: string;
  /** A follow-up rewritten into a question of its own (what was searched), when it was one. */
  standaloneQuestion?: string;
  /** How the answer was made (LLM, EXTRACTIVE, TOP_1, INSUFFICIENT_CONTEXT). */
  mode: string;
  target: FeedbackTarget;
  /** The voted passage (target `passage`). */
  chunkId?: string;
  documentId?: string;
  vote: FeedbackVote;
  comment?: string;
  /** The API key that voted; absent for the configured admin key. */
  apiKeyId?: string;
  /** The answer's hits, best first, with their features. */
  hits: FeedbackHit[];
  /** The names of the features in `hits`, as the api computed them when the answer was made. */
  featureNames: string[];
  /** When the vote was (last) given, ISO 8601. */
  createdAt: string;
}

/**
 * The form of a question that votes and content gaps are grouped by: Unicode-normalised (NFKC),
 * lower-cased, whitespace collapsed, trailing `?`, `.`, `!` and spaces dropped. The catalog's
 * content-gaps query groups by the same expression in SQL (`normalizedQuestionSql`).
 */
export function normalizeQuestion(question: string): string {
  return question
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s?.!]+$/, '')
    .trim();
}
