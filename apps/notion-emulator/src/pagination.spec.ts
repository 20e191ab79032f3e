import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_IDS, defaultWorkspace } from './default-workspace';
import { NotionEmulator } from './emulator';
import { apiClient, type Json } from './spec-client';

describe('Notion emulator: pagination', () => {
  let emulator: NotionEmulator;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    emulator = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: Infinity });
    api = apiClient(await emulator.start());
  });
  afterAll(() => emulator.stop());

  it('pages block children 100 at a time by default, with an opaque next_cursor', async () => {
    const first = await api.get(`/v1/blocks/${DEFAULT_IDS.cheatsheet}/children`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: 'list', type: 'block', block: {}, has_more: true });
    expect(first.body.results).toHaveLength(100);
    expect(typeof first.body.next_cursor).toBe('string');

    const second = await api.get(
      `/v1/blocks/${DEFAULT_IDS.cheatsheet}/children?start_cursor=${encodeURIComponent(first.body.next_cursor)}`,
    );
    expect(second.status).toBe(200);
    expect(second.body.has_more).toBe(false);
    expect(second.body.next_cursor).toBeNull();
    expect(second.body.results.length).toBeGreaterThan(0);

    const ids = [...first.body.results, ...second.body.results].map((b: Json) => b.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(100);
    expect(first.body.results.every((b: Json) => b.object === 'block')).toBe(true);
  });

  it('honours page_size and walks the same blocks in the same order', async () => {
    const all = await api.children(DEFAULT_IDS.cheatsheet, 100);
    const bySeven = await api.children(DEFAULT_IDS.cheatsheet, 7);
    expect(bySeven.map((b) => b.id)).toEqual(all.map((b) => b.id));
  });

  it('rejects page_size above 100 or below 1 with 400 validation_error', async () => {
    for (const size of [101, 0, -1]) {
      const res = await api.get(`/v1/blocks/${DEFAULT_IDS.cheatsheet}/children?page_size=${size}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ object: 'error', status: 400, code: 'validation_error' });
    }
    const search = await api.post('/v1/search', { page_size: 101 });
    expect(search.status).toBe(400);
    expect(search.body.code).toBe('validation_error');
    const query = await api.post(`/v1/data_sources/${DEFAULT_IDS.questionsDataSource}/query`, {
      page_size: 500,
    });
    expect(query.body.code).toBe('validation_error');
  });

  it('rejects a cursor it did not hand out', async () => {
    const res = await api.get(`/v1/blocks/${DEFAULT_IDS.cheatsheet}/children?start_cursor=bogus`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
  });

  it('pages search results without duplicates or gaps', async () => {
    const pageSize = 37;
    const seen: string[] = [];
    let cursor: string | null = null;
    let calls = 0;
    do {
      const res = await api.post('/v1/search', {
        page_size: pageSize,
        ...(cursor ? { start_cursor: cursor } : {}),
      });
      expect(res.body).toMatchObject({
        object: 'list',
        type: 'page_or_data_source',
        page_or_data_source: {},
      });
      expect(res.body.results.length).toBeLessThanOrEqual(pageSize);
      seen.push(...res.body.results.map((r: Json) => r.id));
      cursor = res.body.next_cursor;
      calls++;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    const everything = await api.collect('/v1/search', { page_size: 100 });
    expect(seen).toEqual(everything.map((r) => r.id));
    expect(calls).toBe(Math.ceil(seen.length / pageSize));
  });
});
