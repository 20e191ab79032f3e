/**
 * Narrow views of the catalog, one per job, for code that only needs part of it (the worker's
 * activities, index generations, settings). `Catalog` implements every one; a test fake
 * implements the ones its subject uses, so the compiler checks the fake against the real thing.
 */
import type {
  AnswerRecord,
  ContentGap,
  FeedbackRecord,
  IndexGenerationStatus,
  IndexRebuildProgress,
  Project,
  RecordOwner,
  Source,
  SyncRun,
  Thread,
  TroveDocument,
} from '@trove/domain';
import type { AnswerFilter, NewAnswer, NewThread, ThreadScope } from './answers.repository';
import type { FeedbackWithAnswer, NewFeedback } from './feedback.repository';
import type { Page, PageRequest } from './cursor';
import type {
  DocumentChanges,
  DocumentClaim,
  NewSourceItem,
  SourceItem,
  UploadCursor,
} from './documents.repository';
import type { NewIndexGeneration, StoredIndexGeneration } from './index-generations.repository';
import type { StoredApiKey } from './api-keys.repository';
import type { StoredRagConfig } from './rag-config.repository';
import type { SourceChanges } from './sources.repository';
import type { SyncRunChanges } from './sync-runs.repository';

/** The checks every write makes: nothing is written to a project being deleted or a source being removed. */
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

/** Whether the database answers (readiness checks). */
export interface CatalogHealth {
  ping(): Promise<void>;
}

export interface SourceRecords {
  getSource(id: string): Promise<Source | undefined>;
  requireSource(id: string): Promise<Source>;
  updateSource(id: string, changes: SourceChanges): Promise<void>;
}

export interface SyncRunRecords {
  createRun(run: SyncRun): Promise<SyncRun>;
  getRun(id: string): Promise<SyncRun | undefined>;
  updateRun(id: string, changes: SyncRunChanges): Promise<void>;
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

/** Ingest leases on documents, so one document is ingested by one activity at a time. */
export interface DocumentLeases {
  claimDocuments(ids: string[], holder: string, ttlMs: number): Promise<DocumentClaim>;
  releaseDocuments(ids: string[], holder: string): Promise<void>;
}

export interface UploadQueue {
  pendingUploads(
    projectId: string,
    after: UploadCursor | undefined,
    limit: number,
  ): Promise<{ ids: string[]; after?: UploadCursor }>;
}

/** What deleting a project or removing a source goes through, step by step. */
export interface CatalogRemovals {
  markProjectDeleting(id: string): Promise<Project | undefined>;
  deleteProject(id: string): Promise<void>;
  markSourceRemoving(id: string): Promise<Source | undefined>;
  deleteSource(id: string): Promise<void>;
  getSource(id: string): Promise<Source | undefined>;
  listSources(projectId: string): Promise<Source[]>;
  documentIds(scope: { projectId: string } | { sourceId: string }): Promise<string[]>;
  runIds(scope: { projectId: string } | { sourceId: string }): Promise<string[]>;
}

/** The generations of the chunk index (`catalog.indexGenerations`). */
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

/** The catalog as index generations use it. */
export interface IndexGenerationCatalog {
  readonly indexGenerations: IndexGenerationRecords;
}

/** The stored overrides of the retrieval and answer settings (`catalog.ragConfig`). */
export interface RagConfigRecords {
  get(): Promise<StoredRagConfig>;
  save(
    expectedVersion: number,
    overrides: StoredRagConfig['overrides'],
    secrets: StoredRagConfig['secrets'],
  ): Promise<StoredRagConfig>;
}

/** The catalog as the settings store uses it. */
export interface RagConfigCatalog {
  readonly ragConfig: RagConfigRecords;
}

/** API keys as requests are authenticated with them (`catalog.apiKeys`). */
export interface ApiKeyLookup {
  get(id: string): Promise<StoredApiKey | undefined>;
  /** Records a use, at most once per API_KEY_TOUCH_INTERVAL_MS; true when it was written. */
  touch(id: string, at?: Date): Promise<boolean>;
}

export interface ApiKeyCatalog {
  readonly apiKeys: ApiKeyLookup;
}

/** Webhook event ids already accepted: replay and retry protection (`catalog.webhookEvents`). */
export interface WebhookEventRecords {
  /** True when the id is new for the source (and is now recorded). */
  record(sourceId: string, eventId: string): Promise<boolean>;
  forget(sourceId: string, eventId: string): Promise<void>;
  purge(before: Date): Promise<void>;
}

/** Per source, the last webhook event accepted and the deliveries refused (`catalog.webhookDeliveries`). */
export interface WebhookDeliveryRecords {
  accepted(sourceId: string, eventType: string, at?: Date): Promise<void>;
  rejected(sourceId: string, count?: number): Promise<void>;
}

/** The catalog as the webhook endpoint uses it. */
export interface WebhookCatalog
  extends Pick<SourceRecords, 'getSource' | 'updateSource'>, Pick<WriteChecks, 'requireActiveSource'> {
  readonly webhookEvents: WebhookEventRecords;
  readonly webhookDeliveries: WebhookDeliveryRecords;
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
