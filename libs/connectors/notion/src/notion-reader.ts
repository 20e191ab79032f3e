import { iteratePaginatedAPI, type Client } from '@notionhq/client';
import { settled, type CachedObject, type NotionReaderCache } from './notion-cache';
import { classifyNotionError } from './notion-client';
import type { BlockNode, NotionBlock, NotionPage, PageSnapshot } from './notion-types';
import { pageTitle, richText } from './render';

/** Blocks whose children are separate documents (their own pages), not part of this page. */
const SEPARATE_DOCUMENTS = new Set(['child_page', 'child_database']);
const MAX_BREADCRUMB_DEPTH = 12;

/** A page as search lists it: id, edit time, and its parent page, database or block. */
export interface SearchedPage {
  id: string;
  lastEditedTime: string;
  title: string;
  parentId?: string;
}

/** Pages and databases a page points to: the sync visits them next. */
export interface PageLinks {
  pageIds: string[];
  databaseIds: string[];
}

/** How old a cached object may be: unset, any age the cache keeps; else read at or after this (epoch ms). */
export interface ReadOptions {
  cachedSince?: number;
}

/**
 * Reads pages, their whole block trees, databases and rows through the official client. With a
 * cache (one source's view of a {@link NotionCache}), the objects and block trees it reads are
 * kept, and later reads take them from there unless `cachedSince` asks for a newer read; without
 * one, every read is a request (titles excepted, kept for the reader's life).
 */
export class NotionReader {
  private readonly titles = new Map<string, string>();

  constructor(
    private readonly client: Client,
    private readonly cache?: NotionReaderCache,
  ) {}

  async page(pageId: string, options: ReadOptions = {}): Promise<NotionPage> {
    return this.pageEntry(pageId, options).value;
  }

  /** Forgets a cached page object, e.g. when an event says the page changed. */
  forgetPage(pageId: string): void {
    this.cache?.deleteObject('page', pageId);
  }

  /**
   * The page's block tree: the one kept for the page at this edit time if it was read after the
   * edit's minute had passed (so it holds every edit with that edit time), else read now.
   */
  async pageBlocks(page: NotionPage): Promise<BlockNode[]> {
    const cached = this.cache?.getTree(page.id, page.last_edited_time);
    if (cached && settled(cached.readAt, page.last_edited_time)) return cached.blocks;
    const readAt = Date.now();
    const blocks = await this.blockTree(page.id);
    if (this.cache && settled(readAt, page.last_edited_time)) {
      this.cache.setTree(page.id, page.last_edited_time, blocks, readAt);
    }
    return blocks;
  }

  /**
   * Every block under `blockId`, all nesting levels, every page of children. Synced-block
   * references are followed to their original (once: `visited` guards against cycles).
   */
  async blockTree(blockId: string, visited: Set<string> = new Set()): Promise<BlockNode[]> {
    if (visited.has(blockId)) return [];
    visited.add(blockId);
    const nodes: BlockNode[] = [];
    for await (const item of iteratePaginatedAPI(this.client.blocks.children.list, {
      block_id: blockId,
      page_size: 100,
    })) {
      const block = item as unknown as NotionBlock;
      let children: BlockNode[] = [];
      if (block.has_children && !SEPARATE_DOCUMENTS.has(block.type)) {
        // Listing a synced-block reference returns its original's children. An original already
        // rendered on this page (or a reference cycle) is not rendered twice.
        const source = syncedSource(block);
        if (!source || !visited.has(source)) {
          if (source) visited.add(source);
          children = await this.blockTree(block.id, visited);
        }
      }
      nodes.push({ block, children });
    }
    return nodes;
  }

  /** The page with its blocks, breadcrumb, database name and related page titles. */
  async snapshot(pageId: string): Promise<PageSnapshot> {
    const started = Date.now();
    const entry = this.pageEntry(pageId, {});
    let page = await entry.value;
    // A page object kept from earlier in the run is only used if no later edit can share its edit
    // time (see `settled`); otherwise a newer read, so the snapshot is what its version says.
    if (entry.readAt < started && !settled(entry.readAt, page.last_edited_time)) {
      page = await this.page(pageId, { cachedSince: started });
    }
    const blocks = await this.pageBlocks(page);
    const { breadcrumb, databaseName } = await this.ancestry(page);
    const relationTitles: Record<string, string> = {};
    for (const property of Object.values(page.properties ?? {})) {
      if (property.type !== 'relation') continue;
      for (const { id } of (property.relation as { id: string }[]) ?? []) {
        relationTitles[id] = await this.titleOf(id);
      }
    }
    return { page, title: pageTitle(page), blocks, breadcrumb, databaseName, relationTitles };
  }

  /** Child pages, linked pages and child databases found in a block tree. */
  static links(blocks: BlockNode[]): PageLinks {
    const pageIds = new Set<string>();
    const databaseIds = new Set<string>();
    const visit = (nodes: BlockNode[]) => {
      for (const { block, children } of nodes) {
        if (block.type === 'child_page') pageIds.add(block.id);
        if (block.type === 'child_database') databaseIds.add(block.id); // its id is the database id
        if (block.type === 'link_to_page') {
          const link = block.link_to_page as { type: string; page_id?: string; database_id?: string };
          if (link.page_id) pageIds.add(link.page_id);
          if (link.database_id) databaseIds.add(link.database_id);
        }
        visit(children);
      }
    };
    visit(blocks);
    return { pageIds: [...pageIds], databaseIds: [...databaseIds] };
  }

  /** The data sources of a database (2025-09-03: a database holds one or more). */
  async dataSources(databaseId: string, options: ReadOptions = {}): Promise<{ id: string; name: string }[]> {
    const database = (await this.database(databaseId, options)) as {
      data_sources?: { id: string; name: string }[];
    };
    return database.data_sources ?? [];
  }

