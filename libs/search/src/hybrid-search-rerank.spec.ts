import { describe, expect, it } from 'vitest';
import {
  type EmbeddingProvider,
  type RerankCandidate,
  type Reranker,
  type RerankResult,
  SearchMode,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { HybridSearch } from './hybrid-search';
import { FakeSearchClient, searchResponse } from './search-client.testing';

/** Elasticsearch answering the keyword leg with chunks c1…c5, best first. */
function keywordIndex(count = 5): FakeSearchClient {
  const hits = Array.from({ length: count }, (_, i) => ({
    _id: `c${i + 1}`,
    _score: 10 - i,
    _source: {
      chunkId: `c${i + 1}`,
      projectId: 'p1',
      documentId: `d${i + 1}`,
      position: 0,
      title: `Doc ${i + 1}`,
      headingPath: [],
      text: `text ${i + 1}`,
      language: 'en',
      tokenCount: 2,
    },
  }));
  return new FakeSearchClient({ search: async () => searchResponse(hits) });
}

const embedder = {} as EmbeddingProvider;
const request = { projectId: 'p1', query: 'text', limit: 5, mode: SearchMode.KEYWORD };

/** Scores candidates by a fixed function of their id; records what it was given. */
class ScriptedReranker implements Reranker {
  readonly id = 'scripted';
  given: RerankCandidate[][] = [];
  constructor(
    private readonly answer: (candidates: RerankCandidate[]) => RerankResult[] | Promise<RerankResult[]>,
  ) {}
  rerank(_query: string, candidates: RerankCandidate[]) {
    this.given.push(candidates);
    return Promise.resolve(this.answer(candidates));
  }
}

const reverse = (candidates: RerankCandidate[]) =>
  candidates
    .map((_, index) => ({ index, score: index, topFeatures: [{ name: 'f', contribution: index }] }))
    .reverse();

describe('HybridSearch rerank stage', () => {
  it('reorders the top candidates by the reranker and keeps the rest in fused order', async () => {
    const reranker = new ScriptedReranker(reverse);
    const search = new HybridSearch(keywordIndex(), 't', embedder, { reranker, rerankCandidates: 3 });
    const outcome = await search.searchWithReport(request);
    expect(outcome.hits.map((h) => h.chunkId)).toEqual(['c3', 'c2', 'c1', 'c4', 'c5']);
    expect(outcome.rerank).toMatchObject({ reranker: 'scripted', reranked: true });
    expect(outcome.timings.rerankMs).toBeGreaterThanOrEqual(0);
    expect(reranker.given[0].map((c) => [c.id, c.bm25?.rank, c.knn])).toEqual([
      ['c1', 1, undefined],
      ['c2', 2, undefined],
      ['c3', 3, undefined],
    ]);
    expect(outcome.hits[0].rerankScore).toBe(2);
    expect(outcome.hits[3].rerankScore).toBeUndefined();
    expect(outcome.hits[0].explain).toBeUndefined();
  });

  it('explains each hit: leg ranks, fused score, rerank score and top features', async () => {
    const search = new HybridSearch(keywordIndex(), 't', embedder, {
      reranker: new ScriptedReranker(reverse),
      rerankCandidates: 3,
    });
    const { hits } = await search.searchWithReport(request, { explain: true });
    expect(hits[0].explain).toEqual({
      bm25: { rank: 3, score: 8 },
      knn: undefined,
      fusedScore: hits[0].score,
      rerankScore: 2,
      topFeatures: [{ name: 'f', contribution: 2 }],
    });
    expect(hits[4].explain).toMatchObject({ bm25: { rank: 5, score: 6 }, rerankScore: undefined });
  });

  it('attaches, when asked, the features of the rerank candidates in fused order, whatever order is served', async () => {
    const seen: string[][] = [];
    const candidateFeatures = (_query: string, candidates: RerankCandidate[]) => {
      seen.push(candidates.map((c) => c.id));
      return candidates.map((c, i) => ({
        'fused.reciprocalRank': 1 / (i + 1),
        'chunk.logLength': c.tokenCount!,
      }));
    };
    const search = new HybridSearch(keywordIndex(), 't', embedder, {
      reranker: new ScriptedReranker(reverse),
      rerankCandidates: 3,
      candidateFeatures,
    });
    expect((await search.search(request)).every((h) => h.features === undefined)).toBe(true);
    expect(seen).toEqual([]);
    const hits = await search.search(request, { features: true });
    expect(seen).toEqual([['c1', 'c2', 'c3']]);
    // c3 is served first, with the features of the third fused candidate.
    expect(hits.map((h) => [h.chunkId, h.features?.['fused.reciprocalRank']])).toEqual([
      ['c3', 1 / 3],
      ['c2', 1 / 2],
      ['c1', 1],
      ['c4', undefined],
      ['c5', undefined],
    ]);
    // Not reranked: the configured number of fused candidates, as the learned reranker would see them.
    const unranked = await search.search(request, { features: true, rerank: false });
    expect(unranked.map((h) => h.features?.['fused.reciprocalRank'])).toEqual([
      1,
      1 / 2,
      1 / 3,
      undefined,
      undefined,
    ]);
  });

  it('puts candidates the reranker left out after the ones it ranked, in fused order', async () => {
    const search = new HybridSearch(keywordIndex(), 't', embedder, {
      reranker: new ScriptedReranker(() => [{ index: 3, score: 1 }]),
      rerankCandidates: 4,
    });
    const { hits } = await search.searchWithReport(request);
    expect(hits.map((h) => h.chunkId)).toEqual(['c4', 'c1', 'c2', 'c3', 'c5']);
  });

  it.each([
    [
      'fails with RERANK_FAILED',
      () => Promise.reject(new TroveError(TroveErrorCode.RerankFailed, 'server down')),
    ],
    ['names an unknown index', () => [{ index: 7, score: 1 }]],
    ['returns a NaN score', () => [{ index: 0, score: Number.NaN }]],
  ])('keeps the fused order and reports it when the reranker %s', async (_, answer) => {
    const search = new HybridSearch(keywordIndex(), 't', embedder, {
      reranker: new ScriptedReranker(answer as () => RerankResult[]),
    });
    const outcome = await search.searchWithReport(request, { explain: true });
    expect(outcome.hits.map((h) => h.chunkId)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    expect(outcome.rerank.reranked).toBe(false);
    expect(outcome.rerank.warning).toMatch(/^reranker scripted failed, fused order kept: /);
    expect(
      outcome.hits.every((h) => h.rerankScore === undefined && h.explain?.rerankScore === undefined),
    ).toBe(true);
  });

  it('turns the caller cancelling during the rerank into CANCELLED, not a fallback', async () => {
    const caller = new AbortController();
    const reranker = new ScriptedReranker(() => {
      caller.abort();
      return Promise.reject(new Error('aborted'));
    });
    const search = new HybridSearch(keywordIndex(), 't', embedder, { reranker });
    await expect(search.search(request, { signal: caller.signal })).rejects.toMatchObject({
      code: TroveErrorCode.Cancelled,
    });
  });

  it('follows the per-request switch, and refuses rerank: true without a reranker', async () => {
    const reranker = new ScriptedReranker(reverse);
    const withReranker = new HybridSearch(keywordIndex(), 't', embedder, { reranker });
    const off = await withReranker.searchWithReport(request, { rerank: false });
    expect(off.rerank.reranked).toBe(false);
    expect(reranker.given).toHaveLength(0);
    await withReranker.search(request, { rerankCandidates: 2 });
    expect(reranker.given[0]).toHaveLength(2);
    await expect(withReranker.search(request, { rerankCandidates: 0 })).rejects.toMatchObject({
      code: TroveErrorCode.BadRequest,
    });

    const without = new HybridSearch(keywordIndex(), 't', embedder);
    expect((await without.searchWithReport(request)).rerank).toEqual({
      reranker: undefined,
      reranked: false,
    });
    await expect(without.search(request, { rerank: true })).rejects.toMatchObject({
      code: TroveErrorCode.BadRequest,
      message: 'reranking was asked for but no reranker is configured (TROVE_RERANK_PROVIDER)',
    });
  });
});
