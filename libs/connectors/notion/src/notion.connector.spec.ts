import { randomBytes } from 'node:crypto';
import { SecretBox } from '@trove/config';
import type { NotionSettings } from './notion.settings';
import { isTroveError, SourceStatus, TroveErrorCode, type SourceEvent } from '@trove/domain';
import { DEFAULT_IDS, defaultWorkspace, NotionEmulator } from '@trove/notion-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotionConnector } from './notion.connector';
import { blockUrl } from './render';
import { NOTION_SOURCE_TYPE, type NotionSource } from './notion-source';

const BLOCK_LISTING = 'GET /v1/blocks/:block_id/children';
const secrets = new SecretBox(randomBytes(32).toString('base64'));
let nextSource = 0;

function notionSource(
  token: string,
  notion: Partial<Omit<NotionSource['config'], 'token'>> = {},
  id = `source-${++nextSource}`,
): NotionSource {
  return {
    id,
    projectId: 'project-1',
    name: 'Emulated workspace',
    type: NOTION_SOURCE_TYPE,
    status: SourceStatus.ACTIVE,
    config: {
      token: { sealed: secrets.encrypt(token), hint: 'ntn_…' },
      everything: false,
      rootPageIds: [],
      rootDatabaseIds: [],
      ...notion,
    },
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  };
}

async function failureOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return isTroveError(error) ? error.code : `not a TroveError: ${String(error)}`;
  }
  return 'no failure';
}

/** What a FULL sync asks of the connector: discover, then fetch every item, four at a time. */
async function fullSync(connector: NotionConnector, source: NotionSource) {
  const discovery = await connector.discover(source, { known: new Set() });
  const queue = discovery.items.map((item) => item.externalId);
  const fetched = new Map<string, Awaited<ReturnType<NotionConnector['fetch']>>>();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let id = queue.shift(); id; id = queue.shift()) fetched.set(id, await connector.fetch(source, id));
    }),
  );
  return { discovery, fetched };
}

const nonBlockRequests = (emulator: NotionEmulator) =>
  emulator.stats.total - (emulator.stats.byRoute[BLOCK_LISTING] ?? 0);

