import { type ExecutionResult, GraphQLError } from 'graphql';

/** How the playground's requests are authenticated: the tab's API key, or a person's session. */
export type Credential = { kind: 'key'; key: string } | { kind: 'session'; csrfToken: string };

type FetcherParams = { query: string; variables?: unknown; operationName?: string | null };
type FetcherOptions = { headers?: Record<string, unknown> };

/** The headers a credential adds to a request. */
export function credentialHeaders(credential: Credential | null): Record<string, string> {
  if (!credential) return {};
  return credential.kind === 'key'
    ? { 'x-api-key': credential.key }
    : { 'x-csrf-token': credential.csrfToken };
}

/**
 * A GraphiQL fetcher that adds the credential to every request, the schema's introspection
 * included (GraphiQL sends that one before its Headers pane exists, so a key kept only in the
 * pane never reached it). Headers typed in the pane are added on top and may replace it.
 */
export function authenticatedFetcher(credential: Credential | null) {
  return async (params: FetcherParams, options?: FetcherOptions): Promise<ExecutionResult> => {
    let response: Response;
    try {
      response = await fetch('/graphql', {
        method: 'POST',
        credentials: 'same-origin',
        headers: {
          'content-type': 'application/json',
          ...credentialHeaders(credential),
          ...(options?.headers as Record<string, string> | undefined),
        },
        body: JSON.stringify(params),
      });
    } catch {
      return { errors: [new GraphQLError('The API could not be reached (is it running?)')] };
    }
    // The API answers JSON, errors included; anything else (a proxy's error page) is named by its status.
    return (response.json() as Promise<ExecutionResult>).catch(() => ({
      errors: [new GraphQLError(`The API answered ${response.status}`)],
    })) as Promise<ExecutionResult>;
  };
}

/**
 * GraphiQL's tabs and history kept per project: examples filled with one project's ids are not
 * reopened in another. Only GraphiQL's own entries (under `prefix`) are counted and cleared.
 */
export function namespacedStorage(backing: Storage, prefix: string) {
  const keys = () => {
    const found: string[] = [];
    for (let i = 0; i < backing.length; i++) {
      const key = backing.key(i);
      if (key?.startsWith(`${prefix}:`)) found.push(key);
    }
    return found;
  };
  return {
    getItem: (key: string) => backing.getItem(`${prefix}:${key}`),
    setItem: (key: string, value: string) => backing.setItem(`${prefix}:${key}`, value),
    removeItem: (key: string) => backing.removeItem(`${prefix}:${key}`),
    clear: () => keys().forEach((key) => backing.removeItem(key)),
    get length() {
      return keys().length;
    },
  };
}
