import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { describe, expect, it, vi } from 'vitest';
import type { ApiConfig } from '@trove/config';
import { ApiKeyGuard } from './api-key.guard';
import { graphqlAuthentication } from './graphql-authentication';

const KEY = 'unit-test-admin-key-0123';
const middleware = graphqlAuthentication(
  new ApiKeyGuard(new Reflector(), { api: { adminApiKey: KEY } } as unknown as ApiConfig),
);

function call(
  method: string,
  originalUrl: string,
  headers: Record<string, string>,
  prefers = 'application/json',
) {
  const request = { method, originalUrl, headers, accepts: () => prefers } as unknown as Request;
  const sent: { status?: number; body?: unknown } = {};
  const response = {
    status: (status: number) => ((sent.status = status), response),
    json: (body: unknown) => (sent.body = body),
  } as unknown as Response;
  const next = vi.fn();
  middleware(request, response, next);
  return { ...sent, passed: next.mock.calls.length === 1 };
}

describe('graphqlAuthentication', () => {
  it('refuses any operation without the key, in the GraphQL error shape', () => {
    const refused = call('POST', '/graphql', {});
    expect(refused).toEqual({
      status: 401,
      body: {
        errors: [{ message: expect.stringContaining('API key'), extensions: { code: 'UNAUTHENTICATED' } }],
      },
      passed: false,
    });
    expect(call('GET', '/graphql?query={__schema{types{name}}}', {}, 'text/html').passed).toBe(false);
    expect(call('POST', '/graphql', { 'x-api-key': 'wrong' }).status).toBe(401);
  });

  it('lets the key through, and nothing without it, not even a browser page load', () => {
    expect(call('POST', '/graphql', { 'x-api-key': KEY }).passed).toBe(true);
    expect(call('GET', '/graphql', {}, 'text/html').passed).toBe(false);
    expect(call('GET', '/graphql', {}).passed).toBe(false);
  });
});
