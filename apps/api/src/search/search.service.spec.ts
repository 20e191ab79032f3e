import { describe, expect, it } from 'vitest';
import type { DocumentOrigin } from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import {
  FusionMethod,
  type Project,
  ScoreNormalization,
  type SearchHit,
  SearchMode,
  TroveErrorCode,
} from '@trove/domain';
import type { RerankReport, SearchCallOptions, SearchOutcome, SearchRequest } from '@trove/search';
import type { SearchInput } from './search.model';
import { SearchService } from './search.service';

/** Where the fake catalog's documents come from: B is an upload, C has left the catalog. */
const ORIGINS: DocumentOrigin[] = [
  {
    documentId: 'A',
    fileName: 'ops/rollback.md',
    source: { id: 'src_1', name: 'Engineering wiki', type: 'GIT' },
  },
  { documentId: 'B', fileName: 'notes.md' },
];

function service(answer: SearchHit[] = [], rerank: RerankReport = { reranked: false }) {
  const calls: [SearchRequest, SearchCallOptions][] = [];
  const originReads: [string, string[]][] = [];
  const hybrid = {
    searchWithReport: (request: SearchRequest, options: SearchCallOptions): Promise<SearchOutcome> => {
      calls.push([request, options]);
      return Promise.resolve({ hits: answer, rerank, timings: { retrievalMs: 3 } });
    },
  };
  const catalog = {
    requireProject: async (id: string): Promise<Project> => ({
      id,
      name: 'p',
      createdAt: '2026-11-26T00:00:00Z',
    }),
    searchScope: (): Promise<string[]> =>
      Promise.reject(new Error('no source or date filter in these tests')),
    documentOrigins: (projectId: string, documentIds: string[]): Promise<DocumentOrigin[]> => {
      originReads.push([projectId, documentIds]);
      return Promise.resolve(ORIGINS.filter((o) => documentIds.includes(o.documentId)));
    },
  };
  const links = {
    render: (citation?: { page?: number }) => citation && `link#${citation.page}`,
  };
  const config = { search: { maxFilterDocuments: 10 } } as ApiConfig;
  return { service: new SearchService(hybrid, catalog, catalog, catalog, links, config), calls, originReads };
}

const input: SearchInput = {
  projectId: 'p1',
  query: 'rollback',
  limit: 5,
  mode: SearchMode.HYBRID,
  groupByDocument: false,
  expand: 0,
};

describe('SearchService fusion', () => {
  it('passes SearchInput.fusion to HybridSearch as a per-request override, in its terms', async () => {
    const { service: search, calls } = service();
    await search.search({
      ...input,
      fusion: { method: FusionMethod.CONVEX, vectorWeight: 0.3, normalization: ScoreNormalization.ZSCORE },
    });
    await search.search({ ...input, fusion: { method: FusionMethod.RRF, k: 20 } });
    expect(calls.map(([, options]) => options.fusion)).toEqual([
      { method: 'convex', k: undefined, vectorWeight: 0.3, normalization: 'zscore' },
      { method: 'rrf', k: 20, vectorWeight: undefined, normalization: undefined },
    ]);
    expect(calls[0][0]).toMatchObject({
      projectId: 'p1',
      query: 'rollback',
      limit: 5,
      mode: SearchMode.HYBRID,
    });
  });

  it('leaves the configured fusion alone when the input names none', async () => {
    const { service: search, calls } = service();
    await search.search(input);
    expect(calls[0][1].fusion).toBeUndefined();
  });
});

const hit = (chunkId: string, documentId: string, position: number, score: number): SearchHit => ({
  chunkId,
  documentId,
  projectId: 'p1',
  title: documentId,
  headingPath: [],
  text: `text ${chunkId}`,
  position,
  score,
  citation: { kind: 'original', documentId, page: position + 1 },
});

