import type { estypes } from '@elastic/elasticsearch';
import { describe, expect, it } from 'vitest';
import { searchSchema } from '@trove/config';
import { type EmbeddingProvider, SearchMode, TroveErrorCode } from '@trove/domain';
import { HybridSearch } from './hybrid-search';
import { FakeSearchClient, msearchItem, searchResponse } from './search-client.testing';

/** An embedder that never answers on its own: it records the signal it was given and waits for it. */
class HangingEmbedder implements EmbeddingProvider {
  readonly dimensions = 3;
  readonly modelId = 'fake';
  calls = 0;
  signal?: AbortSignal;

  embed(_texts: string[], _purpose: string, options: { signal?: AbortSignal } = {}): Promise<number[][]> {
    this.calls++;
    this.signal = options.signal;
    return new Promise((_resolve, reject) => {
      options.signal?.addEventListener('abort', () => reject(new Error('embedding aborted')));
    });
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }
}

/** Elasticsearch whose search fails (after `delayMs`) or never answers, honouring the signal. */
function fakeElasticsearch(behaviour: 'fail' | 'hang', delayMs = 5) {
  const client = new FakeSearchClient({
    search: (_request, signal) =>
      new Promise<estypes.SearchResponse<unknown>>((_resolve, reject) => {
        if (behaviour === 'fail') setTimeout(() => reject(new Error('too many clauses')), delayMs);
        signal?.addEventListener('abort', () => reject(new Error('request aborted')));
      }),
  });
  return { client, signals: client.signals };
}

const request = { projectId: 'p1', query: 'what is hybrid search', limit: 5 };

describe('HybridSearch query limits', () => {
  const countTokens = (text: string) => text.split(/\s+/).length;

  it('refuses a query over the character limit before embedding anything', async () => {
    const embedder = new HangingEmbedder();
    const search = new HybridSearch(fakeElasticsearch('hang').client, 't', embedder, { maxQueryChars: 100 });
    await expect(
      search.search({ ...request, query: 'x'.repeat(95_000), mode: SearchMode.VECTOR }),
    ).rejects.toMatchObject({
      code: TroveErrorCode.BadRequest,
      message: 'the search query has 95000 characters; the limit is 100 (TROVE_SEARCH_MAX_QUERY_CHARS)',
    });
    // The embedder never answers: a search that reached it would time out instead.
    expect(embedder.calls).toBe(0);
  });

  it('refuses a query over the token limit, counted by the given counter', async () => {
    const embedder = new HangingEmbedder();
    const search = new HybridSearch(fakeElasticsearch('hang').client, 't', embedder, {
      maxQueryTokens: 10,
      countTokens,
    });
    await expect(
      search.search({ ...request, query: 'word '.repeat(11), mode: SearchMode.HYBRID }),
    ).rejects.toMatchObject({
      code: TroveErrorCode.BadRequest,
      message: 'the search query has about 11 tokens; the limit is 10 (TROVE_SEARCH_MAX_QUERY_TOKENS)',
    });
    expect(embedder.calls).toBe(0);
  });

  it('defaults to 2,000 characters and 512 tokens', async () => {
    const search = new HybridSearch(fakeElasticsearch('hang').client, 't', new HangingEmbedder(), {
      countTokens,
    });
    await expect(
      search.search({ ...request, query: 'x'.repeat(2_001), mode: SearchMode.KEYWORD }),
    ).rejects.toThrow(/the limit is 2000/);
    await expect(
      search.search({ ...request, query: 'a '.repeat(513), mode: SearchMode.KEYWORD }),
    ).rejects.toThrow(/the limit is 512/);
  });
});

