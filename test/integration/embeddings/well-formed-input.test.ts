import { TroveErrorCode } from '@trove/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddingProvider, EmbeddingRejectedError, embedIsolatingRejections } from '@trove/embeddings';
import { FakeOllama } from '../../fakes/ollama-fake';
import { PickyEmbedder } from '../../fakes/picky-embedder-fake';

// Both providers (official clients) against fake servers: what goes over the wire is well-formed,
// and a 500 for one text is told from an outage.

const picky = new PickyEmbedder();
const ollama = new FakeOllama({ 'multilingual-e5-small': 384 });
let pickyUrl: string;
let ollamaUrl: string;

beforeAll(async () => {
  pickyUrl = await picky.start();
  ollamaUrl = await ollama.start();
});
afterAll(async () => {
  await picky.stop();
  await ollama.stop();
});

const provider = (kind: 'openai' | 'ollama') =>
  createEmbeddingProvider({
    provider: kind,
    baseUrl: kind === 'openai' ? pickyUrl : ollamaUrl,
    profile: 'multilingual-e5-small',
    batchSize: 8,
    timeoutMs: 5000,
  });

describe('embedding providers send well-formed text only', () => {
  it('OpenAI-compatible: a lone surrogate, a noncharacter and NUL are cleaned before the request', async () => {
    const vectors = await provider('openai').embed(['a\uD800b\uFFFF\u0000c'], 'passage');
    expect(vectors[0]).toHaveLength(384);
    expect(picky.requests.at(-1)).toEqual({ input: ['passage: a\uFFFDb\uFFFDc'], status: 200 });
  });

  it('Ollama: the same text is cleaned before the request', async () => {
    await provider('ollama').embed(['q\uDC00'], 'query');
    expect(ollama.requests.at(-1)!.body).toMatchObject({ input: ['query: q\uFFFD'] });
  });
});

describe('poison input or outage, over HTTP', () => {
  it('a text the server answers 500 to while it embeds others is EMBEDDING_REJECTED; its batch-mates are embedded', async () => {
    picky.rejects.add('crash-me');
    try {
      const error = await embedIsolatingRejections(
        provider('openai'),
        ['one', 'crash-me', 'three'],
        'passage',
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EmbeddingRejectedError);
      expect((error as EmbeddingRejectedError).rejected).toEqual([
        { index: 1, reason: expect.stringContaining('the embedding server answered 500') },
      ]);
      expect((error as EmbeddingRejectedError).vectors.map((v) => v?.length)).toEqual([384, undefined, 384]);
    } finally {
      picky.rejects.clear();
    }
  });

  it('a server that answers 500 to everything, the probe included, is SERVICE_UNAVAILABLE (retried)', async () => {
    picky.down = true;
    try {
      const error = await embedIsolatingRejections(provider('openai'), ['one', 'two'], 'passage').catch(
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: TroveErrorCode.ServiceUnavailable, permanent: false });
    } finally {
      picky.down = false;
    }
  });
});
