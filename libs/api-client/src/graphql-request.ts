import { apiErrorFrom } from './api-error';
import type { TypedDocumentString } from './gql/graphql';

/** An operation's variables as arguments: none for an operation that takes none. */
export type OperationVariables<TVariables> = TVariables extends Record<string, never> ? [] : [TVariables];

/**
 * What runs the API's typed GraphQL operations (./operations.ts): the Node client over HTTP, the
 * api itself in process (its MCP endpoint), a fake in tests. Code that only runs operations, such
 * as the MCP tools, takes this rather than a client.
 */
export interface TroveOperations {
  /** Runs one operation; throws TroveApiError for any error the API answers with. */
  request<TResult, TVariables>(
    document: TypedDocumentString<TResult, TVariables>,
    ...[variables]: OperationVariables<TVariables>
  ): Promise<TResult>;
}

/** Sends a request body to the API's /graphql (with whatever headers the transport adds). */
export type GraphqlTransport = (body: string) => Promise<Response>;

/**
 * Runs one typed operation (./operations.ts, generated into ./gql) over `transport`; throws
 * TroveApiError for any error the API answered with. Shared by the Node client and the dashboard.
 */
export async function runOperation<TResult, TVariables>(
  transport: GraphqlTransport,
  document: TypedDocumentString<TResult, TVariables>,
  variables?: TVariables,
): Promise<TResult> {
  const response = await transport(
    JSON.stringify({ query: document.toString(), variables: variables ?? {} }),
  );
  const body = (await readJson(response)) as { data?: TResult | null; errors?: unknown[] } | undefined;
  if (!response.ok || !body || body.errors?.length || !body.data) throw apiErrorFrom(response.status, body);
  return body.data;
}

/** A response's JSON body, or undefined when it has none or it is not JSON. */
export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
