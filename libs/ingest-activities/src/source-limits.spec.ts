import {
  DEFAULT_DOCUMENT_LIMITS,
  DEFAULT_SOURCE_LIMITS,
  type DiscoveredItem,
  DocumentStatus,
} from '@trove/domain';
import { describe, expect, it } from 'vitest';
import { applySourceLimits, MAX_SKIPPED_LISTED, type PlanLimits } from './source-limits';

const LIMITS: PlanLimits = { maxBytes: 1_000, maxDocumentsPerSource: 5, maxSyncBytes: 2_500 };
const item = (externalId: string, sizeBytes?: number, version = 'v1'): DiscoveredItem => ({
  externalId,
  version,
  ...(sizeBytes !== undefined ? { sizeBytes } : {}),
});
const ready = (version = 'v1') => ({ status: DocumentStatus.READY, version });
const ids = (items: { externalId: string }[]) => items.map((i) => i.externalId);

describe('applySourceLimits', () => {
  it('passes a docs repository of a few thousand files of ordinary sizes whole, with the default limits', () => {
    // 5,000 files of 2 KB to 0.5 MB, 1.2 GB together.
    const listed = Array.from({ length: 5_000 }, (_, i) =>
      item(`docs/page-${i}.md`, 2_048 + (i % 50) * 10_000),
    );
    const limited = applySourceLimits(listed, new Map(), {
      ...DEFAULT_DOCUMENT_LIMITS,
      ...DEFAULT_SOURCE_LIMITS,
    });
    expect(limited.items).toHaveLength(5_000);
    expect(limited).toMatchObject({ skipped: [], skippedCount: 0, warnings: [], deferred: false });
  });

  it('skips an item over the size limit (its document is not kept), naming the limit, the size and the setting', () => {
    const limited = applySourceLimits(
      [item('a.md', 10), item('big.txt', 125_829_039)],
      new Map([['big.txt', ready()]]),
      LIMITS,
    );
    expect(ids(limited.items)).toEqual(['a.md']);
    expect(limited.skipped).toEqual([
      {
        id: 'big.txt',
        reason:
          'big.txt has 125,829,039 bytes, over the limit of 1,000 bytes per document (TROVE_DOCUMENT_MAX_BYTES raises it)',
      },
    ]);
    expect(limited.kept.has('big.txt')).toBe(false);
    expect(limited.warnings).toEqual([
      '1 item(s) over the document size limit (1,000 bytes, TROVE_DOCUMENT_MAX_BYTES) were not fetched',
    ]);
  });

  it('keeps at most maxDocumentsPerSource items, those with documents first; the rest are skipped and kept', () => {
    const listed = ['n1', 'k1', 'n2', 'n3', 'k2', 'n4', 'n5'].map((id) => item(id));
    const known = new Map([
      ['k1', ready()],
      ['k2', ready()],
    ]);
    const limited = applySourceLimits(listed, known, LIMITS);
    expect(ids(limited.items)).toEqual(['n1', 'k1', 'n2', 'n3', 'k2']);
    expect(limited.skipped.map((s) => s.id)).toEqual(['n4', 'n5']);
    expect(limited.skipped[0].reason).toBe(
      'not indexed: the source has 7 documents, over the limit of 5 documents per source (TROVE_SOURCE_MAX_DOCUMENTS raises it)',
    );
    expect([...limited.kept]).toEqual(['n4', 'n5']);
    expect(limited.deferred).toBe(true);
  });

  it("fetches changed items up to the sync's bytes (one at least); the rest wait for a later sync, unchanged ones cost nothing", () => {
    const listed = [item('same', 900), item('a', 900), item('b', 900), item('c', 900), item('d')];
    const limited = applySourceLimits(listed, new Map([['same', ready()]]), {
      ...LIMITS,
      maxDocumentsPerSource: 10,
    });
    // same: unchanged; a + b = 1,800; c would make 2,700 > 2,500; d has no listed size.
    expect(ids(limited.items)).toEqual(['same', 'a', 'b', 'd']);
    expect(limited.skipped).toEqual([
      {
        id: 'c',
        reason:
          'left for a later sync: this sync has 2,700 bytes, over the limit of 2,500 bytes per sync (TROVE_SYNC_MAX_BYTES raises it)',
      },
    ]);
    expect(limited.kept.has('c')).toBe(true);
    // The next sync, with a and b indexed: c is fetched.
    const next = applySourceLimits(
      listed,
      new Map([
        ['same', ready()],
        ['a', ready()],
        ['b', ready()],
        ['d', ready()],
      ]),
      { ...LIMITS, maxDocumentsPerSource: 10 },
    );
    expect(next.skipped).toEqual([]);
    // One item alone over the sync's bytes still goes: a sync always makes progress.
    const alone = applySourceLimits([item('x', 900)], new Map(), { ...LIMITS, maxSyncBytes: 100 });
    expect(ids(alone.items)).toEqual(['x']);
  });

  it('lists the first skipped items and counts them all', () => {
    const listed = Array.from({ length: MAX_SKIPPED_LISTED + 500 }, (_, i) => item(`f${i}`, 5_000));
    const limited = applySourceLimits(listed, new Map(), LIMITS);
    expect(limited.skipped).toHaveLength(MAX_SKIPPED_LISTED);
    expect(limited.skippedCount).toBe(MAX_SKIPPED_LISTED + 500);
    expect(limited.warnings).toContain('500 more skipped item(s) are counted but not listed');
  });
});
