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
