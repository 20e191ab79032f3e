import { iteratePaginatedAPI, type Client } from '@notionhq/client';
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
  parentId?: string;
}

/** Pages and databases a page points to: the sync visits them next. */
export interface PageLinks {
  pageIds: string[];
  databaseIds: string[];
}

/** Reads pages, their whole block trees, databases and rows through the official client. */
export class NotionReader {
  private readonly titles = new Map<string, string>();

  constructor(private readonly client: Client) {}

  async page(pageId: string): Promise<NotionPage> {
    return (await this.client.pages.retrieve({ page_id: pageId })) as unknown as NotionPage;
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
    const page = await this.page(pageId);
    const blocks = await this.blockTree(page.id);
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
  async dataSources(databaseId: string): Promise<{ id: string; name: string }[]> {
    const database = (await this.client.databases.retrieve({ database_id: databaseId })) as unknown as {
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
      if (row.object === 'page' && !row.in_trash)
        rows.push({ id: row.id, lastEditedTime: row.last_edited_time });
    }
    return rows;
  }

  /**
   * Pages shared with the integration, most recently edited first, stopping at the first page
   * edited before `since` (the listing is sorted, so nothing older follows).
   */
  async searchPages(since?: string): Promise<SearchedPage[]> {
    const pages: SearchedPage[] = [];
    for await (const item of iteratePaginatedAPI(this.client.search, {
      filter: { property: 'object', value: 'page' },
      sort: { timestamp: 'last_edited_time', direction: 'descending' },
      page_size: 100,
    })) {
      const page = item as unknown as NotionPage & { object: string };
      if (since && page.last_edited_time < since) break;
      if (page.object !== 'page' || page.in_trash) continue;
      const parent = page.parent;
      pages.push({
        id: page.id,
        lastEditedTime: page.last_edited_time,
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
          const database = (await this.client.databases.retrieve({
            database_id: parent.database_id,
          })) as unknown as {
            title?: unknown;
            parent?: NotionPage['parent'];
          };
          databaseName = richText(database.title).trim() || 'Untitled database';
          breadcrumb.unshift(databaseName);
          if (seen.has(parent.database_id)) break;
          seen.add(parent.database_id);
          parent = database.parent as NotionPage['parent'];
        } else if (parent.type === 'block_id' && parent.block_id && !seen.has(parent.block_id)) {
          seen.add(parent.block_id);
          const block = (await this.client.blocks.retrieve({ block_id: parent.block_id })) as unknown as {
            parent?: NotionPage['parent'];
          };
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
