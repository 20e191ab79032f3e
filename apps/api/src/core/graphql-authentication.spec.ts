import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import type { ApiKeyLookup } from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import { keyAdmission } from '../access/admission.testing';
import { ApiKeyAuthenticator } from '../access/api-key-authenticator';
import { RequestRateLimit } from '../access/rate-limit';
import { graphqlAuthentication } from './graphql-authentication';

/** A catalog without API keys: only the bootstrap admin key authenticates. */
const NO_KEYS: ApiKeyLookup = { get: async () => undefined, touch: async () => false };

const KEY = 'unit-test-admin-key-0123';
const config = { api: { adminApiKey: KEY, rateLimitRequests: 3, rateLimitWindowSeconds: 60 } } as ApiConfig;
// Keys not in Trove's format never reach the catalog, so none is needed here.
const admission = () => keyAdmission(new ApiKeyAuthenticator(NO_KEYS, config), new RequestRateLimit(config));
let middleware = graphqlAuthentication(admission());

async function call(
  method: string,
  originalUrl: string,
  headers: Record<string, string>,
  prefers = 'application/json',
) {
  const request = {
    method,
    originalUrl,
    headers,
    ip: '10.1.2.3',
    accepts: () => prefers,
  } as unknown as Request;
  const sent: { status?: number; body?: unknown; headers: Record<string, string> } = { headers: {} };
  return new Promise<typeof sent & { passed: boolean }>((resolve) => {
    const response = {
      setHeader: (name: string, value: string) => (sent.headers[name] = value),
      status: (status: number) => ((sent.status = status), response),
      json: (body: unknown) => resolve({ ...sent, body, passed: false }),
    } as unknown as Response;
    middleware(request, response, () => resolve({ ...sent, passed: true }));
  });
}

describe('graphqlAuthentication', () => {
  it('refuses any operation without the key, in the GraphQL error shape', async () => {
    const refused = await call('POST', '/graphql', {});
    expect(refused).toEqual({
      status: 401,
      headers: {},
      body: {
        errors: [{ message: expect.stringContaining('API key'), extensions: { code: 'UNAUTHENTICATED' } }],
      },
      passed: false,
    });
    expect((await call('GET', '/graphql?query={__schema{types{name}}}', {}, 'text/html')).passed).toBe(false);
    expect((await call('POST', '/graphql', { 'x-api-key': 'wrong' })).status).toBe(401);
  });

  it('lets the key through, and nothing without it, not even a browser page load', async () => {
    middleware = graphqlAuthentication(admission());
    expect((await call('POST', '/graphql', { 'x-api-key': KEY })).passed).toBe(true);
    expect((await call('GET', '/graphql', {}, 'text/html')).passed).toBe(false);
    expect((await call('GET', '/graphql', {})).passed).toBe(false);
  });

  it("answers 429 RATE_LIMITED with Retry-After once the key's requests exceed the limit", async () => {
    middleware = graphqlAuthentication(admission());
    for (let i = 0; i < 3; i++)
      expect((await call('POST', '/graphql', { 'x-api-key': KEY })).passed).toBe(true);
    const refused = await call('POST', '/graphql', { 'x-api-key': KEY });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['Retry-After'])).toBeGreaterThan(0);
    expect(refused.body).toEqual({
      errors: [{ message: expect.stringContaining('retry after'), extensions: { code: 'RATE_LIMITED' } }],
    });
  });
});

describe('graphqlAuthentication against key guessing', () => {
  it('answers 429 once an address has failed more often than the limit allows', async () => {
    middleware = graphqlAuthentication(admission());
    for (let i = 0; i < 3; i++)
      expect((await call('POST', '/graphql', { 'x-api-key': `guess-${i}` })).status).toBe(401);
    const refused = await call('POST', '/graphql', { 'x-api-key': 'guess-3' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['Retry-After'])).toBeGreaterThan(0);
  });
});
