import type { NotionSettings } from './notion.settings';
import type { Client } from '@notionhq/client';
import {
  sourceItemGone,
  sourceUnauthorized,
  TroveError,
  TroveErrorCode,
  type DiscoveredItem,
  type DiscoverOptions,
  type Discovery,
  type EventWork,
  type FetchedItem,
  PARSED_JSON_MEDIA_TYPE,
  type SecretOpener,
  type SkippedItem,
  type SourceConnector,
  type SourceEvent,
} from '@trove/domain';
import { NotionCache } from './notion-cache';
import { classifyNotionError, createNotionClient, type RequestCounter } from './notion-client';
import { NotionReader } from './notion-reader';
import { blockUrl, pageTitle, renderPage } from './render';
import { NOTION_SOURCE_TYPE, type NotionSource } from './notion-source';

/** Notion rounds edit times down to the minute: incremental discovery looks back this far. */
const WATERMARK_OVERLAP_MS = 60_000;

/** Defaults of the run cache (`NotionSettings.cache*`). */
const CACHE_DEFAULTS = { ttlSeconds: 900, maxObjects: 5_000, blockTreesMb: 64 };

/**
 * Notion as a {@link SourceConnector}: pages are the items, their `last_edited_time` the version.
 * FULL discovery walks the roots (child pages, page links, databases and their rows) or lists
 * everything shared with the integration; INCREMENTAL discovery is a few sorted search calls.
 *
 * What a run reads is kept in a bounded cache for the run's later requests on this worker (see
 * {@link NotionCache}): a FULL sync reads each page and its blocks once, at discovery, and the
 * page fetches that follow take them from the cache. A fetch may thus serve the page and block
 * tree seen at discovery; its version is then the discovery-time edit time, so an edit made since
 * has a newer edit time and the next incremental sync re-ingests the page. A cache miss (another
 * worker process, an evicted entry) just reads from Notion.
 */
export class NotionConnector implements SourceConnector<NotionSource> {
  readonly type = NOTION_SOURCE_TYPE;
  private readonly cache?: NotionCache;

  constructor(
    private readonly secrets: SecretOpener | undefined,
    private readonly config: NotionSettings,
  ) {
    const ttlSeconds = config.cacheTtlSeconds ?? CACHE_DEFAULTS.ttlSeconds;
    if (ttlSeconds > 0) {
      this.cache = new NotionCache({
        ttlMs: ttlSeconds * 1000,
        maxObjects: config.cacheMaxObjects ?? CACHE_DEFAULTS.maxObjects,
        maxTreeChars: (config.cacheBlockTreesMb ?? CACHE_DEFAULTS.blockTreesMb) * 1024 * 1024,
      });
    }
  }

  async discover(source: NotionSource, options: DiscoverOptions): Promise<Discovery> {
    const counter: RequestCounter = { requests: 0 };
    const reader = this.reader(source, counter);
    const skipped: SkippedItem[] = [];
    const progress = (seen: number) => options.onProgress?.({ seen, requests: counter.requests });
    let found: Map<string, { version: string; title?: string }>;
    try {
      found = options.since
        ? await changedSince(
            reader,
            source,
            new Date(Date.parse(options.since) - WATERMARK_OVERLAP_MS).toISOString(),
            options.known,
            progress,
          )
        : await discoverAll(reader, source, skipped, progress);
    } catch (error) {
      throw notionFailure(error, 'the Notion workspace');
    }
    const items: DiscoveredItem[] = [...found].map(([externalId, { version, title }]) =>
      title === undefined ? { externalId, version } : { externalId, version, title },
    );
    const watermark = items
      .map((item) => item.version)
      .sort()
      .at(-1);
    progress(items.length);
    return {
      items,
      skipped,
      warnings: [],
      complete: !options.since,
      ...(watermark ? { watermark } : {}),
      requests: counter.requests,
    };
  }

  /**
   * Synced pages that no longer exist for the integration (trashed, deleted, unshared), found
   * cheaply: one search listing (everything mode) or one page lookup per page (roots), no block
   * reads. Pages merely unlinked from their parent are found by FULL syncs.
   */
  async vanished(source: NotionSource, externalIds: string[], onProgress?: () => void): Promise<string[]> {
    const reader = this.reader(source);
    try {
      if (source.config.everything) {
        const shared = new Set((await reader.searchPages(undefined, onProgress)).map((p) => p.id));
        return externalIds.filter((pageId) => !shared.has(pageId));
      }
      const gone: string[] = [];
      const now = Date.now();
      for (const pageId of externalIds) {
        onProgress?.();
        try {
          const page = await reader.page(pageId, { cachedSince: now });
          if (page.in_trash || page.archived) gone.push(pageId);
        } catch (error) {
          if (classifyNotionError(error) !== 'skip') throw error;
          gone.push(pageId);
        }
      }
      return gone;
    } catch (error) {
      throw notionFailure(error, 'the Notion workspace');
    }
  }

