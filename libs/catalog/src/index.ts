export * from './catalog';
export type * from './catalog.ports';
export * from './cursor';
export * from './guarded-write';
export * from './database';
export { jsonb, postgresSafeText, postgresSafeValue } from './postgres-text';
export type {
  DocumentChanges,
  DocumentClaim,
  DocumentFilter,
  DocumentScope,
  NewSourceItem,
  SourceItem,
  UploadCursor,
} from './documents.repository';
export type { SourceChanges } from './sources.repository';
export type { SyncRunChanges } from './sync-runs.repository';
export * from './webhook-events';
export * from './webhook-deliveries';
export type { LegacyImportReport } from './legacy-import';
export type { NewIndexGeneration, StoredIndexGeneration } from './index-generations.repository';
export type { StoredRagConfig } from './rag-config.repository';
export type { FeedbackWithAnswer, NewFeedback } from './feedback.repository';
export { API_KEY_TOUCH_INTERVAL_MS } from './api-keys.repository';
export type { NewApiKey, StoredApiKey } from './api-keys.repository';
export type { AnswerFilter, NewAnswer, NewThread, ThreadScope } from './answers.repository';
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
export type { AuditPage } from './audit.repository';
