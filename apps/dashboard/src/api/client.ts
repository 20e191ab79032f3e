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
import { authHeaders } from './session';

/** Called when the API refuses the key, so the app can sign out. */
let onUnauthenticated: () => void = () => undefined;
export function whenUnauthenticated(handler: () => void): void {
  onUnauthenticated = handler;
}

/** POSTs a GraphQL request body to /graphql on this origin, as the signed-in key or person (`headers`). */
function post(headers: Record<string, string>) {
  return (body: string) =>
    fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      credentials: 'same-origin',
    });
}

/** Runs one typed operation against /graphql with the signed-in key; throws TroveApiError on any error. */
export async function gql<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  variables?: TVariables,
): Promise<TResult> {
  try {
    return await runOperation(post(authHeaders()), document, variables);
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
    yield* streamAnswer(withAuth(), projectId, request, { signal });
  } catch (error) {
    if (error instanceof TroveApiError && error.kind === 'auth') onUnauthenticated();
    throw error;
  }
}

/** A REST request on this origin as the signed-in key or person. */
function withAuth() {
  return (path: string, init: RequestInit) => {
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(authHeaders())) headers.set(name, value);
    return fetch(path, { ...init, headers, credentials: 'same-origin' });
  };
}

/** The audit log as JSON Lines (GET /v1/audit.jsonl), for a download. */
export async function auditExport(query: string): Promise<Blob> {
  const response = await withAuth()(`/v1/audit.jsonl${query ? `?${query}` : ''}`, {});
  if (!response.ok)
    throw new TroveApiError(`the export failed (${response.status})`, 'HTTP_' + response.status);
  return response.blob();
}

/** The project's feedback export (ADMIN keys): every vote as JSON Lines, and how many there are. */
export async function feedbackExport(projectId: string): Promise<{ count: number; text: string }> {
  try {
    const { lines } = await exportFeedback(withAuth(), projectId);
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
  await runOperation(post({ 'x-api-key': key }), MeDocument);
}
