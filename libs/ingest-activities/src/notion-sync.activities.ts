import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Catalog } from '@trove/catalog';
import type { BlobStore, NotionEvent, Source, SyncProgress, SyncRun, TroveDocument } from '@trove/domain';
import {
  DocumentStatus,
  newSyncRun,
  ProjectStatus,
  SourceStatus,
  SourceType,
  SyncMode,
  SyncRunStatus,
  TroveErrorCode,
  isTroveError,
} from '@trove/domain';
import { classifyNotionError, NotionReader, type RequestCounter } from '@trove/notion';
import { PARSED_JSON_MEDIA_TYPE } from '@trove/parsing';
import type { ChunkIndex } from '@trove/search';
import { assertWritable } from './deletion.activities';
import type { FolderSources } from './folder-source';
import { notionFailure, type NotionSources } from './notion-source';

export interface SyncDependencies {
  catalog: Catalog;
  blobs: BlobStore;
  chunkIndex: ChunkIndex;
  notion: NotionSources;
  folders: FolderSources;
}

export interface SyncPlan {
  /** Blob with the ids of the documents to (re-)ingest, in order. */
  changedKey: string;
  changedCount: number;
  /** The newest `last_edited_time` seen: the next watermark if the run succeeds. */
  newestEdit?: string;
  /** Pages to ingest at once (child workflows in flight): the worker's setting. */
  concurrency?: number;
}

/** How the page ingests of a sync ended; kept small (counts, capped lists) for workflow payloads. */
export interface SyncTally {
  ready: number;
  chunksEmbedded: number;
  chunksReused: number;
  /** Ids whose ingest was already running (e.g. started by a webhook): left to that run. */
  busy: number;
  /** Every failed page, counted; `failed` keeps the details of the first few only. */
  failedCount: number;
  failed: { documentId: string; reason: string }[];
  /** Pages that vanished between discovery and fetch (unshared, deleted, trashed). */
  gone: { documentId: string; reason: string }[];
}

/** Notion rounds edit times down to the minute: incremental syncs look back this far. */
const WATERMARK_OVERLAP_MS = 60_000;
const MAX_DISCOVERED_PAGES = 50_000;

/**
 * Activities of a source sync: plan (discover and diff), hand out batches, finish or fail.
 * `concurrency`, handed to the workflow with the plan, is how many pages it ingests at once.
 */
