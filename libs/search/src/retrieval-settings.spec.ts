import { describe, expect, it } from 'vitest';
import { type EmbeddingProvider, SearchMode, TroveErrorCode } from '@trove/domain';
import { keywordQuery } from './chunk-queries';
import { HybridSearch } from './hybrid-search';
import { FakeSearchClient } from './search-client.testing';

/** Elasticsearch that records every search body and finds nothing. */
function recordingElasticsearch() {
  const client = new FakeSearchClient();
  return { client, bodies: client.searches };
}

const embedder: EmbeddingProvider = {
  dimensions: 2,
  modelId: 'fake',
  embed: async (texts) => texts.map(() => [1, 0]),
  ping: async () => undefined,
};
const request = { projectId: 'p1', query: 'rollback a release', limit: 5, mode: SearchMode.HYBRID };

describe('keywordQuery', () => {
  it.each([
    ['rollback a release', ['text.en', 'title.en^3', 'headingPath.en']],
    ['как откатить релиз', ['text.ru', 'title.ru^3', 'headingPath.ru']],
    ['如何回滚发布', ['text.cjk', 'title.cjk^3', 'headingPath.cjk']],
    ['404 500', ['text', 'title^3', 'headingPath']],
  ])('searches %j in the analysis of its language, title and heading path boosted', (query, fields) => {
    expect(keywordQuery(query, { title: 3, heading: 1 })).toEqual({ combined_fields: { query, fields } });
  });
});

describe('retrieval settings', () => {
  it('sends the configured candidates, num_candidates and boosts, and a request’s overrides', async () => {
    const es = recordingElasticsearch();
    const search = new HybridSearch(es.client, 't', embedder, {
      candidates: 40,
      numCandidates: 300,
      fieldBoosts: { title: 2, heading: 1.5 },
    });
    await search.search(request);
    const [keyword, vector] = [es.bodies.find((b) => 'query' in b)!, es.bodies.find((b) => 'knn' in b)!];
    expect(keyword.size).toBe(40);
    expect(JSON.stringify(keyword.query)).toContain('"title.en^2"');
    expect(vector).toMatchObject({ size: 40, knn: { k: 40, num_candidates: 300 } });

    es.bodies.length = 0;
    await search.search(request, {
      retrieval: { candidates: 100, numCandidates: 50, fieldBoosts: { title: 1, heading: 4 } },
    });
    const [k2, v2] = [es.bodies.find((b) => 'query' in b)!, es.bodies.find((b) => 'knn' in b)!];
    expect(k2.size).toBe(100);
    expect(JSON.stringify(k2.query)).toContain('"headingPath.en^4"');
    expect(JSON.stringify(k2.query)).toContain('"title.en"');
    // num_candidates is never below k.
    expect(v2).toMatchObject({ knn: { k: 100, num_candidates: 100 } });
  });

  it('rescores the kNN candidates with the float vectors unless oversample is 0', async () => {
    const es = recordingElasticsearch();
    const search = new HybridSearch(es.client, 't', embedder);
    await search.search(request);
    expect(es.bodies.find((b) => 'knn' in b)).toMatchObject({ knn: { rescore_vector: { oversample: 3 } } });

    es.bodies.length = 0;
    await search.search(request, { retrieval: { oversample: 0 } });
    expect(es.bodies.find((b) => 'knn' in b)!.knn).not.toHaveProperty('rescore_vector');
  });

  it.each([
    [{ candidates: 0 }, /candidates must be/],
    [{ candidates: 501 }, /candidates must be/],
    [{ numCandidates: 20_000 }, /numCandidates must be/],
    [{ oversample: 0.5 }, /oversample must be/],
    [{ oversample: 11 }, /oversample must be/],
    [{ fieldBoosts: { title: -1, heading: 1 } }, /title boost/],
  ])('refuses %j before searching', async (retrieval, message) => {
    const es = recordingElasticsearch();
    const search = new HybridSearch(es.client, 't', embedder);
    await expect(search.search(request, { retrieval })).rejects.toMatchObject({
      code: TroveErrorCode.BadRequest,
      message: expect.stringMatching(message),
    });
    expect(es.bodies).toHaveLength(0);
  });
});
