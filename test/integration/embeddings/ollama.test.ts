import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddingProvider } from '@trove/embeddings';
import { FakeOllama } from '../../fakes/ollama-fake';

// Ollama cannot be installed here: this runs the official `ollama` client against a fake that
// follows Ollama's documented /api/embed contract.
const fake = new FakeOllama({ 'multilingual-e5-small': 384 });
let host: string;

beforeAll(async () => {
  host = await fake.start();
});
afterAll(() => fake.stop());

const provider = (profile = 'multilingual-e5-small', model?: string) =>
  createEmbeddingProvider({
    provider: 'ollama',
    baseUrl: host,
    profile,
    model,
    batchSize: 8,
    timeoutMs: 5000,
  });

describe('Ollama provider (official client, fake server)', () => {
  it('sends one batched /api/embed request with the profile prefixes and truncation', async () => {
    const vectors = await provider().embed(['first passage', 'second passage'], 'passage');
    expect(vectors).toHaveLength(2);
    expect(vectors[0]).toHaveLength(384);
    expect(fake.requests.at(-1)!.body).toMatchObject({
      model: 'multilingual-e5-small',
      input: ['passage: first passage', 'passage: second passage'],
      truncate: true,
    });
    await provider().embed(['what is hybrid search'], 'query');
    expect(fake.requests.at(-1)!.body.input).toEqual(['query: what is hybrid search']);
  });

  it('fails permanently, with the reason, when the model is not pulled', async () => {
    await expect(
      provider('multilingual-e5-small', 'missing-model').embed(['x'], 'query'),
    ).rejects.toMatchObject({
      code: 'EMBEDDING_FAILED',
      permanent: true,
      message: expect.stringContaining('model "missing-model" not found'),
    });
  });

  it('treats an unreachable server as transient', async () => {
    const down = createEmbeddingProvider({
      provider: 'ollama',
      baseUrl: 'http://127.0.0.1:9',
      profile: 'multilingual-e5-small',
      batchSize: 8,
      timeoutMs: 2000,
    });
    await expect(down.embed(['x'], 'query')).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      permanent: false,
    });
  });

  it('answers ping from /api/tags', async () => {
    await expect(provider().ping()).resolves.toBeUndefined();
  });
});