describe('HybridSearch stops work nobody waits for', () => {
  it('aborts the embedding when the caller aborts (the client disconnected)', async () => {
    const embedder = new HangingEmbedder();
    const search = new HybridSearch(fakeElasticsearch('hang').client, 't', embedder);
    const caller = new AbortController();
    const pending = search.search({ ...request, mode: SearchMode.VECTOR }, { signal: caller.signal });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(embedder.signal?.aborted).toBe(false);
    caller.abort();
    await expect(pending).rejects.toMatchObject({ code: TroveErrorCode.Cancelled });
    expect(embedder.signal?.aborted).toBe(true);
  });

  it('in HYBRID, aborts the embedding of the vector leg when the keyword leg fails', async () => {
    const embedder = new HangingEmbedder();
    const es = fakeElasticsearch('fail');
    const search = new HybridSearch(es.client, 't', embedder);
    await expect(search.search({ ...request, mode: SearchMode.HYBRID })).rejects.toMatchObject({
      code: TroveErrorCode.Internal,
      message: expect.stringContaining('too many clauses'),
    });
    expect(embedder.signal?.aborted).toBe(true);
  });

  it('passes the signal to the Elasticsearch queries and aborts them with the caller', async () => {
    const es = fakeElasticsearch('hang');
    const search = new HybridSearch(es.client, 't', new HangingEmbedder());
    const caller = new AbortController();
    const pending = search.search({ ...request, mode: SearchMode.KEYWORD }, { signal: caller.signal });
    caller.abort();
    await expect(pending).rejects.toMatchObject({ code: TroveErrorCode.Cancelled });
    expect(es.signals).toHaveLength(1);
    expect(es.signals[0].aborted).toBe(true);
  });
});

/** Elasticsearch answering the BM25 query and the kNN query with fixed hits. */
function answeringElasticsearch(
  bm25: [string, number][],
  knn: [string, number][],
  msearch?: (searches: estypes.MsearchRequestItem[]) => Promise<estypes.MsearchResponseItem[]>,
) {
  const hits = (pairs: [string, number][]) =>
    pairs.map(([id, score]) => ({
      _id: id,
      _score: score,
      _source: {
        chunkId: id,
        documentId: `doc-${id}`,
        projectId: 'p1',
        title: id,
        headingPath: [],
        text: id,
      },
    }));
  return new FakeSearchClient({
    search: async (request) => searchResponse(hits(request.knn ? knn : bm25)),
    ...(msearch ? { msearch } : {}),
  });
}

class FixedEmbedder implements EmbeddingProvider {
  readonly dimensions = 3;
  readonly modelId = 'fake';
  calls = 0;
  embed(): Promise<number[][]> {
    this.calls++;
    return Promise.resolve([[1, 0, 0]]);
  }
  ping(): Promise<void> {
    return Promise.resolve();
  }
}

