import { describe, expect, it } from 'vitest';
import { COLOURS, PLAIN } from './output';
import {
  breadcrumb,
  flattenSettings,
  formatBytes,
  formatSetting,
  oneLine,
  renderCitations,
  renderSearchResult,
  renderRunMotion,
  renderSyncSummary,
  formatEta,
  renderTable,
  type SearchResultView,
  type SyncRunView,
} from './render';

const hit = (over: Partial<SearchResultView['hits'][number]> = {}): SearchResultView['hits'][number] => ({
  chunkId: 'c2',
  explain: null,
  documentId: 'd1',
  title: 'Deploy runbook',
  fileName: 'runbooks/deploy.md',
  sourceId: 'src_1',
  sourceName: 'Engineering wiki',
  sourceType: 'GIT',
  headingPath: ['Deploy runbook', 'Rolling back'],
  chapter: null,
  page: null,
  pageEnd: null,
  anchor: 'rolling-back',
  ocr: null,
  ocrConfidence: null,
  position: 2,
  text: 'Run   `deploy rollback`\nwithin ten minutes.',
  citationUrl: 'http://api/v1/documents/d1/original?sig=x#rolling-back',
  score: 0.0312,
  rerankScore: 0.91,
  bm25: { rank: 1, score: 7.1 },
  knn: { rank: 2, score: 0.88 },
  context: null,
  ...over,
});

describe('renderTable', () => {
  it('pads columns by what shows on screen, colour codes aside', () => {
    const lines = renderTable(
      ['ID', 'STATUS', 'NAME'],
      [
        ['a1', COLOURS.green('READY'), 'x.md'],
        ['b', 'FAILED', 'yy.md'],
      ],
      PLAIN,
    );
    expect(lines[0]).toBe('ID  STATUS  NAME');
    expect(lines[1]).toBe(`a1  ${COLOURS.green('READY')}   x.md`);
    expect(lines[2]).toBe('b   FAILED  yy.md');
  });
});

describe('renderSearchResult', () => {
  const result: SearchResultView = {
    tookMs: 12,
    reranked: true,
    reranker: 'learned',
    warnings: [],
    hits: [hit()],
  };

  it('numbers hits by rank with source, document and heading path (no score), one-line snippet, link, file and chunk', () => {
    const lines = renderSearchResult(result, PLAIN);
    expect(lines[0]).toBe('1. Engineering wiki › Deploy runbook › Rolling back');
    expect(lines[1]).toBe('   Run `deploy rollback` within ten minutes.');
    expect(lines[2]).toBe('   http://api/v1/documents/d1/original?sig=x#rolling-back');
    expect(lines[3]).toBe('   runbooks/deploy.md · chunk c2');
    expect(lines.at(-1)).toBe('1 hit in 12 ms, reranked (learned)');
  });

  it('names an uploaded file’s hit as from Uploads', () => {
    const upload = hit({ sourceId: null, sourceName: null, sourceType: null, fileName: 'deploy.md' });
    expect(renderSearchResult({ ...result, hits: [upload] }, PLAIN)[0]).toBe(
      '1. Uploads › Deploy runbook › Rolling back',
    );
  });

  it('shows the passage around a hit in reading order when expanded, the hit marked', () => {
    const context = [
      { chunkId: 'c3', position: 3, headingPath: [], text: 'after', citationUrl: null },
      { chunkId: 'c1', position: 1, headingPath: [], text: 'before', citationUrl: null },
    ];
    const lines = renderSearchResult({ ...result, hits: [hit({ context })] }, PLAIN);
    expect(lines.slice(1, 4)).toEqual([
      '     before',
      '   > Run `deploy rollback` within ten minutes.',
      '     after',
    ]);
  });

  it('says when a hit was read by OCR, with its confidence', () => {
    const lines = renderSearchResult({ ...result, hits: [hit({ ocr: true, ocrConfidence: 88.6 })] }, PLAIN);
    expect(lines[3]).toBe('   runbooks/deploy.md · chunk c2, OCR 89% confidence');
  });

  it('says when nothing matched', () => {
    expect(renderSearchResult({ ...result, hits: [] }, PLAIN)).toEqual(['No hits.']);
  });
});

