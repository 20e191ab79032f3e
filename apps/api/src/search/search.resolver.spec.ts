import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import type { Catalog } from '@trove/catalog';
import { SearchMode } from '@trove/domain';
import type { HybridSearch, SearchCallOptions, SearchOutcome, SearchRequest } from '@trove/search';
import type { CitationLinks } from '../core/citation-links';
import { FusionMethod, ScoreNormalization, type SearchInput } from './search.model';
import { SearchResolver } from './search.resolver';

function resolver() {
  const calls: [SearchRequest, SearchCallOptions][] = [];
  const hybrid = {
    searchWithReport: (request: SearchRequest, options: SearchCallOptions): Promise<SearchOutcome> => {
      calls.push([request, options]);
      return Promise.resolve({
        hits: [],
        rerank: { reranker: 'learned:v1', reranked: false, warning: 'reranker learned:v1 failed' },
        timings: { retrievalMs: 3 },
      });
    },
  } as unknown as HybridSearch;
  const catalog = { requireProject: () => Promise.resolve() } as unknown as Catalog;
  const links = { render: () => undefined } as unknown as CitationLinks;
  return { resolver: new SearchResolver(hybrid, catalog, links), calls };
}

const input: SearchInput = { projectId: 'p1', query: 'rollback', limit: 5, mode: SearchMode.HYBRID };

describe('SearchResolver fusion', () => {
  it('passes SearchInput.fusion to HybridSearch as a per-request override, in its terms', async () => {
    const { resolver: search, calls } = resolver();
    await search.search(
      {
        ...input,
        fusion: { method: FusionMethod.CONVEX, vectorWeight: 0.3, normalization: ScoreNormalization.ZSCORE },
      },
      {} as Request,
    );
    await search.search({ ...input, fusion: { method: FusionMethod.RRF, k: 20 } }, {} as Request);
    expect(calls.map(([, options]) => options.fusion)).toEqual([
      { method: 'convex', k: undefined, vectorWeight: 0.3, normalization: 'zscore' },
      { method: 'rrf', k: 20, vectorWeight: undefined, normalization: undefined },
    ]);
    expect(calls[0][0]).toEqual(input);
  });

  it('leaves the configured fusion alone when the input names none', async () => {
    const { resolver: search, calls } = resolver();
    await search.search(input, {} as Request);
    expect(calls[0][1].fusion).toBeUndefined();
  });
});

describe('SearchResolver reranking', () => {
  it('passes rerank, rerankCandidates and explain through and reports a failed rerank as a warning', async () => {
    const { resolver: search, calls } = resolver();
    const result = await search.search(
      { ...input, rerank: true, rerankCandidates: 12, explain: true },
      {} as Request,
    );
    expect(calls[0][0]).toEqual(input);
    expect(calls[0][1]).toMatchObject({ rerank: true, rerankCandidates: 12, explain: true });
    expect(result).toMatchObject({
      reranked: false,
      reranker: 'learned:v1',
      warnings: ['reranker learned:v1 failed'],
      timings: { retrievalMs: 3 },
    });
  });
});
