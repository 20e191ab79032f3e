import { describe, expect, it } from 'vitest';
import { type SearchHit, TroveErrorCode } from '@trove/domain';
import { IndexNames } from './elasticsearch';
import { resolveResultOptions, ResultStages, type ResultStageSettings } from './result-stages';
import { FakeSearchClient, searchResponse } from './search-client.testing';

const settings: ResultStageSettings = { mmr: false, mmrLambda: 0.7, mmrCandidates: 50, maxExpand: 3 };

const hit = (chunkId: string, documentId: string, position: number, score: number) =>
  ({
    chunkId,
    documentId,
    projectId: 'p',
    title: '',
    headingPath: [],
    text: chunkId,
    position,
    score,
  }) as SearchHit;

/** Elasticsearch answering vector reads (doc values) from `vectors` and other searches from `chunks`, recording each call. */
function fakeElasticsearch(vectors: Record<string, number[]> = {}, chunks: object[] = []) {
  const client = new FakeSearchClient({
    search: async (request) => {
      if (request.docvalue_fields) {
        const ids = ([request.query?.ids?.values ?? []].flat() as string[]).filter((id) => id in vectors);
        return searchResponse(ids.map((id) => ({ _id: id, fields: { embedding: [vectors[id]] } })));
      }
      return searchResponse(chunks.map((c) => ({ _source: c })));
    },
  });
  return { stages: new ResultStages(client, new IndexNames('t'), settings), calls: client.searches };
}

const defaults = resolveResultOptions({}, settings);

describe('resolveResultOptions', () => {
  it('takes the configured defaults for what the request leaves unset', () => {
    expect(defaults).toEqual({
      minScore: undefined,
      mmr: false,
      mmrLambda: 0.7,
      maxPerDocument: undefined,
      expand: 0,
    });
    expect(resolveResultOptions({ mmr: true, mmrLambda: 0.2 }, settings)).toMatchObject({
      mmr: true,
      mmrLambda: 0.2,
    });
  });

  it.each([
    [{ expand: -1 }, 'expand must be an integer between 0 and 3 (TROVE_SEARCH_MAX_EXPAND)'],
    [{ expand: 4 }, 'expand must be an integer between 0 and 3 (TROVE_SEARCH_MAX_EXPAND)'],
    [{ mmrLambda: 1.5 }, 'mmrLambda must be between 0 and 1'],
    [{ mmrLambda: -0.1 }, 'mmrLambda must be between 0 and 1'],
    [{ maxPerDocument: 0 }, 'maxPerDocument must be a positive integer'],
    [{ minScore: Number.NaN }, 'minScore must be a finite number'],
  ])('refuses %o with a clear BAD_REQUEST', (options, message) => {
    expect(() => resolveResultOptions(options, settings)).toThrow(
      expect.objectContaining({ code: TroveErrorCode.BadRequest, message }),
    );
  });
});

describe('ResultStages', () => {
  const ranked = [
    hit('a1', 'A', 1, 0.9),
    hit('a2', 'A', 2, 0.8),
    hit('b1', 'B', 1, 0.5),
    hit('c1', 'C', 1, 0.1),
  ];

  it('with the defaults only cuts to the limit, asking Elasticsearch nothing', async () => {
    const { stages, calls } = fakeElasticsearch();
    expect((await stages.apply('p', ranked, 2, defaults)).map((h) => h.chunkId)).toEqual(['a1', 'a2']);
    expect(calls).toEqual([]);
  });

  it('threshold drops hits below minScore (inclusive bound) before the limit', async () => {
    const { stages } = fakeElasticsearch();
    const hits = await stages.apply('p', ranked, 10, { ...defaults, minScore: 0.5 });
    expect(hits.map((h) => h.chunkId)).toEqual(['a1', 'a2', 'b1']);
  });

  it('cap per document applies before the limit, so other documents fill the page', async () => {
    const { stages } = fakeElasticsearch();
    const hits = await stages.apply('p', ranked, 3, { ...defaults, maxPerDocument: 1 });
    expect(hits.map((h) => h.chunkId)).toEqual(['a1', 'b1', 'c1']);
  });

  it('MMR reads the vectors of the thresholded candidates only, in one doc-value search, and demotes a near-duplicate', async () => {
    const { stages, calls } = fakeElasticsearch({ a1: [1, 0], a2: [1, 0.01], b1: [0, 1], c1: [0.5, 0.5] });
    const hits = await stages.apply('p', ranked, 2, {
      ...defaults,
      minScore: 0.5,
      mmr: true,
      mmrLambda: 0.5,
    });
    expect(hits.map((h) => h.chunkId)).toEqual(['a1', 'b1']);
    expect(calls).toEqual([
      {
        index: 't-chunks',
        size: 3,
        query: { ids: { values: ['a1', 'a2', 'b1'] } },
        _source: false,
        docvalue_fields: ['embedding'],
      },
    ]);
  });

  it('expansion fetches the neighbours of every final hit in one search', async () => {
    const stored = (id: string) => ({
      chunkId: id,
      documentId: id[0].toUpperCase(),
      position: Number(id[1]),
      text: id,
    });
    const { stages, calls } = fakeElasticsearch({}, ['a3', 'a0', 'a2', 'a1', 'b0', 'b2'].map(stored));
    const hits = await stages.apply('p', ranked, 3, { ...defaults, expand: 1 });
    expect(calls).toHaveLength(1);
    expect(calls[0]._source).toEqual({ excludes: ['embedding'] });
    expect(hits.map((h) => [h.chunkId, h.context?.map((c) => c.chunkId)])).toEqual([
      ['a1', ['a0', 'a2']],
      ['a2', ['a1', 'a3']],
      ['b1', ['b0', 'b2']],
    ]);
  });
});
