import { createClient, type Client } from 'graphql-ws';
import type { TypedDocumentString } from '@trove/api-client/browser';
import { sessionCsrf, storedApiKey } from './session';

let client: Client | undefined;
let clientKey: string | null = null;

/** One graphql-ws connection per signed-in key, to /graphql on this origin; the key goes in connectionParams. */
function liveClient(): Client {
  const key = storedApiKey();
  if (!client || clientKey !== key) {
    void client?.dispose();
    clientKey = key;
    const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/graphql`;
    client = createClient({
      url,
      // A key, or a person's session (its cookie goes with the upgrade; its CSRF token here).
      connectionParams: key ? { 'X-API-Key': key } : { 'X-CSRF-Token': sessionCsrf() ?? '' },
      lazy: true,
      retryAttempts: 3,
    });
  }
  return client;
}

/**
 * Subscribes to a typed subscription; `onData` gets each result, `onEnd` is called once when the
 * server ends it (`failed` when the connection or the operation failed). Returns the unsubscribe.
 */
export function subscribe<TResult, TVariables extends Record<string, unknown>>(
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
  onData: (data: TResult) => void,
  onEnd: (failed: boolean) => void,
): () => void {
  return liveClient().subscribe<TResult>(
    { query: document.toString(), variables },
    {
      next: (result) => {
        if (result.data) onData(result.data);
      },
      error: () => onEnd(true),
      complete: () => onEnd(false),
    },
  );
}

export function closeLiveConnection(): void {
  void client?.dispose();
  client = undefined;
  clientKey = null;
}