export function createSyncActivities(deps: SyncDependencies & { concurrency?: number }) {
  const { catalog, blobs, notion, concurrency } = deps;

  return {
    /**
     * Discovers the pages in scope (FULL: everything reachable; INCREMENTAL: pages edited since
     * the watermark, found with a few sorted search calls), creates records for new pages, removes
     * pages that disappeared (FULL), and writes the ids that need ingesting to a blob.
     */
    async planSync(input: { runId: string }): Promise<SyncPlan> {
      const run = await requireRun(catalog, input.runId);
      await assertWritable(catalog, { projectId: run.projectId, sourceId: run.sourceId });
      const source = await catalog.requireSource(run.sourceId);
      if (source.type === SourceType.FOLDER)
        return { ...(await planFolderSync(deps, run, source)), concurrency };
      const counter: RequestCounter = { requests: 0 };
      const reader = new NotionReader(notion.client(source, counter));
      const skipped: SyncRun['skipped'] = [];
      const heartbeat = () => Context.current().heartbeat({ requests: counter.requests });

      const known = new Map((await catalog.listSourceDocuments(source.id)).map((d) => [d.externalId!, d]));
      let found: Map<string, string>;
      try {
        found =
          run.mode === SyncMode.INCREMENTAL && source.watermark
            ? await changedSince(
                reader,
                source,
                new Date(Date.parse(source.watermark) - WATERMARK_OVERLAP_MS).toISOString(),
                new Set(known.keys()),
              )
            : await discoverAll(reader, source, skipped, heartbeat);
      } catch (error) {
        throw notionFailure(error, 'the Notion workspace');
      }

      const changed: string[] = [];
      let unchanged = 0;
      for (const [pageId, editedAt] of found) {
        const existing = known.get(pageId);
        // The same page at the same edit time is already indexed: nothing to do (dedupe by id + time).
        if (existing && existing.status === DocumentStatus.READY && existing.externalEditedAt === editedAt) {
          unchanged++;
          continue;
        }
        changed.push((existing ?? (await pageDocument(catalog, source, pageId))).id);
      }

      let deleted = 0;
      if (run.mode === SyncMode.FULL || !source.watermark) {
        for (const [pageId, document] of known) {
          if (found.has(pageId)) continue;
          await removeDocument(deps, document.id);
          deleted++;
        }
      } else if (run.checkDeletions) {
        try {
          for (const document of await vanished(reader, source, known, heartbeat)) {
            await removeDocument(deps, document.id);
            deleted++;
          }
        } catch (error) {
          throw notionFailure(error, 'the Notion workspace');
        }
      }

      const changedKey = `sync/${run.id}/changed.json`;
      await blobs.putJson(changedKey, changed);
      const newestEdit = [...found.values()].sort().at(-1);
      await catalog.updateRun(run.id, {
        progress: {
          ...run.progress,
          pagesSeen: found.size,
          pagesUnchanged: unchanged,
          pagesDeleted: deleted,
          pagesSkipped: skipped.length,
          apiCalls: counter.requests,
        },
        skipped,
      });
      return { changedKey, changedCount: changed.length, newestEdit, concurrency };
    },

    /** For a scheduled sync: a new INCREMENTAL run record, unless the source is gone or needs a token. */
    async createScheduledRun(input: { sourceId: string }): Promise<string | undefined> {
      const source = await catalog.getSource(input.sourceId);
      if (!source || source.status !== SourceStatus.ACTIVE) return undefined;
      const project = await catalog.getProject(source.projectId);
      if (project?.status !== ProjectStatus.ACTIVE) return undefined;
      return (await catalog.createRun({ ...newSyncRun(source, SyncMode.INCREMENTAL), checkDeletions: true }))
        .id;
    },

    async cancelRun(input: { runId: string; reason: string }): Promise<void> {
      await catalog.updateRun(input.runId, {
        status: SyncRunStatus.FAILED,
        finishedAt: new Date().toISOString(),
        error: { code: 'SKIPPED', message: input.reason },
      });
    },

    async readPlanBatch(input: { changedKey: string; offset: number; limit: number }): Promise<string[]> {
      const ids = await blobs.getJson<string[]>(input.changedKey);
      return ids.slice(input.offset, input.offset + input.limit);
    },

    /** Live progress while pages are being ingested (the run's counts so far). */
    async recordProgress(input: { runId: string; tally: SyncTally }): Promise<void> {
      const run = await requireRun(catalog, input.runId);
      await catalog.updateRun(run.id, {
        progress: {
          ...run.progress,
          pagesIngested: input.tally.ready,
          pagesFailed: input.tally.failedCount,
          chunksEmbedded: input.tally.chunksEmbedded,
          chunksReused: input.tally.chunksReused,
        },
      });
    },

    /** Records how the page ingests ended, removes pages that vanished, advances the watermark. */
    async finishSync(input: { runId: string; tally: SyncTally; newestEdit?: string }): Promise<SyncRun> {
      const run = await requireRun(catalog, input.runId);
      const source = await catalog.requireSource(run.sourceId);
      const skipped = [...run.skipped];
      let gone = 0;
      for (const item of input.tally.gone) {
        const document = await catalog.getDocument(item.documentId);
        if (document) {
          skipped.push({ id: document.externalId ?? document.id, reason: item.reason });
          await removeDocument(deps, document.id);
          gone++;
        }
      }
      const progress: SyncProgress = {
        ...run.progress,
        pagesIngested: input.tally.ready,
        chunksEmbedded: input.tally.chunksEmbedded,
        chunksReused: input.tally.chunksReused,
        pagesFailed: input.tally.failedCount,
        pagesDeleted: run.progress.pagesDeleted + gone,
        pagesSkipped: skipped.length,
      };
      const finishedAt = new Date().toISOString();
      const watermark =
        input.newestEdit && (!source.watermark || input.newestEdit > source.watermark)
          ? input.newestEdit
          : source.watermark;
      await catalog.updateSource(source.id, {
        watermark,
        lastSyncAt: finishedAt,
        status: SourceStatus.ACTIVE,
      });
      await catalog.updateRun(run.id, { status: SyncRunStatus.COMPLETED, finishedAt, progress, skipped });
      await blobs.deletePrefix(`sync/${run.id}`);
      return { ...run, status: SyncRunStatus.COMPLETED, finishedAt, progress, skipped };
    },

    /** Marks the run failed; a rejected token also marks the source as needing a new one. */
    async failSync(input: { runId: string; code: string; message: string }): Promise<void> {
      const run = await requireRun(catalog, input.runId);
      // The source first: whoever sees the run end must also see its effect on the source.
      if (input.code === TroveErrorCode.NotionUnauthorized) {
        await catalog.updateSource(run.sourceId, { status: SourceStatus.NEEDS_TOKEN });
      }
      await catalog.updateRun(run.id, {
        status: SyncRunStatus.FAILED,
        finishedAt: new Date().toISOString(),
        error: { code: input.code, message: input.message },
      });
      await blobs.deletePrefix(`sync/${run.id}`);
    },
  };
}

