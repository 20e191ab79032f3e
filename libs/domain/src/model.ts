/** Entities and value types shared across Trove. */

export enum ProjectStatus {
  ACTIVE = 'ACTIVE',
  /** Being deleted by its delete workflow: every write is refused until the project is gone. */
  DELETING = 'DELETING',
}

export interface Project {
  id: string;
  name: string;
  /** Missing on records written before deletion became a workflow: ACTIVE. */
  status?: ProjectStatus;
  createdAt: string;
  /** What the project changes from the defaults; missing: every setting at its default. */
  settings?: ProjectSettings;
}

/** A project's own settings; an unset one is at its default. */
export interface ProjectSettings {
  /** Read scans and images by OCR (default on). Off: a scanned PDF fails with NO_TEXT_LAYER, an image too. */
  ocr?: boolean;
}

/** Whether the project's documents are read by OCR where they need it. */
export function projectOcr(project: Pick<Project, 'settings'> | undefined): boolean {
  return project?.settings?.ocr !== false;
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
  /** Set for documents that come from a source (a Notion page): the source and the item's id there. */
  sourceId?: string;
  externalId?: string;
  /** Link to the original (the Notion page URL). */
  url?: string;
  breadcrumb?: string[];
  /**
   * Source items: the item's version last fetched, as its connector defines it (Notion's
   * `last_edited_time`, a hash of a file's content and placement, a page's ETag).
   */
  version?: string;
  /** Pages of the original (PDF), slides of a presentation. */
  pageCount?: number;
  /** What the parser could not interpret (unresolved macros, skipped parts), from the last ingest. */
  warnings?: string[];
  /** Where a long ingest stands, while INDEXING (a scan read by OCR page by page). */
  progress?: DocumentProgress;
}

/** A long stage's progress: OCR of page `page` of `pageCount` done at `at`. */
export interface DocumentProgress {
  stage: 'ocr';
  page: number;
  pageCount?: number;
  at: string;
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
  /**
   * PDF: the 1-based page the block starts on, and the page it ends on when it spans pages.
   * Presentations (PPTX, ODP): the slide number.
   */
  page?: number;
  pageEnd?: number;
  /** EPUB: the chapter (table-of-contents entry) the block belongs to. */
  chapter?: string;
  /** Spreadsheets (XLSX, XLS, ODS): the sheet the block comes from. */
  sheet?: string;
  /**
   * Tables read from a spreadsheet or CSV file: the 1-based row number in the sheet (the record
   * number in a CSV file) of each of the block's last lines, the rows under the table's header.
   */
  rowNumbers?: number[];
  /** The text was recognised by OCR (an image, a scanned PDF page), not read from the file. */
  ocr?: boolean;
  /** OCR: Tesseract's mean word confidence on the block's page, 0 to 100. */
  ocrConfidence?: number;
}

export interface ParsedDocument {
  title: string;
  /** Front matter or other document-level metadata, flattened to strings. */
  metadata: Record<string, string>;
  blocks: ParsedBlock[];
  /** Public URL of the original (a MkDocs page, a Notion page): citations link to `url#anchor`. */
  url?: string;
  /** What the parser could not interpret and left as text (unresolved macros, skipped parts). */
  warnings?: string[];
  /** Pages in the original (PDF, multi-page TIFF; 1 for an image; slides of a presentation). */
  pageCount?: number;
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
  /** Languages of the code blocks in the chunk, when given. */
  codeLanguages: string[];
  /** Anchor of the chunk's first block, when the source has anchors. */
  anchor?: string;
  /** PDF: first and last page the chunk's text comes from. */
  page?: number;
  pageEnd?: number;
  /** EPUB: the chapter of the chunk's first block. */
  chapter?: string;
  /** Spreadsheets: the sheet of the chunk's first block, and the first and last sheet rows its table rows come from. */
  sheet?: string;
  rowStart?: number;
  rowEnd?: number;
  /** Some of the chunk's text was recognised by OCR (a scanned page, an image). */
  ocr?: boolean;
  /** OCR: the mean of its OCR'd blocks' page confidences, 0 to 100. */
  ocrConfidence?: number;
  /** Where a citation of this chunk points; the API renders it to a link. */
  citation?: Citation;
  /** Chunks indexed before citations were structured: the link as it was stored. */
  citationUrl?: string;
}

/**
 * Where a citation points, as data: the API renders it (an `original` becomes a signed link to
 * the API's copy of the file, opened at the page or anchor).
 */
export interface Citation {
  /** `original`: an uploaded file, served by the API; `source`: the item in its source system. */
  kind: 'original' | 'source';
  documentId: string;
  /** PDF: the page the chunk starts on; presentations: the slide. */
  page?: number;
  /** Spreadsheets: the sheet, and the rows (the records of a CSV file) the chunk's table rows span. */
  sheet?: string;
  rowStart?: number;
  rowEnd?: number;
  /** An HTML anchor (uploaded HTML) — already part of `url` for source items. */
  anchor?: string;
  /** `source`: the link (a Notion block, a site page with its heading anchor). */
  url?: string;
}