describe('HybridSearch fusion', () => {
  // bm25 min-max: a 1, b .5, c 0;  knn: b 1, d .5, a 0
  const es = answeringElasticsearch(
    [
      ['a', 10],
      ['b', 6],
      ['c', 2],
    ],
    [
      ['b', 0.9],
      ['d', 0.8],
      ['a', 0.7],
    ],
  );
  const hybrid = { ...request, mode: SearchMode.HYBRID };
  const ranking = (hits: { chunkId: string; score: number }[]) =>
    hits.map((hit) => [hit.chunkId, Number(hit.score.toFixed(10))]);

  it('fuses by RRF with the configured k, keeping each leg’s rank and raw score', async () => {
    const search = new HybridSearch(es, 't', new FixedEmbedder(), {
      fusion: 'rrf',
      rrfK: 10,
      completeScores: false,
    });
    const hits = await search.search(hybrid);
    // b 1/12 + 1/11; a 1/11 + 1/13; d 1/12; c 1/13
    expect(ranking(hits)).toEqual(
      [
        ['b', 1 / 12 + 1 / 11],
        ['a', 1 / 11 + 1 / 13],
        ['d', 1 / 12],
        ['c', 1 / 13],
      ].map(([id, score]) => [id, Number((score as number).toFixed(10))]),
    );
    expect(hits[0]).toMatchObject({ bm25: { rank: 2, score: 6 }, knn: { rank: 1, score: 0.9 } });
    expect(hits[2].bm25).toBeUndefined();
  });

  it('fuses by the configured convex combination', async () => {
    const search = new HybridSearch(es, 't', new FixedEmbedder(), {
      completeScores: false,
      fusion: 'convex',
      convexVectorWeight: 0.8,
    });
    // b .8·1 + .2·.5 = .9; d .8·.5 = .4; a .2·1 = .2; c 0
    expect(ranking(await search.search(hybrid))).toEqual([
      ['b', 0.9],
      ['d', 0.4],
      ['a', 0.2],
      ['c', 0],
    ]);
  });

  it('fuses by the settings’ default convex weight with min-max normalisation when not configured', async () => {
    const { fusion, convexVectorWeight: w, convexNormalization } = searchSchema.parse({});
    expect([fusion, convexNormalization]).toEqual(['convex', 'minmax']);
    const search = new HybridSearch(es, 't', new FixedEmbedder(), { completeScores: false });
    // min-max: bm25 a 1, b .5, c 0; knn b 1, d .5, a 0
    const expected: [string, number][] = [
      ['b', w * 1 + (1 - w) * 0.5],
      ['a', (1 - w) * 1],
      ['d', w * 0.5],
      ['c', 0],
    ];
    expect(ranking(await search.search(hybrid))).toEqual(
      expected.sort((x, y) => y[1] - x[1]).map(([id, score]) => [id, Number(score.toFixed(10))]),
    );
  });

  it('takes a per-request override; unset fields keep the configured ones', async () => {
    const search = new HybridSearch(es, 't', new FixedEmbedder(), {
      completeScores: false,
      fusion: 'rrf',
      rrfK: 60,
      convexVectorWeight: 0.2,
    });
    // convex at the configured weight .2: a .8·1 = .8; b .2·1 + .8·.5 = .6; c 0; d .2·.5 = .1
    expect(ranking(await search.search(hybrid, { fusion: { method: 'convex' } }))).toEqual([
      ['a', 0.8],
      ['b', 0.6],
      ['d', 0.1],
      ['c', 0],
    ]);
    const rrf = await search.search(hybrid, { fusion: { method: 'rrf', k: 1 } });
    expect(rrf[0].score).toBeCloseTo(1 / 3 + 1 / 2);
    // the configured default is untouched by earlier overrides
    expect((await search.search(hybrid))[0].score).toBeCloseTo(1 / 62 + 1 / 61);
  });

  it('refuses an out-of-range k or weight before any work is done', async () => {
    const embedder = new FixedEmbedder();
    const search = new HybridSearch(es, 't', embedder);
    for (const fusion of [{ k: 0 }, { k: 1001 }, { k: 2.5 }, { vectorWeight: -0.1 }, { vectorWeight: 1.1 }]) {
      await expect(search.search(hybrid, { fusion })).rejects.toMatchObject({
        code: TroveErrorCode.BadRequest,
        message: expect.stringMatching(/^fusion (k|vectorWeight) must be/),
      });
    }
    expect(embedder.calls).toBe(0);
  });
});

describe('HybridSearch query vectors and timings', () => {
  const es = answeringElasticsearch([['a', 1]], [['a', 0.9]]);
  const vector = { ...request, mode: SearchMode.VECTOR };

  it('embeds a repeated query once, and every time with the cache off', async () => {
    const cached = new FixedEmbedder();
    const search = new HybridSearch(es, 't', cached);
    await search.search(vector);
    await search.search({ ...vector, query: `  ${vector.query} ` }); // trimmed: the same query
    expect(cached.calls).toBe(1);
    await search.search({ ...vector, query: 'another question' });
    expect(cached.calls).toBe(2);

    const uncached = new FixedEmbedder();
    const off = new HybridSearch(es, 't', uncached, { queryCacheSize: 0 });
    await off.search(vector);
    await off.search(vector);
    expect(uncached.calls).toBe(2);
  });

  it('reports where the time went, per leg', async () => {
    const search = new HybridSearch(es, 't', new FixedEmbedder());
    const timings = {};
    await search.search({ ...request, mode: SearchMode.HYBRID }, { timings });
    expect(timings).toEqual(
      expect.objectContaining({
        embedMs: expect.any(Number),
        keywordMs: expect.any(Number),
        vectorMs: expect.any(Number),
        fusionMs: expect.any(Number),
        totalMs: expect.any(Number),
      }),
    );
    const keywordOnly: { embedMs?: number } = {};
    await search.search({ ...request, mode: SearchMode.KEYWORD }, { timings: keywordOnly });
    expect(keywordOnly.embedMs).toBeUndefined();
  });
});

