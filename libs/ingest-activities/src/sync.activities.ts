import { Context } from '@temporalio/activity';
import type { SyncRunRecords } from '@trove/catalog';
import type { DiscoveryProgress, SkippedItem, SyncRun } from '@trove/domain';
import { blobKeys, DEFAULT_DOCUMENT_LIMITS, DEFAULT_SOURCE_LIMITS, SyncMode, SyncStage } from '@trove/domain';
import { activity } from './activity-failure';
import type { IngestUnits } from './ingest-batch.activities';
import { assertWritable } from './write-guards';
import {
  diffItems,
  removeDocuments,
  requireRun,
  type SourceDocumentDependencies,
  type SyncCatalog,
} from './source-documents';
import { applySourceLimits, MAX_SKIPPED_LISTED, type PlanLimits } from './source-limits';
import type { SourceConnectors } from './source-connectors';
import { createSyncRunActivities } from './sync-runs.activities';

export interface SyncDependencies extends SourceDocumentDependencies {
  connectors: SourceConnectors;
  /** The document size limit and the source limits (the worker's settings); unset: the defaults. */
  limits?: PlanLimits;
}

/** What to ingest, and (the worker's settings) in which units. */
export interface SyncPlan extends IngestUnits {
  /** Blob with the ids of the documents to (re-)ingest, in order. */
  changedKey: string;
  changedCount: number;
  /** The source's next watermark if the run succeeds (the connector's, e.g. the newest edit time). */
  watermark?: string;
}

const PROGRESS_INTERVAL_MS = 2_000;

/**
 * Activities of a source sync, for every kind of source: plan (the connector discovers, then
 * one diff against the catalog), and the run's bookkeeping. `units` (the worker's
 * settings), handed to the workflow with the plan, is how it batches the pages and how many
 * units it ingests at once.
 */
export function createSyncActivities(deps: SyncDependencies & { units?: IngestUnits }) {
  const { writeChecks, sources, runs, documents, blobs, connectors, units } = deps;
  const limits: PlanLimits = deps.limits ?? { ...DEFAULT_DOCUMENT_LIMITS, ...DEFAULT_SOURCE_LIMITS };

  return {
    ...createSyncRunActivities(deps),

    /**
     * Asks the source's connector for its items (FULL and REBUILD: everything in scope;
     * INCREMENTAL: what changed since the watermark; REBUILD counts every item as changed), applies the limits (items over the size limit, beyond the
     * source's document limit or the sync's bytes are skipped, with why), creates records for new
     * items, removes the documents of items the source no longer has, and writes the ids that
     * need ingesting to a blob.
     */
    async planSync(input: { runId: string }): Promise<SyncPlan> {
      return activity(async () => {
        const run = await requireRun(runs, input.runId);
        await assertWritable(writeChecks, { projectId: run.projectId, sourceId: run.sourceId });
        const source = await sources.requireSource(run.sourceId);
        const connector = connectors.for(source);
        const known = new Map(
          (await documents.sourceItems(source.id)).map((item) => [item.externalId, item]),
        );

        // Discovery of a large source takes a while: heartbeat, and show the items seen so far.
        const progress = throttledProgress(runs, run);
        let discovery;
        try {
          discovery = await connector.discover(source, {
            since: run.mode === SyncMode.INCREMENTAL ? source.watermark : undefined,
            known: new Set(known.keys()),
            onProgress: (seen) => {
              Context.current().heartbeat(seen);
              progress.report(seen);
            },
            maxItemBytes: limits.maxBytes,
          });
        } finally {
          await progress.settle();
        }
        const limited = applySourceLimits(discovery.items, known, limits);
        const found = new Map(limited.items.map((item) => [item.externalId, item.version]));
        // Named before the documents of vanished items are removed below: theirs are the titles.
        const skipped = await withTitles(
          documents,
          [...discovery.skipped, ...limited.skipped].slice(0, MAX_SKIPPED_LISTED),
          known,
        );
        const counts = { ...run.progress, pagesSeen: discovery.items.length, apiCalls: discovery.requests };
        await runs.updateRun(run.id, { progress: counts });
        Context.current().heartbeat({ seen: found.size });

        const rebuild = run.mode === SyncMode.REBUILD;
        const { changed, unchanged } = await diffItems(documents, source, connector, known, found, rebuild);

        let gone: string[] = [];
        if (discovery.complete) {
          gone = [...known.keys()].filter(
            (externalId) => !found.has(externalId) && !limited.kept.has(externalId),
          );
        } else if (run.checkDeletions && connector.vanished) {
          gone = await connector.vanished(source, [...known.keys()], () => Context.current().heartbeat());
        }
        const deleted = await removeDocuments(
          deps,
          gone.map((externalId) => known.get(externalId)!.id),
        );

        const changedKey = blobKeys.syncPlan(run.id);
        await blobs.putJson(changedKey, changed);
        await runs.updateRun(run.id, {
          stage: SyncStage.INGESTING,
          pagesPlanned: changed.length,
          // The rate's first sample: nothing ingested yet, now.
          recentProgress: [{ at: Date.now(), pages: 0 }],
          progress: {
            ...counts,
            pagesUnchanged: unchanged,
            pagesDeleted: deleted,
            pagesSkipped: discovery.skipped.length + limited.skippedCount,
          },
          skipped,
          warnings: [...limited.warnings, ...discovery.warnings].slice(0, MAX_WARNINGS),
        });
        return {
          changedKey,
          changedCount: changed.length,
          // Items left for a later sync are listed again only if the watermark stays where it was.
          ...(discovery.watermark && !limited.deferred ? { watermark: discovery.watermark } : {}),
          ...units,
          ...(rebuild ? { reembed: true } : {}),
        };
      });
    },
  };
}

export type SyncActivities = ReturnType<typeof createSyncActivities>;

const MAX_WARNINGS = 100;

/**
 * Skipped items the listing could not name (a page it may no longer read) named by the title of
 * the document an earlier sync made of them, so a person sees more than an id.
 */
async function withTitles(
  records: Pick<SyncCatalog['documents'], 'getDocuments'>,
  skipped: SkippedItem[],
  known: ReadonlyMap<string, { id: string }>,
): Promise<SkippedItem[]> {
  const unnamed = skipped.filter((item) => !item.title && known.has(item.id));
  if (unnamed.length === 0) return skipped;
  const documents = await records.getDocuments(unnamed.map((item) => known.get(item.id)!.id));
  const titles = new Map(documents.map((d) => [d.externalId, d.title]));
  return skipped.map((item) =>
    item.title || !titles.get(item.id) ? item : { ...item, title: titles.get(item.id) },
  );
}

/**
 * Writes the items seen so far to the run: at once for the first, then at most every two
 * seconds. `settle` stops the writes and waits for one under way, so it cannot land after (and
 * undo) the plan's own final counts.
 */
function throttledProgress(
  runs: SyncRunRecords,
  run: SyncRun,
): { report(progress: DiscoveryProgress): void; settle(): Promise<void> } {
  let last = 0;
  let settled = false;
  let writing: Promise<void> | undefined;
  return {
    report({ seen, requests }) {
      if (settled || writing || seen === 0 || Date.now() - last < PROGRESS_INTERVAL_MS) return;
      last = Date.now();
      writing = runs
        .updateRun(run.id, { progress: { ...run.progress, pagesSeen: seen, apiCalls: requests } })
        .catch(() => undefined) // progress is best effort; the plan's own writes are not
        .finally(() => (writing = undefined));
    },
    async settle() {
      settled = true;
      await writing;
    },
  };
}