export type SyncActivities = ReturnType<typeof createSyncActivities>;

/**
 * A folder sync lists every item with a hash of its content and placement (cheap: local files),
 * re-ingests the items whose hash changed, and removes the documents of vanished files, whatever
 * the mode: FULL and INCREMENTAL differ only for Notion.
 */
async function planFolderSync(deps: SyncDependencies, run: SyncRun, source: Source): Promise<SyncPlan> {
  const { catalog, blobs, folders } = deps;
  let listing;
  try {
    listing = await folders.list(source);
  } catch (error) {
    if (isTroveError(error) && error.permanent) {
      throw ApplicationFailure.create({ nonRetryable: true, type: error.code, message: error.message });
    }
    throw error;
  }
  const known = new Map((await catalog.listSourceDocuments(source.id)).map((d) => [d.externalId!, d]));
  const changed: string[] = [];
  let unchanged = 0;
  for (const item of listing.items) {
    Context.current().heartbeat({ planned: changed.length + unchanged });
    const existing = known.get(item.externalId);
    if (existing && existing.status === DocumentStatus.READY && existing.externalVersion === item.version) {
      unchanged++;
      continue;
    }
    const { document } =
      existing !== undefined
        ? { document: existing }
        : await catalog.ensureSourceDocument({
            projectId: source.projectId,
            sourceId: source.id,
            externalId: item.externalId,
            fileName: item.externalId,
            mediaType: 'application/octet-stream',
          });
    changed.push(document.id);
  }
  const listed = new Set(listing.items.map((item) => item.externalId));
  let deleted = 0;
  for (const [externalId, document] of known) {
    if (listed.has(externalId)) continue;
    await removeDocument(deps, document.id);
    deleted++;
  }
  const changedKey = `sync/${run.id}/changed.json`;
  await blobs.putJson(changedKey, changed);
  await catalog.updateRun(run.id, {
    progress: {
      ...run.progress,
      pagesSeen: listing.items.length,
      pagesUnchanged: unchanged,
      pagesDeleted: deleted,
      pagesSkipped: listing.skipped.length,
    },
    skipped: listing.skipped,
    warnings: listing.warnings.slice(0, 100),
  });
  return { changedKey, changedCount: changed.length };
}

