import { describe, expect, it } from 'vitest';
import type { SearchHitView } from './output-schemas';
import { excerpt, location, renderAsk, renderThreads, renderSearch, renderSyncRun } from './render';

const hit = (rank: number, overrides: Partial<SearchHitView> = {}): SearchHitView => ({
  rank,
  chunkId: `c${rank}`,
  documentId: 'd1',
  position: rank,
  title: 'Deploy runbook',
  fileName: 'runbooks/deploy.md',
  sourceId: 'src_1',
  sourceName: 'Engineering wiki',
  sourceType: 'GIT',
  headingPath: ['Deploy runbook', 'Rolling back'],
  page: null,
  citationUrl: `http://127.0.0.1:4000/v1/documents/d1/original?sig=abc#rolling-back`,
  text: 'If error rates climb after a release, roll back first and investigate later.',
  score: 0.0325,
  rerankScore: null,
  bm25: { rank: 1, score: 7.1 },
  knn: null,
  resourceUri: 'trove://projects/p1/documents/d1',
  ocr: null,
  ocrConfidence: null,
  context: [],
  ...overrides,
});

describe('renderers', () => {
  it('excerpt flattens whitespace and cuts at a word near the limit', () => {
    expect(excerpt('a  b\n\nc')).toBe('a b c');
    const long = 'word '.repeat(100);
    const cut = excerpt(long, 50);
    expect(cut.length).toBeLessThanOrEqual(51);
    expect(cut.endsWith('word…')).toBe(true);
  });

  it('location joins the title and the heading path without repeating the title', () => {
    expect(location('Deploy runbook', ['Deploy runbook', 'Rolling back'])).toBe(
      'Deploy runbook › Rolling back',
    );
    expect(location('Notes', [])).toBe('Notes');
  });

  it('renders search hits numbered, with source › title › heading path, citation URL and an excerpt', () => {
    const text = renderSearch({
      projectId: 'p1',
      query: 'roll back',
      mode: 'HYBRID',
      reranked: true,
      warnings: ['reranker timed out'],
      hits: [
        hit(1),
        hit(2, {
          citationUrl: null,
          sourceId: null,
          sourceName: null,
          sourceType: null,
          context: [{ chunkId: 'c3', position: 3, headingPath: [], citationUrl: null, text: 'x' }],
        }),
      ],
    });
    expect(text).toBe(
      [
        '2 hits for "roll back" (HYBRID):',
        '',
        '1. Engineering wiki › Deploy runbook › Rolling back',
        '   http://127.0.0.1:4000/v1/documents/d1/original?sig=abc#rolling-back',
        '   chunk c1 · document d1 · score 0.0325',
        '   If error rates climb after a release, roll back first and investigate later.',
        '',
        '2. Uploads › Deploy runbook › Rolling back',
        '   (no citation link)',
        '   chunk c2 · document d1 · score 0.0325',
        '   If error rates climb after a release, roll back first and investigate later.',
        '   (+1 neighbouring chunks in structuredContent)',
        '',
        'warning: reranker timed out',
      ].join('\n'),
    );
    expect(
      renderSearch({
        projectId: 'p1',
        query: 'zzz',
        mode: 'KEYWORD',
        reranked: false,
        warnings: [],
        hits: [],
      }),
    ).toBe('No hits for "zzz" (KEYWORD).');
  });

  it('renders an answer with its numbered citations', () => {
    const text = renderAsk({
      projectId: 'p1',
      question: 'How do I roll back?',
      answerId: 'ans_1',
      threadId: null,
      standaloneQuestion: null,
      answer: 'Roll back first [1].',
      mode: 'EXTRACTIVE',
      insufficientContext: false,
      language: 'en',
      model: null,
      citations: [
        {
          marker: 1,
          chunkId: 'c1',
          documentId: 'd1',
          title: 'Deploy runbook',
          headingPath: ['Rolling back'],
          citationUrl: 'http://x/original?sig=1',
          quote: 'roll back first',
          page: null,
          ocr: null,
          ocrConfidence: null,
        },
      ],
      verification: {
        validMarkers: [1],
        invalidMarkers: [],
        missingMarkers: false,
        retried: false,
        checkedSentences: 1,
      },
    });
    expect(text).toBe(
      'Roll back first [1].\n\nCitations:\n[1] Deploy runbook › Rolling back — http://x/original?sig=1\n\nmode EXTRACTIVE',
    );
  });

  it('renders a follow-up with what was searched for and its thread, and a thread with its turns', () => {
    const text = renderAsk({
      projectId: 'p1',
      question: 'and for the Russian office?',
      answerId: 'ans_2',
      threadId: 'thr_1',
      standaloneQuestion: 'How do I deploy in the Russian office?',
      answer: 'Run deployctl --region ru [1].',
      mode: 'EXTRACTIVE',
      insufficientContext: false,
      language: 'en',
      model: null,
      citations: [],
      verification: {
        validMarkers: [1],
        invalidMarkers: [],
        missingMarkers: false,
        retried: false,
        checkedSentences: 1,
      },
    });
    expect(text.split('\n')[0]).toBe('Searched for: How do I deploy in the Russian office?');
    expect(text).toMatch(/thread thr_1 \(pass it as `thread` to ask a follow-up\)$/);
    const threads = renderThreads({
      projectId: 'p1',
      threads: [{ id: 'thr_1', title: 'Deploys', turnCount: 2, createdAt: 't0', updatedAt: 't1' }],
      thread: {
        id: 'thr_1',
        title: 'Deploys',
        turnCount: 2,
        createdAt: 't0',
        updatedAt: 't1',
        turns: [
          {
            position: 2,
            question: 'and for the Russian office?',
            standaloneQuestion: 'How do I deploy in the Russian office?',
            answer: 'Run it [1].',
            mode: 'EXTRACTIVE',
            citations: [{ marker: 1, title: 'Moscow', headingPath: ['Deploy'], citationUrl: null }],
          },
        ],
      },
    });
    expect(threads).toContain(
      '2. and for the Russian office?\n   searched for: How do I deploy in the Russian office?',
    );
    expect(threads).toContain('[1] Moscow › Deploy');
    expect(threads).toContain('- Deploys (thr_1): 2 turns, last t1');
  });

  it('renders a running sync run with a hint to poll again', () => {
    const text = renderSyncRun({
      runId: 'r1',
      sourceId: 's1',
      mode: 'FULL',
      status: 'RUNNING',
      finished: false,
      startedAt: 'now',
      finishedAt: null,
      progress: {
        pagesSeen: 4,
        pagesIngested: 2,
        pagesUnchanged: 0,
        pagesSkipped: 1,
        pagesFailed: 0,
        pagesDeleted: 0,
        chunksEmbedded: 9,
        chunksReused: 0,
        apiCalls: 12,
      },
      error: null,
      warnings: [],
      skipped: [{ id: 'x', reason: 'not shared' }],
      skippedCount: 1,
      stage: 'INGESTING',
      pagesPerSecond: 2.04,
      etaSeconds: 41,
      health: { state: 'STALLED', reason: 'NO_WORKER', message: 'no worker is polling task queue trove' },
    });
    expect(text).toContain('Run r1 (FULL) of source s1: RUNNING');
    expect(text).toContain('now: ingesting, 2 pages/s, about 41 s to go');
    expect(text).toContain(
      'STALLED: no progress for a while (NO_WORKER: no worker is polling task queue trove)',
    );
    expect(text).toContain('pages: 4 seen, 2 ingested');
    expect(text).toContain('skipped x: not shared');
    expect(text).toContain('call get_sync_run again');
  });
});
