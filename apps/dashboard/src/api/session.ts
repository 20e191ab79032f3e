/** Where the signed-in API key lives: this tab's session storage, shared with the playground page. */
export const API_KEY_STORAGE = 'trove.apiKey';

export function storedApiKey(): string | null {
  return sessionStorage.getItem(API_KEY_STORAGE);
}

export function storeApiKey(key: string): void {
  sessionStorage.setItem(API_KEY_STORAGE, key);
}

export function forgetApiKey(): void {
  sessionStorage.removeItem(API_KEY_STORAGE);
}

/**
 * A person's browser session: the session cookie is HttpOnly (this page never sees it); what the
 * page keeps, in memory only, is the session's CSRF token, sent with every request.
 */
let csrfToken: string | null = null;

export function setSessionCsrf(token: string | null): void {
  csrfToken = token;
}

export function sessionCsrf(): string | null {
  return csrfToken;
}

/** The headers that authenticate a request of this tab: the API key, or the session's CSRF token. */
export function authHeaders(): Record<string, string> {
  const key = storedApiKey();
  if (key) return { 'x-api-key': key };
  return csrfToken ? { 'x-csrf-token': csrfToken } : {};
}
