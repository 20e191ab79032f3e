import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_IDS, defaultWorkspace } from './default-workspace';
import { NotionEmulator } from './emulator';
import { apiClient } from './spec-client';

describe('Notion emulator: rate limiting and stats', () => {
  let emulator: NotionEmulator | undefined;
  afterEach(() => emulator?.stop());

  it('allows a burst, then answers 429 rate_limited with an integer Retry-After, counted in stats', async () => {
    emulator = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: 2, burst: 4 });
    const api = apiClient(await emulator.start());
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof api.get>> | undefined;
    for (let i = 0; i < 8; i++) {
      const res = await api.get('/v1/users/me');
      statuses.push(res.status);
      if (res.status === 429 && !limited) limited = res;
    }
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(statuses).toContain(429);
    expect(limited!.body).toMatchObject({ object: 'error', status: 429, code: 'rate_limited' });
    const retryAfter = limited!.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(emulator.stats.rateLimited).toBe(statuses.filter((s) => s === 429).length);
    expect(emulator.stats.total).toBe(8);

    await new Promise((resolve) => setTimeout(resolve, Number(retryAfter) * 1000));
    expect((await api.get('/v1/users/me')).status).toBe(200);
  });

  it('defaults to 3 requests per second with a burst of 10', async () => {
    emulator = new NotionEmulator(defaultWorkspace());
    const api = apiClient(await emulator.start());
    const results = await Promise.all(Array.from({ length: 14 }, () => api.get('/v1/users/me')));
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(10);
    expect(ok).toBeLessThanOrEqual(11);
    expect(emulator.stats.rateLimited).toBe(14 - ok);
  });

  it('counts requests by route and resets the stats', async () => {
    emulator = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: Infinity });
    const api = apiClient(await emulator.start());
    await api.get(`/v1/pages/${DEFAULT_IDS.hub}`);
    await api.get(`/v1/pages/${DEFAULT_IDS.handbook}`);
    await api.get(`/v1/blocks/${DEFAULT_IDS.hub}/children`);
    await api.post('/v1/search', {});
    expect(emulator.stats).toEqual({
      total: 4,
      rateLimited: 0,
      byRoute: {
        'GET /v1/pages/:page_id': 2,
        'GET /v1/blocks/:block_id/children': 1,
        'POST /v1/search': 1,
      },
    });
    emulator.resetStats();
    expect(emulator.stats).toEqual({ total: 0, byRoute: {}, rateLimited: 0 });
  });
});
