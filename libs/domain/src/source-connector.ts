/**
 * The port every source system plugs into (Notion, folders, web sites, …). A connector knows how
 * to list a source's items with a version each, and how to fetch one item; the generic sync does
 * the rest (diff, records, ingest, deletions, watermark, progress), so adding a source is one lib.
 *
 * Failure vocabulary: a connector throws `TroveError` with `SOURCE_ITEM_GONE` (the item is
 * deleted, unshared or forbidden: it is skipped and its document removed) or
 * `SOURCE_UNAUTHORIZED` (the source rejects Trove's credentials: the run stops and the source
 * needs a new token), both permanent; `BAD_REQUEST` (permanent) for a source configured wrongly.
 * Anything else is treated as transient and retried.
 */
import { TroveError, TroveErrorCode } from './errors';
import type { Source, SourceType } from './model';

/** An item found in a source. */
export interface DiscoveredItem {
  /** The item's id in its source: a Notion page id, a path under a folder, a page URL. */
  externalId: string;
  /**
   * Changes whenever what Trove indexes from the item changes (an edit time, an ETag, a content
   * hash): an item whose version equals its indexed document's is not fetched again.
   */
  version: string;
  title?: string;
  /**
   * The item's size in bytes where the listing knows it (a Git blob, a file): an item over the
   * document size limit is skipped before it is fetched, and sizes count toward a sync's bytes.
   */
  sizeBytes?: number;
}

export interface SkippedItem {
  id: string;
  reason: string;
  /** What a person calls the item (a page's title, a file's path), when the listing knows it. */
  title?: string;
}

export interface DiscoverOptions {
  /** INCREMENTAL runs: the watermark of the last successful sync. Unset: list everything (FULL). */
  since?: string;
  /** External ids the source already has documents for (incremental discovery scopes with them). */
  known: ReadonlySet<string>;
  /** Hears how many items were found so far and how many requests were made; called often. */
  onProgress?(progress: DiscoveryProgress): void;
  /**
   * Items larger than this are skipped by the sync (list them with their `sizeBytes`): a connector
   * never reads one to list it (to hash it, to render it) and never stores one on this machine.
   */
  maxItemBytes?: number;
}

/** How a fetch is bounded. */
export interface FetchOptions {
  /**
   * An item larger than this fails with the document size limit's reason (see
   * `documentOverLimit`) before its bytes are read where the source tells its size (a stat, a
   * `Content-Length`, a Git tree), and as soon as the bytes read pass it otherwise.
   */
  maxBytes?: number;
}

export interface DiscoveryProgress {
  seen: number;
  requests: number;
}

export interface Discovery {
  items: DiscoveredItem[];
  /** Items in scope that could not be read (unshared, forbidden, refused by robots.txt), with why. */
  skipped: SkippedItem[];
  /** What the source's configuration asked for that could not be honoured. */
  warnings: string[];
  /** The listing is the whole source: known items missing from it were deleted there. */
  complete: boolean;
  /** Stored as the source's watermark if the run succeeds (e.g. the newest edit time seen). */
  watermark?: string;
  /** Requests made to the source system. */
  requests: number;
}

/** An item's current content, ready for the parsers (original bytes, or parsed JSON blocks). */
export interface FetchedItem {
  data: Buffer;
  mediaType: string;
  version: string;
  /** The document's file name; the placeholder's when unset. */
  fileName?: string;
  title?: string;
  /** Link to the item in its source: citations link to `url#anchor` unless the connector says otherwise. */
  url?: string;
  breadcrumb?: string[];
  warnings?: string[];
}

/** Work a batch of pushed events (webhooks) implies, reduced to the latest event per item. */
export interface EventWork {
  /** External ids to (re-)ingest. */
  ingest: string[];
  /** External ids confirmed deleted in the source. */
  gone: string[];
  /** Events about items outside the source's scope, or that proved nothing. */
  ignored: number;
  /** Events that an item-level update cannot express (a database changed): run an incremental sync. */
  resync: boolean;
}

/** A change pushed by the source (a Notion webhook event), reduced to what a sync needs. */
export interface SourceEvent {
  type: string;
  entityId: string;
  entityType: string;
  timestamp: string;
  parentId?: string;
}

export interface SourceConnector<S extends Source = Source> {
  readonly type: SourceType;
  /** Every item in scope (FULL), or those changed since `options.since` (INCREMENTAL). */
  discover(source: S, options: DiscoverOptions): Promise<Discovery>;
  /** The item's current content; `SOURCE_ITEM_GONE` if it no longer exists. */
  fetch(source: S, externalId: string, options?: FetchOptions): Promise<FetchedItem>;
  /** File name and media type of a new item's record, until its first fetch. */
  placeholder(externalId: string): { fileName: string; mediaType: string };
  /**
   * Where a citation of an item's chunk links when the fetched item gave no URL (a Notion block
   * link); unset: the item's URL with the anchor.
   */
  citationUrl?(item: { externalId: string; url?: string }, anchor?: string): string | undefined;
  /**
   * Of these known items, those that no longer exist, found cheaply (no content reads). Scheduled
   * INCREMENTAL runs use it to notice deletions between FULL syncs.
   */
  vanished?(source: S, externalIds: string[], onProgress?: () => void): Promise<string[]>;
  /** Pushed events (webhooks) reduced to work; `known` are the items among them that have documents. */
  reduceEvents?(source: S, events: SourceEvent[], known: ReadonlySet<string>): Promise<EventWork>;
  /** Removes what the connector keeps for a source on this machine (caches) when it is removed. */
  forget?(source: S): Promise<void>;
}

/** The item is deleted, unshared or forbidden: the sync skips it and removes its document. */
export function sourceItemGone(message: string, cause?: unknown): TroveError {
  return new TroveError(TroveErrorCode.SourceItemGone, message, { permanent: true, cause });
}

/** The source rejects Trove's credentials: the run stops and the source needs a new token. */
export function sourceUnauthorized(message: string, cause?: unknown): TroveError {
  return new TroveError(TroveErrorCode.SourceUnauthorized, message, { permanent: true, cause });
}