  /** Row ids and edit times of a data source, optionally only rows edited on or after `since`. */
  async rows(dataSourceId: string, since?: string): Promise<{ id: string; lastEditedTime: string }[]> {
    const rows: { id: string; lastEditedTime: string }[] = [];
    const filter = since
      ? { timestamp: 'last_edited_time' as const, last_edited_time: { on_or_after: since } }
      : undefined;
    for await (const item of iteratePaginatedAPI(this.client.dataSources.query, {
      data_source_id: dataSourceId,
      page_size: 100,
      ...(filter ? { filter } : {}),
    })) {
      const row = item as unknown as {
        object: string;
        id: string;
        last_edited_time: string;
        in_trash?: boolean;
      };
      if (row.object !== 'page') continue;
      this.remember(row as unknown as NotionPage);
      if (!row.in_trash) rows.push({ id: row.id, lastEditedTime: row.last_edited_time });
    }
    return rows;
  }

  /**
   * Pages shared with the integration, most recently edited first, stopping at the first page
   * edited before `since` (the listing is sorted, so nothing older follows).
   */
  async searchPages(since?: string, onPage?: () => void): Promise<SearchedPage[]> {
    const pages: SearchedPage[] = [];
    for await (const item of iteratePaginatedAPI(this.client.search, {
      filter: { property: 'object', value: 'page' },
      sort: { timestamp: 'last_edited_time', direction: 'descending' },
      page_size: 100,
    })) {
      const page = item as unknown as NotionPage & { object: string };
      if (since && page.last_edited_time < since) break;
      if (page.object !== 'page') continue;
      this.remember(page);
      onPage?.();
      if (page.in_trash) continue;
      const parent = page.parent;
      pages.push({
        id: page.id,
        lastEditedTime: page.last_edited_time,
        title: pageTitle(page),
        parentId: parent?.page_id ?? parent?.database_id ?? parent?.block_id,
      });
    }
    return pages;
  }

  private async ancestry(page: NotionPage): Promise<{ breadcrumb: string[]; databaseName?: string }> {
    const breadcrumb: string[] = [];
    let databaseName: string | undefined;
    let parent = page.parent;
    const seen = new Set<string>([page.id]);
    for (let depth = 0; depth < MAX_BREADCRUMB_DEPTH && parent; depth++) {
      try {
        if (parent.type === 'page_id' && parent.page_id && !seen.has(parent.page_id)) {
          seen.add(parent.page_id);
          const ancestor = await this.page(parent.page_id);
          breadcrumb.unshift(pageTitle(ancestor));
          parent = ancestor.parent;
        } else if (
          (parent.type === 'data_source_id' || parent.type === 'database_id') &&
          parent.database_id
        ) {
          const database = (await this.database(parent.database_id)) as {
            title?: unknown;
            parent?: NotionPage['parent'];
          };
          databaseName = richText(database.title).trim() || 'Untitled database';
          breadcrumb.unshift(databaseName);
          if (seen.has(parent.database_id)) break;
          seen.add(parent.database_id);
          parent = database.parent as NotionPage['parent'];
        } else if (parent.type === 'block_id' && parent.block_id && !seen.has(parent.block_id)) {
          const blockId = parent.block_id;
          seen.add(blockId);
          const block = (await this.cached('block', blockId, {}, () =>
            this.client.blocks.retrieve({ block_id: blockId }),
          ).value) as { parent?: NotionPage['parent'] };
          parent = block.parent as NotionPage['parent'];
        } else {
          break;
        }
      } catch (error) {
        if (classifyNotionError(error) === 'skip') break; // an ancestor not shared with us
        throw error;
      }
    }
    return { breadcrumb, databaseName };
  }

  private pageEntry(pageId: string, options: ReadOptions): CachedObject<NotionPage> {
    return this.cached(
      'page',
      pageId,
      options,
      async () => (await this.client.pages.retrieve({ page_id: pageId })) as unknown as NotionPage,
    );
  }

  private async database(databaseId: string, options: ReadOptions = {}): Promise<unknown> {
    return this.cached('database', databaseId, options, () =>
      this.client.databases.retrieve({ database_id: databaseId }),
    ).value;
  }

  /** The kept answer if recent enough, else a request (kept, and shared by concurrent readers). */
  private cached<T>(
    kind: 'page' | 'database' | 'block',
    id: string,
    options: ReadOptions,
    request: () => Promise<T>,
  ): CachedObject<T> {
    const entry = this.cache?.getObject<T>(kind, id);
    if (entry && entry.readAt >= (options.cachedSince ?? 0)) return entry;
    const readAt = Date.now();
    const fresh = { value: request(), readAt };
    this.cache?.setObject(kind, id, fresh.value, fresh.readAt);
    return fresh;
  }

  /** Keeps a page object that a listing returned (search and data source queries return whole pages). */
  private remember(page: NotionPage): void {
    this.cache?.setObject('page', page.id, Promise.resolve(page));
  }

  private async titleOf(pageId: string): Promise<string> {
    const cached = this.titles.get(pageId);
    if (cached) return cached;
    try {
      const title = pageTitle(await this.page(pageId));
      this.titles.set(pageId, title);
      return title;
    } catch (error) {
      if (classifyNotionError(error) === 'skip') return pageId;
      throw error;
    }
  }
}

function syncedSource(block: NotionBlock): string | undefined {
  if (block.type !== 'synced_block') return undefined;
  const from = (block.synced_block as { synced_from?: { block_id?: string } | null }).synced_from;
  return from?.block_id;
}