export interface EmbeddedChunk extends Chunk {
  embedding: number[];
  /** The model the vector comes from (unset in batches embedded before index generations). */
  embeddingModel?: string;
}

// A plain object, not an enum: clients send the names as strings and the same type holds for both.
export const SearchMode = { HYBRID: 'HYBRID', KEYWORD: 'KEYWORD', VECTOR: 'VECTOR' } as const;
export type SearchMode = (typeof SearchMode)[keyof typeof SearchMode];

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
  citation?: Citation;
  /** Chunks indexed before citations were structured: the link as stored then. */
  citationUrl?: string;
  anchor?: string;
  page?: number;
  pageEnd?: number;
  chapter?: string;
  /** The hit's text was (partly) recognised by OCR, with this mean confidence (0 to 100). */
  ocr?: boolean;
  ocrConfidence?: number;
  bm25?: LegRank;
  knn?: LegRank;
  /** Context expansion: the hit's neighbouring chunks (±N positions) in reading order, without the hit. */
  context?: SearchChunk[];
  /** The reranker's score when the hit was reranked (`score` stays the fused score). */
  rerankScore?: number;
  /** Why the hit ranks where it does; only when the search asked for `explain`. */
  explain?: HitExplain;
  /**
   * The learned reranker's features of the hit by name, among the rerank candidates; only when
   * the search asked for `features` (answers record them for training on feedback).
   */
  features?: Record<string, number>;
}

/** A hit's path through search: each leg, fusion, and the reranker (explain view). */
export interface HitExplain {
  bm25?: LegRank;
  knn?: LegRank;
  fusedScore: number;
  rerankScore?: number;
  /** The features that moved the rerank score most (learned reranker), signed. */
  topFeatures?: { name: string; contribution: number }[];
}

/** A chunk as search shows it, without scores: a hit's neighbour or a piece of a passage. */
export type SearchChunk = Omit<SearchHit, 'score' | 'bm25' | 'knn' | 'context'>;

/**
 * A source's type: an open set of names, one per registered connector (`@trove/source-definitions`
 * lists them). Each connector lib exports its own type's name, configuration and source type
 * (`GIT_SOURCE_TYPE`, `GitSourceConfig`, `GitSource`); nothing else names a type.
 */
export type SourceType = string;

export enum SourceStatus {
  ACTIVE = 'ACTIVE',
  /** Notion rejected the token (revoked or wrong): syncs stop until a new token is set. */
  NEEDS_TOKEN = 'NEEDS_TOKEN',
  /** Being removed by its remove workflow: syncs, webhooks and changes are refused. */
  REMOVING = 'REMOVING',
}

/**
 * A secret of a source's configuration (an integration token) as stored: encrypted (AES-256-GCM,
 * `SecretBox`) with a masked form for display. The plain value is never returned by the API.
 */
export interface SealedSecret {
  sealed: string;
  /** e.g. `ntn_…9x (50 chars)`. */
  hint: string;
}

/** What every source has, whatever its type. */
export interface SourceBase {
  id: string;
  projectId: string;
  name: string;
  status: SourceStatus;
  /**
   * Sources whose definition has a webhook: the secret deliveries are verified with, encrypted;
   * set by the webhook's verification handshake (Notion's verification request).
   */
  webhookToken?: string;
  /**
   * When the webhook last became open to an unsigned verification handshake (reset); the
   * source's creation time when unset. The handshake is refused once the verification window has passed.
   */
  webhookVerificationOpenedAt?: string;
  /** `last_edited_time` of the newest page seen by the last successful sync. */
  watermark?: string;
  lastSyncAt?: string;
  /** Minutes between scheduled INCREMENTAL syncs (a Temporal Schedule); unset: no schedule. */
  syncIntervalMinutes?: number;
  /** What the source's webhook has received; read-only, kept by the catalog. */
  webhookDeliveries?: WebhookDeliveries;
  createdAt: string;
  updatedAt: string;
}

/** A source's webhook deliveries: the last accepted event and how many were refused. */
export interface WebhookDeliveries {
  lastEventAt?: string;
  /** Notion's event type, e.g. `page.content_updated`. */
  lastEventType?: string;
  /** Deliveries refused: bad or missing signature, stale, malformed, or sent outside verification. */
  rejected: number;
}

/**
 * A source of documents: common fields and its type's `config`, whose shape the type's
 * `SourceDefinition` owns (secret fields stored as `SealedSecret`). Generic code sees the
 * configuration as an opaque object; a connector names its type and configuration
 * (`Source<typeof GIT_SOURCE_TYPE, GitSourceConfig>`).
 */
