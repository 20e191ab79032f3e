import { AnswerRepository } from './answers.repository';
import { ApiKeyRepository } from './api-keys.repository';
import { AuditRepository } from './audit.repository';
import { CatalogLifecycle } from './catalog-lifecycle';
import type { DatabaseOptions } from './database';
import { DocumentRepository } from './documents.repository';
import { FeedbackRepository } from './feedback.repository';
import { IndexGenerationRepository } from './index-generations.repository';
import { ProjectRepository } from './projects.repository';
import { RagConfigRepository } from './rag-config.repository';
import { SessionRepository } from './sessions.repository';
import { SourceRepository } from './sources.repository';
import { SyncRunRepository } from './sync-runs.repository';
import { UserRepository } from './users.repository';
import { WebhookDeliveryLog } from './webhook-deliveries';
import { WebhookEventLog } from './webhook-events';
import { ActiveRecordChecks } from './write-checks';

export interface CatalogOptions extends DatabaseOptions {
  /**
   * The source types this process has connectors for (`@trove/source-definitions`); a stored
   * source of another type is an error when read. Unset: every stored type is read (the api and
   * the worker always set it; tools and tests that need no connector may leave it out).
   */
  sourceTypes?: readonly string[];
}

/**
 * The system of record, in PostgreSQL: one repository per aggregate over one connection pool,
 * each implementing the ports of its aggregate (`catalog.ports.ts`). A composition root opens
 * this once and hands each consumer the port it needs; nothing takes the whole set.
 */
export interface CatalogRepositories {
  /** The pool: migrations at start-up, readiness, usage figures, closing. */
  lifecycle: CatalogLifecycle;
  /** Nothing is written to a project being deleted or a source being removed. */
  writeChecks: ActiveRecordChecks;
  projects: ProjectRepository;
  sources: SourceRepository;
  runs: SyncRunRepository;
  documents: DocumentRepository;
  /** Webhook event ids already accepted (replay and retry protection). */
  webhookEvents: WebhookEventLog;
  /** Per source: the last webhook event accepted and the count of deliveries refused. */
  webhookDeliveries: WebhookDeliveryLog;
  /** Generations of the chunk index, one per embedding model. */
  indexGenerations: IndexGenerationRepository;
  /** Retrieval and answer settings changed through the API. */
  ragConfig: RagConfigRepository;
  /** API keys with their role and project scope. */
  apiKeys: ApiKeyRepository;
  /** The answers `ask` gave and the threads they form. */
  answers: AnswerRepository;
  /** Votes on answers and their passages. */
  feedback: FeedbackRepository;
  /** People, groups and their roles per project. */
  users: UserRepository;
  /** Browser sessions, sign-ins under way and personal access tokens. */
  sessions: SessionRepository;
  /** The append-only audit log and the per-person query counts. */
  audit: AuditRepository;
}

/** Opens a pool to the catalog (it connects on first use) and builds every repository over it. */
export function openCatalog(options: CatalogOptions): CatalogRepositories {
  const lifecycle = CatalogLifecycle.open(options);
  const { db } = lifecycle;
  const projects = new ProjectRepository(db);
  const sources = new SourceRepository(db, options.sourceTypes);
  const writeChecks = new ActiveRecordChecks(projects, sources);
  return {
    lifecycle,
    writeChecks,
    projects,
    sources,
    runs: new SyncRunRepository(db),
    documents: new DocumentRepository(db, sources),
    webhookEvents: new WebhookEventLog(db),
    webhookDeliveries: new WebhookDeliveryLog(db),
    indexGenerations: new IndexGenerationRepository(db),
    ragConfig: new RagConfigRepository(db),
    apiKeys: new ApiKeyRepository(db),
    answers: new AnswerRepository(db, writeChecks),
    feedback: new FeedbackRepository(db, writeChecks),
    users: new UserRepository(db),
    sessions: new SessionRepository(db),
    audit: new AuditRepository(db),
  };
}