/** Removes a document with its chunks and stored files. */
async function removeDocument(deps: SyncDependencies, documentId: string): Promise<void> {
  await deps.chunkIndex.deleteDocumentChunks(documentId);
  await deps.catalog.deleteDocument(documentId);
  await deps.blobs.deletePrefix(`originals/${documentId}`);
  await deps.blobs.deletePrefix(`work/${documentId}`);
}

/** A new (PENDING) document record for a Notion page of a source; the existing one if any. */
async function pageDocument(catalog: Catalog, source: Source, pageId: string): Promise<TroveDocument> {
  const { document } = await catalog.ensureSourceDocument({
    projectId: source.projectId,
    sourceId: source.id,
    externalId: pageId,
    fileName: `notion:${pageId}`,
    mediaType: PARSED_JSON_MEDIA_TYPE,
  });
  return document;
}

async function requireRun(catalog: Catalog, runId: string): Promise<SyncRun> {
  const run = await catalog.getRun(runId);
  if (!run) {
    throw ApplicationFailure.create({
      nonRetryable: true,
      type: 'SYNC_RUN_NOT_FOUND',
      message: `sync run ${runId} does not exist`,
    });
  }
  return run;
}

/**
 * Synced pages that no longer exist for the integration (trashed, deleted, unshared), found
 * cheaply: one search listing (everything mode) or one page lookup per synced page (roots), no
 * block fetches. Pages merely unlinked from their parent are found by FULL syncs.
 */
async function vanished(
  reader: NotionReader,
  source: Source,
  known: Map<string, TroveDocument>,
  heartbeat: () => void,
): Promise<TroveDocument[]> {
  if (source.notion!.everything) {
    const shared = new Set((await reader.searchPages()).map((p) => p.id));
    return [...known].filter(([pageId]) => !shared.has(pageId)).map(([, document]) => document);
  }
  const gone: TroveDocument[] = [];
  for (const [pageId, document] of known) {
    heartbeat();
    try {
      const page = await reader.page(pageId);
      if (page.in_trash || page.archived) gone.push(document);
    } catch (error) {
      if (classifyNotionError(error) !== 'skip') throw error;
      gone.push(document);
    }
  }
  return gone;
}

/**
 * Pages edited on or after `since` (a few sorted search calls), in scope of the source: with
 * roots, a page already synced or one whose parent is synced or a root. Deeper new subtrees are
 * picked up by the next FULL sync.
 */
async function changedSince(
  reader: NotionReader,
  source: Source,
  since: string,
  known: Set<string>,
): Promise<Map<string, string>> {
  const pages = await reader.searchPages(since);
  const inScope = new Set([...known, ...source.notion!.rootPageIds, ...source.notion!.rootDatabaseIds]);
  return new Map(
    pages
      .filter(
        (p) => source.notion!.everything || inScope.has(p.id) || (p.parentId && inScope.has(p.parentId)),
      )
      .map((p) => [p.id, p.lastEditedTime]),
  );
}

/**
 * Every page in scope: all pages shared with the integration, or everything reachable from the
 * roots through child pages, page links, databases and their rows (cycles are visited once).
 * Roots or links the integration cannot read are recorded as skipped; the sync goes on.
 */