describe('NotionConnector', { timeout: 60_000 }, () => {
  let emulator: NotionEmulator;
  let config: NotionSettings;
  /** The emulator's clock (edit times); the system clock unless a test moves it. */
  let clock = () => new Date();
  const handbook = () =>
    notionSource(emulator.token, {
      rootPageIds: [DEFAULT_IDS.handbook, DEFAULT_IDS.unsharedPage],
      rootDatabaseIds: [DEFAULT_IDS.adrDatabase],
    });

  beforeAll(async () => {
    emulator = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: Infinity, now: () => clock() });
    config = { apiBaseUrl: await emulator.start(), requestsPerSecond: 1000 };
  });
  afterAll(() => emulator.stop());

  it('a token sealed under another TROVE_SECRET_KEY fails as SOURCE_UNAUTHORIZED, permanently, saying what to do', () => {
    const otherKey = new SecretBox(randomBytes(32).toString('base64'));
    const plain = notionSource('ntn_demo');
    const source = {
      ...plain,
      config: { ...plain.config, token: { sealed: otherKey.encrypt('ntn_demo'), hint: '' } },
    };
    let caught: unknown;
    try {
      new NotionConnector(secrets, config).client(source);
    } catch (error) {
      caught = error;
    }
    expect(isTroveError(caught) && caught.code).toBe(TroveErrorCode.SourceUnauthorized);
    expect((caught as { permanent?: boolean }).permanent).toBe(true);
    expect((caught as Error).message).toMatch(/TROVE_SECRET_KEY.*updateSource/);
  });

  it('FULL discovery finds the roots’ subtree with database rows, and skips unshared roots', async () => {
    const progress: number[] = [];
    const discovery = await new NotionConnector(secrets, config).discover(handbook(), {
      known: new Set(),
      onProgress: ({ seen }) => progress.push(seen),
    });
    const ids = discovery.items.map((item) => item.externalId);
    expect(ids).toEqual(expect.arrayContaining([DEFAULT_IDS.handbook, DEFAULT_IDS.onboarding]));
    expect(ids).toEqual(expect.arrayContaining([DEFAULT_IDS.adr007Row, DEFAULT_IDS.rowOnlyPage]));
    expect(ids).not.toContain(DEFAULT_IDS.trashedPage);
    expect(ids).not.toContain(DEFAULT_IDS.unsharedPage);
    expect(discovery.skipped.map((s) => s.id)).toContain(DEFAULT_IDS.unsharedPage);
    expect(discovery.complete).toBe(true);
    expect(discovery.watermark).toBe(
      discovery.items
        .map((i) => i.version)
        .sort()
        .at(-1),
    );
    expect(discovery.items.find((i) => i.externalId === DEFAULT_IDS.handbook)?.title).toBeTruthy();
    expect(discovery.requests).toBeGreaterThan(ids.length);
    // Heartbeats: at least once per page visited.
    expect(progress.length).toBeGreaterThanOrEqual(ids.length);
  });

  it('FULL discovery of everything shared lists it with a search, reporting progress per page', async () => {
    const progress: number[] = [];
    const discovery = await new NotionConnector(secrets, config).discover(
      notionSource(emulator.token, { everything: true }),
      { known: new Set(), onProgress: ({ seen }) => progress.push(seen) },
    );
    const ids = discovery.items.map((item) => item.externalId);
    expect(ids).toEqual(expect.arrayContaining([DEFAULT_IDS.hub, DEFAULT_IDS.rowOnlyPage]));
    expect(ids).not.toContain(DEFAULT_IDS.trashedPage);
    expect(discovery.requests).toBeLessThan(5);
    expect(progress.length).toBeGreaterThanOrEqual(ids.length);
    expect(progress.at(-2)).toBeGreaterThanOrEqual(ids.length);
  });

  it('INCREMENTAL discovery returns only the pages edited since the watermark', async () => {
    const connector = new NotionConnector(secrets, config);
    const source = handbook();
    const full = await connector.discover(source, { known: new Set() });
    emulator.editBlockText(DEFAULT_IDS.onboarding, 'Onboarding, revised');
    const incremental = await connector.discover(source, {
      since: full.watermark,
      known: new Set(full.items.map((i) => i.externalId)),
    });
    // Notion rounds edit times to the minute: the run looks back one minute before the watermark.
    const since = Date.parse(full.watermark!) - 60_000;
    const before = new Map(full.items.map((i) => [i.externalId, i.version]));
    const changed = incremental.items.map((i) => i.externalId);
    expect(changed).toContain(DEFAULT_IDS.onboarding);
    const older = changed.filter(
      (id) => id !== DEFAULT_IDS.onboarding && Date.parse(before.get(id)!) < since,
    );
    expect(older).toEqual([]);
    expect(changed.length).toBeLessThan(full.items.length / 4);
    expect(incremental.complete).toBe(false);
    expect(incremental.watermark! > full.watermark!).toBe(true);
    expect(incremental.requests).toBe(1);
  });

  it('fetches a page as parsed JSON with its version, title, URL and breadcrumb', async () => {
    const connector = new NotionConnector(secrets, config);
    const item = await connector.fetch(handbook(), DEFAULT_IDS.onCallBasics);
    expect(item.mediaType).toBe(connector.placeholder(DEFAULT_IDS.onCallBasics).mediaType);
    expect(JSON.parse(item.data.toString()).blocks.length).toBeGreaterThan(0);
    expect(item.version).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(item.breadcrumb?.length).toBeGreaterThan(0);
    expect(item.url).toContain('notion');
    expect(connector.placeholder('abc')).toEqual({
      fileName: 'notion:abc',
      mediaType: 'application/vnd.trove.parsed+json',
    });
    expect(connector.citationUrl({ externalId: DEFAULT_IDS.onboarding }, 'block-1')).toBe(
      blockUrl(DEFAULT_IDS.onboarding, 'block-1'),
    );
  });

  it('reports trashed and unshared pages as gone', async () => {
    const connector = new NotionConnector(secrets, config);
    expect(await failureOf(connector.fetch(handbook(), DEFAULT_IDS.trashedPage))).toBe(
      TroveErrorCode.SourceItemGone,
    );
    expect(await failureOf(connector.fetch(handbook(), DEFAULT_IDS.unsharedPage))).toBe(
      TroveErrorCode.SourceItemGone,
    );
  });

  it('reports a rejected token as SOURCE_UNAUTHORIZED, and a missing secret key as permanent', async () => {
    const connector = new NotionConnector(secrets, config);
    const wrong = notionSource('ntn_wrong_token', { rootPageIds: [DEFAULT_IDS.handbook] });
    expect(await failureOf(connector.discover(wrong, { known: new Set() }))).toBe(
      TroveErrorCode.SourceUnauthorized,
    );
    expect(await failureOf(connector.fetch(wrong, DEFAULT_IDS.handbook))).toBe(
      TroveErrorCode.SourceUnauthorized,
    );
    expect(await failureOf(new NotionConnector(undefined, config).fetch(wrong, DEFAULT_IDS.handbook))).toBe(
      TroveErrorCode.Internal,
    );
  });

  it('finds known pages that vanished, heartbeating per page', async () => {
    const connector = new NotionConnector(secrets, config);
    const source = handbook();
    await connector.discover(source, { known: new Set() }); // fills the cache: vanished must not trust it
    emulator.trashPage(DEFAULT_IDS.onboarding);
    let beats = 0;
    const gone = await connector.vanished(
      source,
      [DEFAULT_IDS.handbook, DEFAULT_IDS.onboarding, DEFAULT_IDS.unsharedPage],
      () => beats++,
    );
    emulator.restorePage(DEFAULT_IDS.onboarding);
    expect(gone).toEqual([DEFAULT_IDS.onboarding, DEFAULT_IDS.unsharedPage]);
    expect(beats).toBe(3);
  });

  describe('reduceEvents', () => {
    const event = (type: string, entityId: string, timestamp: string, extra: Partial<SourceEvent> = {}) => ({
      type,
      entityId,
      entityType: 'page',
      timestamp,
      ...extra,
    });

    it('keeps the latest event per page whatever the delivery order, and confirms deletions', async () => {
      const connector = new NotionConnector(secrets, config);
      const source = handbook();
      emulator.trashPage(DEFAULT_IDS.onboarding);
      const known = new Set([DEFAULT_IDS.runbooks, DEFAULT_IDS.onboarding, DEFAULT_IDS.meetings]);
      const work = await connector.reduceEvents(
        source,
        [
          // Runbooks: updated after its deletion event, delivered first: the update wins.
          event('page.content_updated', DEFAULT_IDS.runbooks, '2026-11-02T10:00:05.000Z'),
          event('page.deleted', DEFAULT_IDS.runbooks, '2026-11-02T10:00:01.000Z'),
          // Onboarding: really in the trash.
          event('page.deleted', DEFAULT_IDS.onboarding, '2026-11-02T10:00:02.000Z'),
          // Meetings: a deletion event, but the page is live (restored, or a replay): re-ingested.
          event('page.deleted', DEFAULT_IDS.meetings, '2026-11-02T10:00:03.000Z'),
        ],
        known,
      );
      emulator.restorePage(DEFAULT_IDS.onboarding);
      expect(work).toEqual({
        ingest: [DEFAULT_IDS.runbooks, DEFAULT_IDS.meetings],
        gone: [DEFAULT_IDS.onboarding],
        ignored: 0,
        resync: false,
      });
    });

    it('ignores pages outside the scope and asks for a resync on database events', async () => {
      const connector = new NotionConnector(secrets, config);
      const source = notionSource(emulator.token, { rootPageIds: [DEFAULT_IDS.handbook] });
      const work = await connector.reduceEvents(
        source,
        [
          event('page.created', 'new-child', '2026-11-02T10:00:01.000Z', { parentId: DEFAULT_IDS.handbook }),
          event('page.content_updated', DEFAULT_IDS.algorithms, '2026-11-02T10:00:02.000Z'),
          event('page.deleted', 'never-synced', '2026-11-02T10:00:03.000Z'),
          event('database.schema_updated', DEFAULT_IDS.adrDatabase, '2026-11-02T10:00:04.000Z', {
            entityType: 'database',
          }),
        ],
        new Set(),
      );
      expect(work).toEqual({ ingest: ['new-child'], gone: [], ignored: 1, resync: true });
    });
  });

  describe('request caching', () => {
    it('a FULL sync reads each page and its blocks once: at most 1.3 other requests per page', async () => {
      const connector = new NotionConnector(secrets, config);
      emulator.resetStats();
      const { discovery, fetched } = await fullSync(connector, handbook());
      expect(fetched.size).toBe(discovery.items.length);
      const perPage = nonBlockRequests(emulator) / discovery.items.length;
      expect(perPage).toBeLessThanOrEqual(1.3);

      // The same without the cache (what the old code did): every fetch reads page and blocks again.
      const uncached = new NotionConnector(secrets, { ...config, cacheTtlSeconds: 0 });
      const blockListings = emulator.stats.byRoute[BLOCK_LISTING];
      emulator.resetStats();
      await fullSync(uncached, handbook());
      expect(nonBlockRequests(emulator) / discovery.items.length).toBeGreaterThan(1.9);
      expect(emulator.stats.byRoute[BLOCK_LISTING]).toBeGreaterThan(1.9 * blockListings);
    });

    it('fetches after discovery make no block listing and no page request', async () => {
      const connector = new NotionConnector(secrets, config);
      const source = handbook();
      await connector.discover(source, { known: new Set() });
      emulator.resetStats();
      await connector.fetch(source, DEFAULT_IDS.onCallBasics);
      expect(emulator.stats.total).toBe(0);
    });

    it('never serves one source’s cache to another', async () => {
      const connector = new NotionConnector(secrets, config);
      const a = handbook();
      const b = { ...handbook(), id: 'another-source' };
      await connector.discover(a, { known: new Set() });
      emulator.resetStats();
      await connector.fetch(b, DEFAULT_IDS.onCallBasics);
      expect(emulator.stats.byRoute['GET /v1/pages/:page_id']).toBeGreaterThan(0);
      expect(emulator.stats.byRoute[BLOCK_LISTING]).toBeGreaterThan(0);
    });

    it('serves the discovery-time page with its own version; the next INCREMENTAL run finds the edit', async () => {
      const connector = new NotionConnector(secrets, config);
      const source = handbook();
      const full = await connector.discover(source, { known: new Set() });
      const discovered = full.items.find((i) => i.externalId === DEFAULT_IDS.onCallBasics)!;
      emulator.editBlockText(DEFAULT_IDS.onCallBasics, 'On-call basics, revised');

      const served = await connector.fetch(source, DEFAULT_IDS.onCallBasics);
      expect(served.version).toBe(discovered.version);
      expect(served.title).not.toBe('On-call basics, revised');

      const incremental = await connector.discover(source, {
        since: full.watermark,
        known: new Set(full.items.map((i) => i.externalId)),
      });
      const changed = incremental.items.find((i) => i.externalId === DEFAULT_IDS.onCallBasics)!;
      expect(changed.version > discovered.version).toBe(true);
      // Edited within the current minute: a later edit may share its edit time, so it is read anew.
      const refetched = await connector.fetch(source, DEFAULT_IDS.onCallBasics);
      expect(refetched.version).toBe(changed.version);
      expect(refetched.title).toBe('On-call basics, revised');
    });

    it('does not reuse what was read in the minute of a page’s edit time (a later edit may share it)', async () => {
      const connector = new NotionConnector(secrets, config);
      const source = handbook();
      // Notion's clock a few minutes ahead: every edit below is in "the current minute".
      const ahead = new Date(Date.now() + 5 * 60_000);
      clock = () => ahead;
      try {
        emulator.editBlockText(DEFAULT_IDS.architectureDecisions, 'ADRs, first edit');
        const discovery = await connector.discover(source, { known: new Set() });
        const discovered = discovery.items.find((i) => i.externalId === DEFAULT_IDS.architectureDecisions)!;
        emulator.editBlockText(DEFAULT_IDS.architectureDecisions, 'ADRs, second edit');
        const fetched = await connector.fetch(source, DEFAULT_IDS.architectureDecisions);
        expect(fetched.version).toBe(discovered.version); // same minute, same edit time
        expect(fetched.title).toBe('ADRs, second edit');
      } finally {
        clock = () => new Date();
      }
    });

    it('an event about a page drops what was kept of it, so its fetch reads the edit', async () => {
      const connector = new NotionConnector(secrets, config);
      const source = handbook();
      await connector.discover(source, { known: new Set() });
      emulator.editBlockText(DEFAULT_IDS.runbooks, 'Runbooks, revised');
      await connector.reduceEvents(
        source,
        [
          {
            type: 'page.content_updated',
            entityId: DEFAULT_IDS.runbooks,
            entityType: 'page',
            timestamp: new Date().toISOString(),
          },
        ],
        new Set([DEFAULT_IDS.runbooks]),
      );
      expect((await connector.fetch(source, DEFAULT_IDS.runbooks)).title).toBe('Runbooks, revised');
    });
  });
});
