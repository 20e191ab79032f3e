/** Entities and value types shared across Trove. */

export interface Project {
  id: string;
  name: string;
  createdAt: string;
}

export enum DocumentStatus {
  PENDING = 'PENDING',
  INDEXING = 'INDEXING',
  READY = 'READY',
  FAILED = 'FAILED',
}

/** Wall time each pipeline stage took in the last ingest, in milliseconds. */
export interface StageTimings {
  fetchMs?: number;
  parseMs?: number;
  chunkMs?: number;
  embedMs?: number;
  upsertMs?: number;
  totalMs?: number;
}

export interface DocumentFailure {
  code: string;
  message: string;
}

export interface TroveDocument {
  id: string;
  projectId: string;
  fileName: string;
  mediaType: string;
  sizeBytes: number;
  contentHash: string;
  blobKey: string;
  title?: string;
  language?: string;
  status: DocumentStatus;
  error?: DocumentFailure;
  chunkCount: number;
  timings: StageTimings;
  createdAt: string;
  updatedAt: string;
  indexedAt?: string;
}

/** A block of a parsed document: the unit the chunker packs. */
export interface ParsedBlock {
  kind: 'paragraph' | 'code' | 'list' | 'table' | 'quote' | 'heading';
  text: string;
  /** Heading titles from the document root down to this block's section. */
  headingPath: string[];
  /** Language of a fenced code block, when given. */
  codeLanguage?: string;
  /** Where this block can be linked to in its source (a Notion block id, an HTML anchor). */
  anchor?: string;
}

export interface ParsedDocument {
  title: string;
  /** Front matter or other document-level metadata, flattened to strings. */
  metadata: Record<string, string>;
  blocks: ParsedBlock[];
}

export interface Chunk {
  /** Deterministic: document id + position + content hash. */
  id: string;
  documentId: string;
  projectId: string;
  position: number;
  text: string;
  headingPath: string[];
  title: string;
  tokenCount: number;
  contentHash: string;
  language: string;
  hasCode: boolean;
  /** Anchor of the chunk's first block, when the source has anchors. */
  anchor?: string;
}

export interface EmbeddedChunk extends Chunk {
  embedding: number[];
}

export enum SearchMode {
  HYBRID = 'HYBRID',
  KEYWORD = 'KEYWORD',
  VECTOR = 'VECTOR',
}

export interface LegRank {
  rank: number;
  score: number;
}

export interface SearchHit {
  chunkId: string;
  documentId: string;
  projectId: string;
  title: string;
  headingPath: string[];
  text: string;
  position: number;
  score: number;
  bm25?: LegRank;
  knn?: LegRank;
}
