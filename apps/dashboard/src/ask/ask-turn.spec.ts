import { describe, expect, it } from 'vitest';
import type { AskStreamPassage, AskStreamResult } from '@trove/api-client/browser';
import {
  citedPlaces,
  isStreaming,
  newTurn,
  nextQuestionThread,
  placeMarkerOf,
  recordedTurn,
  withEvent,
  withFailure,
} from './ask-turn';

function passage(marker: number, placeMarker: number, text: string): AskStreamPassage {
  return {
    marker,
    placeMarker,
    chunkId: `chk_${marker}`,
    documentId: 'doc_runbook',
    title: 'Deploy runbook',
    headingPath: ['Deploy runbook', 'Rolling back'],
    text,
    citationUrl: `https://example.com/runbook#place-${placeMarker}`,
    relevance: 0.9,
    score: 0.03,
    truncated: false,
  };
}

const PASSAGES = [
  passage(1, 1, 'Run deployctl rollback. Confirm the prompt.'),
  passage(2, 1, 'A rollback never reverts the schema.'),
  passage(3, 3, 'Escalate after 30 minutes.'),
];

const RESULT: AskStreamResult = {
  answerId: 'ans_1',
  answer: 'Run deployctl rollback [1]. It never reverts the schema [1].',
  mode: 'LLM',
  insufficientContext: false,
  language: 'en',
  citations: [
    {
      marker: 1,
      chunkId: 'chk_1',
      documentId: 'doc_runbook',
      title: 'Deploy runbook',
      headingPath: ['Deploy runbook', 'Rolling back'],
      citationUrl: 'https://example.com/runbook#place-1',
      quote: 'Run deployctl rollback. A rollback never reverts the schema.',
    },
  ],
  verification: {
    validMarkers: [1],
    invalidMarkers: [],
    missingMarkers: false,
    retried: false,
    checkedSentences: 2,
    unsupportedSentences: [],
  },
  timings: { totalMs: 120 },
};

