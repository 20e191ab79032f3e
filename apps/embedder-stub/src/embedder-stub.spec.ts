import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbedderStub } from './embedder-stub';
import { stubVector } from './vectors';

/** An embeddings response or an error, as the tests read it. */
interface Answer {
  object?: string;
  data: { object: string; index: number; embedding: number[] | string }[];
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
  error?: { message: string; type: string; param: string | null; code: string | null };
}

describe('EmbedderStub over HTTP', () => {
  const stub = new EmbedderStub({ dimensions: 8, model: 'stub-model', maxBatch: 4 });
  let baseUrl: string;

  beforeAll(async () => {
    baseUrl = await stub.start();
  });
  afterAll(() => stub.stop());

  const post = async (body: unknown, path = '/embeddings') => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Answer };
  };

  it('answers a batch in OpenAI’s shape: one vector per text, in input order, the model echoed, usage counted', async () => {
    const input = ['first text', 'second', 'the third text here'];
    const { status, body } = await post({ model: 'e5-passage', input, encoding_format: 'float' });
    expect(status).toBe(200);
    expect(body).toEqual({
      object: 'list',
      data: input.map((text, index) => ({ object: 'embedding', index, embedding: stubVector(text, 8) })),
      model: 'e5-passage',
      usage: { prompt_tokens: 2 + 1 + 4, total_tokens: 7 },
    });
  });

  it('answers the same text with the same vector across requests and batch positions', async () => {
    const alone = await post({ model: 'm', input: 'repeat me' });
    const inBatch = await post({ model: 'm', input: ['other', 'repeat me'] });
    expect(alone.body.data[0].embedding).toEqual(inBatch.body.data[1].embedding);
    expect(inBatch.body.data[0].embedding).not.toEqual(inBatch.body.data[1].embedding);
  });

  it('uses its own model name when the request names none', async () => {
    expect((await post({ input: 'x' })).body.model).toBe('stub-model');
  });

  it('encodes vectors as little-endian float32 base64 when asked', async () => {
    const { body } = await post({ model: 'm', input: ['packed'], encoding_format: 'base64' });
    const bytes = Buffer.from(body.data[0].embedding as string, 'base64');
    const decoded = Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4));
    expect(decoded).toEqual(stubVector('packed', 8));
  });

  it('lists its model on GET /v1/models and answers GET /health', async () => {
    const models = await fetch(`${baseUrl}/models`);
    expect(await models.json()).toEqual({
      object: 'list',
      data: [{ id: 'stub-model', object: 'model', created: 0, owned_by: 'trove-embedder-stub' }],
    });
    const health = await fetch(new URL('/health', baseUrl));
    expect({ status: health.status, body: await health.json() }).toEqual({
      status: 200,
      body: { status: 'ok' },
    });
  });

  it.each([
    ['a body that is not JSON', '{"input": [', null, /^the request body is not valid JSON: /],
    ['a body that is not an object', ['a'], null, /^the request body must be a JSON object$/],
    ['no input', { model: 'm' }, 'input', /^missing 'input'$/],
    ['an empty input array', { model: 'm', input: [] }, 'input', /^'input' must not be empty$/],
    [
      'a number as input',
      { model: 'm', input: 42 },
      'input',
      /^'input' must be a string or an array of strings$/,
    ],
    ['token arrays', { model: 'm', input: ['ok', [1, 2]] }, 'input', /input\[1\] is an array \(token arrays/],
    ['a null text', { model: 'm', input: ['ok', null] }, 'input', /input\[1\] is null/],
    [
      'more texts than the batch limit',
      { input: ['1', '2', '3', '4', '5'] },
      'input',
      /holds 5 texts; at most 4/,
    ],
    [
      'a model that is not a string',
      { model: 7, input: 'x' },
      'model',
      /^'model' must be a non-empty string$/,
    ],
    [
      'an unknown encoding',
      { input: 'x', encoding_format: 'int8' },
      'encoding_format',
      /'float' or 'base64'/,
    ],
    ['other dimensions', { input: 'x', dimensions: 256 }, 'dimensions', /makes 8-dimensional vectors/],
  ])('refuses %s with 400 in OpenAI’s error shape', async (_case, body, param, message) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: { message: expect.stringMatching(message), type: 'invalid_request_error', param, code: null },
    });
  });

  it('accepts the dimensions it makes', async () => {
    expect((await post({ input: 'x', dimensions: 8 })).status).toBe(200);
  });

  it('answers 404 to an unknown path and 405 to a wrong method, in OpenAI’s error shape', async () => {
    const unknown = await post({ input: 'x' }, '/completions');
    expect(unknown).toEqual({
      status: 404,
      body: {
        error: {
          message: 'Invalid URL (POST /v1/completions)',
          type: 'invalid_request_error',
          param: null,
          code: 'unknown_url',
        },
      },
    });
    const wrong = await fetch(`${baseUrl}/embeddings`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toBe(
      'GET is not allowed on /v1/embeddings; use POST',
    );
  });

  it('counts what it served', () => {
    expect(stub.stats.texts).toBeGreaterThan(0);
    expect(stub.stats.rejected).toBeGreaterThanOrEqual(11);
  });
});

describe('EmbedderStub options', () => {
  it('answers at once by default, and after --delay-ms when asked', async () => {
    const timed = async (delayMs: number | undefined) => {
      const stub = new EmbedderStub({ dimensions: 4, model: 'm', delayMs });
      const baseUrl = await stub.start();
      try {
        const started = performance.now();
        const response = await fetch(`${baseUrl}/embeddings`, { method: 'POST', body: '{"input":"x"}' });
        expect(response.status).toBe(200);
        return performance.now() - started;
      } finally {
        await stub.stop();
      }
    };
    // Wide margins: the machine may be busy with other tests.
    expect(await timed(400)).toBeGreaterThanOrEqual(395);
    expect(await timed(undefined)).toBeLessThan(300);
  });

  it('refuses a body over its limit with 413', async () => {
    const stub = new EmbedderStub({ dimensions: 4, model: 'm', maxBodyBytes: 1000 });
    const baseUrl = await stub.start();
    try {
      const response = await fetch(`${baseUrl}/embeddings`, {
        method: 'POST',
        body: JSON.stringify({ input: 'x'.repeat(2000) }),
      });
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({
        error: {
          message: 'the request body exceeds 1000 bytes',
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      });
    } finally {
      await stub.stop();
    }
  });

  it('refuses dimensions that are not a positive integer', () => {
    expect(() => new EmbedderStub({ dimensions: 0, model: 'm' })).toThrow(/positive integer/);
  });
});
