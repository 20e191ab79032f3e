/**
 * Feedback on answers: a vote (+1 or −1) on an answer or on one of its passages, and the line of
 * the feedback export (JSON Lines) that carries it with the question and the hits the answer was
 * made from, their reranking features included, so training needs no search. The API writes these
 * lines, `trove feedback export` saves them, tools/eval/train-reranker.ts `--feedback` reads them.
 */
import type { AnswerHit } from './answers';

/** The `format` of every export line; a reader refuses lines of another format. */
export const FEEDBACK_EXPORT_FORMAT = 'trove.feedback/1';

/** What a vote is about: the answer as a whole, or one passage (a hit) of it. */
export type FeedbackTarget = 'answer' | 'passage';

/** Up (+1) or down (−1). */
export type FeedbackVote = 1 | -1;

/** The route of a project's feedback export (JSON Lines, one vote a line; ADMIN keys). */
export function feedbackExportPath(projectId: string): string {
  return `/v1/projects/${encodeURIComponent(projectId)}/feedback.jsonl`;
}

/** The response header of the export that holds its number of lines (votes). */
export const FEEDBACK_EXPORT_COUNT_HEADER = 'x-total-count';

/** Longest comment kept with a vote, in characters. */
export const FEEDBACK_COMMENT_MAX = 2000;

/** A passage of the answer as the answers log recorded it, with its reranker features. */
export type FeedbackHit = AnswerHit;

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
  /** The API key that voted; absent for the configured admin key and for people. */
  apiKeyId?: string;
  /** The person that voted. */
  userId?: string;
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

/** A fresh vote id (`fbk_<uuid>`). */
export function newFeedbackId(): string {
  return `fbk_${globalThis.crypto.randomUUID()}`;
}

/** A vote as the catalog keeps it: one per (answer, key, target, passage), a new vote replacing it. */
export interface FeedbackRecord {
  id: string;
  answerId: string;
  projectId: string;
  /** The key that voted; undefined for the bootstrap admin key and for people. */
  apiKeyId?: string;
  /** The person that voted. */
  userId?: string;
  target: FeedbackTarget;
  /** The voted passage (target `passage`). */
  chunkId?: string;
  vote: FeedbackVote;
  comment?: string;
  /** When the key first voted here. */
  createdAt: string;
  /** When it last voted here (the vote and comment are from then). */
  updatedAt: string;
}

/** What the export takes from the voted answer. */
export interface FeedbackAnswer {
  question: string;
  standaloneQuestion?: string;
  mode: string;
  hits: FeedbackHit[];
}

/** The export line of a vote on an answer. */
export function feedbackExportLine(vote: FeedbackRecord, answer: FeedbackAnswer): FeedbackExportLine {
  const documentId = answer.hits.find(
    (h) => vote.chunkId !== undefined && h.chunkId === vote.chunkId,
  )?.documentId;
  const featureNames = [...new Set(answer.hits.flatMap((h) => Object.keys(h.features)))];
  return {
    format: FEEDBACK_EXPORT_FORMAT,
    id: vote.id,
    answerId: vote.answerId,
    projectId: vote.projectId,
    question: answer.question,
    ...(answer.standaloneQuestion !== undefined && { standaloneQuestion: answer.standaloneQuestion }),
    mode: answer.mode,
    target: vote.target,
    ...(vote.chunkId !== undefined && { chunkId: vote.chunkId }),
    ...(documentId !== undefined && { documentId }),
    vote: vote.vote,
    ...(vote.comment !== undefined && { comment: vote.comment }),
    ...(vote.apiKeyId !== undefined && { apiKeyId: vote.apiKeyId }),
    ...(vote.userId !== undefined && { userId: vote.userId }),
    hits: answer.hits,
    featureNames,
    createdAt: vote.updatedAt,
  };
}

/**
 * A content gap: a question (grouped by `normalizeQuestion` of what was searched) that was left
 * unanswered (INSUFFICIENT_CONTEXT) or whose answer was voted down.
 */
export interface ContentGap {
  /** `normalizeQuestion` of the question: what its answers are grouped by. */
  key: string;
  /** The question as last asked. */
  question: string;
  /** Answers given to it. */
  askCount: number;
  /** Of those, answered INSUFFICIENT_CONTEXT. */
  unansweredCount: number;
  /** Down votes on its answers (as a whole). */
  downVoteCount: number;
  lastAskedAt: string;
  /** The latest comments of its down votes, newest first (at most three). */
  comments: string[];
  /** Who asked it (people's and keys' names, at most 20): shown to ADMINs only. */
  askedBy: string[];
}
