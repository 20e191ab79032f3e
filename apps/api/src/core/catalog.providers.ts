import type { Provider } from '@nestjs/common';
import {
  type AnswerRecords,
  type AnswerRetention,
  type ApiKeyLookup,
  type ApiKeyRepository,
  type AuditRepository,
  type CatalogHealth,
  type CatalogLifecycle,
  type CatalogPoolUsage,
  type CatalogRepositories,
  type DocumentCounts,
  type DocumentOriginReads,
  type DocumentRecords,
  type FeedbackRecords,
  type IndexGenerationRepository,
  type ProjectDocuments,
  type ProjectReads,
  type ProjectRecords,
  type ProjectRemovals,
  type ProjectSources,
  type SearchScopeReader,
  type SessionRepository,
  type SourceRecords,
  type SourceRemovals,
  type SyncRunHistory,
  type SyncRunRecords,
  type SyncRunStats,
  type UserRepository,
  type WebhookDeliveryRecords,
  type WebhookEventRecords,
  type WriteChecks,
} from '@trove/catalog';

/** An injection token for one catalog port; the port's type travels with it, so a binding is checked. */
export type PortToken<T> = symbol & { readonly port?: T };

const port = <T>(name: string): PortToken<T> => Symbol(name) as PortToken<T>;

// One token per port: a service injects the ports it uses, never the whole catalog.
export const WRITE_CHECKS = port<WriteChecks>('WriteChecks');
export const PROJECT_READS = port<ProjectReads>('ProjectReads');
export const PROJECT_RECORDS = port<ProjectRecords>('ProjectRecords');
export const PROJECT_REMOVALS = port<ProjectRemovals>('ProjectRemovals');
export const SOURCE_RECORDS = port<SourceRecords>('SourceRecords');
export const PROJECT_SOURCES = port<ProjectSources>('ProjectSources');
export const SOURCE_REMOVALS = port<SourceRemovals>('SourceRemovals');
export const SYNC_RUN_RECORDS = port<SyncRunRecords>('SyncRunRecords');
export const SYNC_RUN_HISTORY = port<SyncRunHistory>('SyncRunHistory');
export const SYNC_RUN_STATS = port<SyncRunStats>('SyncRunStats');
export const DOCUMENT_RECORDS = port<DocumentRecords>('DocumentRecords');
export const DOCUMENT_ORIGINS = port<DocumentOriginReads>('DocumentOriginReads');
export const PROJECT_DOCUMENTS = port<ProjectDocuments>('ProjectDocuments');
export const SEARCH_SCOPES = port<SearchScopeReader>('SearchScopeReader');
export const DOCUMENT_COUNTS = port<DocumentCounts>('DocumentCounts');
export const ANSWER_RECORDS = port<AnswerRecords>('AnswerRecords');
export const ANSWER_RETENTION = port<AnswerRetention>('AnswerRetention');
export const FEEDBACK_RECORDS = port<FeedbackRecords>('FeedbackRecords');
export const WEBHOOK_EVENTS = port<WebhookEventRecords>('WebhookEventRecords');
export const WEBHOOK_DELIVERIES = port<WebhookDeliveryRecords>('WebhookDeliveryRecords');
export const API_KEY_LOOKUP = port<ApiKeyLookup>('ApiKeyLookup');
export const CATALOG_HEALTH = port<CatalogHealth>('CatalogHealth');
export const CATALOG_POOL_USAGE = port<CatalogPoolUsage>('CatalogPoolUsage');
// The repositories with no narrow ports yet: their tokens carry the repository's type, and each
// consumer narrows it (`Pick<UserRepository, 'access'>`).
export const CATALOG_LIFECYCLE = port<CatalogLifecycle>('CatalogLifecycle');
export const USERS = port<UserRepository>('Users');
export const SESSIONS = port<SessionRepository>('Sessions');
export const AUDIT_LOG = port<AuditRepository>('AuditLog');
export const API_KEYS = port<ApiKeyRepository>('ApiKeys');
export const INDEX_GENERATION_RECORDS = port<IndexGenerationRepository>('IndexGenerationRecords');

/** `value` as the provider of `token`: the compiler checks it implements the token's port. */
function bind<T>(token: PortToken<T>, value: NoInfer<T>): Provider {
  return { provide: token, useValue: value };
}

/**
 * Every catalog port bound to the repository that implements it, as the composition root opened
 * them, and the repositories features use whole (people, sessions, audit, API keys, generations)
 * under their own tokens. CoreModule registers and exports them all (a module exports a custom
 * provider by its token).
 */
export function catalogProviders(catalog: CatalogRepositories): Provider[] {
  return [
    bind(WRITE_CHECKS, catalog.writeChecks),
    bind(PROJECT_READS, catalog.projects),
    bind(PROJECT_RECORDS, catalog.projects),
    bind(PROJECT_REMOVALS, catalog.projects),
    bind(SOURCE_RECORDS, catalog.sources),
    bind(PROJECT_SOURCES, catalog.sources),
    bind(SOURCE_REMOVALS, catalog.sources),
    bind(SYNC_RUN_RECORDS, catalog.runs),
    bind(SYNC_RUN_HISTORY, catalog.runs),
    bind(SYNC_RUN_STATS, catalog.runs),
    bind(DOCUMENT_RECORDS, catalog.documents),
    bind(DOCUMENT_ORIGINS, catalog.documents),
    bind(PROJECT_DOCUMENTS, catalog.documents),
    bind(SEARCH_SCOPES, catalog.documents),
    bind(DOCUMENT_COUNTS, catalog.documents),
    bind(ANSWER_RECORDS, catalog.answers),
    bind(ANSWER_RETENTION, catalog.answers),
    bind(FEEDBACK_RECORDS, catalog.feedback),
    bind(WEBHOOK_EVENTS, catalog.webhookEvents),
    bind(WEBHOOK_DELIVERIES, catalog.webhookDeliveries),
    bind(API_KEY_LOOKUP, catalog.apiKeys),
    bind(CATALOG_HEALTH, catalog.lifecycle),
    bind(CATALOG_POOL_USAGE, catalog.lifecycle),
    // Migrations at start-up and closing the pool at shutdown (IndexBootstrapService).
    bind(CATALOG_LIFECYCLE, catalog.lifecycle),
    bind(USERS, catalog.users),
    bind(SESSIONS, catalog.sessions),
    bind(AUDIT_LOG, catalog.audit),
    bind(API_KEYS, catalog.apiKeys),
    bind(INDEX_GENERATION_RECORDS, catalog.indexGenerations),
  ];
}
