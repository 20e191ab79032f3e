import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RerankCandidate, TroveErrorCode } from '@trove/domain';
import { HttpReranker } from './http-reranker';

interface Received {
  headers: IncomingMessage['headers'];
  body: { model?: string; query: string; documents: string[]; top_n: number };
}

/**
 * A rerank server in the common shape: scores each document by how many query words it holds
 * (as a cross-encoder would rank them), or misbehaves as told.
 */
let behaviour: 'ok' | 'unknown-index' | 'nan' | 'slow' | 'error' = 'ok';
const received: Received[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = JSON.parse(raw) as Received['body'];
      received.push({ headers: req.headers, body });
      if (behaviour === 'error') {
        res.writeHead(503).end('model loading');
        return;
      }
      const words = body.query.toLowerCase().split(/\s+/);
      let results: { index: number; relevance_score: number | string }[] = body.documents
        .map((doc, index) => ({
          index,
          relevance_score: words.filter((w) => doc.toLowerCase().includes(w)).length,
        }))
        .sort((a, b) => b.relevance_score - a.relevance_score)
        .slice(0, body.top_n);
      if (behaviour === 'unknown-index') results = [{ index: body.documents.length, relevance_score: 1 }];
      if (behaviour === 'nan') results = [{ index: 0, relevance_score: 'NaN' }];
      const send = () =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
      if (behaviour === 'slow') setTimeout(send, 500);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  behaviour = 'ok';
  received.length = 0;
});

const candidates: RerankCandidate[] = [
  'the sky is blue',
  'vitamin d and bone health in the elderly',
  'vitamin c',
].map((text, i) => ({
  id: `c${i}`,
  text,
  title: `T${i}`,
  headingPath: i === 1 ? ['Bones'] : [],
  position: 0,
  fusedScore: 1,
}));

describe('HttpReranker', () => {
  it('posts {model, query, documents, top_n} to {baseUrl}/rerank and returns the scores best first', async () => {
    const reranker = new HttpReranker({
      baseUrl,
      model: 'bge-reranker',
      apiKey: 'sk-secret-key',
      timeoutMs: 2_000,
      maxChars: 1_000,
    });
    const results = await reranker.rerank('vitamin d bone', candidates);
    expect(results).toEqual([
      { index: 1, score: 3 },
      { index: 2, score: 1 },
      { index: 0, score: 0 },
    ]);
    expect(received[0].body).toEqual({
      model: 'bge-reranker',
      query: 'vitamin d bone',
      documents: [
        'T0\nthe sky is blue',
        'T1 › Bones\nvitamin d and bone health in the elderly',
        'T2\nvitamin c',
      ],
      top_n: 3,
    });
    expect(received[0].headers.authorization).toBe('Bearer sk-secret-key');
    expect(reranker.id).toBe('http:bge-reranker');
  });

  it('sends no Authorization header and no model when none is configured, and truncates passages', async () => {
    const reranker = new HttpReranker({ baseUrl, timeoutMs: 2_000, maxChars: 12 });
    await reranker.rerank('vitamin', candidates);
    expect(received[0].headers.authorization).toBeUndefined();
    expect(received[0].body.model).toBeUndefined();
    expect(received[0].body.documents.every((d) => d.length <= 12)).toBe(true);
  });

  it.each([
    ['an unknown index', 'unknown-index', /answered index 3 for 3 documents/],
    ['a NaN score', 'nan', /outside the \/rerank contract/],
    ['HTTP 503', 'error', /answered HTTP 503: model loading/],
    ['nothing within the timeout', 'slow', /did not answer within 100 ms/],
  ] as const)('fails with RERANK_FAILED on %s, never showing the key', async (_, mode, message) => {
    behaviour = mode;
    const reranker = new HttpReranker({ baseUrl, apiKey: 'sk-secret-key', timeoutMs: 100, maxChars: 1_000 });
    const error = (await reranker.rerank('vitamin', candidates).catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({
      code: TroveErrorCode.RerankFailed,
      message: expect.stringMatching(message),
    });
    expect(error.message).not.toContain('sk-secret-key');
  });

  it('fails with RERANK_FAILED when the server cannot be reached', async () => {
    const reranker = new HttpReranker({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 1_000, maxChars: 100 });
    await expect(reranker.rerank('q', candidates)).rejects.toMatchObject({
      code: TroveErrorCode.RerankFailed,
    });
  });
});
