/**
 * Narrow views of the chunk index, one per job, for code that only needs part of it (the
 * worker's activities). `ChunkIndex` implements every one; a test fake implements the ones its
 * subject uses, so the compiler checks the fake against the real thing.
 */
import type { Citation, EmbeddedChunk } from '@trove/domain';

/** A chunk as the index stores it. */
export interface StoredChunk {
  chunkId: string;
  projectId: string;
  documentId: string;
  position: number;
  title: string;
  headingPath: string[];
  text: string;
  language: string;
  tokenCount: number;
  hasCode: boolean;
  contentHash: string;
  codeLanguages?: string[];
  anchor?: string;
  page?: number;
  pageEnd?: number;
  chapter?: string;
  /** Text recognised by OCR, with its mean confidence (0 to 100). */
  ocr?: boolean;
  ocrConfidence?: number;
  citation?: Citation;
  /** Chunks indexed before citations were structured. */
  citationUrl?: string;
  embeddingModel: string;
  embedding?: number[];
  indexedAt: string;
}

/** Writing a document's chunks to one index, reusing vectors already there for the same text. */
export interface ChunkWriter {
  /** Stored vectors of this model by content hash, whatever document holds them. */
  embeddingsByContentHash(hashes: string[], embeddingModel: string): Promise<Map<string, number[]>>;
  /** Writes chunks (same ids overwrite); `waitForRefresh`: returns once they are searchable. */
  upsert(
    chunks: EmbeddedChunk[],
    embeddingModel: string,
    options?: { waitForRefresh?: boolean },
  ): Promise<void>;
}

/** Removing chunks from every generation's index; each call returns how many went. */
export interface ChunkRemoval {
  /** A document's chunks except `keepIds`. */
  deleteDocumentChunks(documentId: string, keepIds?: string[]): Promise<number>;
  /** For each document, its chunks except the ones it keeps (a batch of re-ingested documents). */
  deleteStaleChunks(
    documents: { documentId: string; keepIds: string[] }[],
    options?: { beforeWaitedWrite?: boolean },
  ): Promise<number>;
  deleteDocumentsChunks(documentIds: string[]): Promise<number>;
  deleteProjectChunks(projectId: string): Promise<number>;
}

/** One generation's index as a rebuild copies into it and reconciles it. */
export interface GenerationIndex extends ChunkWriter {
  ensureIndex(): Promise<void>;
  aliasTarget(): Promise<string | undefined>;
  takeAlias(): Promise<void>;
  dropIndex(): Promise<void>;
  refresh(): Promise<void>;
  count(): Promise<number>;
  page(
    after: string | undefined,
    size: number,
    withVectors: boolean,
  ): Promise<{ chunks: StoredChunk[]; last?: string }>;
  existingIds(chunkIds: string[]): Promise<Set<string>>;
  createMissing(chunks: StoredChunk[]): Promise<number>;
  deleteIds(chunkIds: string[]): Promise<number>;
}
