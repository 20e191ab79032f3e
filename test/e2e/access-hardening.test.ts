import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, TroveStack } from '../support/stack';

// Rate limits per key, CORS for configured origins only, and security headers on every answer.
const DASHBOARD = 'http://dashboard.example:8080';
const LIMIT = 5;
const stack = new TroveStack({
  TROVE_RATE_LIMIT_REQUESTS: String(LIMIT),
  TROVE_RATE_LIMIT_WINDOW_SECONDS: '60',
  TROVE_CORS_ORIGINS: DASHBOARD,
});
let projectId: string;
const keys: string[] = [];

// The admin key has the same budget: this file spends 3 of its 5 requests on the fixture.
beforeAll(async () => {
  await stack.start();
  projectId = await stack.createProject('hardening');
  for (const name of ['first', 'second']) {
    const { createApiKey } = await stack.query<{ createApiKey: { secret: string } }>(
      'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret } }',
      { input: { name, role: 'EDITOR', projectIds: [projectId] } },
    );
    keys.push(createApiKey.secret);
  }
});
afterAll(() => stack.stop());

const graphql = (key: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.url}/graphql`, {
    method: 'POST',
    headers: { 'X-API-Key': key, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: '{ projects { id } }' }),
  });

describe('rate limit per key', () => {
  it(`answers the request over ${LIMIT} a minute with 429 RATE_LIMITED and Retry-After, on GraphQL and REST`, async () => {
    const [first, second] = keys;
    for (let i = 0; i < LIMIT; i++) expect((await graphql(first)).status).toBe(200);
    const refused = await graphql(first);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await refused.json()).toEqual({
      errors: [
        { message: expect.stringContaining('too many requests'), extensions: { code: 'RATE_LIMITED' } },
      ],
    });

    const form = new FormData();
    form.append('file', new Blob(['# Over\n\nThe limit.\n']), 'over.md');
    const upload = await fetch(`${stack.url}/v1/projects/${projectId}/documents`, {
      method: 'POST',
      headers: { 'X-API-Key': first },
      body: form,
    });
    expect(upload.status).toBe(429);
    expect(Number(upload.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await upload.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');

    // Another key has its own budget; requests without a valid key spend no key's.
    for (let i = 0; i < 3; i++) expect((await graphql('trove_not-a-key')).status).toBe(401);
    expect((await graphql(second)).status).toBe(200);
  });
});

describe('CORS', () => {
  const preflight = (origin: string) =>
    fetch(`${stack.url}/graphql`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-api-key',
      },
    });

  it('answers preflights of the configured origin only', async () => {
    const allowed = await preflight(DASHBOARD);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(DASHBOARD);
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-key');
    const other = await preflight('http://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets the configured origin read answers, and no other', async () => {
    const ours = await graphql(keys[1], { origin: DASHBOARD });
    expect(ours.headers.get('access-control-allow-origin')).toBe(DASHBOARD);
    const theirs = await fetch(`${stack.url}/healthz`, { headers: { origin: 'http://evil.example' } });
    expect(theirs.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('security headers', () => {
  it('are on every answer: no sniffing, no framing, no referrer; nothing to run in API answers', async () => {
    const answers = [
      await fetch(`${stack.url}/healthz`),
      await fetch(`${stack.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      }),
      await fetch(`${stack.url}/v1/documents/00000000-0000-4000-8000-000000000000/original`),
    ];
    for (const answer of answers) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
      expect(answer.headers.get('x-powered-by')).toBeNull();
    }
    for (const answer of [answers[0], answers[2]]) {
      expect(answer.headers.get('content-security-policy')).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
    }
  });

  it('the admin key spent its budget like any key', async () => {
    // 3 requests in the fixture; 2 more fit.
    expect((await graphql(ADMIN_KEY)).status).toBe(200);
    expect((await graphql(ADMIN_KEY)).status).toBe(200);
    expect((await graphql(ADMIN_KEY)).status).toBe(429);
  });
});

describe('guessing keys', () => {
  it('failed attempts are limited per client address, apart from the keys used from there', async () => {
    const answers: Response[] = [];
    for (let i = 0; i <= LIMIT; i++) {
      const answer = await graphql(`trove_${'0'.repeat(32)}_${'A'.repeat(43)}`);
      answers.push(answer);
      if (answer.status === 429) break;
    }
    const refused = answers.at(-1)!;
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(answers.slice(0, -1).every((a) => a.status === 401)).toBe(true);
    expect((await graphql(keys[1])).status).toBe(200);
  });
});
