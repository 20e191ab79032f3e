import type { Client } from '@elastic/elasticsearch';
import { describe, expect, it } from 'vitest';
import { type EmbeddingProvider, SearchMode, TroveErrorCode } from '@trove/domain';
import { HybridSearch } from './hybrid-search';

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
  const signals: AbortSignal[] = [];
  const client = {
    search: (_params: unknown, options: { signal?: AbortSignal } = {}) => {
      if (options.signal) signals.push(options.signal);
      return new Promise((_resolve, reject) => {
        if (behaviour === 'fail') setTimeout(() => reject(new Error('too many clauses')), delayMs);
        options.signal?.addEventListener('abort', () => reject(new Error('request aborted')));
      });
    },
  };
  return { client: client as unknown as Client, signals };
}

const request = { projectId: 'p1', query: 'what is hybrid search', limit: 5 };

describe('HybridSearch query limits', () => {
  const countTokens = (text: string) => text.split(/\s+/).length;

  it('refuses a query over the character limit before embedding anything', async () => {
    const embedder = new HangingEmbedder();
    const search = new HybridSearch(fakeElasticsearch('hang').client, 't', embedder, { maxQueryChars: 100 });
    const started = Date.now();
    await expect(
      search.search({ ...request, query: 'x'.repeat(95_000), mode: SearchMode.VECTOR }),
    ).rejects.toMatchObject({
      code: TroveErrorCode.BadRequest,
      message: 'the search query has 95000 characters; the limit is 100 (TROVE_SEARCH_MAX_QUERY_CHARS)',
    });
    expect(Date.now() - started).toBeLessThan(100);
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