  /**
   * A debounced batch of webhook events as work: the latest event per page wins (ordered by event
   * timestamp, so duplicates and out-of-order deliveries are harmless); a `page.deleted` counts
   * only if Notion confirms the page is gone (a live page is re-ingested); changed pages in the
   * source's scope are ingested; database and data source events ask for an incremental sync.
   */
  async reduceEvents(
    source: NotionSource,
    events: SourceEvent[],
    known: ReadonlySet<string>,
  ): Promise<EventWork> {
    const inScope = new Set([...known, ...source.config.rootPageIds, ...source.config.rootDatabaseIds]);
    const latest = new Map<string, SourceEvent>();
    let resync = false;
    for (const event of [...events].sort((a, b) => a.timestamp.localeCompare(b.timestamp))) {
      if (event.entityType !== 'page') {
        resync = true; // database or data source changes: rows are found by an incremental sync
        continue;
      }
      latest.set(event.entityId, event);
    }
    const work: EventWork = { ingest: [], gone: [], ignored: 0, resync };
    let reader: NotionReader | undefined;
    for (const [pageId, event] of latest) {
      reader ??= this.reader(source);
      // The event says the page changed: its fetch must not be served what this worker kept of it.
      reader.forgetPage(pageId);
      if (event.type === 'page.deleted') {
        if (!known.has(pageId)) continue;
        // An event is a hint, not proof (it may be replayed, or overtaken by a restore):
        // only what Notion confirms is gone is deleted; a live page is re-read instead.
        const state = await pageState(reader, pageId);
        if (state === 'gone') work.gone.push(pageId);
        else if (state === 'live') work.ingest.push(pageId);
        else work.ignored++;
        continue;
      }
      const relevant =
        source.config.everything ||
        inScope.has(pageId) ||
        (event.parentId !== undefined && inScope.has(event.parentId));
      if (relevant) work.ingest.push(pageId);
      else work.ignored++;
    }
    return work;
  }

  async fetch(source: NotionSource, pageId: string): Promise<FetchedItem> {
    const reader = this.reader(source);
    try {
      const snapshot = await reader.snapshot(pageId);
      if (snapshot.page.in_trash || snapshot.page.archived) {
        throw sourceItemGone(`Notion page ${pageId} is in the trash`);
      }
      return {
        data: Buffer.from(JSON.stringify(renderPage(snapshot))),
        mediaType: PARSED_JSON_MEDIA_TYPE,
        version: snapshot.page.last_edited_time,
        title: snapshot.title,
        url: snapshot.page.url,
        breadcrumb: snapshot.breadcrumb,
      };
    } catch (error) {
      throw notionFailure(error, `Notion page ${pageId}`);
    }
  }

  placeholder(pageId: string): { fileName: string; mediaType: string } {
    return { fileName: `notion:${pageId}`, mediaType: PARSED_JSON_MEDIA_TYPE };
  }

  /** Notion citations link to the cited block, not to the page URL with an anchor. */
  citationUrl(item: { externalId: string }, anchor?: string): string {
    return blockUrl(item.externalId, anchor);
  }

  async forget(source: NotionSource): Promise<void> {
    this.cache?.forget(source.id);
  }

  /** A Notion client for the source, with its token decrypted. */
  client(source: NotionSource, counter?: RequestCounter): Client {
    if (!this.secrets) {
      throw new TroveError(
        TroveErrorCode.Internal,
        'TROVE_SECRET_KEY is not set on the worker, so the Notion token cannot be decrypted',
        { permanent: true },
      );
    }
    let token: string;
    try {
      token = this.secrets.decrypt(source.config.token.sealed);
    } catch {
      // Sealed under another TROVE_SECRET_KEY (the key changed, or the catalog was copied).
      throw new TroveError(
        TroveErrorCode.SourceUnauthorized,
        "the source's Notion token cannot be decrypted with this TROVE_SECRET_KEY (was the key changed?); set the token again with updateSource",
        { permanent: true },
      );
    }
    return createNotionClient(
      {
        token,
        baseUrl: this.config.apiBaseUrl,
        requestsPerSecond: this.config.requestsPerSecond,
      },
      counter,
    );
  }

