import type { estypes } from '@elastic/elasticsearch';

/**
 * What searching asks of Elasticsearch: one search, or several in one round trip, each
 * cancellable. The client of @elastic/elasticsearch implements it as it is; a test fake
 * (`FakeSearchClient`) implements it too, so the compiler checks the fake against the real thing.
 */
export interface SearchClient {
  search<TDocument = unknown>(
    request: estypes.SearchRequest,
    options?: { signal?: AbortSignal },
  ): Promise<estypes.SearchResponse<TDocument>>;
  msearch<TDocument = unknown>(
    request: estypes.MsearchRequest,
    options?: { signal?: AbortSignal },
  ): Promise<estypes.MsearchResponse<TDocument>>;
}
