import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_IDS, defaultWorkspace } from './default-workspace';
import { NotionEmulator } from './emulator';
import { apiClient, MINUTE_RE, type Json } from './spec-client';
import { BLOCK_TYPES, loadWorkspace, PROPERTY_TYPES, WorkspaceValidationError } from './workspace';

interface Crawl {
  pages: Map<string, Json>;
  blocks: Map<string, Json>;
  /** Depth of each block below its page (top-level blocks are 1). */
  depth: Map<string, number>;
  topLevel: Map<string, number>;
  notFound: string[];
}

/** Crawls the workspace through the API like a connector: search, then every page's block tree. */
async function crawl(api: ReturnType<typeof apiClient>): Promise<Crawl> {
  const result: Crawl = {
    pages: new Map(),
    blocks: new Map(),
    depth: new Map(),
    topLevel: new Map(),
    notFound: [],
  };
  const queue = (await api.collect('/v1/search', { filter: { property: 'object', value: 'page' } })).map(
    (p) => p.id,
  );
  const walk = async (parentId: string, depth: number): Promise<Json[]> => {
    const children = await api.children(parentId);
    for (const child of children) {
      result.blocks.set(child.id, child);
      result.depth.set(child.id, Math.max(depth, result.depth.get(child.id) ?? 0));
      if (child.type === 'child_page' && !result.pages.has(child.id)) queue.push(child.id);
      if (child.type === 'link_to_page' && child.link_to_page.page_id) queue.push(child.link_to_page.page_id);
      if (child.has_children && child.type !== 'child_page') await walk(child.id, depth + 1);
    }
    return children;
  };
  while (queue.length > 0) {
    const id = queue.shift()!;
    if (result.pages.has(id) || result.notFound.includes(id)) continue;
    const res = await api.get(`/v1/pages/${id}`);
    if (res.status === 404) {
      result.notFound.push(id);
      continue;
    }
    result.pages.set(id, res.body);
    result.topLevel.set(id, (await walk(id, 1)).length);
  }
  return result;
}

