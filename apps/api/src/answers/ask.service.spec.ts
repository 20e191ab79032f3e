import { describe, expect, it } from 'vitest';
import {
  type AnswerEvent,
  AnswerMode,
  type AnswerPassage,
  type AnswerResult,
  type AskRequest,
} from '@trove/answering';
import type { NewAnswer } from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import { ApiKeyRole, AskMode, type Principal, TroveError, TroveErrorCode } from '@trove/domain';
import { AskService } from './ask.service';
import type { QuestionThread } from './threads.service';

const VIEWER: Principal = { keyId: 'key-1', name: 'viewer', role: ApiKeyRole.VIEWER, projects: 'ALL' };
const STANDALONE = 'How do I deploy in the Russian office?';

const passage = (marker: number, documentId: string): AnswerPassage => ({
  marker,
  placeMarker: marker,
  chunkId: `${documentId}-0-0123456789ab`,
  documentId,
  title: documentId,
  headingPath: [],
  text: 'Deploy the Russian office with shipit --region ru.',
  citationUrl: `https://trove.example/v1/documents/${documentId}/original?sig=abc#deploy`,
  relevance: 0.9,
  score: 0.03 / marker,
  truncated: false,
  hit: {
    chunkId: `${documentId}-0-0123456789ab`,
    documentId,
    projectId: 'prj_1',
    title: documentId,
    headingPath: [],
    text: 'Deploy the Russian office with shipit --region ru.',
    position: 0,
    score: 0.03 / marker,
    bm25: { rank: marker, score: 10 / marker },
    ...(marker === 1 ? { knn: { rank: 1, score: 0.9 } } : {}),
    // As search attaches them when asked (`features`): the reranker's rows.
    features: { 'bm25.scoreRatio': 1 / marker, 'knn.missing': marker === 1 ? 0 : 1 },
  },
});

const RESULT: AnswerResult = {
  standaloneQuestion: STANDALONE,
  answer: 'Run shipit [1].',
  mode: AnswerMode.EXTRACTIVE,
  insufficientContext: false,
  language: 'en',
  citations: [
    {
      marker: 1,
      chunkId: 'moscow-0-0123456789ab',
      documentId: 'moscow',
      title: 'moscow',
      headingPath: [],
      citationUrl: 'https://trove.example/v1/documents/moscow/original?sig=abc#deploy',
      quote: 'Deploy the Russian office with shipit --region ru.',
    },
  ],
  verification: {
    validMarkers: [1],
    invalidMarkers: [],
    missingMarkers: false,
    retried: false,
    checkedSentences: 1,
    unsupportedSentences: [],
  },
  timings: { totalMs: 1 },
};

function setUp(thread: QuestionThread, record: (answer: NewAnswer) => Promise<string>) {
  const asked: AskRequest[] = [];
  const recorded: NewAnswer[] = [];
  const answerer = {
    ask: () => Promise.reject(new Error('the service streams')),
    async *stream(request: AskRequest): AsyncGenerator<AnswerEvent> {
      asked.push(request);
      yield {
        type: 'retrieval',
        passages: [passage(1, 'moscow'), passage(2, 'berlin')],
        standaloneQuestion: STANDALONE,
      };
      yield { type: 'done', result: RESULT };
    },
  };
  const catalog = {
    requireProject: () => Promise.resolve({ id: 'prj_1', name: 'p', createdAt: '2026-11-27T00:00:00Z' }),
    searchScope: () => Promise.reject(new Error('no filters here')),
    recordAnswer: (answer: NewAnswer) => {
      recorded.push(answer);
      return record(answer);
    },
  };
  const asks = new AskService(
    answerer,
    catalog,
    catalog,
    catalog,
    { search: { maxFilterDocuments: 10 } } as ApiConfig,
    { unsigned: (url) => url?.replace('https://trove.example', '').replace(/\?sig=[^#]*/, '') },
    { forQuestion: () => Promise.resolve(thread) },
  );
  return { asks, asked, recorded };
}

const input = { projectId: 'prj_1', question: 'and for the Russian office?', mode: AskMode.AUTO };

describe('AskService', () => {
  it("asks with the thread's turns, and records the answer as its next turn with the passages' features", async () => {
    const history = [{ question: 'How do I deploy in the Berlin office?', answer: 'Run shipit [1].' }];
    const { asks, asked, recorded } = setUp({ threadId: 'thr_1', history, record: { id: 'thr_1' } }, () =>
      Promise.resolve('ans_1'),
    );
    const outcome = await asks.ask({ ...input, threadId: 'thr_1' }, VIEWER);
    expect(asked[0].history).toEqual(history);
    expect(outcome).toMatchObject({ answerId: 'ans_1', threadId: 'thr_1', standaloneQuestion: STANDALONE });
    const [answer] = recorded;
    expect(answer).toMatchObject({
      projectId: 'prj_1',
      thread: { id: 'thr_1' },
      apiKeyId: 'key-1',
      question: 'and for the Russian office?',
      standaloneQuestion: STANDALONE,
      mode: 'EXTRACTIVE',
    });
    // Links to originals are kept unsigned.
    expect(answer.citations[0].citationUrl).toBe('/v1/documents/moscow/original#deploy');
    expect(answer.hits.map((h) => [h.documentId, h.rank])).toEqual([
      ['moscow', 1],
      ['berlin', 2],
    ]);
    // The features are search's own, kept as they are.
    expect(answer.hits.map((h) => h.features)).toEqual([
      { 'bm25.scoreRatio': 1, 'knn.missing': 0 },
      { 'bm25.scoreRatio': 0.5, 'knn.missing': 1 },
    ]);
  });

  it('asks outside a thread without turns, and fails the answer when it cannot be recorded', async () => {
    const { asks, asked } = setUp({}, () =>
      Promise.reject(
        new TroveError(TroveErrorCode.ServiceUnavailable, 'the catalog database is unavailable'),
      ),
    );
    await expect(asks.ask(input, VIEWER)).rejects.toMatchObject({ code: TroveErrorCode.ServiceUnavailable });
    expect(asked[0].history).toBeUndefined();
  });
});
