/**
 * The streamed answer of `POST /v1/projects/:projectId/ask/stream`, as Server-Sent Events: the API
 * writes these and every client reads them, so both import them from here.
 */

/** The route of a project's streamed answers. */
export function askStreamPath(projectId: string): string {
  return `/v1/projects/${encodeURIComponent(projectId)}/ask/stream`;
}

/** A passage the answer may cite, as the `retrieval` event lists it. */
export interface AskStreamPassage {
  /** The `[n]` that cites it. */
  marker: number;
  /**
   * The marker its place (document and link: a Notion block, a site anchor, a PDF page) is cited
   * under: its own, or that of the first passage opening the same place. The final answer cites
   * these only; a model's text streamed before then may still use `marker`.
   */
  placeMarker: number;
  chunkId: string;
  documentId: string;
  title: string;
  headingPath: string[];
  text: string;
  citationUrl?: string;
  /** Cosine of the question's and the chunk's embeddings. */
  relevance: number;
  /** The search's score (fused, or reranked). */
  score: number;
  /** Whether the text was cut to fit the context budget. */
  truncated: boolean;
}

export interface AskStreamCitation {
  marker: number;
  chunkId: string;
  documentId: string;
  title: string;
  headingPath: string[];
  citationUrl?: string | null;
  quote: string;
}

/** The verified answer the `done` event carries (the same fields as GraphQL `ask`). */
export interface AskStreamResult {
  /** The id the answer is recorded under (`ans_…`). */
  answerId: string;
  /** The thread the question was asked in (continued or started); absent outside a thread. */
  threadId?: string | null;
  /** What retrieval searched for when a follow-up was rewritten into a standalone question; absent otherwise. */
  standaloneQuestion?: string | null;
  answer: string;
  mode: 'LLM' | 'EXTRACTIVE' | 'TOP_1' | 'INSUFFICIENT_CONTEXT';
  insufficientContext: boolean;
  language: string;
  promptId?: string;
  model?: string;
  /** Why the configured model's answer was replaced by this extractive one; absent otherwise. */
  fallbackReason?: string | null;
  citations: AskStreamCitation[];
  verification: {
    validMarkers: number[];
    invalidMarkers: number[];
    missingMarkers: boolean;
    retried: boolean;
    checkedSentences: number;
    /** Sentences their passages do not support, or (LLM) citing none: flagged, not removed. */
    unsupportedSentences: {
      sentence: string;
      markers: number[];
      lexicalOverlap: number;
      semanticSimilarity?: number;
      supported: boolean;
    }[];
  };
  /** Milliseconds per stage; a stage that did not run is absent. */
  timings: {
    rewriteMs?: number;
    embedMs?: number;
    searchMs?: number;
    rerankMs?: number;
    generateMs?: number;
    verifyMs?: number;
    totalMs: number;
  };
}

/** The `data` of each event, by its `event:` name; they come in order: retrieval, delta…, done or error. */
export interface AskStreamEventData {
  retrieval: {
    passages: AskStreamPassage[];
    /** The standalone question a follow-up was rewritten into: what these passages were retrieved for. */
    standaloneQuestion?: string;
  };
  /** Answer text as it is written; `attempt` 2 starts the text over (a retry after invalid citations). */
  delta: { text: string; attempt: number };
  done: AskStreamResult;
  /** The answer failed after the stream began: a stable error code and a human message. */
  error: { code: string; message: string };
}
export type AskStreamEventName = keyof AskStreamEventData;

/** An event as a client reads it; an `error` event is thrown instead. */
export type AskStreamEvent =
  | ({ type: 'retrieval' } & AskStreamEventData['retrieval'])
  | ({ type: 'delta' } & AskStreamEventData['delta'])
  | { type: 'done'; result: AskStreamResult };
