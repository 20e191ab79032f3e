import type {
  AnswerRecord,
  ContentGap,
  FeedbackRecord,
  RecordOwner,
  Project,
  ProjectSettings,
  Source,
  SyncRun,
  Thread,
  TroveDocument,
} from '@trove/domain';
import { notFoundError, ProjectStatus, SourceStatus, TroveError, TroveErrorCode } from '@trove/domain';
import type {
  AnswerFilter,
  AnswerRecords,
  AnswerRetention,
  ApiKeyCatalog,
  CatalogHealth,
  CatalogRemovals,
  DocumentChanges,
  DocumentClaim,
  DocumentFilter,
  DocumentLeases,
  DocumentOrigin,
  DocumentOriginReads,
  DocumentRecords,
  DocumentScope,
  FeedbackRecords,
  FeedbackWithAnswer,
  IndexGenerationCatalog,
  NewAnswer,
  NewFeedback,
  NewSourceItem,
  NewThread,
  ProjectReads,
  RagConfigCatalog,
  SourceChanges,
  SourceItem,
  SourceItemRecords,
  SourceRecords,
  SyncRunChanges,
  SyncRunRecords,
  ThreadScope,
  UploadCursor,
  UploadQueue,
  WebhookCatalog,
  WriteChecks,
} from './catalog.ports';
import type { Page, PageRequest } from './cursor';
import {
  migrateCatalog,
  openCatalogDb,
  poolUsage,
  withStartupLock,
  type CatalogDb,
  type DatabaseOptions,
} from './database';
import { query } from './database-error';
import { DocumentRepository } from './documents.repository';
import { ApiKeyRepository } from './api-keys.repository';
import { AuditRepository } from './audit.repository';
import { SessionRepository } from './sessions.repository';
import { UserRepository } from './users.repository';
import { AnswerRepository } from './answers.repository';
import { FeedbackRepository } from './feedback.repository';
import { guardedWrite } from './guarded-write';
import { IndexGenerationRepository } from './index-generations.repository';
import { RagConfigRepository } from './rag-config.repository';
import { projectDeleting, sourceRemoving } from './source-lock';
import { ProjectRepository } from './projects.repository';
import { SourceRepository } from './sources.repository';
import { SyncRunRepository } from './sync-runs.repository';
import { WebhookDeliveryLog } from './webhook-deliveries';
import { WebhookEventLog } from './webhook-events';

export interface CatalogOptions extends DatabaseOptions {
  /**
   * The source types this process has connectors for (`@trove/source-definitions`); a stored
   * source of another type is an error when read. Unset: the built-in types.
   */
  sourceTypes?: readonly string[];
}

/**
 * The system of record, in PostgreSQL: projects, sources, documents, sync runs and webhook event
 * ids, one repository per aggregate. Rules that span aggregates (nothing is written to a project
 * being deleted or a source being removed) live here.
 */
