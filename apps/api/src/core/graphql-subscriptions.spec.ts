import { buildSchema, type ExecutionArgs, GraphQLError } from 'graphql';
import type { Context } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import type { ApiKeyLookup, StoredApiKey } from '@trove/catalog';
import { type ApiConfig, graphqlLimitsSchema } from '@trove/config';
import { ApiKeyRole, TroveError, TroveErrorCode } from '@trove/domain';
import { ApiKeyAuthenticator } from '../access/api-key-authenticator';
import { newApiKeySecret } from '../access/api-key-secret';
import { RateLimitedError, RequestRateLimit } from '../access/rate-limit';
import { keyAdmission } from '../access/admission.testing';
import { rememberedPrincipal } from '../access/request-principal';
import { graphqlProtection } from './graphql-limits';
import { RATE_LIMITED_CLOSE, SubscriptionGate } from './graphql-subscriptions';

const ADMIN = 'unit-test-admin-key-0123';
const KEY_ID = '0b6f3c1e-8a4d-4f2a-9c7e-1d2e3f4a5b6c';
const schema = buildSchema(`
  type Query { projects: [String!]! }
  type Mutation { createApiKey: String! }
  type Subscription { syncRunUpdates(id: ID!): String! }
`);

/** A gate over a catalog holding one VIEWER key, which the test may revoke. */
function setup(rateLimitRequests = 100) {
  const { token, secretSha256 } = newApiKeySecret(KEY_ID);
  const stored: StoredApiKey = {
    id: KEY_ID,
    name: 'viewer',
    role: ApiKeyRole.VIEWER,
    projectIds: null,
    secretSha256,
    createdBy: 'admin',
    createdAt: '2026-11-26T00:00:00Z',
  };
  const apiKeys: ApiKeyLookup = {
    get: async (id: string) => (id === KEY_ID ? stored : undefined),
    touch: async () => false,
  };
  const config = { api: { adminApiKey: ADMIN, rateLimitRequests, rateLimitWindowSeconds: 60 } } as ApiConfig;
  const admission = keyAdmission(new ApiKeyAuthenticator(apiKeys, config), new RequestRateLimit(config));
  const logged: string[] = [];
  const gate = new SubscriptionGate(
    { perConnection: 2, perKey: 3 },
    graphqlProtection(graphqlLimitsSchema.parse({})),
  );
  gate.attach({ admission, schema: () => schema, log: (line) => logged.push(line) });
  const closed: { code: number; reason: string }[] = [];
  const connection = (key: string, address = '10.1.2.3') =>
    ({
      connectionParams: { 'X-API-Key': key },
      extra: {
        request: { socket: { remoteAddress: address } },
        socket: { close: (code: number, reason: string) => closed.push({ code, reason }) },
      },
      subscriptions: {},
    }) as unknown as Context;
  return { token, stored, gate, logged, closed, connection };
}

const follow = { query: 'subscription { syncRunUpdates(id: "r") }' };

/** The code of the first error onSubscribe answers, as the client gets it; 'ADMITTED' for execution args. */
async function outcome(gate: SubscriptionGate, connection: Context, id: string, payload = follow) {
  const answer = await gate.onSubscribe(connection, id, payload);
  if (!Array.isArray(answer)) return 'ADMITTED';
  const [first] = gate.onError(connection, id, payload, answer as GraphQLError[]);
  return `${String(first.extensions?.code)}: ${first.message}`;
}

describe('SubscriptionGate: every operation admitted again', () => {
  it('refuses the next operation of a socket whose key was revoked after connection_init', async () => {
    const { token, stored, gate, connection } = setup();
    const socket = connection(token);
    expect(await gate.onConnect(socket)).toBe(true);
    expect(await outcome(gate, socket, '1')).toBe('ADMITTED');
    stored.revokedAt = new Date().toISOString();
    expect(await outcome(gate, socket, '2')).toBe('UNAUTHENTICATED: the API key is not valid');
  });

  it('gives each operation its own principal, never the connection’s', async () => {
    const { token, gate, connection } = setup();
    const socket = connection(token);
    await gate.onConnect(socket);
    const args = (await gate.onSubscribe(socket, '1', follow)) as ExecutionArgs;
    const again = (await gate.onSubscribe(socket, '2', follow)) as ExecutionArgs;
    expect(args.contextValue).not.toBe(again.contextValue);
    expect(rememberedPrincipal(args.contextValue as object)).toMatchObject({ keyId: KEY_ID, role: 'VIEWER' });
    expect(rememberedPrincipal(socket)).toBeUndefined();
  });

  it("counts connection_init and every operation in the key's rate limit", async () => {
    const { token, gate, connection } = setup(3);
    const socket = connection(token);
    expect(await gate.onConnect(socket)).toBe(true);
    expect(await outcome(gate, socket, '1')).toBe('ADMITTED');
    expect(await outcome(gate, socket, '2')).toBe('ADMITTED');
    expect(await outcome(gate, socket, '3')).toMatch(
      /^RATE_LIMITED: too many requests for this API key; retry after \d+ s$/,
    );
  });

  it('closes a connection_init over the address failure budget with 4429; a valid key still gets in', async () => {
    const { token, gate, closed, connection } = setup(2);
    expect(await gate.onConnect(connection('wrong-1'))).toBe(false);
    expect(await gate.onConnect(connection('wrong-2'))).toBe(false);
    expect(closed).toEqual([]);
    expect(await gate.onConnect(connection('wrong-3'))).toBe(false);
    expect(closed).toEqual([
      { code: RATE_LIMITED_CLOSE, reason: expect.stringMatching(/^RATE_LIMITED: too many requests/) },
    ]);
    expect(await gate.onConnect(connection('wrong-4', '10.9.9.9'))).toBe(false);
    expect(closed).toHaveLength(1);
    expect(await gate.onConnect(connection(token))).toBe(true);
  });
});

