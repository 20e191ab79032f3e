import { describe, expect, it } from 'vitest';
import { knnSearch, neighboursSearch, scoreCompletionSearches } from './chunk-queries';

const scope = { index: 't-chunks', projectId: 'p1', filters: { hasCode: false } };

describe('chunk queries', () => {
  it('completion: BM25 first, then cosine, each only when it has ids (HybridSearch reads the answers in that order)', () => {
    const request = {
      query: 'rollback',
      fieldBoosts: { title: 2, heading: 1.5 },
      vector: [0.1],
      oversample: 3,
    };
    const both = scoreCompletionSearches(scope, { ...request, bm25Ids: ['a'], cosineIds: ['b', 'c'] });
    expect(both).toHaveLength(4);
    expect(both[1]).toMatchObject({
      size: 1,
      query: { bool: { filter: expect.arrayContaining([{ ids: { values: ['a'] } }]) } },
    });
    expect(both[3]).toMatchObject({
      size: 2,
      knn: { k: 2, num_candidates: 2, rescore_vector: { oversample: 1 } },
    });
    const cosineOnly = scoreCompletionSearches(scope, {
      ...request,
      oversample: 0,
      bm25Ids: [],
      cosineIds: ['b'],
    });
    expect(cosineOnly).toEqual([
      { index: 't-chunks' },
      expect.objectContaining({ knn: expect.not.objectContaining({ rescore_vector: expect.anything() }) }),
    ]);
    expect(scoreCompletionSearches(scope, { ...request, bm25Ids: [], cosineIds: [] })).toEqual([]);
  });

  it('kNN leg: examines at least k candidates, pre-filters by project and filters, rescores only when oversampling', () => {
    const search = knnSearch(scope, [0.1], { k: 80, numCandidates: 50, oversample: 0 });
    expect(search).toMatchObject({
      index: 't-chunks',
      size: 80,
      knn: {
        k: 80,
        num_candidates: 80,
        filter: [{ term: { projectId: 'p1' } }, { term: { hasCode: false } }],
      },
      _source: { excludes: ['embedding'] },
    });
    expect(search.knn).not.toHaveProperty('rescore_vector');
    expect(knnSearch(scope, [0.1], { k: 5, numCandidates: 50, oversample: 3 }).knn).toMatchObject({
      num_candidates: 50,
      rescore_vector: { oversample: 3 },
    });
  });

  it('neighbours: nothing to ask for without a radius', () => {
    expect(neighboursSearch('t-chunks', 'p1', [{ documentId: 'd', position: 2 }], 0)).toBeUndefined();
    expect(neighboursSearch('t-chunks', 'p1', [{ documentId: 'd', position: 2 }], 1)).toMatchObject({
      size: 2,
    });
  });
});