describe('HybridSearch score completion (convex fusion)', () => {
  // The legs return their top 3; the full tables hold what each leg would score every chunk.
  const bm25Full: Record<string, number> = { a: 10, b: 6, c: 2, d: 1 };
  const cosineFull: Record<string, number> = { a: 0.7, b: 0.9, c: 0.6, d: 0.8 };
  /** Each msearch scored from the full tables. */
  async function fromTables(pairs: estypes.MsearchRequestItem[]): Promise<estypes.MsearchResponseItem[]> {
    const responses = [];
    for (let i = 1; i < pairs.length; i += 2) {
      const body = pairs[i] as estypes.MsearchMultisearchBody;
      const knn = body.knn as estypes.KnnSearch | undefined;
      const filter = [(knn ? knn.filter : body.query?.bool?.filter) ?? []].flat();
      const ids = [filter.find((f) => f.ids)!.ids!.values ?? []].flat();
      const table = knn ? cosineFull : bm25Full;
      responses.push(
        msearchItem(ids.filter((id) => id in table).map((id) => ({ _id: id, _score: table[id] }))),
      );
    }
    return responses;
  }
  /** Both legs' top 3, and each msearch answered by `msearch` (the full tables by default). */
  function completingElasticsearch(msearch = fromTables) {
    const client = answeringElasticsearch(
      [
        ['a', 10],
        ['b', 6],
        ['c', 2],
      ],
      [
        ['b', 0.9],
        ['d', 0.8],
        ['a', 0.7],
      ],
      msearch,
    );
    return { client, searches: client.msearches };
  }
  const hybrid = { ...request, mode: SearchMode.HYBRID };

  it('scores each candidate in the leg that missed it before normalising', async () => {
    const es = completingElasticsearch();
    const search = new HybridSearch(es.client, 't', new FixedEmbedder(), { convexVectorWeight: 0.8 });
    const hits = await search.search(hybrid);
    // bm25 over {a 10, b 6, c 2, d 1}: a 1, b 5/9, c 1/9, d 0; cosine over {b .9, d .8, a .7, c .6}:
    // b 1, d 2/3, a 1/3, c 0. Fused at .8: b .8 + .2·5/9; d .8·2/3; a .8/3 + .2; c .2/9.
    expect(hits.map((h) => [h.chunkId, Number(h.score.toFixed(6))])).toEqual([
      ['b', Number((0.8 + 0.2 * (5 / 9)).toFixed(6))],
      ['d', Number((0.8 * (2 / 3)).toFixed(6))],
      ['a', Number((0.8 / 3 + 0.2).toFixed(6))],
      ['c', Number((0.2 / 9).toFixed(6))],
    ]);
    // Each leg's rank is now among every candidate; d was not in BM25's top 3, c not in kNN's.
    expect(hits.find((h) => h.chunkId === 'd')!.bm25).toEqual({ rank: 4, score: 1 });
    expect(hits.find((h) => h.chunkId === 'c')!.knn).toEqual({ rank: 4, score: 0.6 });
    // One round trip: BM25 for d only, the cosine for c only, with the query's vector.
    expect(es.searches).toHaveLength(1);
    const [, bm25Body, , cosineBody] = es.searches[0] as estypes.MsearchMultisearchBody[];
    expect(JSON.stringify(bm25Body.query)).toContain('"ids":{"values":["d"]}');
    expect(cosineBody.knn).toMatchObject({
      query_vector: [1, 0, 0],
      k: 1,
      num_candidates: 1,
      // Float cosines, on the scale of the kNN leg's own rescored hits.
      rescore_vector: { oversample: 1 },
    });
    expect(JSON.stringify(cosineBody.knn)).toContain('"ids":{"values":["c"]}');
  });

  it('gives a BM25 score of 0 to a chunk with no matching term', async () => {
    delete bm25Full.d;
    try {
      const search = new HybridSearch(completingElasticsearch().client, 't', new FixedEmbedder());
      const hits = await search.search(hybrid);
      expect(hits.find((h) => h.chunkId === 'd')!.bm25).toEqual({ rank: 4, score: 0 });
    } finally {
      bm25Full.d = 1;
    }
  });

  it('leaves RRF, one-leg modes and a request turning it off alone', async () => {
    const es = completingElasticsearch();
    const search = new HybridSearch(es.client, 't', new FixedEmbedder());
    await search.search(hybrid, { fusion: { method: 'rrf' } });
    await search.search({ ...request, mode: SearchMode.KEYWORD });
    const off = await search.search(hybrid, { retrieval: { completeScores: false } });
    expect(es.searches).toHaveLength(0);
    expect(off.find((h) => h.chunkId === 'd')!.bm25).toBeUndefined();
  });

  /** The full tables' answer, except that the last search fails with `status` on the first `times` calls. */
  function failingFirst(status: number, times: number) {
    let calls = 0;
    return async (pairs: estypes.MsearchRequestItem[]): Promise<estypes.MsearchResponseItem[]> => {
      calls += 1;
      const answered = await fromTables(pairs);
      if (calls > times) return answered;
      // The cosine search (the last one) lands on a shard of a node going away.
      return answered.map((r, i, all) =>
        i === all.length - 1
          ? { status, error: { type: 'node_not_connected_exception', reason: 'node left the cluster' } }
          : r,
      );
    };
  }

  it('sends a search that failed on a node going away (503) once more, alone', async () => {
    const es = completingElasticsearch(failingFirst(503, 1));
    const hits = await new HybridSearch(es.client, 't', new FixedEmbedder(), {
      convexVectorWeight: 0.8,
    }).search(hybrid);
    expect(hits.map((h) => h.chunkId)).toEqual(['b', 'd', 'a', 'c']);
    expect(hits.find((h) => h.chunkId === 'c')!.knn).toEqual({ rank: 4, score: 0.6 });
    expect(es.searches).toHaveLength(2);
    // The second round trip holds only the failed search: one header and its kNN body.
    expect(es.searches[1]).toHaveLength(2);
    expect((es.searches[1][1] as estypes.MsearchMultisearchBody).knn).toBeDefined();
  });

  it('fails the search as unavailable (not permanent) when the retried search fails again', async () => {
    const es = completingElasticsearch(failingFirst(502, 2));
    await expect(new HybridSearch(es.client, 't', new FixedEmbedder()).search(hybrid)).rejects.toMatchObject({
      code: TroveErrorCode.ServiceUnavailable,
      permanent: false,
      message: expect.stringContaining('Elasticsearch answered 502 while scoring candidates in both legs'),
    });
    expect(es.searches).toHaveLength(2);
  });

  it('fails the search with a readable error when Elasticsearch refuses the completion', async () => {
    const es = completingElasticsearch(async () => [
      {
        status: 400,
        error: {
          type: 'search_phase_execution_exception',
          reason: 'all shards failed',
          root_cause: [{ type: 'query_shard_exception', reason: 'no such field' }],
        },
      },
    ]);
    await expect(new HybridSearch(es.client, 't', new FixedEmbedder()).search(hybrid)).rejects.toMatchObject({
      code: TroveErrorCode.IndexFailed,
      message: expect.stringContaining('scoring candidates in both legs: no such field'),
    });
  });
});

