import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultProxy } from '../support/fault-proxy';
import { EMBEDDER_URL, expectEventually } from '../support/services';
import { ADMIN_KEY, TroveStack } from '../support/stack';

// The embedder behind a counting proxy: /readyz pings it once per real readiness check.
const embedder = new FaultProxy(new URL(EMBEDDER_URL));
let stack: TroveStack;

beforeAll(async () => {
  const proxyUrl = await embedder.start();
  stack = new TroveStack({ TROVE_EMBEDDING_BASE_URL: `${proxyUrl}/v1` });
  await stack.start();
});
afterAll(async () => {
  await stack?.stop();
  await embedder.stop();
});

/** The api's log without its one line per request (JSON lines with a responseTime). */
const apiLog = () =>
  readFileSync(join(stack.logDir, 'api.log'), 'utf8')
    .split('\n')
    .filter((line) => !line.includes('"responseTime":'))
    .join('\n');

async function postGraphql(body: Buffer | string, headers: Record<string, string>) {
  const response = await fetch(`${stack.url}/graphql`, {
    method: 'POST',
    headers: { 'X-API-Key': ADMIN_KEY, 'content-type': 'application/json', ...headers },
    body,
  });
  return {
    status: response.status,
    body: (await response.json()) as { error?: { code: string; message: string } },
  };
}

describe('request bodies Express cannot read', () => {
  it('answers a JSON body over the limit with 413 PAYLOAD_TOO_LARGE, one log line, no stack', async () => {
    const before = apiLog().length;
    const query = `{ projects { id } } # ${'x'.repeat(200 * 1024)}`;
    const answer = await postGraphql(JSON.stringify({ query }), {});
    expect(answer.status).toBe(413);
    expect(answer.body.error).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: expect.stringContaining('limit'),
    });
    const logged = await expectEventually(async () => {
      const text = apiLog().slice(before);
      expect(text).toContain('PAYLOAD_TOO_LARGE');
      return text;
    });
    expect(logged.trim().split('\n')).toHaveLength(1);
    expect(logged).not.toMatch(/^\s+at /m);
  });

  it('answers a body that does not decode as its Content-Encoding with 400 BAD_REQUEST', async () => {
    const before = apiLog().length;
    const answer = await postGraphql(JSON.stringify({ query: '{ projects { id } }' }), {
      'content-encoding': 'gzip',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error?.code).toBe('BAD_REQUEST');
    const unknown = await postGraphql('{}', { 'content-encoding': 'nonsense' });
    expect(unknown.status).toBe(415);
    expect(unknown.body.error?.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const logged = await expectEventually(async () => {
      const text = apiLog().slice(before);
      expect(text.trim().split('\n')).toHaveLength(2);
      return text;
    });
    expect(logged).toContain('BAD_REQUEST');
    expect(logged).not.toMatch(/^\s+at /m);
  });
});

describe('errors', () => {
  it('never returns backend details (URIs, index names) in a message', async () => {
    const body = await stack.gql('query { project(id: "") { id } }');
    expect(body.errors?.length).toBeGreaterThan(0);
    expect(JSON.stringify(body.errors)).not.toMatch(/https?:\/\/|:9200|_doc|e2e-/);
  });
});

describe('headers', () => {
  it('does not announce the framework (no X-Powered-By)', async () => {
    for (const path of ['/healthz', '/readyz', '/graphql', '/v1/nothing']) {
      const response = await fetch(`${stack.url}${path}`, { headers: { 'X-API-Key': ADMIN_KEY } });
      expect(response.headers.get('x-powered-by'), path).toBeNull();
    }
  });
});

describe('/metrics without TROVE_METRICS_TOKEN', () => {
  it('answers nobody, a loopback client included, on the api and the worker', async () => {
    for (const url of [`${stack.url}/metrics`, stack.workerMetricsUrl()]) {
      const response = await fetch(url);
      expect(response.status, url).toBe(403);
      const text = await response.text();
      expect(text, url).toContain('TROVE_METRICS_ALLOW_LOOPBACK');
      expect(text, url).not.toContain('trove_');
    }
  });
});

describe('/readyz', () => {
  // The exact sharing (one check per 1.5 s, shared by concurrent callers) is pinned with a fake
  // clock in health.controller.spec.ts; here a real burst must cost a handful of checks at most.
  it('answers a burst of 50 probes with a few checks of the backends, not one each', async () => {
    const before = embedder.forwarded;
    const answers = await Promise.all(Array.from({ length: 50 }, () => fetch(`${stack.url}/readyz`)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    // One check per cache period of the burst: five would take a burst of over six seconds.
    expect(embedder.forwarded - before).toBeLessThanOrEqual(5);
  });

  it('checks the backends again once the cached result has expired', async () => {
    const before = embedder.forwarded;
    await expectEventually(
      async () => {
        expect((await fetch(`${stack.url}/readyz`)).status).toBe(200);
        expect(embedder.forwarded).toBeGreaterThan(before);
      },
      { timeoutMs: 30_000 },
    );
  });
});
