import type { SourceEvent } from '@trove/domain';
import { activity } from './activity-failure';
import { assertWritable } from './write-guards';
import { ensureDocuments, removeDocuments } from './source-documents';
import type { SyncDependencies } from './sync.activities';

/**
 * Turns a debounced batch of pushed events (webhook deliveries) into work: the source's connector
 * reduces them (latest event per item, deletions confirmed with the source, scope); confirmed
 * deletions are removed at once, changed items get a document to (re-)ingest.
 */
export function createWebhookActivities(deps: SyncDependencies) {
  const { writeChecks, sources, documents, connectors } = deps;
  return {
    async applySourceEvents(input: { sourceId: string; events: SourceEvent[] }): Promise<{
      ingest: string[];
      removed: number;
      ignored: number;
      resync: boolean;
    }> {
      return activity(async () => {
        const source = await sources.requireSource(input.sourceId);
        await assertWritable(writeChecks, { projectId: source.projectId, sourceId: source.id });
        const connector = connectors.for(source);
        if (!connector.reduceEvents) {
          return { ingest: [], removed: 0, ignored: input.events.length, resync: false };
        }
        // Only the items the events name (and their parents) are looked up, not the whole source.
        const named = input.events.flatMap((e) => (e.parentId ? [e.entityId, e.parentId] : [e.entityId]));
        const known = new Map(
          (await documents.findSourceItems(source.id, [...new Set(named)])).map((item) => [
            item.externalId,
            item.id,
          ]),
        );
        const work = await connector.reduceEvents(source, input.events, new Set(known.keys()));
        const removed = await removeDocuments(
          deps,
          work.gone.flatMap((externalId) => known.get(externalId) ?? []),
        );
        const created = await ensureDocuments(
          documents,
          source,
          connector,
          work.ingest.filter((externalId) => !known.has(externalId)),
        );
        const ingest = work.ingest.map((externalId) => known.get(externalId) ?? created.get(externalId)!);
        return { ingest, removed, ignored: work.ignored, resync: work.resync };
      });
    },

    /** Documents whose item vanished before it could be fetched are removed. */
    async removeDocuments(input: { documentIds: string[] }): Promise<void> {
      await removeDocuments(deps, input.documentIds);
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
