/** The shapes of a question and its answer. */
import type { AskStreamPassage, SearchHit } from '@trove/domain';
import type { SearchCallOptions, SearchRequest } from '@trove/search';
import type { PriorTurn } from './follow-up';
import type { AnswerLanguage } from './text';

/** How an answer was made. */
export enum AnswerMode {
  /** Written by the configured language model from the passages, citations verified. */
  LLM = 'LLM',
  /** The best supporting sentences of the top passages, quoted, each with its citation, in reading order. */
  EXTRACTIVE = 'EXTRACTIVE',
  /** The most relevant passage, returned as it is and labelled as such. */
  TOP_1 = 'TOP_1',
  /** Nothing relevant enough (or the model found no answer in the passages): said so, no answer. */
  INSUFFICIENT_CONTEXT = 'INSUFFICIENT_CONTEXT',
}

/** What a caller may ask for: AUTO is LLM when one is configured, else the configured fallback. */
export type RequestedAnswerMode = 'AUTO' | Exclude<AnswerMode, AnswerMode.INSUFFICIENT_CONTEXT>;

/** The modes that need no LLM, one of which answers when none is configured. */
export type FallbackMode = Exclude<AnswerMode, AnswerMode.LLM>;

/** Defaults and limits of answers (config block "Answers"). */
export interface AnswerSettings {
  /** Passages retrieved when the request names no topK. */
  topK: number;
  /**
   * Least relevance (cosine of the question's and the chunk's embeddings, −1 to 1) a passage
   * needs to be used; when none has it the answer is INSUFFICIENT_CONTEXT.
   */
  threshold: number;
  /** The mode used when no LLM is configured (or AUTO is asked without one). */
  fallbackMode: `${FallbackMode}`;
  /** Tokens of numbered passages given to the model. */
  contextTokens: number;
  /** A cited sentence is supported when this share of its content words occurs in a cited chunk… */
  supportMinLexical: number;
  /** …or its embedding's cosine with a cited chunk's stored vector reaches this. */
  supportMinSemantic: number;
  /** EXTRACTIVE: sentences quoted. */
  extractiveSentences: number;
  /** EXTRACTIVE: top passages whose sentences are candidates. */
  extractiveChunks: number;
  /**
   * LLM: the longest the model may take to write its answer (its retry included); past it, or
   * when the model fails, the answer is the extractive one, labelled with why.
   */
  llmBudgetMs: number;
  /** A follow-up's rewrite by the model: past this the rules rewrite it instead. */
  rewriteTimeoutMs: number;
}

/** Search options passed through unchanged (mode, fusion, and filters once search has them). */
export type AnswerSearchOptions = Partial<Omit<SearchRequest, 'projectId' | 'query' | 'limit'>> &
  Pick<SearchCallOptions, 'fusion'>;

export interface AskRequest {
  projectId: string;
  question: string;
  /** Passages retrieved (1 to 50); the configured topK when unset. */
  topK?: number;
  /** Overrides the configured relevance threshold (−1 to 1). */
  threshold?: number;
  mode?: RequestedAnswerMode;
  search?: AnswerSearchOptions;
  /**
   * The earlier turns of the question's thread, oldest first: a follow-up is rewritten into a
   * standalone question from them before retrieval.
   */
  history?: PriorTurn[];
}

/**
 * A passage handed to the answer (and, in LLM mode, to the model) under its marker number: what
 * the stream's `retrieval` event shows (libs/domain), and the search hit it came from.
 */
export interface AnswerPassage extends AskStreamPassage {
  hit: SearchHit;
}

export interface AnswerCitation {
  marker: number;
  chunkId: string;
  documentId: string;
  title: string;
  headingPath: string[];
  citationUrl?: string;
  /** The sentence(s) of the chunk that support what cites it. */
  quote: string;
  /** PDF, scanned image: the page the cited chunk starts on. */
  page?: number;
  /** The cited text was (partly) recognised by OCR, with this mean confidence (0 to 100). */
  ocr?: boolean;
  ocrConfidence?: number;
}

/** A cited sentence of the answer and how well its passages support it. */
export interface SentenceSupport {
  sentence: string;
  markers: number[];
  /** Best share of the sentence's content words found in a cited chunk. */
  lexicalOverlap: number;
  /** Best cosine of the sentence's embedding with a cited chunk's vector (computed only when lexical overlap is short). */
  semanticSimilarity?: number;
  supported: boolean;
}

export interface AnswerVerification {
  /** Markers of the final answer that name a passage. */
  validMarkers: number[];
  /** Markers that named no passage and were removed from the answer. */
  invalidMarkers: number[];
  /** The answer cited nothing (after the retry). */
  missingMarkers: boolean;
  /** The first answer's markers were invalid or missing and it was asked again with a stricter prompt. */
  retried: boolean;
  /** Sentences checked against the chunks they cite (LLM: uncited ones too, which fail the check). */
  checkedSentences: number;
  /** Sentences their passages do not support, or (LLM) that cite none: flagged, not removed. */
  unsupportedSentences: SentenceSupport[];
}

/** Milliseconds per stage; a stage that did not run is absent. */
export interface AnswerTimings {
  /** Rewriting a follow-up into a standalone question (a question in a thread). */
  rewriteMs?: number;
  /** The question's embedding (relevance and the threshold). */
  embedMs?: number;
  searchMs?: number;
  rerankMs?: number;
  generateMs?: number;
  verifyMs?: number;
  totalMs: number;
}

export interface AnswerResult {
  /**
   * The question retrieval and the answer used, when the question was a follow-up rewritten from
   * its thread; undefined when it was used as asked.
   */
  standaloneQuestion?: string;
  answer: string;
  mode: AnswerMode;
  insufficientContext: boolean;
  /** The language the answer is written in (the question's). */
  language: AnswerLanguage;
  /** The prompt template's version (LLM mode). */
  promptId?: string;
  /** The model that wrote it (LLM mode), or whose answer was replaced (see fallbackReason). */
  model?: string;
  /**
   * Why the configured model's answer was replaced by this one (EXTRACTIVE): its time budget
   * passed, it failed, or none of its sentences was supported by what it cited. Absent otherwise.
   */
  fallbackReason?: string;
  citations: AnswerCitation[];
  verification: AnswerVerification;
  timings: AnswerTimings;
}

/** What a streamed answer reports, in order: retrieval, delta…, done. */
export type AnswerEvent =
  | { type: 'retrieval'; passages: AnswerPassage[]; standaloneQuestion?: string }
  /** Answer text as it is written; `attempt` 2 starts over (a retry after invalid citations). */
  | { type: 'delta'; text: string; attempt: number }
  | { type: 'done'; result: AnswerResult };