describe('an ask turn, event by event', () => {
  it('searches, then writes as deltas come, then holds the verified answer', () => {
    let turn = newTurn('How do I roll back?');
    expect(turn.phase).toBe('searching');
    turn = withEvent(turn, { type: 'retrieval', passages: PASSAGES });
    expect(turn).toMatchObject({ phase: 'writing', text: '' });
    turn = withEvent(turn, { type: 'delta', text: 'Run deployctl ', attempt: 1 });
    turn = withEvent(turn, { type: 'delta', text: 'rollback [2].', attempt: 1 });
    expect(turn).toMatchObject({ phase: 'writing', text: 'Run deployctl rollback [2].' });
    expect(isStreaming(turn)).toBe(true);
    turn = withEvent(turn, { type: 'done', result: RESULT });
    expect(turn).toMatchObject({ phase: 'done', text: RESULT.answer, result: RESULT });
    expect(isStreaming(turn)).toBe(false);
  });

  it('starts the text over when a second attempt begins', () => {
    let turn = withEvent(newTurn('q'), { type: 'delta', text: 'Wrong [9].', attempt: 1 });
    turn = withEvent(turn, { type: 'delta', text: 'Right ', attempt: 2 });
    turn = withEvent(turn, { type: 'delta', text: '[1].', attempt: 2 });
    expect(turn).toMatchObject({ text: 'Right [1].', attempt: 2 });
  });

  it('in a thread: keeps what a follow-up was rewritten into, and the thread a new one started', () => {
    let turn = newTurn('and for the Russian office?', { newThread: true });
    expect([turn.startsThread, turn.threadId]).toEqual([true, undefined]);
    turn = withEvent(turn, {
      type: 'retrieval',
      passages: PASSAGES,
      standaloneQuestion: 'How do I deploy in the Russian office?',
    });
    expect(turn.standaloneQuestion).toBe('How do I deploy in the Russian office?');
    turn = withEvent(turn, { type: 'done', result: { ...RESULT, threadId: 'thr_1' } });
    expect(turn).toMatchObject({
      threadId: 'thr_1',
      standaloneQuestion: 'How do I deploy in the Russian office?',
    });
    const continued = newTurn('q', { threadId: 'thr_2' });
    expect([continued.threadId, continued.startsThread]).toEqual(['thr_2', undefined]);
  });

  it('sends the next question on in the thread shown: the URL’s, or the one the shown answer just started', () => {
    const started = withEvent(newTurn('q', { newThread: true }), {
      type: 'done',
      result: { ...RESULT, threadId: 'thr_1' },
    });
    expect(nextQuestionThread(undefined, started)).toEqual({ threadId: 'thr_1' });
    expect(nextQuestionThread('thr_2', started)).toEqual({ threadId: 'thr_2' });
    // Still being written: its thread is not known yet, so a question now starts its own.
    expect(nextQuestionThread(undefined, newTurn('q', { newThread: true }))).toEqual({ newThread: true });
    expect(nextQuestionThread(undefined, undefined)).toEqual({ newThread: true });
  });

  it('shows a recorded turn of a thread as a done answer with its citations as places', () => {
    const turn = recordedTurn('thr_1', {
      answerId: 'ans_7',
      question: 'and for the Russian office?',
      standaloneQuestion: 'How do I deploy in the Russian office?',
      mode: 'EXTRACTIVE',
      answer: RESULT.answer,
      citations: RESULT.citations,
    });
    expect(turn).toMatchObject({
      phase: 'done',
      recorded: true,
      threadId: 'thr_1',
      standaloneQuestion: 'How do I deploy in the Russian office?',
      text: RESULT.answer,
    });
    expect(turn.result).toMatchObject({ answerId: 'ans_7', insufficientContext: false });
    expect(citedPlaces(turn).get(1)).toMatchObject({ title: 'Deploy runbook', chunks: [] });
  });

  it('ends stopped when the asker stopped it, failed with the error otherwise', () => {
    const error = new Error('the model did not answer');
    const stopped = withFailure(newTurn('q'), error, true);
    expect(stopped.phase).toBe('stopped');
    expect(stopped.error).toBeUndefined();
    expect(withFailure(newTurn('q'), error, false)).toMatchObject({ phase: 'failed', error });
  });
});

describe('places of a turn', () => {
  it('maps every passage’s marker to the marker of its place', () => {
    const placeOf = placeMarkerOf(PASSAGES);
    expect([1, 2, 3, 4].map(placeOf)).toEqual([1, 1, 3, undefined]);
  });

  it('gathers the chunks of one place, and adds the quote once the answer is verified', () => {
    const streaming = withEvent(newTurn('q'), { type: 'retrieval', passages: PASSAGES });
    const before = citedPlaces(streaming);
    expect([...before.keys()]).toEqual([1, 3]);
    expect(before.get(1)!.chunks.map((c) => c.chunkId)).toEqual(['chk_1', 'chk_2']);
    expect(before.get(1)!.quote).toBeUndefined();
    const after = citedPlaces(withEvent(streaming, { type: 'done', result: RESULT }));
    expect(after.get(1)).toMatchObject({
      marker: 1,
      title: 'Deploy runbook',
      citationUrl: 'https://example.com/runbook#place-1',
      quote: RESULT.citations[0].quote,
    });
    expect(after.get(1)!.chunks).toHaveLength(2);
  });

  it('names a place of several sections (a whole file) by the headings they share', () => {
    const releasing = { ...passage(4, 1, 'Tag the commit.'), headingPath: ['Deploy runbook', 'Releasing'] };
    const places = citedPlaces(
      withEvent(newTurn('q'), { type: 'retrieval', passages: [...PASSAGES, releasing] }),
    );
    expect(places.get(1)!.headingPath).toEqual(['Deploy runbook']);
    expect(places.get(1)!.chunks.map((c) => c.headingPath.at(-1))).toEqual([
      'Rolling back',
      'Rolling back',
      'Releasing',
    ]);
    expect(places.get(3)!.headingPath).toEqual(['Deploy runbook', 'Rolling back']);
  });
});