describe('SearchService results', () => {
  it('passes threshold, MMR, cap and expansion to HybridSearch, nulls as unset', async () => {
    const { service: search, calls } = service();
    await search.search({
      ...input,
      minScore: 0.02,
      mmr: true,
      mmrLambda: 0.5,
      maxPerDocument: 2,
      expand: 1,
    });
    await search.search({ ...input, mmr: null, mmrLambda: null } as unknown as SearchInput);
    expect(calls[0][0].results).toEqual({
      minScore: 0.02,
      mmr: true,
      mmrLambda: 0.5,
      maxPerDocument: 2,
      expand: 1,
    });
    expect(calls[1][0].results).toEqual({ expand: 0 });
    expect(calls[1][0].filters).toBeUndefined();
  });

  it('groups hits by document only when asked, rendering links of hits, context and passages', async () => {
    const hits = [hit('a2', 'A', 2, 0.9), hit('b0', 'B', 0, 0.8), hit('a3', 'A', 3, 0.7)];
    hits[2].context = [{ ...hit('a4', 'A', 4, 0) }];
    const plain = await service(hits).service.search(input);
    expect(plain.groups).toBeUndefined();
    expect(plain.hits[2].context?.[0].citationUrl).toBe('link#5');
    const grouped = await service(hits).service.search({ ...input, groupByDocument: true });
    expect(grouped.groups?.map((g) => [g.documentId, g.passages.map((p) => p.chunkIds)])).toEqual([
      ['A', [['a2', 'a3', 'a4']]],
      ['B', [['b0']]],
    ]);
    expect(grouped.groups?.[0].passages[0].citationUrl).toBe('link#3');
  });
});

describe('SearchService hit origins', () => {
  it('names each hit’s file and source from one catalog read of the distinct documents of the project', async () => {
    const hits = [
      hit('a2', 'A', 2, 0.9),
      hit('b0', 'B', 0, 0.8),
      hit('a3', 'A', 3, 0.7),
      hit('c1', 'C', 1, 0.6),
    ];
    const { service: search, originReads } = service(hits);
    const result = await search.search({ ...input, groupByDocument: true });
    expect(originReads).toEqual([['p1', ['A', 'B', 'C']]]);
    expect(
      result.hits.map(({ chunkId, fileName, sourceId, sourceName, sourceType }) => ({
        chunkId,
        fileName,
        sourceId,
        sourceName,
        sourceType,
      })),
    ).toEqual([
      {
        chunkId: 'a2',
        fileName: 'ops/rollback.md',
        sourceId: 'src_1',
        sourceName: 'Engineering wiki',
        sourceType: 'GIT',
      },
      {
        chunkId: 'b0',
        fileName: 'notes.md',
        sourceId: undefined,
        sourceName: undefined,
        sourceType: undefined,
      },
      {
        chunkId: 'a3',
        fileName: 'ops/rollback.md',
        sourceId: 'src_1',
        sourceName: 'Engineering wiki',
        sourceType: 'GIT',
      },
      {
        chunkId: 'c1',
        fileName: undefined,
        sourceId: undefined,
        sourceName: undefined,
        sourceType: undefined,
      },
    ]);
    expect(result.groups?.[0].hits[0].sourceName).toBe('Engineering wiki');
  });

  it('reads nothing from the catalog for a search without hits', async () => {
    const { service: search, originReads } = service([]);
    expect((await search.search(input)).hits).toEqual([]);
    expect(originReads).toEqual([]);
  });
});

describe('SearchService reranking', () => {
  it('passes rerank, rerankCandidates and explain through and reports a failed rerank as a warning', async () => {
    const { service: search, calls } = service([], {
      reranker: 'learned:v1',
      reranked: false,
      warning: 'reranker learned:v1 failed',
    });
    const result = await search.search({ ...input, rerank: true, rerankCandidates: 12, explain: true });
    expect(calls[0][0]).not.toHaveProperty('rerank');
    expect(calls[0][0]).not.toHaveProperty('explain');
    expect(calls[0][1]).toMatchObject({ rerank: true, rerankCandidates: 12, explain: true });
    expect(result).toMatchObject({
      reranked: false,
      reranker: 'learned:v1',
      warnings: ['reranker learned:v1 failed'],
      timings: { retrievalMs: 3 },
    });
  });
});

describe('SearchService query text', () => {
  it('refuses a query with a lone surrogate with BAD_REQUEST naming where it is, without searching', async () => {
    const { service: search, calls } = service();
    await expect(search.search({ ...input, query: 'roll\uD800back' })).rejects.toMatchObject({
      code: TroveErrorCode.BadRequest,
      message:
        'the search query is not valid Unicode: a lone surrogate (U+D800) at character 5; send well-formed UTF-16/UTF-8 text',
    });
    expect(calls).toHaveLength(0);
  });
});
