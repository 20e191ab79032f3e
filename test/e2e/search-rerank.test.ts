import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TroveStack } from '../support/stack';

// The api with the learned reranker turned on (out of the box search is fusion alone: rag-config.test.ts
// checks that default; docs/reranking.md says why).
let stack: TroveStack;
let projectId: string;

const SEARCH = `query($input: SearchInput!) {
  search(input: $input) {
    reranked reranker warnings timings { retrievalMs rerankMs }
    hits {
      chunkId score rerankScore
      explain { bm25 { rank score } knn { rank score } fusedScore rerankScore topFeatures { name contribution } }
    }
  }
}`;

interface Result {
  search: {
    reranked: boolean;
    reranker: string | null;
    warnings: string[];
    timings: { retrievalMs: number; rerankMs: number | null };
    hits: {
      chunkId: string;
      score: number;
      rerankScore: number | null;
      explain: {
        bm25: { rank: number; score: number } | null;
        knn: { rank: number; score: number } | null;
        fusedScore: number;
        rerankScore: number | null;
        topFeatures: { name: string; contribution: number }[] | null;
      } | null;
    }[];
  };
}

beforeAll(async () => {
  stack = new TroveStack({ TROVE_RERANK_PROVIDER: 'learned' });
  await stack.start();
  projectId = await stack.createProject('Rerank e2e');
  const upload = await stack.upload(
    projectId,
    'ops.md',
    '# Ops\n\n## Rollback\n\nTo roll back a release run `deployctl rollback` and confirm.\n\n## Coffee\n\nThe coffee machine is cleaned on Fridays.\n\n## Releases\n\nA release is tagged by CI and deployed with deployctl.\n',
  );
  await stack.settled(upload.body.id as string);
});
afterAll(async () => {
  await stack?.stop();
});

describe('search with the learned reranker configured', () => {
  it('reranks when configured, unasked, and explains each hit: legs, fused score, rerank score, top features', async () => {
    const { search } = await stack.query<Result>(SEARCH, {
      input: { projectId, query: 'how to roll back a release', explain: true },
    });
    expect(search).toMatchObject({
      reranked: true,
      reranker: expect.stringMatching(/^learned:/),
      warnings: [],
    });
    expect(search.timings.rerankMs).toBeGreaterThanOrEqual(0);
    expect(search.hits.length).toBeGreaterThan(0);
    const scores = search.hits.map((h) => h.rerankScore!);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const hit of search.hits) {
      expect(hit.explain).toMatchObject({ fusedScore: hit.score, rerankScore: hit.rerankScore });
      expect(hit.explain!.bm25 ?? hit.explain!.knn).not.toBeNull();
      expect(hit.explain!.topFeatures).toHaveLength(3);
    }
  });

  it('leaves the fused order alone when the request says rerank: false, and explains only on request', async () => {
    const { search } = await stack.query<Result>(SEARCH, {
      input: { projectId, query: 'how to roll back a release', rerank: false, explain: true },
    });
    expect(search.reranked).toBe(false);
    expect(search.timings.rerankMs).toBeNull();
    const fused = search.hits.map((h) => h.score);
    expect(fused).toEqual([...fused].sort((a, b) => b - a));
    expect(search.hits.every((h) => h.rerankScore === null && h.explain?.rerankScore === null)).toBe(true);
    const plain = await stack.query<Result>(SEARCH, { input: { projectId, query: 'rollback' } });
    expect(plain.search.hits.every((h) => h.explain === null)).toBe(true);
  });

  it('refuses rerankCandidates outside 1–100 with BAD_REQUEST', async () => {
    const body = await stack.gql(SEARCH, { input: { projectId, query: 'rollback', rerankCandidates: 0 } });
    expect(body.errors?.[0]).toMatchObject({
      message: 'rerankCandidates must be an integer between 1 and 100',
      extensions: { code: 'BAD_REQUEST' },
    });
  });
});