async function discoverAll(
  reader: NotionReader,
  source: Source,
  skipped: SyncRun['skipped'],
  heartbeat: () => void,
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (source.notion!.everything) {
    for (const page of await reader.searchPages()) found.set(page.id, page.lastEditedTime);
    return found;
  }
  const pages = [...source.notion!.rootPageIds];
  const databases = [...source.notion!.rootDatabaseIds];
  const seenDatabases = new Set<string>();
  const skip = (id: string, error: unknown) => {
    // Only a missing, unshared or forbidden item is skipped; a rejected token or a fault is not.
    if (classifyNotionError(error) !== 'skip') throw error;
    skipped.push({ id, reason: (error as Error).message });
  };
  while (pages.length || databases.length) {
    if (found.size > MAX_DISCOVERED_PAGES) break;
    heartbeat();
    const databaseId = databases.shift();
    if (databaseId) {
      if (seenDatabases.has(databaseId)) continue;
      seenDatabases.add(databaseId);
      try {
        for (const dataSource of await reader.dataSources(databaseId)) {
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
      const page = await reader.page(pageId);
      if (page.in_trash || page.archived) continue;
      found.set(page.id, page.last_edited_time);
      const links = NotionReader.links(await reader.blockTree(page.id));
      pages.push(...links.pageIds.filter((id) => !found.has(id)));
      databases.push(...links.databaseIds);
    } catch (error) {
      skip(pageId, error);
    }
  }
  return found;
}

/**
 * Turns a debounced batch of webhook events into work: the latest event per page wins (ordered by
 * event timestamp, so duplicates and out-of-order deliveries are harmless); deleted pages are
 * removed at once; changed pages in the source's scope get a document to (re-)ingest.
 */
export function createWebhookActivities(deps: SyncDependencies) {
  const { catalog, notion } = deps;
  return {
    async applyNotionEvents(input: { sourceId: string; events: NotionEvent[] }): Promise<{
      ingest: string[];
      removed: number;
      ignored: number;
      resync: boolean;
    }> {
      const source = await catalog.requireSource(input.sourceId);
      await assertWritable(catalog, { projectId: source.projectId, sourceId: source.id });
      const known = new Map((await catalog.listSourceDocuments(source.id)).map((d) => [d.externalId!, d]));
      const inScope = new Set([
        ...known.keys(),
        ...source.notion!.rootPageIds,
        ...source.notion!.rootDatabaseIds,
      ]);
      const latest = new Map<string, NotionEvent>();
      let resync = false;
      for (const event of [...input.events].sort((a, b) => a.timestamp.localeCompare(b.timestamp))) {
        if (event.entityType !== 'page') {
          resync = true; // database or data source changes: rows are found by an incremental sync
          continue;
        }
        latest.set(event.entityId, event);
      }
      const ingest: string[] = [];
      let removed = 0;
      let ignored = 0;
      let reader: NotionReader | undefined;
      for (const [pageId, event] of latest) {
        const document = known.get(pageId);
        if (event.type === 'page.deleted') {
          if (!document) continue;
          // An event is a hint, not proof (it may be replayed, or overtaken by a restore):
          // delete only what Notion confirms is gone; a live page is re-read instead.
          reader ??= new NotionReader(notion.client(source));
          const state = await pageState(reader, pageId);
          if (state === 'gone') {
            await removeDocument(deps, document.id);
            removed++;
          } else if (state === 'live') ingest.push(document.id);
          else ignored++;
          continue;
        }
        const relevant =
          source.notion!.everything ||
          inScope.has(pageId) ||
          (event.parentId !== undefined && inScope.has(event.parentId));
        if (!relevant) {
          ignored++;
          continue;
        }
        ingest.push((document ?? (await pageDocument(catalog, source, pageId))).id);
      }
      return { ingest, removed, ignored, resync };
    },

    /** Documents whose page vanished before it could be fetched are removed. */
    async removeDocuments(input: { documentIds: string[] }): Promise<void> {
      for (const id of input.documentIds) await removeDocument(deps, id);
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;

/**
 * Whether a page is really deleted: trashed, missing or no longer shared is `gone`; a rejected
 * token proves nothing (`unknown`, kept; the next sync reports the token); faults are retried.
 */
async function pageState(reader: NotionReader, pageId: string): Promise<'gone' | 'live' | 'unknown'> {
  try {
    const page = await reader.page(pageId);
    return page.in_trash || page.archived ? 'gone' : 'live';
  } catch (error) {
    const kind = classifyNotionError(error);
    if (kind === 'skip') return 'gone';
    if (kind === 'unauthorized') return 'unknown';
    throw error;
  }
}
