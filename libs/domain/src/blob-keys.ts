/**
 * The blob-key layout, in one place: every key a document, a source or a sync run writes is built
 * here, so deleting by prefix can never miss a layout another module invented.
 */
export const blobKeys = {
  /** Everything stored for a document's original file(s). */
  originals: (documentId: string) => `originals/${documentId}`,
  /** A document's original at one content version (a changed file gets a new key). */
  original: (documentId: string, contentHash: string) =>
    `originals/${documentId}/${contentHash.slice(0, 16)}`,
  /** An upload's original before its content hash is known. */
  upload: (documentId: string, uploadId: string) => `originals/${documentId}/${uploadId}`,
  /** Scratch blobs of every ingest of a document. */
  work: (documentId: string) => `work/${documentId}`,
  /** Scratch blobs of one content version: a changed file never reads a stale intermediate. */
  workVersion: (documentId: string, contentHash: string) => `work/${documentId}/${contentHash.slice(0, 16)}`,
  parsed: (workPrefix: string) => `${workPrefix}/parsed.json`,
  chunkBatch: (workPrefix: string, index: number) => `${workPrefix}/chunks/${index}.json`,
  /** The embedded form of a chunk batch, beside it. */
  embeddedBatchOf: (chunkBatchKey: string) => chunkBatchKey.replace('/chunks/', '/embedded/'),
  /** An upload being received, before it is known to be acceptable. */
  incoming: (uploadId: string) => `incoming/${uploadId}`,
  /** Everything stored for a source (uploaded archives). */
  source: (sourceId: string) => `sources/${sourceId}`,
  sourceArchive: (sourceId: string, archiveHash: string) =>
    `sources/${sourceId}/archive-${archiveHash.slice(0, 16)}.zip`,
  /** Scratch blobs of a sync run. */
  syncRun: (runId: string) => `sync/${runId}`,
  /** The ids of the documents a sync run ingests, in order. */
  syncPlan: (runId: string) => `sync/${runId}/changed.json`,
};
