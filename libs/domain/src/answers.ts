import type { AskStreamCitation } from './ask-stream';

/**
 * A conversation: one key's questions about one project, kept as numbered turns so that a
 * follow-up can be read in their light. Threads of the bootstrap admin key (from configuration)
 * have no `apiKeyId`.
 */
export interface Thread {
  /** `thr_<uuid>` */
  id: string;
  projectId: string;
  /** The key that asked; undefined for the bootstrap admin key and for people. */
  apiKeyId?: string;
  /** The person that asked (whichever session or token they used). */
  userId?: string;
  /** The first question, shortened, until renamed. */
  title: string;
  /** Turns recorded so far. */
  turnCount: number;
  createdAt: string;
  /** When the last turn was recorded (or the thread renamed). */
  updatedAt: string;
}

/** Longest thread title; the first question is shortened to it at a word. */
export const THREAD_TITLE_MAX = 80;

/** A thread's first title: its first question on one line, shortened at a word to THREAD_TITLE_MAX. */
export function threadTitle(question: string): string {
  const line = question.replace(/\s+/g, ' ').trim();
  if (line.length <= THREAD_TITLE_MAX) return line;
  const cut = line.slice(0, THREAD_TITLE_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > THREAD_TITLE_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * A passage an answer was built on, as the learned reranker saw it: its rank among the answer's
 * passages (1-based), its search score (fused), and the reranker's features keyed by name
 * (`FEATURE_NAMES` of @trove/reranking) — what feedback turns into training data.
 */
export interface AnswerHit {
  chunkId: string;
  documentId: string;
  rank: number;
  score: number;
  features: Record<string, number>;
}

/** A citation as an answer record keeps it (links to API originals unsigned: they are signed when served). */
export type AnswerRecordCitation = AskStreamCitation & { page?: number };

/** Every answer `ask` gave, in a thread or not. */
export interface AnswerRecord {
  /** `ans_<uuid>` */
  id: string;
  projectId: string;
  threadId?: string;
  /** The turn's number in its thread, from 1. */
  position?: number;
  /** The key that asked; undefined for the bootstrap admin key and for people. */
  apiKeyId?: string;
  /** The person that asked. */
  userId?: string;
  /** The question as asked. */
  question: string;
  /** The standalone question retrieval used, when a follow-up was rewritten; undefined otherwise. */
  standaloneQuestion?: string;
  /** The answer's mode (`AnswerMode`: LLM, EXTRACTIVE, TOP_1, INSUFFICIENT_CONTEXT). */
  mode: string;
  answer: string;
  citations: AnswerRecordCitation[];
  hits: AnswerHit[];
  createdAt: string;
}
