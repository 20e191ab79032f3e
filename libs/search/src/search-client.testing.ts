import type { estypes } from '@elastic/elasticsearch';
import type { SearchClient } from './search-client';

/** A hit as a test writes it: the index is filled in. */
export type TestHit = Omit<estypes.SearchHit<unknown>, '_index'>;

/** A search answer with these hits, the fields no test reads filled in. */
export function searchResponse(hits: TestHit[], took = 1): estypes.SearchResponse<unknown> {
  return {
    took,
    timed_out: false,
    _shards: { total: 1, successful: 1, failed: 0 },
    hits: { hits: hits.map((hit) => ({ _index: 'test', ...hit })) },
  };
}

/** One answer of an msearch with these hits. */
export function msearchItem(hits: TestHit[]): estypes.MsearchResponseItem<unknown> {
  return { ...searchResponse(hits), status: 200 };
}

export interface FakeAnswers {
  /** Answers a search; default: no hits. */
  search?: (request: estypes.SearchRequest, signal?: AbortSignal) => Promise<estypes.SearchResponse<unknown>>;
  /** Answers an msearch's header/body pairs; default: no hits for each. */
  msearch?: (searches: estypes.MsearchRequestItem[]) => Promise<estypes.MsearchResponseItem<unknown>[]>;
}

/** Elasticsearch as search uses it, answering from functions and recording every request. */
export class FakeSearchClient implements SearchClient {
  /** Each search request, in order. */
  readonly searches: estypes.SearchRequest[] = [];
  /** The header/body pairs of each msearch, in order. */
  readonly msearches: estypes.MsearchRequestItem[][] = [];
  /** The signal each search came with. */
  readonly signals: AbortSignal[] = [];

  constructor(private readonly answers: FakeAnswers = {}) {}

  async search<TDocument = unknown>(
    request: estypes.SearchRequest,
    options: { signal?: AbortSignal } = {},
  ): Promise<estypes.SearchResponse<TDocument>> {
    this.searches.push(request);
    if (options.signal) this.signals.push(options.signal);
    const answer = this.answers.search ?? (async () => searchResponse([]));
    return (await answer(request, options.signal)) as estypes.SearchResponse<TDocument>;
  }

  async msearch<TDocument = unknown>(
    request: estypes.MsearchRequest,
    _options: { signal?: AbortSignal } = {},
  ): Promise<estypes.MsearchResponse<TDocument>> {
    const searches = request.searches ?? [];
    this.msearches.push(searches);
    const answer =
      this.answers.msearch ??
      (async (pairs: estypes.MsearchRequestItem[]) =>
        pairs.filter((_, i) => i % 2 === 1).map(() => msearchItem([])));
    return { took: 1, responses: (await answer(searches)) as estypes.MsearchResponseItem<TDocument>[] };
  }
}
