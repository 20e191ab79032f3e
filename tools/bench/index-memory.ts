/**
 * What an index's vectors cost, as Elasticsearch reports it: `_stats?include_segment_file_sizes`
 * (bytes per Lucene file extension) and `_disk_usage?run_expensive_tasks=true` (bytes per field).
 *
 * Lucene keeps vectors off the JVM heap, in files the OS pages in: a kNN search reads the HNSW
 * graph (`.vex`) and the vectors it compares — the int8 copies (`.veq`) for `int8_hnsw`, the
 * floats (`.vec`) for `hnsw`. Those files are the memory a node needs for kNN to stay fast. An
 * `int8_hnsw` index keeps its float vectors on disk too (rescoring reads a few of them per query).
 */

/** Lucene's vector file extensions (Lucene 9.x/10.x formats used by Elasticsearch 8.x). */
export const VECTOR_FILES = {
  vec: 'float vectors',
  vex: 'HNSW graph',
  veq: 'int8 vectors',
  vem: 'vector metadata',
  vemf: 'float vector metadata',
  vemq: 'int8 vector metadata',
} as const;

export type VectorType = 'int8_hnsw' | 'hnsw';

export interface IndexMemory {
  docs: number;
  segments: number;
  /** The index's size on disk. */
  storeBytes: number;
  /** `_disk_usage`'s knn_vectors bytes of the vector field (every vector file of the field). */
  vectorFieldBytes: number;
  /** Bytes per vector file extension (only those present). */
  vectorFiles: Partial<Record<keyof typeof VECTOR_FILES, number>>;
  /** The files a kNN search reads: graph + int8 vectors (int8_hnsw) or graph + float vectors (hnsw). */
  searchBytes: number;
}

interface FileSize {
  size_in_bytes: number;
}

/** The per-index parts of the two responses this reads (the client types `_disk_usage` as any). */
export interface IndexStatsPart {
  docs?: { count?: number };
  store?: { size_in_bytes?: number };
  segments?: { count?: number; file_sizes?: Record<string, FileSize> };
}

/**
 * One index's vector memory from its `_stats` primaries and `_disk_usage` entry. Throws when the
 * segments are compound files (`.cfs`), whose contents `_stats` does not break down: the index
 * must be written with `index.compound_format: false`.
 */
export function indexMemory(
  stats: IndexStatsPart,
  diskUsage: { fields?: Record<string, { knn_vectors_in_bytes?: number }> },
  type: VectorType,
  field = 'embedding',
): IndexMemory {
  const files = stats.segments?.file_sizes ?? {};
  if (files.cfs) {
    throw new Error(
      'the index has compound segment files (.cfs): set index.compound_format to false before merging',
    );
  }
  const vectorFiles: IndexMemory['vectorFiles'] = {};
  for (const ext of Object.keys(VECTOR_FILES) as (keyof typeof VECTOR_FILES)[]) {
    if (files[ext]) vectorFiles[ext] = files[ext].size_in_bytes;
  }
  const read = type === 'int8_hnsw' ? vectorFiles.veq : vectorFiles.vec;
  if (vectorFiles.vex === undefined || read === undefined) {
    throw new Error(
      `a ${type} index without its ${type === 'int8_hnsw' ? '.veq' : '.vec'} and .vex files (found: ${Object.keys(files).join(', ') || 'none'})`,
    );
  }
  return {
    docs: stats.docs?.count ?? 0,
    segments: stats.segments?.count ?? 0,
    storeBytes: stats.store?.size_in_bytes ?? 0,
    vectorFieldBytes: diskUsage.fields?.[field]?.knn_vectors_in_bytes ?? 0,
    vectorFiles,
    searchBytes: vectorFiles.vex + read,
  };
}

/** `bytes` for `docs` documents, scaled to a million documents, in MiB (one decimal). */
export function mibPerMillion(bytes: number, docs: number): number {
  if (docs <= 0) throw new Error('no documents to scale from');
  return Number(((bytes * 1_000_000) / docs / 2 ** 20).toFixed(1));
}
