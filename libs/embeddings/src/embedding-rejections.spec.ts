import type { EmbeddingProvider } from '@trove/domain';
import { TroveErrorCode } from '@trove/domain';
import { describe, expect, it } from 'vitest';
import { embeddingError, embeddingTimeout } from './embedding-error';
import { EmbeddingRejectedError, embedIsolatingRejections, PROBE_TEXT } from './embedding-rejections';

/**
 * A scripted embedding server behind the provider interface: `answer` decides, per request, the
 * HTTP status it would have answered (200: vectors of the text lengths).
 */
function server(answer: (texts: string[]) => number | undefined | 'timeout') {
  const calls: string[][] = [];
  const embedder: EmbeddingProvider = {
    modelId: 'fake',
    dimensions: 1,
    embed: async (texts) => {
      calls.push(texts);
      const status = answer(texts);
      if (status === 'timeout') throw embeddingTimeout(60_000);
      if (status !== 200) throw embeddingError(status, `status ${status}`);
      return texts.map((t) => [t.length]);
    },
    ping: async () => undefined,
  };
  return { embedder, calls };
}

const texts = ['alpha', 'beta', 'gamma', 'delta', 'poison', 'zeta', 'eta', 'theta'];
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );

describe('embedIsolatingRejections', () => {
  it('embeds a batch the server accepts in one request', async () => {
    const { embedder, calls } = server(() => 200);
    expect(await embedIsolatingRejections(embedder, texts, 'passage')).toEqual(texts.map((t) => [t.length]));
    expect(calls).toEqual([texts]);
  });

  it('a text the server fails while it embeds a probe is rejected alone: its batch-mates still get vectors', async () => {
    const { embedder, calls } = server((batch) => (batch.includes('poison') ? 500 : 200));
    const error = await failure(embedIsolatingRejections(embedder, texts, 'passage'));
    expect(error).toBeInstanceOf(EmbeddingRejectedError);
    const rejected = error as EmbeddingRejectedError;
    expect(rejected).toMatchObject({ code: TroveErrorCode.EmbeddingRejected, permanent: true });
    expect(rejected.rejected).toEqual([
      { index: 4, reason: 'the embedding server answered 500: status 500' },
    ]);
    expect(rejected.vectors).toEqual(texts.map((t) => (t === 'poison' ? undefined : [t.length])));
    expect(calls).toContainEqual([PROBE_TEXT]);
    // Bisection, not one request per text: the batch, a probe, two halves per level, a last probe.
    expect(calls.length).toBeLessThanOrEqual(1 + 1 + 2 * 3 + 1);
  });

  it('finds every poison text of a batch', async () => {
    const { embedder } = server((batch) => (batch.some((t) => t.startsWith('p') || t === 'eta') ? 500 : 200));
    const error = (await failure(
      embedIsolatingRejections(embedder, texts, 'passage'),
    )) as EmbeddingRejectedError;
    expect(error.rejected.map((r) => r.index)).toEqual([4, 6]);
  });

  it('an outage (the probe fails too) stays a retryable SERVICE_UNAVAILABLE, without bisecting', async () => {
    const { embedder, calls } = server(() => 500);
    const error = await failure(embedIsolatingRejections(embedder, texts, 'passage'));
    expect(error).toMatchObject({ code: TroveErrorCode.ServiceUnavailable, permanent: false });
    expect(calls).toEqual([texts, [PROBE_TEXT]]);
  });

  it('an unreachable server, an overload (429) or a gateway/availability answer (502-504) is an outage without a probe', async () => {
    for (const status of [undefined, 429, 502, 503, 504]) {
      const { embedder, calls } = server(() => status);
      const error = await failure(embedIsolatingRejections(embedder, texts, 'passage'));
      expect(error).toMatchObject({ code: TroveErrorCode.ServiceUnavailable, permanent: false });
      expect(calls).toEqual([texts]);
    }
  });

  it('a server that fails once and then embeds every part returns all vectors (a blip, not poison)', async () => {
    let first = true;
    const { embedder } = server(() => {
      const status = first ? 500 : 200;
      first = false;
      return status;
    });
    expect(await embedIsolatingRejections(embedder, texts, 'passage')).toEqual(texts.map((t) => [t.length]));
  });

  it('a server that goes down while the batch is bisected is an outage, not a rejection', async () => {
    let requests = 0;
    const { embedder } = server((batch) => {
      requests += 1;
      if (requests > 3) return 500; // down from the first half on
      return batch.includes('poison') ? 500 : 200;
    });
    const error = await failure(embedIsolatingRejections(embedder, texts, 'passage'));
    expect(error).toMatchObject({ code: TroveErrorCode.ServiceUnavailable, permanent: false });
  });

  it('a request the server times out on while it answers a probe rejects all its texts, without bisecting', async () => {
    const { embedder, calls } = server((batch) => (batch.includes('poison') ? 'timeout' : 200));
    const error = (await failure(
      embedIsolatingRejections(embedder, texts, 'passage'),
    )) as EmbeddingRejectedError;
    expect(error).toBeInstanceOf(EmbeddingRejectedError);
    const reason =
      'the embedding server did not answer within 60 s (TROVE_EMBEDDING_TIMEOUT_MS), while it answers other requests';
    expect(error.rejected).toEqual(texts.map((_, index) => ({ index, reason })));
    expect(error.vectors).toEqual(texts.map(() => undefined));
    // Halves could take the whole timeout each: the request and one probe only.
    expect(calls).toEqual([texts, [PROBE_TEXT]]);
  });

  it('a timeout while the probe times out too is an outage, retried', async () => {
    const { embedder, calls } = server(() => 'timeout');
    const error = await failure(embedIsolatingRejections(embedder, texts, 'passage'));
    expect(error).toMatchObject({ code: TroveErrorCode.ServiceUnavailable, permanent: false });
    expect(calls).toEqual([texts, [PROBE_TEXT]]);
  });

  it('a permanent error (a rejected API key) is passed through as it is', async () => {
    const { embedder, calls } = server(() => 401);
    const error = await failure(embedIsolatingRejections(embedder, texts, 'passage'));
    expect(error).toMatchObject({ code: TroveErrorCode.EmbeddingFailed, permanent: true });
    expect(calls).toHaveLength(1);
  });
});
