import type { SourceItem } from '@trove/catalog';
import {
  type DiscoveredItem,
  type DocumentLimits,
  limitReason,
  type SkippedItem,
  type SourceLimits,
} from '@trove/domain';
import { isUnchanged } from './source-documents';

/** The limits a sync's plan applies: the document size limit, and the source's own. */
export type PlanLimits = Pick<DocumentLimits, 'maxBytes'> & SourceLimits;

/** Skipped items a run records one by one; beyond, they are counted (and summed up in a warning). */
export const MAX_SKIPPED_LISTED = 1_000;

/** A listing after the limits: what the sync indexes, and what it leaves out and why. */
export interface LimitedListing {
  /** Items in scope within the limits, in discovery order. */
  items: DiscoveredItem[];
  /** Items left out, each with its reason (the first {@link MAX_SKIPPED_LISTED}). */
  skipped: SkippedItem[];
  /** Every item left out, listed or not. */
  skippedCount: number;
  /**
   * Items left out that still exist and keep their documents (beyond the source's document
   * limit, or waiting for a later sync): not deletions. An item over the size limit is not here:
   * its document, if it has one, is removed like that of any item the listing no longer has.
   */
  kept: Set<string>;
  warnings: string[];
  /** Some items wait for a later sync: the watermark must not move past them. */
  deferred: boolean;
}

/**
 * Applies the limits to a source's listing, before anything is fetched or recorded:
 * 1. an item whose listed size is over `maxBytes` is skipped (never fetched);
 * 2. at most `maxDocumentsPerSource` items are kept, those with documents first, then new ones in
 *    discovery order; the rest are skipped;
 * 3. the items to (re-)ingest are kept while their listed sizes add up to `maxSyncBytes` (at
 *    least one per sync, so a sync always makes progress); the rest wait for a later sync.
 */
export function applySourceLimits(
  listed: readonly DiscoveredItem[],
  known: ReadonlyMap<string, Pick<SourceItem, 'status' | 'version'>>,
  limits: PlanLimits,
): LimitedListing {
  const skipped: SkippedItem[] = [];
  let skippedCount = 0;
  const skip = (item: DiscoveredItem, reason: string) => {
    skippedCount++;
    if (skipped.length < MAX_SKIPPED_LISTED)
      skipped.push({ id: item.externalId, reason, ...(item.title ? { title: item.title } : {}) });
  };
  const kept = new Set<string>();
  const warnings: string[] = [];

  const sized: DiscoveredItem[] = [];
  let oversize = 0;
  for (const item of listed) {
    if (item.sizeBytes !== undefined && item.sizeBytes > limits.maxBytes) {
      oversize++;
      skip(item, limitReason('maxBytes', item.externalId, item.sizeBytes, limits.maxBytes));
    } else sized.push(item);
  }
  if (oversize > 0)
    warnings.push(
      `${oversize} item(s) over the document size limit (${limits.maxBytes.toLocaleString('en-US')} bytes, TROVE_DOCUMENT_MAX_BYTES) were not fetched`,
    );

  let counted = sized;
  if (sized.length > limits.maxDocumentsPerSource) {
    const ordered = [
      ...sized.filter((item) => known.has(item.externalId)),
      ...sized.filter((item) => !known.has(item.externalId)),
    ];
    const keep = new Set(ordered.slice(0, limits.maxDocumentsPerSource).map((item) => item.externalId));
    counted = sized.filter((item) => keep.has(item.externalId));
    const reason = limitReason(
      'maxDocumentsPerSource',
      'the source',
      sized.length,
      limits.maxDocumentsPerSource,
    );
    for (const item of ordered.slice(limits.maxDocumentsPerSource)) {
      kept.add(item.externalId);
      skip(item, `not indexed: ${reason}`);
    }
    warnings.push(`${sized.length - counted.length} item(s) were not indexed: ${reason}`);
  }

  const items: DiscoveredItem[] = [];
  let bytes = 0;
  let waiting = 0;
  const changedBytes = counted
    .filter((item) => changed(item, known))
    .reduce((sum, item) => sum + (item.sizeBytes ?? 0), 0);
  for (const item of counted) {
    const size = item.sizeBytes ?? 0;
    if (changed(item, known)) {
      if (bytes > 0 && bytes + size > limits.maxSyncBytes) {
        waiting++;
        kept.add(item.externalId);
        skip(
          item,
          `left for a later sync: ${limitReason('maxSyncBytes', 'this sync', changedBytes, limits.maxSyncBytes)}`,
        );
        continue;
      }
      bytes += size;
    }
    items.push(item);
  }
  if (waiting > 0)
    warnings.push(
      `${waiting} changed item(s) were left for a later sync: ${limitReason('maxSyncBytes', 'this sync', changedBytes, limits.maxSyncBytes)}`,
    );
  if (skippedCount > skipped.length)
    warnings.push(`${skippedCount - skipped.length} more skipped item(s) are counted but not listed`);
  return { items, skipped, skippedCount, kept, warnings, deferred: kept.size > 0 };
}

/** Whether the sync would fetch the item. */
function changed(item: DiscoveredItem, known: ReadonlyMap<string, Pick<SourceItem, 'status' | 'version'>>) {
  return !isUnchanged(known.get(item.externalId), item.version);
}
