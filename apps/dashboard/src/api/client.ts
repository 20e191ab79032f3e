import {
  type AskStreamEvent,
  type AskStreamRequest,
  exportFeedback,
  MeDocument,
  runOperation,
  streamAnswer,
  TroveApiError,
  type TypedDocumentString,
} from '@trove/api-client/browser';
import { storedApiKey } from './session';

/** Called when the API refuses the key, so the app can sign out. */
let onUnauthenticated: () => void = () => undefined;
export function whenUnauthenticated(handler: () => void): void {
  onUnauthenticated = handler;
}

/** POSTs a GraphQL request body to /graphql on this origin with `key`. */
function post(key: string | null) {
  return (body: string) =>
    fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
      body,
    });
}

/** Runs one typed operation against /graphql with the signed-in key; throws TroveApiError on any error. */
export async function gql<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  variables?: TVariables,
): Promise<TResult> {
  try {
    return await runOperation(post(storedApiKey()), document, variables);
  } catch (error) {
    if (error instanceof TroveApiError && error.kind === 'auth') onUnauthenticated();
    throw error;
  }
}

/**
 * A streamed answer (`POST /v1/projects/:id/ask/stream`) with the signed-in key: the passages,
 * the text as it is written, the verified result. Aborting `signal` stops the answer on the server.
 */
export async function* askStream(
  projectId: string,
  request: AskStreamRequest,
  signal: AbortSignal,
): AsyncGenerator<AskStreamEvent> {
  try {
    yield* streamAnswer(withKey(storedApiKey()), projectId, request, { signal });
  } catch (error) {
    if (error instanceof TroveApiError && error.kind === 'auth') onUnauthenticated();
    throw error;
  }
}

/** A REST request on this origin with `key`. */
function withKey(key: string | null) {
  return (path: string, init: RequestInit) => {
    const headers = new Headers(init.headers);
    if (key) headers.set('x-api-key', key);
    return fetch(path, { ...init, headers });
  };
}

/** The project's feedback export (ADMIN keys): every vote as JSON Lines, and how many there are. */
export async function feedbackExport(projectId: string): Promise<{ count: number; text: string }> {
  try {
    const { lines } = await exportFeedback(withKey(storedApiKey()), projectId);
    let text = '';
    let count = 0;
    for await (const line of lines) {
      text += `${line}\n`;
      count += 1;
    }
    return { count, text };
  } catch (error) {
    if (error instanceof TroveApiError && error.kind === 'auth') onUnauthenticated();
    throw error;
  }
}

/** Checks a key before keeping it: any cheap authenticated query will do. */
export async function checkApiKey(key: string): Promise<void> {
  await runOperation(post(key), MeDocument);
}
