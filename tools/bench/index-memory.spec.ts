import { describe, expect, it } from 'vitest';
import { indexMemory, mibPerMillion } from './index-memory';

const file = (size_in_bytes: number) => ({ size_in_bytes });
const stats = (files: Record<string, number>) => ({
  docs: { count: 10_000 },
  store: { size_in_bytes: 80_000_000 },
  segments: {
    count: 1,
    file_sizes: Object.fromEntries(Object.entries(files).map(([ext, size]) => [ext, file(size)])),
  },
});
const usage = { fields: { embedding: { knn_vectors_in_bytes: 19_800_000 } } };

describe('indexMemory', () => {
  it('counts graph + int8 vectors as the kNN working set of an int8_hnsw index, not its floats', () => {
    const m = indexMemory(
      stats({ vec: 15_360_000, veq: 3_880_000, vex: 500_000, vemf: 100, vemq: 100, tim: 9_000_000 }),
      usage,
      'int8_hnsw',
    );
    expect(m).toEqual({
      docs: 10_000,
      segments: 1,
      storeBytes: 80_000_000,
      vectorFieldBytes: 19_800_000,
      vectorFiles: { vec: 15_360_000, veq: 3_880_000, vex: 500_000, vemf: 100, vemq: 100 },
      searchBytes: 4_380_000,
    });
  });

  it('counts graph + float vectors for an hnsw index', () => {
    const m = indexMemory(stats({ vec: 15_360_000, vex: 500_000, vemf: 100 }), usage, 'hnsw');
    expect(m.searchBytes).toBe(15_860_000);
  });

  it('refuses compound segments, whose vector files _stats cannot show', () => {
    expect(() => indexMemory(stats({ cfs: 20_000_000, cfe: 100 }), usage, 'hnsw')).toThrow(/compound_format/);
  });

  it('refuses an index without the files its vector type reads, naming what it found', () => {
    expect(() => indexMemory(stats({ vec: 1, vex: 1, tim: 1 }), usage, 'int8_hnsw')).toThrow(
      /int8_hnsw index without its \.veq and \.vex files \(found: vec, vex, tim\)/,
    );
  });
});

describe('mibPerMillion', () => {
  it('scales bytes measured on some chunks to a million chunks, in MiB', () => {
    expect(mibPerMillion(2 ** 20, 1_000_000)).toBe(1);
    expect(mibPerMillion(2 ** 20, 100_000)).toBe(10);
    expect(() => mibPerMillion(1, 0)).toThrow(/no documents/);
  });
});