export class Catalog
  implements
    WriteChecks,
    ProjectReads,
    SourceRecords,
    SyncRunRecords,
    SourceItemRecords,
    DocumentRecords,
    DocumentOriginReads,
    DocumentLeases,
    UploadQueue,
    CatalogRemovals,
    IndexGenerationCatalog,
    RagConfigCatalog,
    CatalogHealth,
    ApiKeyCatalog,
    WebhookCatalog,
    AnswerRecords,
    AnswerRetention,
    FeedbackRecords
{
  readonly projects: ProjectRepository;
  readonly documents: DocumentRepository;
  readonly sources: SourceRepository;
  readonly runs: SyncRunRepository;
  /** Webhook event ids already accepted (replay and retry protection). */
  readonly webhookEvents: WebhookEventLog;
  /** Per source: the last webhook event accepted and the count of deliveries refused. */
  readonly webhookDeliveries: WebhookDeliveryLog;
  /** Generations of the chunk index, one per embedding model. */
  readonly indexGenerations: IndexGenerationRepository;
  /** Retrieval and answer settings changed through the API. */
  readonly ragConfig: RagConfigRepository;
  /** API keys with their role and project scope. */
  readonly apiKeys: ApiKeyRepository;
  /** The answers `ask` gave and the threads they form. */
  readonly answers: AnswerRepository;
  /** Votes on answers and their passages. */
  readonly feedback: FeedbackRepository;
  /** People, groups and their roles per project. */
  readonly users: UserRepository;
  /** Browser sessions, sign-ins under way and personal access tokens. */
  readonly sessions: SessionRepository;
  /** The append-only audit log and the per-person query counts. */
  readonly audit: AuditRepository;

  constructor(
    readonly db: CatalogDb,
    private readonly options: CatalogOptions,
  ) {
    this.projects = new ProjectRepository(db);
    this.documents = new DocumentRepository(db);
    this.sources = new SourceRepository(db, options.sourceTypes);
    this.runs = new SyncRunRepository(db);
    this.webhookEvents = new WebhookEventLog(db);
    this.webhookDeliveries = new WebhookDeliveryLog(db);
    this.indexGenerations = new IndexGenerationRepository(db);
    this.ragConfig = new RagConfigRepository(db);
    this.apiKeys = new ApiKeyRepository(db);
    this.answers = new AnswerRepository(db);
    this.feedback = new FeedbackRepository(db);
    this.users = new UserRepository(db);
    this.sessions = new SessionRepository(db);
    this.audit = new AuditRepository(db);
  }

  static open(options: CatalogOptions): Catalog {
    return new Catalog(openCatalogDb(options), options);
  }

  /**
   * Creates the schema and applies pending migrations, under a lock: the api and workers may start
   * together.
   */
  async ensure(): Promise<{ migrations: string[] }> {
    return query('preparing the catalog', () =>
      withStartupLock(this.options, async () => ({
        migrations: await migrateCatalog(this.db, this.options.schema),
      })),
    );
  }

  /** Whether the database answers (for readiness checks). */
  async ping(): Promise<void> {
    await query('checking the catalog', () => this.db.selectNoFrom((eb) => eb.val(1).as('one')).execute());
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }

  /** This process's connection pool: open, idle and waiting (metrics). */
  poolUsage(): { total: number; idle: number; waiting: number; max: number } {
    return poolUsage(this.db);
  }

  // --- projects -------------------------------------------------------------------------------

  /** Creates an ACTIVE project; names are normalised and unique (ignoring case) among active ones. */
  createProject(name: string): Promise<Project> {
    return this.projects.create(name);
  }

  getProject(id: string): Promise<Project | undefined> {
    return this.projects.get(id);
  }

  async requireProject(id: string): Promise<Project> {
    const project = await this.getProject(id);
    if (!project) throw notFoundError('project', id);
    return project;
  }

  /** The project, if it exists and is not being deleted: what every write to a project checks. */
  async requireActiveProject(id: string): Promise<Project> {
    const project = await this.requireProject(id);
    if (project.status === ProjectStatus.DELETING) throw projectDeleting(id);
    return project;
  }

  /** Every project, including those being deleted (status DELETING) until they are gone. */
  listProjects(): Promise<Project[]> {
    return this.projects.list();
  }

  /** Changes the project's settings; PROJECT_NOT_FOUND, or PROJECT_DELETING while it is being deleted. */
  async updateProjectSettings(id: string, change: ProjectSettings): Promise<Project> {
    const updated = await this.projects.updateSettings(id, change);
    if (updated) return updated;
    await this.requireActiveProject(id); // throws the reason
    throw notFoundError('project', id);
  }

  /** Marks the project DELETING (every write is refused from then on) and frees its name. */
  markProjectDeleting(id: string): Promise<Project | undefined> {
    return this.projects.markDeleting(id);
  }

  /** Removes the project with every record it owns (sources, documents, runs, webhook event ids). */
  deleteProject(id: string): Promise<void> {
    return this.projects.delete(id);
  }

  // --- documents ------------------------------------------------------------------------------

  /** A fresh document id: random, so a link to a deleted document never reaches a newer one. */
  static newDocumentId(): string {
    return DocumentRepository.newId();
  }

  /** Creates an uploaded document; its name must be free in the project (DOCUMENT_NAME_CONFLICT). */
  createDocument(
    input: Pick<
      TroveDocument,
      'projectId' | 'fileName' | 'mediaType' | 'sizeBytes' | 'contentHash' | 'blobKey'
    > & { id?: string },
  ): Promise<TroveDocument> {
    return this.documents.create(input);
  }

  getDocument(id: string): Promise<TroveDocument | undefined> {
    return this.documents.get(id);
  }

  async requireDocument(id: string): Promise<TroveDocument> {
    const document = await this.getDocument(id);
    if (!document) throw notFoundError('document', id);
    return document;
  }

  /** A page of a project's documents (oldest first), optionally by status or source. */
  pageDocuments(
    projectId: string,
    filter?: DocumentFilter,
    page?: PageRequest,
  ): Promise<Page<TroveDocument>> {
    return this.documents.page(projectId, filter, page);
  }

  /** Partial update; `error: null` clears a previous failure. A missing document is ignored. */
  updateDocument(id: string, changes: DocumentChanges): Promise<void> {
    return this.documents.update(id, changes);
  }

  /** The documents among `ids` that exist. */
  getDocuments(ids: string[]): Promise<TroveDocument[]> {
    return this.documents.getMany(ids);
  }

  /** Where those of `documentIds` that belong to the project come from: one query. */
  documentOrigins(projectId: string, documentIds: string[]): Promise<DocumentOrigin[]> {
    return this.documents.origins(projectId, documentIds);
  }

  /** Several partial updates in one transaction. */
  updateDocuments(updates: { id: string; changes: DocumentChanges }[]): Promise<void> {
    return this.documents.updateMany(updates);
  }

  /**
   * Leases documents to one ingest (a sync's batch, or the per-document pipeline) for `ttlMs`:
   * those free, or already `holder`'s, are claimed in one statement on the database's clock; the
   * others are listed with their holder. A missing id is in neither list.
   */
  claimDocuments(ids: string[], holder: string, ttlMs: number): Promise<DocumentClaim> {
    return this.documents.claim(ids, holder, ttlMs);
  }

  /** Ends `holder`'s lease on these documents; a lease of another holder is left alone. */
  releaseDocuments(ids: string[], holder: string): Promise<void> {
    return this.documents.release(ids, holder);
  }

  /** Removes the record, which frees its name (or source item) for a new document. */
  deleteDocument(id: string): Promise<void> {
    return this.documents.delete(id);
  }

  /** Every item a source produced (id, external id, version, status), for a sync to diff against. */
  sourceItems(sourceId: string): Promise<SourceItem[]> {
    return this.documents.sourceItems(sourceId);
  }

  /** The documents of these items of a source, where they exist. */
  findSourceItems(sourceId: string, externalIds: string[]): Promise<SourceItem[]> {
    return this.documents.findSourceItems(sourceId, externalIds);
  }

  /**
   * Ensures a document record for each item of an active source, in bulk; re-running a plan (or
   * two at once) never duplicates one. Returns each item's document id. No record is created for
   * a source or project being removed (a sync that slipped through): each batch is written under
   * the deletion guard (`lockActiveSource`), so a removal starting meanwhile never misses one.
   */
  ensureSourceDocuments(sourceId: string, items: NewSourceItem[]): Promise<Map<string, string>> {
    return this.documents.ensureSourceItems(sourceId, items);
  }

  /** The record of one source item, created if missing. */
  async ensureSourceDocument(
    input: Pick<TroveDocument, 'sourceId' | 'externalId' | 'fileName' | 'mediaType'>,
  ): Promise<TroveDocument> {
    const ids = await this.ensureSourceDocuments(input.sourceId!, [
      { externalId: input.externalId!, fileName: input.fileName, mediaType: input.mediaType },
    ]);
    return this.requireDocument(ids.get(input.externalId!)!);
  }

  /** A page of a project's PENDING uploads, oldest first (what `ingestUploads` works off). */
  pendingUploads(
    projectId: string,
    after: UploadCursor | undefined,
    limit: number,
  ): Promise<{ ids: string[]; after?: UploadCursor }> {
    return this.documents.pendingUploads(projectId, after, limit);
  }

  /** The ids of every document of a project or source. */
  documentIds(scope: { projectId: string } | { sourceId: string }): Promise<string[]> {
    return this.documents.ids(scope);
  }

  /**
   * The ids of a project's documents a search may return under these filters (sources, ids,
   * media types, last-update range), at most `max + 1`. An unknown source, or one of another project, is
   * SOURCE_NOT_FOUND.
   */
  async searchScope(projectId: string, scope: DocumentScope, max: number): Promise<string[]> {
    if (scope.sourceIds?.length) {
      const own = new Set((await this.sources.list(projectId)).map((source) => source.id));
      const unknown = scope.sourceIds.find((id) => !own.has(id));
      if (unknown !== undefined) {
        throw new TroveError(
          TroveErrorCode.SourceNotFound,
          `source ${unknown} does not exist in project ${projectId}`,
        );
      }
    }
    return this.documents.searchScope(projectId, scope, max);
  }

  // --- sources and sync runs ------------------------------------------------------------------

  createSource(source: Source): Promise<Source> {
    return this.sources.create(source);
  }

  getSource(id: string): Promise<Source | undefined> {
    return this.sources.get(id);
  }

  async requireSource(id: string): Promise<Source> {
    const source = await this.getSource(id);
    if (!source) throw notFoundError('source', id);
    return source;
  }

  listSources(projectId: string): Promise<Source[]> {
    return this.sources.list(projectId);
  }

  updateSource(id: string, changes: SourceChanges): Promise<void> {
    return this.sources.update(id, changes);
  }

  /**
   * The source, if it exists, is not being removed, and its project is not being deleted:
   * what every write to a source (sync, schedule, webhook, change) checks.
   */
  async requireActiveSource(id: string): Promise<Source> {
    const source = await this.requireSource(id);
    if (source.status === SourceStatus.REMOVING) throw sourceRemoving(id);
    await this.requireActiveProject(source.projectId);
    return source;
  }

  /** Marks the source REMOVING (syncs, webhooks and changes are refused from then on). */
  async markSourceRemoving(id: string): Promise<Source | undefined> {
    const source = await this.getSource(id);
    if (!source) return undefined;
    await this.updateSource(id, { status: SourceStatus.REMOVING });
    return { ...source, status: SourceStatus.REMOVING };
  }

  /** Removes the source with its documents, sync runs and webhook event ids. */
  deleteSource(id: string): Promise<void> {
    return this.sources.delete(id);
  }

  createRun(run: SyncRun): Promise<SyncRun> {
    return this.runs.create(run);
  }

  getRun(id: string): Promise<SyncRun | undefined> {
    return this.runs.get(id);
  }

  /** A page of a source's runs, newest first. */
  pageRuns(sourceId: string, page?: PageRequest): Promise<Page<SyncRun>> {
    return this.runs.page(sourceId, page);
  }

  /** The ids of every sync run of a project or source. */
  runIds(scope: { projectId: string } | { sourceId: string }): Promise<string[]> {
    return this.runs.ids(scope);
  }

  updateRun(id: string, changes: SyncRunChanges): Promise<void> {
    return this.runs.update(id, changes);
  }

  // --- answers and threads ---------------------------------------------------------------------

  async createThread(thread: NewThread): Promise<Thread> {
    const created = await this.answers.createThread(thread);
    return created ?? this.refusedWrite(thread.projectId);
  }

  getThread(id: string): Promise<Thread | undefined> {
    return this.answers.getThread(id);
  }

  listThreads(projectId: string, scope: ThreadScope, page?: PageRequest): Promise<Page<Thread>> {
    return this.answers.listThreads(projectId, scope, page);
  }

  renameThread(id: string, title: string): Promise<Thread | undefined> {
    return this.answers.renameThread(id, title);
  }

  deleteThread(id: string): Promise<boolean> {
    return this.answers.deleteThread(id);
  }

  async recordAnswer(answer: NewAnswer): Promise<string> {
    const id = await this.answers.recordAnswer(answer);
    return id ?? this.refusedWrite(answer.projectId);
  }

  getAnswer(projectId: string, id: string): Promise<AnswerRecord | undefined> {
    return this.answers.getAnswer(projectId, id);
  }

  answerProject(id: string): Promise<string | undefined> {
    return this.answers.answerProject(id);
  }

  threadTurns(threadId: string): Promise<AnswerRecord[]> {
    return this.answers.threadTurns(threadId);
  }

  listAnswers(projectId: string, filter?: AnswerFilter, page?: PageRequest): Promise<Page<AnswerRecord>> {
    return this.answers.listAnswers(projectId, filter, page);
  }

  deleteAnswersBefore(before: Date): Promise<{ threads: number; answers: number }> {
    return this.answers.deleteAnswersBefore(before);
  }

  // --- feedback ----------------------------------------------------------------------------------

  /**
   * Records a vote on an answer of the project (replacing the key's earlier vote on the same
   * answer and passage). Refused like every write once the project is being deleted; an answer
   * of another project is ANSWER_NOT_FOUND.
   */
  async recordFeedback(vote: NewFeedback): Promise<FeedbackRecord> {
    await this.requireActiveProject(vote.projectId);
    const recorded = await guardedWrite(
      this,
      { projectId: vote.projectId },
      () => this.feedback.record(vote),
      (written) => (written ? this.feedback.delete(written.id) : Promise.resolve()),
    );
    if (!recorded) throw notFoundError('answer', vote.answerId);
    return recorded;
  }

  feedbackOn(projectId: string, answerIds: string[], owner: RecordOwner): Promise<FeedbackRecord[]> {
    return this.feedback.votesOn(projectId, answerIds, owner);
  }

  pageFeedback(projectId: string, page?: PageRequest): Promise<Page<FeedbackWithAnswer>> {
    return this.feedback.page(projectId, page);
  }

  contentGaps(projectId: string, page?: PageRequest): Promise<Page<ContentGap>> {
    return this.feedback.contentGaps(projectId, page);
  }

  /** Why a guarded insert wrote nothing: the project is missing or being deleted. */
  private async refusedWrite(projectId: string): Promise<never> {
    await this.requireActiveProject(projectId);
    throw projectDeleting(projectId); // deleted between the insert and the check
  }
}
