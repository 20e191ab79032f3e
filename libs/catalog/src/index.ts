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
