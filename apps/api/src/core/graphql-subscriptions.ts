import type { Request } from 'express';
import type { IncomingMessage } from 'node:http';
import type { Context } from 'graphql-ws';
import type { ApiKeyGuard } from './api-key.guard';

/** What Nest passes to the GraphQL context factory: an HTTP request, or a graphql-ws connection. */
export type GraphqlContextSource = { req?: Request } | Context;

/**
 * The request a GraphQL operation is authorised by. Over HTTP, the request itself; over
 * graphql-ws (subscriptions), the upgrade request, with the key taken from the connection's
 * `connectionParams` (`X-API-Key` or `Authorization`, any case): browsers cannot set headers on a
 * WebSocket, so that is where clients send it.
 */
export function graphqlRequest(source: GraphqlContextSource): Request {
  if ('req' in source && source.req) return source.req;
  const connection = source as Context<Record<string, unknown>, { request?: IncomingMessage }>;
  const params = connection.connectionParams ?? {};
  const param = (name: string) =>
    Object.entries(params).find(
      ([key, value]) => key.toLowerCase() === name && typeof value === 'string',
    )?.[1] as string | undefined;
  const headers: Record<string, unknown> = { ...connection.extra?.request?.headers };
  for (const name of ['x-api-key', 'authorization']) {
    const value = param(name);
    if (value !== undefined) headers[name] = value;
  }
  return { headers } as unknown as Request;
}

/**
 * Authenticates a graphql-ws connection before any subscription is parsed or run: a refused key
 * closes the socket (4403 Forbidden). The guard is attached once the app is built (bootstrap.ts),
 * as the HTTP middleware receives it.
 */
export class SubscriptionGate {
  private guard?: ApiKeyGuard;

  attach(guard: ApiKeyGuard): void {
    this.guard = guard;
  }

  readonly onConnect = (connection: Context): boolean => {
    if (!this.guard) return false;
    try {
      this.guard.checkRequest(graphqlRequest(connection));
      return true;
    } catch {
      return false;
    }
  };
}
