/**
 * The catalog's ports, one per job, with the records they take and give. Each repository
 * implements the ports of its aggregate; a consumer (the api's services, the worker's activities)
 * is given the narrowest port it uses, and a test fake implements that port, so the compiler
 * checks the fake against the real thing. Nothing here imports an implementation.
 */
import type {
  AnswerRecord,
  ApiKeyRole,
  ContentGap,
  DocumentProgress,
  DocumentStatus,
  EmbeddingSettings,
  FeedbackAnswer,
  FeedbackRecord,
  IndexGeneration,
  IndexGenerationStatus,
  IndexRebuildProgress,
  Project,
  ProjectSettings,
  RecordOwner,
  Source,
  SourceBase,
  SyncRun,
  SyncRunStatus,
  Thread,
  TroveDocument,
} from '@trove/domain';
import type { Page, PageRequest } from './cursor';

/**
 * The checks every write makes, across projects and sources: nothing is written to a project
 * being deleted or a source being removed.
 */
export interface WriteChecks {
  /** The project; PROJECT_NOT_FOUND, or PROJECT_DELETING (permanent) while it is being deleted. */
  requireActiveProject(id: string): Promise<Project>;
  /** The source; SOURCE_NOT_FOUND (permanent while it is being removed), or its project's refusal. */
  requireActiveSource(id: string): Promise<Source>;
}

export interface ProjectReads {
  getProject(id: string): Promise<Project | undefined>;
  /** The project, or PROJECT_NOT_FOUND. */
  requireProject(id: string): Promise<Project>;
}

/** Projects as the api manages them. */
export interface ProjectRecords extends ProjectReads {
  /** Creates an ACTIVE project; names are normalised and unique (ignoring case) among active ones. */
  createProject(name: string): Promise<Project>;
  /** Every project, including those being deleted (status DELETING) until they are gone. */
  listProjects(): Promise<Project[]>;
  /** Changes the project's settings; PROJECT_NOT_FOUND, or PROJECT_DELETING while it is being deleted. */
  updateProjectSettings(id: string, change: ProjectSettings): Promise<Project>;
}

/** What deleting a project goes through: the mark (every write is refused from then on), then the record. */
export interface ProjectRemovals {
  /** Marks the project DELETING and frees its name; undefined when it does not exist. */
  markProjectDeleting(id: string): Promise<Project | undefined>;
  /** Removes the project with every record it owns (sources, documents, runs, webhook event ids). */
  deleteProject(id: string): Promise<void>;
}

/** Whether the database answers (readiness checks). */
export interface CatalogHealth {
  ping(): Promise<void>;
}

/** This process's connection pool to the catalog: open, idle, waiting and the maximum (metrics). */
export interface CatalogPoolUsage {
  poolUsage(): { total: number; idle: number; waiting: number; max: number };
}

export interface SourceRecords {
  getSource(id: string): Promise<Source | undefined>;
  /** The source, or SOURCE_NOT_FOUND. */
  requireSource(id: string): Promise<Source>;
  updateSource(id: string, changes: SourceChanges): Promise<void>;
}

/** A project's sources: listed, added, and taken back. */
export interface ProjectSources {
  /** A project's sources, oldest first. */
  listSources(projectId: string): Promise<Source[]>;
  /** Adds a source; PROJECT_NOT_FOUND (permanent) when its project does not exist. */
  createSource(source: Source): Promise<Source>;
  /** Removes the source with its documents, sync runs and webhook event ids. */
  deleteSource(id: string): Promise<void>;
}

/** What removing a source goes through: the mark (syncs, webhooks and changes are refused from then on), then the record. */
export interface SourceRemovals {
  /** Marks the source REMOVING; undefined when it does not exist. */
  markSourceRemoving(id: string): Promise<Source | undefined>;
  deleteSource(id: string): Promise<void>;
}

export interface SyncRunRecords {
  createRun(run: SyncRun): Promise<SyncRun>;
  getRun(id: string): Promise<SyncRun | undefined>;
  updateRun(id: string, changes: SyncRunChanges): Promise<void>;
}

/** A source's runs as listings read them. */
export interface SyncRunHistory {
  /** A page of a source's runs, newest first. */
  pageRuns(sourceId: string, page?: PageRequest): Promise<Page<SyncRun>>;
  /** Each source's newest run (one index probe per source); sources never synced are absent. */
  latestRuns(sourceIds: readonly string[]): Promise<Map<string, SyncRun>>;
  /** The source's runs still RUNNING. */
  runningRuns(sourceId: string): Promise<SyncRun[]>;
  /** The ids of every sync run of a project or source (to remove their scratch files). */
  runIds(scope: { projectId: string } | { sourceId: string }): Promise<string[]>;
}