describe('HybridSearch filters', () => {
  const embedder: EmbeddingProvider = {
    dimensions: 3,
    modelId: 'fake',
    embed: () => Promise.resolve([[1, 0, 0]]),
    ping: () => Promise.resolve(),
  };

  function recordingElasticsearch() {
    const client = new FakeSearchClient();
    return { client, params: client.searches };
  }

  it('applies the same filter clauses inside the BM25 bool filter and the kNN filter', async () => {
    const es = recordingElasticsearch();
    await new HybridSearch(es.client, 't', embedder).search({
      ...request,
      mode: SearchMode.HYBRID,
      filters: { documentIds: ['d1'], languages: ['en'], hasCode: true },
    });
    const expected = [
      { term: { projectId: 'p1' } },
      { terms: { documentId: ['d1'] } },
      { terms: { language: ['en'] } },
      { term: { hasCode: true } },
    ];
    const keyword = es.params.find((p) => 'query' in p)!;
    const vector = es.params.find((p) => 'knn' in p)!;
    expect(keyword.query?.bool?.filter).toEqual(expected);
    expect((vector.knn as estypes.KnnSearch).filter).toEqual(expected);
  });

  it('answers no hits without asking anyone when the documents filter resolved to none', async () => {
    const es = recordingElasticsearch();
    const hits = await new HybridSearch(es.client, 't', embedder).search({
      ...request,
      mode: SearchMode.HYBRID,
      filters: { documentIds: [] },
    });
    expect(hits).toEqual([]);
    expect(es.params).toEqual([]);
  });

  it('refuses more document ids than TROVE_SEARCH_MAX_FILTER_DOCUMENTS and bad result options', async () => {
    const search = new HybridSearch(recordingElasticsearch().client, 't', embedder, {
      maxFilterDocuments: 2,
    });
    await expect(
      search.search({ ...request, mode: SearchMode.HYBRID, filters: { documentIds: ['a', 'b', 'c'] } }),
    ).rejects.toMatchObject({ code: TroveErrorCode.BadRequest });
    await expect(
      search.search({ ...request, mode: SearchMode.HYBRID, results: { expand: -1 } }),
    ).rejects.toMatchObject({ code: TroveErrorCode.BadRequest, message: expect.stringContaining('expand') });
  });
});