  private reader(source: NotionSource, counter?: RequestCounter): NotionReader {
    return new NotionReader(this.client(source, counter), this.cache?.forSource(source.id));
  }
}

/**
 * A Notion client error in the port's vocabulary: missing, unshared or forbidden → the item is
 * gone; a rejected token → unauthorized; anything else is rethrown as is (transient: retried).
 */
export function notionFailure(error: unknown, what: string): unknown {
  switch (classifyNotionError(error)) {
    case 'skip':
      return sourceItemGone(
        `${what} is not available to the integration (deleted, unshared or forbidden): ${(error as Error).message}`,
        error,
      );
    case 'unauthorized':
      return sourceUnauthorized(
        'Notion rejected the integration token (revoked or wrong); set a new token on the source',
        error,
      );
    default:
      return error;
  }
}

/**
 * Whether a page is really deleted: trashed, missing or no longer shared is `gone`; a rejected
 * token proves nothing (`unknown`, kept; the next sync reports the token); faults are retried.
 */
async function pageState(reader: NotionReader, pageId: string): Promise<'gone' | 'live' | 'unknown'> {
  try {
    const page = await reader.page(pageId, { cachedSince: Date.now() });
    return page.in_trash || page.archived ? 'gone' : 'live';
  } catch (error) {
    const kind = classifyNotionError(error);
    if (kind === 'skip') return 'gone';
    if (kind === 'unauthorized') return 'unknown';
    throw error;
  }
}

/**
 * Pages edited on or after `since` (a few sorted search calls), in scope of the source: with
 * roots, a page already synced or one whose parent is synced or a root. Deeper new subtrees are
 * picked up by the next FULL sync.
 */
async function changedSince(
  reader: NotionReader,
  source: NotionSource,
  since: string,
  known: ReadonlySet<string>,
  progress: (seen: number) => void,
): Promise<Map<string, { version: string; title?: string }>> {
  let listed = 0;
  const pages = await reader.searchPages(since, () => progress(++listed));
  const inScope = new Set([...known, ...source.config.rootPageIds, ...source.config.rootDatabaseIds]);
  return new Map(
    pages
      .filter((p) => source.config.everything || inScope.has(p.id) || (p.parentId && inScope.has(p.parentId)))
      .map((p) => [p.id, { version: p.lastEditedTime, title: p.title }]),
  );
}

/**
 * Every page in scope: all pages shared with the integration, or everything reachable from the
 * roots through child pages, page links, databases and their rows (cycles are visited once).
 * Roots or links the integration cannot read are recorded as skipped; the discovery goes on.
 */
async function discoverAll(
  reader: NotionReader,
  source: NotionSource,
  skipped: SkippedItem[],
  progress: (seen: number) => void,
): Promise<Map<string, { version: string; title?: string }>> {
  const found = new Map<string, { version: string; title?: string }>();
  if (source.config.everything) {
    let listed = 0;
    for (const page of await reader.searchPages(undefined, () => progress(++listed))) {
      found.set(page.id, { version: page.lastEditedTime, title: page.title });
    }
    return found;
  }
  // Everything is read anew, except pages that this discovery's own database queries returned.
  const started = Date.now();
  const fresh = { cachedSince: started };
  const pages = [...source.config.rootPageIds];
  const databases = [...source.config.rootDatabaseIds];
  const seenDatabases = new Set<string>();
  const skip = (id: string, error: unknown) => {
    // Only a missing, unshared or forbidden item is skipped; a rejected token or a fault is not.
    if (classifyNotionError(error) !== 'skip') throw error;
    skipped.push({ id, reason: (error as Error).message });
  };
  while (pages.length || databases.length) {
    progress(found.size);
    const databaseId = databases.shift();
    if (databaseId) {
      if (seenDatabases.has(databaseId)) continue;
      seenDatabases.add(databaseId);
      try {
        for (const dataSource of await reader.dataSources(databaseId, fresh)) {
          for (const row of await reader.rows(dataSource.id)) {
            if (!found.has(row.id)) pages.push(row.id);
          }
        }
      } catch (error) {
        skip(databaseId, error);
      }
      continue;
    }
    const pageId = pages.shift()!;
    if (found.has(pageId)) continue;
    try {
      const page = await reader.page(pageId, fresh);
      if (page.in_trash || page.archived) continue;
      found.set(page.id, { version: page.last_edited_time, title: pageTitle(page) });
      const links = NotionReader.links(await reader.pageBlocks(page));
      pages.push(...links.pageIds.filter((id) => !found.has(id)));
      databases.push(...links.databaseIds);
    } catch (error) {
      skip(pageId, error);
    }
  }
  return found;
}
