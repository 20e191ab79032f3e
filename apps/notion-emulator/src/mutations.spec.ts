import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_IDS, defaultWorkspace } from './default-workspace';
import { NotionEmulator } from './emulator';
import { apiClient, MINUTE_RE, type Json } from './spec-client';

describe('Notion emulator: edits, trash, sharing and synced blocks', () => {
  let emulator: NotionEmulator;
  let api: ReturnType<typeof apiClient>;
  let clock = new Date('2026-11-02T10:23:45.678Z');

  beforeAll(async () => {
    emulator = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: Infinity, now: () => clock });
    api = apiClient(await emulator.start());
  });
  afterAll(() => emulator.stop());

  const page = async (id: string) => (await api.get(`/v1/pages/${id}`)).body;
  const block = async (id: string) => (await api.get(`/v1/blocks/${id}`)).body;

  it('edits bump the block and its page, rounded down to the minute, but not the parent page', async () => {
    const algorithms = await page(DEFAULT_IDS.algorithms);
    const topicId = (await api.children(DEFAULT_IDS.algorithms)).find((b) => b.type === 'child_page').id;
    const before = await page(topicId);
    const callout = (await api.children(topicId)).find((b) => b.type === 'callout');

    clock = new Date('2026-11-02T10:23:45.678Z');
    emulator.editBlockText(callout.id, 'Новый текст подсказки');

    const edited = await block(callout.id);
    expect(edited.last_edited_time).toBe('2026-11-02T10:23:00.000Z');
    expect(edited.callout.rich_text.map((r: Json) => r.plain_text).join('')).toBe('Новый текст подсказки');
    const after = await page(topicId);
    expect(after.last_edited_time).toBe('2026-11-02T10:23:00.000Z');
    expect(after.last_edited_time).not.toBe(before.last_edited_time);
    // Child page edits do not bubble up to the parent page.
    expect((await page(DEFAULT_IDS.algorithms)).last_edited_time).toBe(algorithms.last_edited_time);
  });

  it('renders every timestamp rounded down to the minute', async () => {
    const children = await api.children(DEFAULT_IDS.runbooks);
    const objects = [await page(DEFAULT_IDS.runbooks), ...children];
    for (const object of objects) {
      expect(object.created_time).toMatch(MINUTE_RE);
      expect(object.last_edited_time).toMatch(MINUTE_RE);
    }
  });

  it('keeps trashed pages retrievable but out of search and queries', async () => {
    const trashed = await page(DEFAULT_IDS.trashedPage);
    expect(trashed).toMatchObject({ in_trash: true, archived: true });
    expect((await api.children(DEFAULT_IDS.trashedPage)).length).toBeGreaterThan(0);
    const everything = await api.collect('/v1/search');
    expect(everything.map((r) => r.id)).not.toContain(DEFAULT_IDS.trashedPage);

    const rows = await api.collect(`/v1/data_sources/${DEFAULT_IDS.tasksDataSource}/query`);
    clock = new Date('2026-11-03T08:00:10.000Z');
    emulator.trashPage(rows[0].id);
    const remaining = await api.collect(`/v1/data_sources/${DEFAULT_IDS.tasksDataSource}/query`);
    expect(remaining.map((r) => r.id)).not.toContain(rows[0].id);
    expect(await page(rows[0].id)).toMatchObject({
      in_trash: true,
      last_edited_time: '2026-11-03T08:00:00.000Z',
    });
    emulator.restorePage(rows[0].id);
    expect((await api.collect(`/v1/data_sources/${DEFAULT_IDS.tasksDataSource}/query`)).length).toBe(
      rows.length,
    );
  });

  it('drops a trashed sub-page from its parent’s children and search', async () => {
    const meetings = await api.children(DEFAULT_IDS.meetings);
    const victim = meetings.find((b) => b.type === 'child_page');
    emulator.trashPage(victim.id);
    expect((await api.children(DEFAULT_IDS.meetings)).map((b) => b.id)).not.toContain(victim.id);
    expect(
      (await api.collect('/v1/search', { query: victim.child_page.title })).map((r) => r.id),
    ).not.toContain(victim.id);
    emulator.restorePage(victim.id);
    expect((await api.children(DEFAULT_IDS.meetings)).map((b) => b.id)).toContain(victim.id);
  });

  it('answers 404 for an unshared page everywhere, and for what lies below it', async () => {
    const link = (await api.children(DEFAULT_IDS.onboarding)).find(
      (b) => b.type === 'link_to_page' && b.link_to_page.page_id === DEFAULT_IDS.unsharedPage,
    );
    expect(link).toBeDefined();
    for (const path of [
      `/v1/pages/${DEFAULT_IDS.unsharedPage}`,
      `/v1/blocks/${DEFAULT_IDS.unsharedPage}`,
      `/v1/blocks/${DEFAULT_IDS.unsharedPage}/children`,
    ]) {
      const res = await api.get(path);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('object_not_found');
    }
    const mention = (await api.children(DEFAULT_IDS.onboarding))
      .flatMap((b) => b.paragraph?.rich_text ?? [])
      .find((r: Json) => r.type === 'mention' && r.mention.page.id === DEFAULT_IDS.unsharedPage);
    expect(mention.plain_text).toBe('Untitled');

    const runbookChildren = await api.children(DEFAULT_IDS.runbooks);
    const runbook = runbookChildren.find((b) => b.type === 'child_page');
    const runbookBlock = (await api.children(runbook.id))[0];
    emulator.unsharePage(DEFAULT_IDS.runbooks);
    expect((await api.get(`/v1/pages/${DEFAULT_IDS.runbooks}`)).status).toBe(404);
    expect((await api.get(`/v1/pages/${runbook.id}`)).status).toBe(404);
    expect((await api.get(`/v1/blocks/${runbookBlock.id}`)).status).toBe(404);
    expect((await api.collect('/v1/search')).map((r) => r.id)).not.toContain(runbook.id);
  });

  it('lists a synced block reference’s children as the original’s children', async () => {
    const fresh = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: Infinity });
    const freshApi = apiClient(await fresh.start());
    try {
      const original = (await freshApi.get(`/v1/blocks/${DEFAULT_IDS.syncedOriginal}`)).body;
      expect(original.synced_block).toEqual({ synced_from: null });
      expect(original.has_children).toBe(true);
      const reference = (await freshApi.children(DEFAULT_IDS.onCallBasics)).find(
        (b) => b.type === 'synced_block',
      );
      expect(reference.synced_block).toEqual({
        synced_from: { type: 'block_id', block_id: DEFAULT_IDS.syncedOriginal },
      });
      expect(reference.has_children).toBe(true);
      const viaReference = await freshApi.children(reference.id);
      const viaOriginal = await freshApi.children(DEFAULT_IDS.syncedOriginal);
      expect(viaReference).toEqual(viaOriginal);
      expect(viaReference[0].parent).toEqual({ type: 'block_id', block_id: DEFAULT_IDS.syncedOriginal });
    } finally {
      await fresh.stop();
    }
  });

  it('appends blocks and adds pages and rows', async () => {
    clock = new Date('2026-11-04T12:00:30.000Z');
    const [newBlock] = emulator.appendBlocks(DEFAULT_IDS.meetings, [
      { type: 'toggle', text: 'Новый раздел', children: [{ type: 'paragraph', text: 'Вложенный текст' }] },
    ]);
    const appended = (await api.children(DEFAULT_IDS.meetings)).at(-1);
    expect(appended).toMatchObject({ id: newBlock, type: 'toggle', has_children: true });
    expect(appended.created_time).toBe('2026-11-04T12:00:00.000Z');
    expect((await page(DEFAULT_IDS.meetings)).last_edited_time).toBe('2026-11-04T12:00:00.000Z');

    clock = new Date('2026-11-05T07:15:00.000Z');
    const subPage = emulator.addPage({
      parent: { type: 'page', id: DEFAULT_IDS.meetings },
      title: 'Retro 2026-11-05',
      blocks: [{ type: 'paragraph', text: 'What went well' }],
    });
    expect(await page(subPage)).toMatchObject({
      parent: { type: 'page_id', page_id: DEFAULT_IDS.meetings },
      created_time: '2026-11-05T07:15:00.000Z',
    });
    expect((await api.children(DEFAULT_IDS.meetings)).at(-1)).toMatchObject({
      id: subPage,
      type: 'child_page',
      child_page: { title: 'Retro 2026-11-05' },
    });

    // Appending to a sub-page changes that page only, not its parent.
    const hubBefore = (await page(DEFAULT_IDS.hub)).last_edited_time;
    clock = new Date('2026-11-05T08:00:00.000Z');
    emulator.appendBlocks(DEFAULT_IDS.algorithms, [{ type: 'paragraph', text: 'Ещё одна тема' }]);
    expect((await page(DEFAULT_IDS.algorithms)).last_edited_time).toBe('2026-11-05T08:00:00.000Z');
    expect((await page(DEFAULT_IDS.hub)).last_edited_time).toBe(hubBefore);

    const row = emulator.addPage({
      parent: { type: 'data_source', id: DEFAULT_IDS.bugsDataSource },
      properties: { Title: 'Emulator bug', Severity: 'Minor', Fixed: false },
    });
    const fresh = await api.collect(`/v1/data_sources/${DEFAULT_IDS.bugsDataSource}/query`, {
      filter: { timestamp: 'created_time', created_time: { on_or_after: '2026-11-05T07:15:00.000Z' } },
    });
    expect(fresh.map((r) => r.id)).toEqual([row]);
    expect(() => emulator.setRowProperty(row, 'Severity', 'Unknown')).toThrow(/unknown option/);
  });
});