describe('SubscriptionGate: subscriptions only, with the limits of HTTP', () => {
  it('refuses queries and mutations with BAD_REQUEST', async () => {
    const { gate, connection } = setup();
    const socket = connection(ADMIN);
    expect(await outcome(gate, socket, '1', { query: '{ projects }' })).toBe(
      'BAD_REQUEST: only subscriptions are served over WebSocket; send this query to POST /graphql',
    );
    expect(await outcome(gate, socket, '2', { query: 'mutation { createApiKey }' })).toMatch(
      /^BAD_REQUEST: .*mutation/,
    );
  });

  it('refuses over-limit documents with QUERY_TOO_COMPLEX and invalid ones with GraphQL’s codes', async () => {
    const { gate, connection } = setup();
    const socket = connection(ADMIN);
    const aliases = `{ ${Array.from({ length: 16 }, (_, i) => `a${i}: projects`).join(' ')} }`;
    const refused = (await gate.onSubscribe(socket, '1', { query: aliases })) as GraphQLError[];
    expect(gate.onError(socket, '1', { query: aliases }, refused)).toContainEqual({
      message: 'Aliases limit of 15 exceeded, found 16.',
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
    expect(
      await outcome(gate, socket, '2', {
        query: `subscription { syncRunUpdates(id: "r") ${'__typename '.repeat(1200)} }`,
      }),
    ).toBe('QUERY_TOO_COMPLEX: Token limit of 1000 exceeded.');
    expect(await outcome(gate, socket, '3', { query: 'subscription { syncRunUpdatez(id: "r") }' })).toMatch(
      /^GRAPHQL_VALIDATION_FAILED: Cannot query field "syncRunUpdatez".*\[Suggestion hidden\]/,
    );
    expect(await outcome(gate, socket, '4', { query: 'subscription {' })).toMatch(
      /^GRAPHQL_PARSE_FAILED: Syntax Error/,
    );
  });
});

describe('SubscriptionGate: open subscriptions capped', () => {
  it('per connection and per key; a completed or closed one frees its slot', async () => {
    const { token, gate, connection } = setup();
    const [first, second] = [connection(token), connection(token)];
    expect(await outcome(gate, first, 'a')).toBe('ADMITTED');
    expect(await outcome(gate, first, 'b')).toBe('ADMITTED');
    expect(await outcome(gate, first, 'c')).toBe(
      'RATE_LIMITED: too many subscriptions on this connection (at most 2); complete one first',
    );
    expect(await outcome(gate, second, 'a')).toBe('ADMITTED');
    expect(await outcome(gate, second, 'b')).toBe(
      'RATE_LIMITED: too many subscriptions for this API key (at most 3); complete one first',
    );
    gate.onComplete(first, 'a');
    expect(await outcome(gate, second, 'b')).toBe('ADMITTED');
    gate.onClose(second);
    expect(gate.openFor(KEY_ID)).toBe(1);
    expect(await outcome(gate, connection(ADMIN), 'x')).toBe('ADMITTED');
  });
});

describe('SubscriptionGate errors', () => {
  const { gate, logged, connection } = setup();
  const format = (error: GraphQLError) => gate.onError(connection(ADMIN), '1', follow, [error]);

  it('gives an error raised while a subscription runs its stable code', () => {
    const revoked = new TroveError(TroveErrorCode.Unauthenticated, 'the API key was revoked');
    expect(
      format(new GraphQLError(revoked.message, { originalError: revoked, path: ['syncRunUpdates'] })),
    ).toEqual([
      {
        message: 'the API key was revoked',
        path: ['syncRunUpdates'],
        extensions: { code: 'UNAUTHENTICATED' },
      },
    ]);
    expect(format(new GraphQLError('x', { originalError: new RateLimitedError(3) }))).toEqual([
      {
        message: 'too many requests for this API key; retry after 3 s',
        extensions: { code: 'RATE_LIMITED' },
      },
    ]);
  });

  it('answers an error without a client code with INTERNAL and a generic message, details logged', () => {
    logged.length = 0;
    expect(
      format(new GraphQLError('connect ECONNREFUSED 10.0.0.5:5432', { path: ['syncRunUpdates'] })),
    ).toEqual([
      {
        message: 'internal error; see the API logs',
        path: ['syncRunUpdates'],
        extensions: { code: 'INTERNAL' },
      },
    ]);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('ECONNREFUSED');
  });

  it('formats the errors of a result sent with `next` the same way', () => {
    const notFound = new GraphQLError('sync run r not found', {
      extensions: { code: 'SYNC_RUN_NOT_FOUND', status: 404 },
    });
    expect(
      gate.onNext(connection(ADMIN), '1', follow, {} as ExecutionArgs, { data: null, errors: [notFound] }),
    ).toEqual({
      data: null,
      errors: [{ message: 'sync run r not found', extensions: { code: 'SYNC_RUN_NOT_FOUND' } }],
    });
    expect(
      gate.onNext(connection(ADMIN), '1', follow, {} as ExecutionArgs, { data: { a: 1 } }),
    ).toBeUndefined();
  });
});
