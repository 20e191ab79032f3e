import { Reflector } from '@nestjs/core';
import type { Context } from 'graphql-ws';
import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import type { ApiConfig } from '@trove/config';
import { ApiKeyGuard } from './api-key.guard';
import { graphqlRequest, SubscriptionGate } from './graphql-subscriptions';

const KEY = 'unit-test-admin-key-0123';
const guard = new ApiKeyGuard(new Reflector(), { api: { adminApiKey: KEY } } as unknown as ApiConfig);

function connection(
  connectionParams?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Context {
  return { connectionParams, extra: { request: { headers } } } as unknown as Context;
}

describe('GraphQL subscriptions', () => {
  it('authorise by the key in connectionParams, in any case, or by the upgrade request', () => {
    expect(graphqlRequest(connection({ 'X-API-Key': KEY })).headers['x-api-key']).toBe(KEY);
    expect(graphqlRequest(connection({ authorization: `Bearer ${KEY}` })).headers.authorization).toBe(
      `Bearer ${KEY}`,
    );
    expect(graphqlRequest(connection(undefined, { 'x-api-key': KEY })).headers['x-api-key']).toBe(KEY);
    const http = { headers: { 'x-api-key': 'h' } } as unknown as Request;
    expect(graphqlRequest({ req: http })).toBe(http);
  });

  it('close a connection without a valid key before any operation', () => {
    const gate = new SubscriptionGate();
    expect(gate.onConnect(connection({ 'X-API-Key': KEY }))).toBe(false); // no guard attached yet
    gate.attach(guard);
    expect(gate.onConnect(connection({ 'X-API-Key': KEY }))).toBe(true);
    expect(gate.onConnect(connection({ 'x-api-key': KEY }))).toBe(true);
    expect(gate.onConnect(connection({ 'X-API-Key': 'wrong-key' }))).toBe(false);
    expect(gate.onConnect(connection({}))).toBe(false);
    expect(gate.onConnect(connection({ 'X-API-Key': 42 }))).toBe(false);
  });
});
