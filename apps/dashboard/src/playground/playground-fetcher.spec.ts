import { afterEach, describe, expect, it, vi } from 'vitest';
import { authenticatedFetcher, credentialHeaders, namespacedStorage } from './playground-fetcher';

/** A Storage over a Map, as the browser's local storage behaves. */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

afterEach(() => vi.unstubAllGlobals());

describe('the playground fetcher', () => {
  it('sends the key, or the session CSRF token, with every request, the pane’s headers on top', async () => {
    const fetch = vi.fn(
      async () => new Response('{"data":{}}', { headers: { 'content-type': 'application/json' } }),
    );
    vi.stubGlobal('fetch', fetch);
    await authenticatedFetcher({ kind: 'key', key: 'trove_k' })({ query: '{ __schema { types { name } } }' });
    await authenticatedFetcher({ kind: 'session', csrfToken: 'csrf' })(
      { query: '{ me { name } }' },
      { headers: { 'X-Trove-Trace': '1' } },
    );
    const sent = fetch.mock.calls.map((call) => (call as unknown as [string, RequestInit])[1]);
    expect(sent[0]!.headers).toMatchObject({ 'x-api-key': 'trove_k' });
    expect(sent[1]!.headers).toMatchObject({ 'x-csrf-token': 'csrf', 'X-Trove-Trace': '1' });
    expect(sent.every((init) => init.credentials === 'same-origin')).toBe(true);
    expect(credentialHeaders(null)).toEqual({});
  });

  it('names an answer that is not JSON by its status, and an unreachable API in words', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502 })),
    );
    const proxied = await authenticatedFetcher(null)({ query: '{ me { name } }' });
    expect(proxied.errors?.[0]?.message).toBe('The API answered 502');
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const down = await authenticatedFetcher(null)({ query: '{ me { name } }' });
    expect(down.errors?.[0]?.message).toMatch(/could not be reached/);
  });
});

describe('namespacedStorage', () => {
  it('keeps each project’s tabs apart and clears only its own', () => {
    const backing = new MemoryStorage();
    backing.setItem('trove.apiKey', 'kept');
    const a = namespacedStorage(backing, 'trove.playground.a');
    const b = namespacedStorage(backing, 'trove.playground.b');
    a.setItem('graphiql:tabState', 'A');
    b.setItem('graphiql:tabState', 'B');
    expect(a.getItem('graphiql:tabState')).toBe('A');
    expect(a.length).toBe(1);
    a.clear();
    expect(a.getItem('graphiql:tabState')).toBeNull();
    expect(b.getItem('graphiql:tabState')).toBe('B');
    expect(backing.getItem('trove.apiKey')).toBe('kept');
  });
});
