import type { TypedDocumentString } from '../gql/graphql';
import { ApiError, apiErrorFrom } from './errors';
import { storedApiKey } from './session';

/** Called when the API refuses the key, so the app can sign out. */
let onUnauthenticated: () => void = () => undefined;
export function whenUnauthenticated(handler: () => void): void {
  onUnauthenticated = handler;
}

/** Runs one typed operation against /graphql with the signed-in key; throws ApiError on any error. */
export async function gql<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  variables?: TVariables,
): Promise<TResult> {
  const key = storedApiKey();
  const response = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
    body: JSON.stringify({ query: document.toString(), variables }),
  });
  let body: { data?: TResult; errors?: unknown[] } | undefined;
  try {
    body = (await response.json()) as typeof body;
  } catch {
    body = undefined;
  }
  if (!response.ok || !body || body.errors?.length || !body.data) {
    const error = apiErrorFrom(response.status, body);
    if (error.unauthenticated) onUnauthenticated();
    throw error;
  }
  return body.data;
}

/** Checks a key before keeping it: any cheap authenticated query will do. */
export async function checkApiKey(key: string): Promise<void> {
  const response = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ query: '{ projects { id } }' }),
  });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw apiErrorFrom(response.status, body);
}

export { ApiError };
