export * from './catalog';
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
export type { AuditPage } from './audit.repository';