describe('HybridSearch legs on their own (a benchmark’s same-run baseline)', () => {
  function recordingElasticsearch() {
    const client = new FakeSearchClient({ search: async () => searchResponse([], 3) });
    return { client, params: client.searches };
  }
  const queryVector = [1, 0, 0];
  const embedder: EmbeddingProvider = {
    dimensions: 3,
    modelId: 'fake',
    embed: () => Promise.resolve([queryVector]),
    ping: () => Promise.resolve(),
  };

  it('sends exactly the request bodies the search’s BM25 and kNN legs send, without embedding', async () => {
    const searched = recordingElasticsearch();
    const options = { retrieval: { candidates: 20, numCandidates: 300 } };
    const filters = { languages: ['ru'] };
    // Completion off: only the two leg requests, no msearch.
    await new HybridSearch(searched.client, 't', embedder, { completeScores: false }).search(
      { ...request, mode: SearchMode.HYBRID, filters },
      options,
    );
    const alone = recordingElasticsearch();
    const calls: string[] = [];
    const search = new HybridSearch(alone.client, 't', {
      ...embedder,
      embed: (texts) => (calls.push(...texts), Promise.resolve([queryVector])),
    });
    const keyword = await search.legRequest({ kind: 'keyword' }, { ...request, filters }, options);
    const vector = await search.legRequest(
      { kind: 'vector', vector: queryVector },
      { ...request, filters },
      options,
    );
    expect(alone.params).toEqual(searched.params);
    expect(calls).toEqual([]);
    expect(keyword.timings).toEqual({ keywordMs: expect.any(Number), keywordTookMs: 3 });
    expect(vector.timings).toEqual({ vectorMs: expect.any(Number), vectorTookMs: 3 });
  });
});