/** Runs per status (every status present) and when the oldest RUNNING one started (metrics). */
export interface SyncRunStats {
  runStats(): Promise<{ byState: Record<SyncRunStatus, number>; oldestRunningStartedAt?: Date }>;
}

/** A source's items as documents: what a sync diffs against, creates and removes. */
export interface SourceItemRecords {
  sourceItems(sourceId: string): Promise<SourceItem[]>;
  findSourceItems(sourceId: string, externalIds: string[]): Promise<SourceItem[]>;
  /** One record per item of an active source, created if missing; each item's document id. */
  ensureSourceDocuments(sourceId: string, items: NewSourceItem[]): Promise<Map<string, string>>;
  deleteDocument(id: string): Promise<void>;
}

export interface DocumentRecords {
  getDocument(id: string): Promise<TroveDocument | undefined>;
  getDocuments(ids: string[]): Promise<TroveDocument[]>;
  updateDocument(id: string, changes: DocumentChanges): Promise<void>;
  updateDocuments(updates: { id: string; changes: DocumentChanges }[]): Promise<void>;
}

/** Where a document comes from, as a search hit names it: its file and its source. */
export interface DocumentOrigin {
  documentId: string;
  fileName: string;
  /** The document's title as the catalog holds it (unset until its first ingest). */
  title?: string;
  /** Unset for an uploaded file. */
  source?: { id: string; name: string; type: string };
}

export interface DocumentOriginReads {
  /** The origins of those of `documentIds` that belong to the project: one query for them all. */
  documentOrigins(projectId: string, documentIds: string[]): Promise<DocumentOrigin[]>;
}

/** Ingest leases on documents, so one document is ingested by one activity at a time. */
export interface DocumentLeases {
  claimDocuments(ids: string[], holder: string, ttlMs: number): Promise<DocumentClaim>;
  releaseDocuments(ids: string[], holder: string): Promise<void>;
}

/** A project's documents as the api lists, uploads and removes them. */
export interface ProjectDocuments {
  /** Creates an uploaded document; its name must be free in the project (DOCUMENT_NAME_CONFLICT). */
  createDocument(input: NewUpload): Promise<TroveDocument>;
  /** The document, or DOCUMENT_NOT_FOUND. */
  requireDocument(id: string): Promise<TroveDocument>;
  /** A page of a project's documents (oldest first), optionally by status or source. */
  pageDocuments(projectId: string, filter?: DocumentFilter, page?: PageRequest): Promise<Page<TroveDocument>>;
  /** Removes the record, which frees its name (or source item) for a new document. */
  deleteDocument(id: string): Promise<void>;
  /** The ids of every document of a project or source. */
  documentIds(scope: { projectId: string } | { sourceId: string }): Promise<string[]>;
}

/** The catalog query that turns source and date filters into document ids. */
export interface SearchScopeReader {
  /**
   * The ids of a project's documents a search may return under these filters, at most `max + 1`.
   * An unknown source, or one of another project, is SOURCE_NOT_FOUND.
   */
  searchScope(projectId: string, scope: DocumentScope, max: number): Promise<string[]>;
}

/** Counts of a project's documents (overviews and listings): each one grouped query. */
export interface DocumentCounts {
  countByStatus(projectId: string): Promise<Record<string, number>>;
  /** How many documents each of these sources has; a source without any is absent. */
  countBySource(sourceIds: readonly string[]): Promise<Map<string, number>>;
  totals(projectId: string): Promise<{ documents: number; chunks: number }>;
  /** The media types of a project's documents with how many documents have each, most first. */
  mediaTypeCounts(projectId: string): Promise<{ mediaType: string; documents: number }[]>;
}

export interface UploadQueue {
  pendingUploads(
    projectId: string,
    after: UploadCursor | undefined,
    limit: number,
  ): Promise<{ ids: string[]; after?: UploadCursor }>;
}

/** The generations of the chunk index. */
export interface IndexGenerationRecords {
  live(): Promise<StoredIndexGeneration[]>;
  get(id: number): Promise<StoredIndexGeneration | undefined>;
  recent(limit?: number): Promise<StoredIndexGeneration[]>;
  bootstrap(first: NewIndexGeneration): Promise<StoredIndexGeneration>;
  startBuilding(next: NewIndexGeneration): Promise<StoredIndexGeneration>;
  setProgress(id: number, progress: IndexRebuildProgress): Promise<void>;
  activate(id: number): Promise<StoredIndexGeneration | undefined>;
  finish(
    id: number,
    status: IndexGenerationStatus.FAILED | IndexGenerationStatus.CANCELLED,
    error?: string,
  ): Promise<boolean>;
}

