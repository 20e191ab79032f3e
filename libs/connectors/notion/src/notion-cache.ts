import { LRUCache } from 'lru-cache';
import type { BlockNode } from './notion-types';

/** Notion rounds edit times down to the minute. */
export const EDIT_TIME_GRANULARITY_MS = 60_000;
/** Allowance for this machine's clock running ahead of Notion's. */
const CLOCK_SKEW_MS = 10_000;

export interface NotionCacheOptions {
  /** How long entries are reused (a sync run's discovery and fetches); 0 disables the cache. */
  ttlMs: number;
  /** Page, database and block objects kept, all sources together. */
  maxObjects: number;
  /** Block trees kept, in characters of JSON (about bytes), all sources together. */
  maxTreeChars: number;
}

/** A cached object and when it was requested (epoch ms). */
export interface CachedObject<T> {
  value: Promise<T>;
  readAt: number;
}

type ObjectKind = 'page' | 'database' | 'block';

/**
 * What a sync run reads from Notion, kept for the run's later requests in this worker process:
 * page, database and block objects (so breadcrumbs, relation titles and a fetch's own page lookup
 * are not requested again) and block trees keyed by page id and edit time (so a page's blocks
 * listed during discovery are not listed again when it is fetched). Bounded by entries, bytes and
 * age. Every key starts with the source id: sources have different tokens, and one source's data
 * must never be served to another.
 */
export class NotionCache {
  private readonly objects: LRUCache<string, CachedObject<unknown>>;
  private readonly trees: LRUCache<string, { blocks: BlockNode[]; readAt: number }>;

  constructor(options: NotionCacheOptions) {
    this.objects = new LRUCache({ max: options.maxObjects, ttl: options.ttlMs });
    this.trees = new LRUCache({
      maxSize: options.maxTreeChars,
      ttl: options.ttlMs,
      sizeCalculation: (entry) => Math.max(1, JSON.stringify(entry.blocks).length),
    });
  }

  /** The cache as one source's reader sees it. */
  forSource(sourceId: string): NotionReaderCache {
    const key = (kind: string, id: string) => `${sourceId}\u0000${kind}\u0000${id}`;
    return {
      getObject: <T>(kind: ObjectKind, id: string) =>
        this.objects.get(key(kind, id)) as CachedObject<T> | undefined,
      setObject: <T>(kind: ObjectKind, id: string, value: Promise<T>, readAt = Date.now()) => {
        const k = key(kind, id);
        const entry: CachedObject<T> = { value, readAt };
        this.objects.set(k, entry);
        // A failed request is not an answer to keep (the next caller asks Notion itself).
        value.catch(() => {
          if (this.objects.peek(k) === entry) this.objects.delete(k);
        });
      },
      deleteObject: (kind: ObjectKind, id: string) => void this.objects.delete(key(kind, id)),
      getTree: (pageId: string, editedAt: string) => this.trees.get(key('tree', `${pageId}@${editedAt}`)),
      setTree: (pageId: string, editedAt: string, blocks: BlockNode[], readAt: number) => {
        // Trees larger than the whole budget are not kept (lru-cache would refuse them anyway).
        this.trees.set(key('tree', `${pageId}@${editedAt}`), { blocks, readAt });
      },
    };
  }

  /** Drops everything kept for a source (it was removed, or its token changed). */
  forget(sourceId: string): void {
    const prefix = `${sourceId}\u0000`;
    for (const k of [...this.objects.keys()]) if (k.startsWith(prefix)) this.objects.delete(k);
    for (const k of [...this.trees.keys()]) if (k.startsWith(prefix)) this.trees.delete(k);
  }
}

/** One source's view of a {@link NotionCache}, as a {@link NotionReader} uses it. */
export interface NotionReaderCache {
  getObject<T>(kind: ObjectKind, id: string): CachedObject<T> | undefined;
  /** Keeps a request's answer (its promise, so concurrent readers of one object share one request). */
  setObject<T>(kind: ObjectKind, id: string, value: Promise<T>, readAt?: number): void;
  deleteObject(kind: ObjectKind, id: string): void;
  getTree(pageId: string, editedAt: string): { blocks: BlockNode[]; readAt: number } | undefined;
  setTree(pageId: string, editedAt: string, blocks: BlockNode[], readAt: number): void;
}

/**
 * Whether what was read at `readAt` is everything there is at edit time `editedAt`: Notion rounds
 * edit times down to the minute, so an edit made later in the same minute keeps the same edit
 * time; only a read made after that minute has ended (by this machine's clock, with an allowance
 * for skew) cannot miss such an edit.
 */
export function settled(readAt: number, editedAt: string): boolean {
  return readAt >= Date.parse(editedAt) + EDIT_TIME_GRANULARITY_MS + CLOCK_SKEW_MS;
}
