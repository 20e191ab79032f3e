import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Catalog, NewSourceItem, SourceItem } from '@trove/catalog';
import type { BlobStore, NotionEvent, Source, SyncProgress, SyncRun } from '@trove/domain';
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
import { classifyNotionError, NotionReader, type RequestCounter } from '@trove/connector-notion';
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
const PROGRESS_INTERVAL_MS = 2_000;

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
      // Progress while discovering (a large workspace takes a while): heartbeat, and the run's
      // pages-seen count at most every couple of seconds.
      const progress = throttledProgress(catalog, run, counter);
      const heartbeat = (seen = 0) => {
        Context.current().heartbeat({ requests: counter.requests, seen });
        progress.report(seen);
      };

      const known = new Map((await catalog.sourceItems(source.id)).map((item) => [item.externalId, item]));
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
      } finally {
        await progress.settle();
      }
      await catalog.updateRun(run.id, {
        progress: { ...run.progress, pagesSeen: found.size, apiCalls: counter.requests },
      });

      // The same page at the same edit time is already indexed: nothing to do (dedupe by id + time).
      const { changed, unchanged } = await diff(catalog, source, known, found, (pageId, editedAt) => {
        const existing = known.get(pageId);
        return existing?.status === DocumentStatus.READY && existing.externalEditedAt === editedAt;
      });

      let deleted = 0;
      if (run.mode === SyncMode.FULL || !source.watermark) {
        deleted = await removeDocuments(
          deps,
          [...known].filter(([pageId]) => !found.has(pageId)).map(([, item]) => item.id),
        );
      } else if (run.checkDeletions) {
        try {
          deleted = await removeDocuments(deps, await vanished(reader, source, known, heartbeat));
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
          await removeDocuments(deps, [document.id]);
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
  // Reading and hashing a large folder takes a while: heartbeat, and show the files seen so far.
  const progress = throttledProgress(catalog, run, { requests: 0 });
  let listing;
  try {
    listing = await folders.list(source, (listed) => {
      Context.current().heartbeat({ listed });
      progress.report(listed);
    });
  } catch (error) {
    if (isTroveError(error) && error.permanent) {
      throw ApplicationFailure.create({ nonRetryable: true, type: error.code, message: error.message });
    }
    throw error;
  } finally {
    await progress.settle();
  }
  await catalog.updateRun(run.id, { progress: { ...run.progress, pagesSeen: listing.items.length } });
  Context.current().heartbeat({ listed: listing.items.length });
  const known = new Map((await catalog.sourceItems(source.id)).map((item) => [item.externalId, item]));
  const versions = new Map(listing.items.map((item) => [item.externalId, item.version]));
  const { changed, unchanged } = await diff(catalog, source, known, versions, (externalId, version) => {
    const existing = known.get(externalId);
    return existing?.status === DocumentStatus.READY && existing.externalVersion === version;
  });
  const deleted = await removeDocuments(
    deps,
    [...known].filter(([externalId]) => !versions.has(externalId)).map(([, item]) => item.id),
  );
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

/**
 * The plan's diff, in a few statements whatever the size: items whose version differs from
 * their document's (or that have none) are to ingest, in discovery order; the new ones get
 * their records in bulk (`INSERT … ON CONFLICT DO NOTHING`), so re-running a plan never
 * duplicates a document.
 */
async function diff(
  catalog: Catalog,
  source: Source,
  known: Map<string, SourceItem>,
  found: Map<string, string>,
  isCurrent: (externalId: string, version: string) => boolean,
): Promise<{ changed: string[]; unchanged: number }> {
  const pending: string[] = [];
  let unchanged = 0;
  for (const [externalId, version] of found) {
    if (isCurrent(externalId, version)) unchanged++;
    else pending.push(externalId);
  }
  const created = await catalog.ensureSourceDocuments(
    source.id,
    pending.filter((externalId) => !known.has(externalId)).map((externalId) => newItem(source, externalId)),
  );
  const changed = pending.map((externalId) => known.get(externalId)?.id ?? created.get(externalId)!);
  return { changed, unchanged };
}

function newItem(source: Source, externalId: string): NewSourceItem {
  return source.type === SourceType.NOTION
    ? { externalId, fileName: `notion:${externalId}`, mediaType: PARSED_JSON_MEDIA_TYPE }
    : { externalId, fileName: externalId, mediaType: 'application/octet-stream' };
}

/**
 * Writes the pages seen so far to the run: at once for the first, then at most every two seconds.
 * `settle` stops the writes and waits for one under way, so it cannot land after (and undo) the
 * plan's own final counts.
 */
function throttledProgress(
  catalog: Catalog,
  run: SyncRun,
  counter: RequestCounter,
): { report(seen: number): void; settle(): Promise<void> } {
  let last = 0;
  let settled = false;
  let writing: Promise<void> | undefined;
  return {
    report(seen) {
      if (settled || writing || seen === 0 || Date.now() - last < PROGRESS_INTERVAL_MS) return;
      last = Date.now();
      writing = catalog
        .updateRun(run.id, { progress: { ...run.progress, pagesSeen: seen, apiCalls: counter.requests } })
        .catch(() => undefined) // progress is best effort; the plan's own writes are not
        .finally(() => (writing = undefined));
    },
    async settle() {
      settled = true;
      await writing;
    },
  };
}

/** Removes documents with their chunks and stored files; returns how many. */
async function removeDocuments(deps: SyncDependencies, documentIds: string[]): Promise<number> {
  await deps.chunkIndex.deleteDocumentsChunks(documentIds);
  for (const [i, id] of documentIds.entries()) {
    await deps.catalog.deleteDocument(id);
    await deps.blobs.deletePrefix(`originals/${id}`);
    await deps.blobs.deletePrefix(`work/${id}`);
    if (i % 200 === 0) Context.current().heartbeat({ removed: i });
  }
  return documentIds.length;
}

/** A new (PENDING) document record for a Notion page of a source; the existing one if any. */
async function pageDocument(catalog: Catalog, source: Source, pageId: string): Promise<string> {
  const ids = await catalog.ensureSourceDocuments(source.id, [newItem(source, pageId)]);
  return ids.get(pageId)!;
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
  known: Map<string, SourceItem>,
  heartbeat: () => void,
): Promise<string[]> {
  if (source.notion!.everything) {
    const shared = new Set((await reader.searchPages()).map((p) => p.id));
    return [...known].filter(([pageId]) => !shared.has(pageId)).map(([, item]) => item.id);
  }
  const gone: string[] = [];
  for (const [pageId, item] of known) {
    heartbeat();
    try {
      const page = await reader.page(pageId);
      if (page.in_trash || page.archived) gone.push(item.id);
    } catch (error) {
      if (classifyNotionError(error) !== 'skip') throw error;
      gone.push(item.id);
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
  heartbeat: (seen: number) => void,
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
    heartbeat(found.size);
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
      // Only the pages the events name (and their parents) are looked up, not the whole source.
      const named = input.events.flatMap((e) => (e.parentId ? [e.entityId, e.parentId] : [e.entityId]));
      const known = new Map(
        (await catalog.findSourceItems(source.id, [...new Set(named)])).map((item) => [
          item.externalId,
          item,
        ]),
      );
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
            await removeDocuments(deps, [document.id]);
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
        ingest.push(document?.id ?? (await pageDocument(catalog, source, pageId)));
      }
      return { ingest, removed, ignored, resync };
    },

    /** Documents whose page vanished before it could be fetched are removed. */
    async removeDocuments(input: { documentIds: string[] }): Promise<void> {
      await removeDocuments(deps, input.documentIds);
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