/** The stored overrides of the retrieval and answer settings. */
export interface RagConfigRecords {
  get(): Promise<StoredRagConfig>;
  save(
    expectedVersion: number,
    overrides: StoredRagConfig['overrides'],
    secrets: StoredRagConfig['secrets'],
  ): Promise<StoredRagConfig>;
}

/** API keys as requests are authenticated with them. */
export interface ApiKeyLookup {
  get(id: string): Promise<StoredApiKey | undefined>;
  /** Records a use, at most once per API_KEY_TOUCH_INTERVAL_MS; true when it was written. */
  touch(id: string, at?: Date): Promise<boolean>;
}

/** Webhook event ids already accepted: replay and retry protection. */
export interface WebhookEventRecords {
  /** True when the id is new for the source (and is now recorded). */
  record(sourceId: string, eventId: string): Promise<boolean>;
  forget(sourceId: string, eventId: string): Promise<void>;
  purge(before: Date): Promise<void>;
}

/** Per source, the last webhook event accepted and the deliveries refused. */
export interface WebhookDeliveryRecords {
  accepted(sourceId: string, eventType: string, at?: Date): Promise<void>;
  rejected(sourceId: string, count?: number): Promise<void>;
}

/**
 * The answers `ask` gave and the threads they form. Writes are refused (PROJECT_NOT_FOUND,
 * PROJECT_DELETING) once the project is being deleted; reads of another project's record are
 * undefined.
 */
export interface AnswerRecords {
  /** An empty thread of the project. */
  createThread(thread: NewThread): Promise<Thread>;
  getThread(id: string): Promise<Thread | undefined>;
  /** A page of the project's threads, most recently used first: one key's, or every key's. */
  listThreads(projectId: string, scope: ThreadScope, page?: PageRequest): Promise<Page<Thread>>;
  renameThread(id: string, title: string): Promise<Thread | undefined>;
  /** Deletes the thread and its turns; false when there was none. */
  deleteThread(id: string): Promise<boolean>;
  /** Records an answer (as the next turn of a thread, or the first of a new one); its id. */
  recordAnswer(answer: NewAnswer): Promise<string>;
  getAnswer(projectId: string, id: string): Promise<AnswerRecord | undefined>;
  /** The project an answer belongs to (access checks); undefined when there is no such answer. */
  answerProject(id: string): Promise<string | undefined>;
  /** A thread's turns, in order. */
  threadTurns(threadId: string): Promise<AnswerRecord[]>;
  /** A page of the project's answers, newest first. */
  listAnswers(projectId: string, filter?: AnswerFilter, page?: PageRequest): Promise<Page<AnswerRecord>>;
}

/**
 * Votes on answers and their passages. Recording is refused (PROJECT_NOT_FOUND, PROJECT_DELETING)
 * once the project is being deleted, and is ANSWER_NOT_FOUND for an answer of another project.
 */
export interface FeedbackRecords {
  /** Records a vote, replacing the key's earlier vote on the same answer and passage. */
  recordFeedback(vote: NewFeedback): Promise<FeedbackRecord>;
  /** One key's votes on these answers (null: the bootstrap admin key's). */
  feedbackOn(projectId: string, answerIds: string[], owner: RecordOwner): Promise<FeedbackRecord[]>;
  /** A page of the project's votes with their answers, oldest first (the export). */
  pageFeedback(projectId: string, page?: PageRequest): Promise<Page<FeedbackWithAnswer>>;
  /** A page of the project's unanswered and voted-down questions, most recently asked first. */
  contentGaps(projectId: string, page?: PageRequest): Promise<Page<ContentGap>>;
}

/** Retention of answers: what the periodic purge calls. */
export interface AnswerRetention {
  /** Deletes threads last used before `before` (with their turns) and older answers outside threads. */
  deleteAnswersBefore(before: Date): Promise<{ threads: number; answers: number }>;
}

// The records the ports take and give: here, beside them, so no port imports an implementation.

/**
 * Whose threads a list shows: one person's, one key's (neither: the bootstrap admin key's), or
 * everyone's.
 */
export type ThreadScope = RecordOwner | 'ALL';

export interface NewThread {
  id?: string;
  projectId: string;
  /** The key that asks; undefined for the bootstrap admin key and for people. */
  apiKeyId?: string;
  /** The person that asks. */
  userId?: string;
  title: string;
}

/** An answer to record: outside a thread, as the next turn of one, or as the first turn of a new one. */
export type NewAnswer = Pick<
  AnswerRecord,
  | 'projectId'
  | 'apiKeyId'
  | 'userId'
  | 'question'
  | 'standaloneQuestion'
  | 'mode'
  | 'answer'
  | 'citations'
  | 'hits'
