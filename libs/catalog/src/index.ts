export * from './open-catalog';
export * from './catalog-lifecycle';
export * from './write-checks';
export type * from './catalog.ports';
export * from './cursor';
export * from './guarded-write';
export * from './database';
export { jsonb, postgresSafeText, postgresSafeValue } from './postgres-text';
export * from './webhook-events';
export * from './webhook-deliveries';
export { API_KEY_TOUCH_INTERVAL_MS, ApiKeyRepository } from './api-keys.repository';
export { isUuid, UserRepository } from './users.repository';
export type { Grantee, NewUser, SignedInIdentity, SignInMatch, UserChanges } from './users.repository';
export { SessionRepository } from './sessions.repository';
export type {
  ConsumedTransaction,
  NewLoginTransaction,
  NewPersonalToken,
  NewSession,
} from './sessions.repository';
export { AuditRepository } from './audit.repository';
export { IndexGenerationRepository } from './index-generations.repository';
export { ProjectRepository } from './projects.repository';
export { SourceRepository } from './sources.repository';
export { SyncRunRepository } from './sync-runs.repository';
export { DocumentRepository, newDocumentId } from './documents.repository';
export { AnswerRepository } from './answers.repository';
export { FeedbackRepository } from './feedback.repository';
export { RagConfigRepository } from './rag-config.repository';
export type { AuditPage } from './audit.repository';