export interface Source<T extends SourceType = SourceType, C extends object = object> extends SourceBase {
  type: T;
  config: C;
}

/**
 * Narrows a source to one type's, e.g. `isSourceOfType<GitSource>(source, GIT_SOURCE_TYPE)`:
 * the type argument names the configuration the type's definition wrote.
 */
export function isSourceOfType<S extends Source>(source: Source, type: S['type']): source is S {
  return source.type === type;
}

export enum SyncMode {
  /** Re-reads every item in scope; re-ingests only the items whose content changed. */
  FULL = 'FULL',
  /** Reads what changed since the last successful sync. */
  INCREMENTAL = 'INCREMENTAL',
  /** Re-reads every item and re-ingests all of them, embedding every chunk again (no reuse). */
  REBUILD = 'REBUILD',
}

export enum SyncRunStatus {
  RUNNING = 'RUNNING',
  COMPLETED = 'COMPLETED',
  FAILED = 'FAILED',
  /** Stopped on request; what it ingested before stays, the next sync does the rest. */
  CANCELLED = 'CANCELLED',
}

/** Where a sync run is: discovering and diffing, ingesting the changed pages, or recording its end. */
export enum SyncStage {
  PLANNING = 'PLANNING',
  INGESTING = 'INGESTING',
  FINISHING = 'FINISHING',
}

/** Pages done (ingested, failed or left to another ingest) at a moment: a run keeps its recent ones for its rate. */
export interface ProgressSample {
  /** Epoch milliseconds. */
  at: number;
  pages: number;
}

export interface SyncProgress {
  /** Pages found in scope (FULL) or edited since the watermark (INCREMENTAL). */
  pagesSeen: number;
  /** Pages whose content changed and were re-ingested. */
  pagesIngested: number;
  pagesUnchanged: number;
  pagesFailed: number;
  pagesDeleted: number;
  pagesSkipped: number;
  apiCalls: number;
  /** Chunks sent to the embedding model, and chunks whose stored vector was reused (same content hash). */
  chunksEmbedded: number;
  chunksReused: number;
}

export interface SyncRun {
  id: string;
  sourceId: string;
  projectId: string;
  mode: SyncMode;
  /** Scheduled runs also check that every synced page still exists (ids only, no block fetches). */
  checkDeletions?: boolean;
  status: SyncRunStatus;
  startedAt: string;
  finishedAt?: string;
  error?: DocumentFailure;
  progress: SyncProgress;
  /** Absent on runs recorded before stages were. */
  stage?: SyncStage;
  /** Pages the plan holds to ingest, known once planning ended. */
  pagesPlanned?: number;
  /** When the run's progress or stage last changed (its start, at first): how a stall is noticed. */
  progressAt?: string;
  /** Recent pages-done samples, oldest first (a couple of minutes' worth): the run's current rate. */
  recentProgress?: ProgressSample[];
  /** Items the sync could not read (unshared, deleted, forbidden), with the reason and, when known, a name. */
  skipped: { id: string; reason: string; title?: string }[];
  /** What the source's configuration asked for that Trove could not honour (e.g. unknown nav entries). */
  warnings?: string[];
}

// --- Index generations: the chunk index rebuilt for another embedding model ----------

export enum IndexGenerationStatus {
  /** Searched and written; behind the chunk alias. */
  ACTIVE = 'ACTIVE',
  /** Being filled by a rebuild; written alongside the active one, swapped in when complete. */
  BUILDING = 'BUILDING',
  /** Replaced by a newer generation; its index is removed after a grace period. */
  RETIRED = 'RETIRED',
  FAILED = 'FAILED',
  CANCELLED = 'CANCELLED',
}

/** How a generation's vectors are made: the embedding configuration without its key. */
export interface EmbeddingSettings {
  provider: 'openai' | 'ollama';
  baseUrl: string;
  profile: string;
  model?: string;
  batchSize: number;
  timeoutMs: number;
}

export interface IndexRebuildProgress {
  /** Chunks in the active index when the copy started. */
  chunksTotal?: number;
  /** Chunks written to the new index by the rebuild so far. */
  chunksCopied?: number;
  /** Of those, embedded with the new model, and taken over without embedding (same model, same text). */
  chunksEmbedded?: number;
  chunksReused?: number;
  /** Already there (written by an ingest during the rebuild), or gone from the active index. */
  chunksSkipped?: number;
  /** Stale chunks removed from the new index by the final reconciliation. */
  chunksRemoved?: number;
}

export interface IndexGeneration {
  id: number;
  indexName: string;
  status: IndexGenerationStatus;
  embedding: EmbeddingSettings;
  /** An API key is stored (sealed) for this generation's embedder. */
  hasApiKey: boolean;
  modelId: string;
  dimensions: number;
  workflowId?: string;
  progress: IndexRebuildProgress;
  error?: string;
  createdAt: string;
  activatedAt?: string;
  finishedAt?: string;
}
