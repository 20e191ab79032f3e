import type { AskStreamEvent, AskStreamPassage, AskStreamResult } from '@trove/api-client/browser';

/** Where a question's answer is: retrieving passages, being written, or over. */
export type AskPhase = 'searching' | 'writing' | 'done' | 'failed' | 'stopped';

/**
 * One question and its answer as the stream brings it (libs/domain `ask-stream.ts`), or as its
 * thread recorded it. A thread is a list of them.
 */
export interface AskTurn {
  question: string;
  /** The thread it was asked in: the one continued, or (once answered) the one it started. */
  threadId?: string;
  /** What retrieval searched for, when the question was a follow-up rewritten from its thread. */
  standaloneQuestion?: string;
  /** A turn read back from its thread: the answer and citations as recorded, no passages, checks or timings. */
  recorded?: boolean;
  /** The question starts a new thread (whose id comes with the answer). */
  startsThread?: boolean;
  phase: AskPhase;
  /** The passages the answer may cite (the `retrieval` event). */
  passages: AskStreamPassage[];
  /** The answer so far: the text of the latest attempt, then the verified answer. */
  text: string;
  /** Which attempt `text` belongs to: a model asked again after invalid citations starts over at 2. */
  attempt: number;
  result?: AskStreamResult;
  error?: unknown;
}

/** Where a question goes: on in a thread, or into a new one. */
export type ThreadChoice = { threadId: string } | { newThread: true };

export function newTurn(question: string, thread?: ThreadChoice): AskTurn {
  return {
    question,
    ...(thread && ('threadId' in thread ? { threadId: thread.threadId } : { startsThread: true })),
    phase: 'searching',
    passages: [],
    text: '',
    attempt: 1,
  };
}

/**
 * Where the next question goes: on in the thread the page shows. That is the URL's thread, or,
 * while the URL has none yet, the thread the shown answer just started: the router applies the
 * new `?thread=` as a transition, and a follow-up asked before it lands would otherwise start a
 * second thread beside the one on screen.
 */
export function nextQuestionThread(urlThread: string | undefined, shown: AskTurn | undefined): ThreadChoice {
  const threadId = urlThread ?? (shown?.startsThread ? shown.threadId : undefined);
  return threadId ? { threadId } : { newThread: true };
}

/** A turn as its thread recorded it (GraphQL `Thread.turns`). */
export interface RecordedTurn {
  answerId: string;
  question: string;
  standaloneQuestion?: string | null;
  mode: AskStreamResult['mode'];
  answer: string;
  citations: AskStreamResult['citations'];
}

/** A recorded turn of a thread, shown as an answer that is done. */
export function recordedTurn(threadId: string, recorded: RecordedTurn): AskTurn {
  const insufficientContext = recorded.mode === 'INSUFFICIENT_CONTEXT';
  return {
    question: recorded.question,
    threadId,
    ...(recorded.standaloneQuestion ? { standaloneQuestion: recorded.standaloneQuestion } : {}),
    recorded: true,
    phase: 'done',
    passages: [],
    text: recorded.answer,
    attempt: 1,
    result: {
      answerId: recorded.answerId,
      threadId,
      standaloneQuestion: recorded.standaloneQuestion ?? null,
      answer: recorded.answer,
      mode: recorded.mode,
      insufficientContext,
      language: '',
      citations: recorded.citations,
      verification: {
        validMarkers: recorded.citations.map((c) => c.marker),
        invalidMarkers: [],
        missingMarkers: false,
        retried: false,
        checkedSentences: 0,
        unsupportedSentences: [],
      },
      timings: { totalMs: 0 },
    },
  };
}

/** The turn after one event of its stream. */
export function withEvent(turn: AskTurn, event: AskStreamEvent): AskTurn {
  switch (event.type) {
    case 'retrieval':
      return {
        ...turn,
        phase: 'writing',
        passages: event.passages,
        ...(event.standaloneQuestion ? { standaloneQuestion: event.standaloneQuestion } : {}),
      };
    case 'delta':
      return event.attempt > turn.attempt
        ? { ...turn, phase: 'writing', attempt: event.attempt, text: event.text }
        : { ...turn, phase: 'writing', text: turn.text + event.text };
    case 'done':
      // The verified answer replaces the streamed text: invalid markers removed, places merged.
      return {
        ...turn,
        phase: 'done',
        text: event.result.answer,
        result: event.result,
        ...(event.result.threadId ? { threadId: event.result.threadId } : {}),
        ...(event.result.standaloneQuestion ? { standaloneQuestion: event.result.standaloneQuestion } : {}),
      };
  }
}

/** The turn after its stream failed, or was stopped by the person asking. */
export function withFailure(turn: AskTurn, error: unknown, stopped: boolean): AskTurn {
  return stopped ? { ...turn, phase: 'stopped' } : { ...turn, phase: 'failed', error };
}

export function isStreaming(turn: AskTurn | undefined): boolean {
  return turn?.phase === 'searching' || turn?.phase === 'writing';
}

/**
 * The marker the answer cites a place under, for any marker its text may hold: the final answer
 * uses place markers, a model's streamed text may still use a passage's own.
 */
export function placeMarkerOf(passages: AskStreamPassage[]): (marker: number) => number | undefined {
  const places = new Map(passages.map((p) => [p.marker, p.placeMarker]));
  return (marker) => places.get(marker);
}

/** A place the answer cites, with what the side panel shows of it. */
export interface CitedPlace {
  marker: number;
  title: string;
  headingPath: string[];
  /** Opens the place itself: a Notion block, a site anchor, a PDF page, the original file. */
  citationUrl?: string | null;
  /** The sentence(s) of the place that support the answer; known once the answer is verified. */
  quote?: string;
  /** The place's passages (chunks of one section, or of one file), in marker order. */
  chunks: { chunkId: string; headingPath: string[]; text: string; truncated: boolean }[];
  /** The chunks the answer's citations of this place name (a recorded turn has no passages but these). */
  citedChunkIds: string[];
}

/** Every place the turn's passages and citations name, by the marker that cites it. */
export function citedPlaces(turn: AskTurn): Map<number, CitedPlace> {
  const places = new Map<number, CitedPlace>();
  for (const passage of turn.passages) {
    const marker = passage.placeMarker;
    const place = places.get(marker) ?? {
      marker,
      title: passage.title,
      headingPath: passage.headingPath,
      citationUrl: passage.citationUrl,
      chunks: [],
      citedChunkIds: [],
    };
    place.chunks.push({
      chunkId: passage.chunkId,
      headingPath: passage.headingPath,
      text: passage.text,
      truncated: passage.truncated,
    });
    // A place of several sections (a whole file) is named by the headings they share.
    place.headingPath = sharedPrefix(place.headingPath, passage.headingPath);
    places.set(marker, place);
  }
  for (const citation of turn.result?.citations ?? []) {
    const place = places.get(citation.marker);
    places.set(citation.marker, {
      marker: citation.marker,
      title: citation.title,
      headingPath: place?.headingPath ?? citation.headingPath,
      citationUrl: citation.citationUrl ?? place?.citationUrl,
      quote: citation.quote,
      chunks: place?.chunks ?? [],
      citedChunkIds: [...new Set([...(place?.citedChunkIds ?? []), citation.chunkId])],
    });
  }
  return places;
}

function sharedPrefix(a: string[], b: string[]): string[] {
  const end = a.findIndex((heading, i) => heading !== b[i]);
  return end < 0 ? a : a.slice(0, end);
}