describe('renderCitations', () => {
  it('lists numbered sources with links, and labels a quoted answer', () => {
    const lines = renderCitations(
      {
        mode: 'EXTRACTIVE',
        insufficientContext: false,
        citations: [
          {
            marker: 1,
            chunkId: 'c',
            documentId: 'd',
            title: 'Runbook',
            headingPath: ['Runbook', 'Rollback'],
            citationUrl: 'http://x#rollback',
            quote: 'q',
          },
          {
            marker: 2,
            chunkId: 'e',
            documentId: 'f',
            title: 'Basics',
            headingPath: [],
            citationUrl: null,
            quote: 'q',
          },
        ],
      },
      PLAIN,
    );
    expect(lines).toEqual([
      '(EXTRACTIVE: quoted from the sources; no language model wrote this)',
      '',
      'Sources',
      '  [1] Runbook › Rollback',
      '      http://x#rollback',
      '  [2] Basics',
    ]);
  });

  it('says so when the documents do not answer', () => {
    const lines = renderCitations(
      { mode: 'INSUFFICIENT_CONTEXT', insufficientContext: true, citations: [] },
      PLAIN,
    );
    expect(lines).toEqual(['The indexed documents do not answer this well enough (insufficient context).']);
  });
});

describe('renderSyncSummary', () => {
  it('gives the final counts and the error', () => {
    const run = {
      id: 'r1',
      status: 'FAILED',
      error: { code: 'SOURCE_UNAUTHORIZED', message: 'the token was revoked' },
      progress: {
        pagesSeen: 5,
        pagesIngested: 3,
        pagesUnchanged: 1,
        pagesSkipped: 0,
        pagesFailed: 1,
        pagesDeleted: 0,
      },
    } as SyncRunView;
    expect(renderSyncSummary(run, PLAIN)).toBe(
      'Sync r1 FAILED: 5 seen, 3 ingested, 1 unchanged, 0 skipped, 1 failed, 0 deleted — the token was revoked (SOURCE_UNAUTHORIZED)',
    );
  });
});

describe('renderRunMotion', () => {
  const running = {
    status: 'RUNNING',
    stage: 'INGESTING',
    pagesPerSecond: 12.345,
    etaSeconds: 200,
    health: { state: 'OK', reason: null, message: null, since: null },
  } as const;

  it("gives a running sync's stage, rate and ETA", () => {
    expect(renderRunMotion(running, PLAIN)).toBe('ingesting, 12.3 pages/s, ETA 3m 20s');
    expect(
      renderRunMotion({ ...running, stage: 'PLANNING', pagesPerSecond: null, etaSeconds: null }, PLAIN),
    ).toBe('planning');
  });

  it('says STALLED with the reason Temporal gives', () => {
    const stalled = {
      ...running,
      health: {
        state: 'STALLED',
        reason: 'ACTIVITY_RETRYING',
        message: 'embedBatch: connect ECONNREFUSED',
        since: null,
      },
    } as const;
    expect(renderRunMotion(stalled, PLAIN)).toBe(
      'STALLED (ACTIVITY_RETRYING: embedBatch: connect ECONNREFUSED)',
    );
  });

  it('is empty once the run ended', () => {
    expect(renderRunMotion({ ...running, status: 'COMPLETED' }, PLAIN)).toBe('');
  });

  it('rounds an ETA as coarsely as an ETA deserves', () => {
    expect([formatEta(45.4), formatEta(60), formatEta(7500), formatEta(-3)]).toEqual([
      '45s',
      '1m 0s',
      '2h 5m',
      '0s',
    ]);
  });
});

describe('flattenSettings', () => {
  it('flattens sections to section.key and shows secrets masked only', () => {
    const entries = flattenSettings({
      answers: { topK: 8, threshold: 0.84 },
      llm: { provider: null, apiKey: { set: true, masked: 'sk-…abcd' } },
      rerank: { apiKey: { set: false, masked: null } },
      warnings: [],
    });
    expect(entries).toEqual([
      ['answers.topK', 8],
      ['answers.threshold', 0.84],
      ['llm.provider', null],
      ['llm.apiKey', 'sk-…abcd'],
      ['rerank.apiKey', null],
      ['warnings', []],
    ]);
    expect(entries.map(([, value]) => formatSetting(value))).toEqual([
      '8',
      '0.84',
      '(unset)',
      'sk-…abcd',
      '(unset)',
      '(none)',
    ]);
  });
});

describe('small formats', () => {
  it('bytes, one-line snippets and breadcrumbs', () => {
    expect(formatBytes(900)).toBe('900 B');
    expect(formatBytes(2048)).toBe('2.0 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
    expect(oneLine('a\n\n b   c', 20)).toBe('a b c');
    expect(oneLine('abcdefghij', 5)).toBe('abcd…');
    expect(breadcrumb('Guide', ['Guide', 'Install', ''])).toBe('Guide › Install');
  });
});