describe('the default workspace', () => {
  let emulator: NotionEmulator;
  let api: ReturnType<typeof apiClient>;
  let seen: Crawl;

  beforeAll(async () => {
    emulator = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: Infinity });
    api = apiClient(await emulator.start());
    seen = await crawl(api);
  });
  afterAll(() => emulator.stop());

  it('is deterministic', () => {
    expect(JSON.stringify(defaultWorkspace())).toBe(JSON.stringify(defaultWorkspace()));
  });

  it('has about 250 pages in Russian and English, with databases and rows', () => {
    const workspace = defaultWorkspace();
    expect(workspace.pages.length).toBeGreaterThanOrEqual(220);
    expect(workspace.pages.length).toBeLessThanOrEqual(300);
    const titles = [...seen.pages.values()].map((p) =>
      Object.values<Json>(p.properties)
        .find((v) => v.type === 'title')
        .title.map((r: Json) => r.plain_text)
        .join(''),
    );
    expect(titles.some((title) => /[а-яё]/i.test(title))).toBe(true);
    expect(titles.some((title) => /^[A-Za-z0-9 :\-(),.]+$/.test(title))).toBe(true);
    expect(workspace.databases.map((d) => d.title)).toEqual([
      'Вопросы для собеседования',
      'Team ADRs',
      'Engineering tracker',
    ]);
    const questions = workspace.pages.filter(
      (p) => p.parent.type === 'data_source' && p.parent.id === DEFAULT_IDS.questionsDataSource,
    );
    expect(questions.length).toBeGreaterThanOrEqual(60);
  });

  it('is reachable through the API except for the unshared page', () => {
    // Search leaves out the trashed page, but a link_to_page leads to it; the unshared one answers 404.
    expect(seen.pages.size).toBe(defaultWorkspace().pages.length - 1);
    expect(seen.notFound).toEqual([DEFAULT_IDS.unsharedPage]);
    expect(seen.pages.get(DEFAULT_IDS.trashedPage)).toMatchObject({ in_trash: true, archived: true });
  });

  it('contains every block type, as the API returns them', () => {
    const types = new Set([...seen.blocks.values()].map((b) => b.type));
    expect([...types].sort()).toEqual([...BLOCK_TYPES].sort());
  });

  it('has a page with more than 100 top-level blocks and blocks nested 3+ levels deep', () => {
    expect(Math.max(...seen.topLevel.values())).toBeGreaterThan(100);
    expect(seen.topLevel.get(DEFAULT_IDS.cheatsheet)).toBeGreaterThan(100);
    expect(Math.max(...seen.depth.values())).toBeGreaterThanOrEqual(4);
  });

  it('renders every timestamp rounded down to the minute', () => {
    for (const object of [...seen.pages.values(), ...seen.blocks.values()]) {
      expect(object.created_time).toMatch(MINUTE_RE);
      expect(object.last_edited_time).toMatch(MINUTE_RE);
    }
  });

  it('uses every property type in its databases', async () => {
    const types = new Set<string>();
    for (const id of [DEFAULT_IDS.questionsDataSource, DEFAULT_IDS.adrDataSource]) {
      const ds = await api.get(`/v1/data_sources/${id}`);
      for (const prop of Object.values<Json>(ds.body.properties)) types.add(prop.type);
    }
    expect([...types].sort()).toEqual([...PROPERTY_TYPES].sort());
  });

  it('has a synced block with a reference on another page', () => {
    const original = seen.blocks.get(DEFAULT_IDS.syncedOriginal);
    expect(original.synced_block.synced_from).toBeNull();
    const references = [...seen.blocks.values()].filter(
      (b) => b.type === 'synced_block' && b.synced_block.synced_from?.block_id === DEFAULT_IDS.syncedOriginal,
    );
    expect(references.length).toBeGreaterThanOrEqual(1);
    expect(references.every((r) => r.parent.page_id !== original.parent.page_id)).toBe(true);
  });

  it('has a page reachable only through a database row', async () => {
    const rowOnly = await api.get(`/v1/pages/${DEFAULT_IDS.rowOnlyPage}`);
    expect(rowOnly.body.parent).toEqual({ type: 'page_id', page_id: DEFAULT_IDS.adr007Row });
    const row = await api.get(`/v1/pages/${DEFAULT_IDS.adr007Row}`);
    expect(row.body.parent.type).toBe('data_source_id');
    const links = [...seen.blocks.values()].filter(
      (b) => b.id === DEFAULT_IDS.rowOnlyPage || b.link_to_page?.page_id === DEFAULT_IDS.rowOnlyPage,
    );
    // The crawl (search + page trees) found it, but only under the row's own content.
    expect(links.map((b) => b.parent)).toEqual([{ type: 'page_id', page_id: DEFAULT_IDS.adr007Row }]);
  });

  it('links to a shared page in the trash and to an unshared page', () => {
    const linked = [...seen.blocks.values()]
      .filter((b) => b.type === 'link_to_page')
      .map((b) => b.link_to_page.page_id);
    expect(linked).toContain(DEFAULT_IDS.trashedPage);
    expect(linked).toContain(DEFAULT_IDS.unsharedPage);
  });

  it('loads from JSON and reports fixture problems readably', () => {
    const dir = mkdtempSync(join(tmpdir(), 'notion-fixture-'));
    const good = join(dir, 'workspace.json');
    writeFileSync(good, JSON.stringify(defaultWorkspace()));
    expect(loadWorkspace(good).pages.length).toBe(defaultWorkspace().pages.length);

    const broken = defaultWorkspace();
    broken.pages[0].blocks = [
      { type: 'paragraf', text: 'x' } as never,
      { type: 'child_page', pageId: 'nope' },
    ];
    broken.pages[1].parent = { type: 'page', id: '00000000-0000-4000-8000-000000000000' };
    const bad = join(dir, 'broken.json');
    writeFileSync(bad, JSON.stringify(broken));
    let error: unknown;
    try {
      loadWorkspace(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WorkspaceValidationError);
    const problems = (error as WorkspaceValidationError).problems;
    expect(problems).toContain('pages[0].blocks[0].type: unknown block type "paragraf"');
    expect(problems).toContain('pages[0].blocks[1].pageId: unknown page "nope"');
    expect(problems.some((p) => p.startsWith('pages[1].parent.id: unknown page'))).toBe(true);

    writeFileSync(bad, '{ not json');
    expect(() => loadWorkspace(bad)).toThrow(/is not valid JSON/);
  });
});