> & {
  id?: string;
  thread?: { id: string } | { new: Omit<NewThread, 'projectId' | 'apiKeyId' | 'userId'> };
};

export interface AnswerFilter {
  mode?: string;
  /** Only answers given at or after this time. */
  since?: Date;
}

/** A vote to record (the key: undefined for the bootstrap admin key). */
export type NewFeedback = Pick<
  FeedbackRecord,
  'answerId' | 'projectId' | 'apiKeyId' | 'userId' | 'target' | 'chunkId' | 'vote' | 'comment'
>;

/** A vote with what the export takes from its answer. */
export interface FeedbackWithAnswer {
  vote: FeedbackRecord;
  answer: FeedbackAnswer;
}

/** An uploaded file's record to create (its id: a fresh one unless given). */
export type NewUpload = Pick<
  TroveDocument,
  'projectId' | 'fileName' | 'mediaType' | 'sizeBytes' | 'contentHash' | 'blobKey'
> & { id?: string };

export type DocumentChanges = Partial<Omit<TroveDocument, 'id' | 'projectId' | 'error' | 'progress'>> & {
  error?: TroveDocument['error'] | null;
  /** null clears it (a new ingest starts). */
  progress?: DocumentProgress | null;
};

/** What a sync diffs against: one row per item the source produced. */
export interface SourceItem {
  id: string;
  externalId: string;
  status: DocumentStatus;
  version?: string;
}

export interface NewSourceItem {
  externalId: string;
  fileName: string;
  mediaType: string;
}

export interface DocumentFilter {
  status?: DocumentStatus;
  sourceId?: string;
}

/** Which documents a search may return: every given criterion must hold (see `searchScope`). */
export interface DocumentScope {
  sourceIds?: string[];
  documentIds?: string[];
  /** Only documents of these media types (`text/markdown`, `application/pdf`, …). */
  mediaTypes?: string[];
  /** Last update (`updated_at`) at or after this instant (ISO 8601). */
  updatedFrom?: string;
  /** Last update strictly before this instant (ISO 8601). */
  updatedTo?: string;
}

/** Where a scan of pending uploads goes on: the last (created_at, id) it returned. */
export interface UploadCursor {
  at: string;
  id: string;
}

/** What a claim of documents for ingestion got: those now held by the claimant, and who holds the rest. */
export interface DocumentClaim {
  /** Held by the claimant until its lease ends or it releases them. */
  claimed: string[];
  /**
   * Existing documents held by another ingest, with its holder and lease end as the statement
   * began (null when another claim took it at that very moment). A missing id is in neither list.
   */
  held: { id: string; holder: string | null; until: string | null }[];
}

/** A generation as stored: the record plus its sealed API key (never leaves the server). */
export interface StoredIndexGeneration extends IndexGeneration {
  apiKeySealed?: string;
}

export interface NewIndexGeneration {
  indexName: string;
  embedding: EmbeddingSettings;
  apiKeySealed?: string;
  modelId: string;
  dimensions: number;
}

/** An API key as stored: never the secret, only its SHA-256. */
export interface StoredApiKey {
  id: string;
  name: string;
  role: ApiKeyRole;
  /** Null: every project. */
  projectIds: string[] | null;
  secretSha256: Buffer;
  createdBy: string;
  createdAt: string;
  lastUsedAt?: string;
  revokedAt?: string;
}

export type NewApiKey = Pick<
  StoredApiKey,
  'id' | 'name' | 'role' | 'projectIds' | 'secretSha256' | 'createdBy'
>;

/** The stored overrides of the retrieval and answer settings. */
export interface StoredRagConfig {
  /** Section → setting → value, e.g. `{ search: { fusion: 'convex' } }`. */
  overrides: Record<string, Record<string, unknown>>;
  /** Setting path → sealed value, e.g. `{ 'llm.apiKey': 'v1:…' }`. */
  secrets: Record<string, string>;
  /** 0 before the first change. */
  version: number;
  updatedAt?: string;
}

// Webhook delivery statistics are written by WebhookDeliveryLog alone.
type Common = Omit<SourceBase, 'id' | 'projectId' | 'webhookDeliveries'>;

/**
 * Partial update: common fields (`null` clears one) and the type's whole configuration (as its
 * source definition made it, secrets sealed).
 */
export type SourceChanges = { [K in keyof Common]?: Common[K] | null } & {
  config?: Source['config'] | object;
};

export type SyncRunChanges = Partial<Omit<SyncRun, 'id' | 'sourceId' | 'projectId'>>;
