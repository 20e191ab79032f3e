import { z } from 'zod';
import { CredentialKind } from './access';

/**
 * The audit log's contract, defined once: what an entry holds, the actions recorded and their
 * outcomes. The catalog stores entries, GraphQL and the JSON Lines export show them, and an
 * exported line parses back with `auditEventSchema`.
 */
export const AuditAction = {
  SignIn: 'auth.sign_in',
  SignInFailed: 'auth.sign_in_failed',
  SignOut: 'auth.sign_out',
  SessionEnded: 'auth.session_ended',
  /** A request refused for its credential (missing, unknown, revoked, a deactivated owner). */
  AuthenticationRefused: 'auth.refused',
  /** A request refused by the access rules (FORBIDDEN). */
  AccessDenied: 'access.denied',
  UserCreated: 'user.created',
  UserUpdated: 'user.updated',
  UserDeactivated: 'user.deactivated',
  UserReactivated: 'user.reactivated',
  GroupCreated: 'group.created',
  GroupDeleted: 'group.deleted',
  GroupMemberAdded: 'group.member_added',
  GroupMemberRemoved: 'group.member_removed',
  RoleGranted: 'access.role_granted',
  RoleRevoked: 'access.role_revoked',
  ApiKeyCreated: 'api_key.created',
  ApiKeyRevoked: 'api_key.revoked',
  TokenCreated: 'token.created',
  TokenRevoked: 'token.revoked',
  ProjectCreated: 'project.created',
  ProjectDeleted: 'project.deleted',
  ProjectSettingsChanged: 'project.settings_changed',
  DocumentUploaded: 'document.uploaded',
  DocumentDeleted: 'document.deleted',
  DocumentReindexed: 'document.reindexed',
  SourceAdded: 'source.added',
  SourceChanged: 'source.changed',
  SourceRemoved: 'source.removed',
  SyncStarted: 'sync.started',
  SyncCancelled: 'sync.cancelled',
  SettingsChanged: 'settings.changed',
  ThreadChanged: 'thread.changed',
  ThreadDeleted: 'thread.deleted',
  FeedbackGiven: 'feedback.given',
  Exported: 'export',
  Backup: 'backup',
  /** The catalog replaced by a backup's (`trove restore`): the first entry of the restored log. */
  Restored: 'restore',
  /** A search, with its query, when full query logging is on (else searches are counted). */
  Searched: 'query.search',
  /** An ask, with its question, when full query logging is on (else asks are counted). */
  Asked: 'query.ask',
} as const;
export type AuditAction = (typeof AuditAction)[keyof typeof AuditAction];
export const AUDIT_ACTIONS = Object.values(AuditAction) as [AuditAction, ...AuditAction[]];

export const AuditOutcome = {
  SUCCESS: 'SUCCESS',
  /** Refused by authentication or the access rules. */
  DENIED: 'DENIED',
  /** Allowed, but the operation failed (bad input, a conflict, a backend down). */
  FAILURE: 'FAILURE',
} as const;
export type AuditOutcome = (typeof AuditOutcome)[keyof typeof AuditOutcome];

export const AuditActorKind = {
  USER: 'USER',
  API_KEY: 'API_KEY',
  /** No valid credential (a refused request, a failed sign-in). */
  ANONYMOUS: 'ANONYMOUS',
  /** Trove itself (retention). */
  SYSTEM: 'SYSTEM',
} as const;
export type AuditActorKind = (typeof AuditActorKind)[keyof typeof AuditActorKind];

export const auditActorSchema = z.object({
  kind: z.enum([
    AuditActorKind.USER,
    AuditActorKind.API_KEY,
    AuditActorKind.ANONYMOUS,
    AuditActorKind.SYSTEM,
  ]),
  /** The user's or key's id; null for the bootstrap admin key, anonymous callers and the system. */
  id: z.string().nullable(),
  name: z.string(),
  credential: z.nativeEnum(CredentialKind).nullable(),
  /** The session's or token's id. */
  credentialId: z.string().nullable(),
});
export type AuditActor = z.infer<typeof auditActorSchema>;

export const auditEventSchema = z.object({
  /** Increasing: the order entries were appended in. */
  id: z.string().regex(/^\d+$/),
  at: z.string().datetime({ offset: true }),
  actor: auditActorSchema,
  /** The client's address as the api saw it. */
  address: z.string().nullable(),
  userAgent: z.string().nullable(),
  action: z.enum(AUDIT_ACTIONS),
  target: z.object({ kind: z.string(), id: z.string() }).nullable(),
  projectId: z.string().nullable(),
  outcome: z.enum([AuditOutcome.SUCCESS, AuditOutcome.DENIED, AuditOutcome.FAILURE]),
  /** The error code of a refusal or failure. */
  code: z.string().nullable(),
  /** What else there is to say (never a secret): a reason, a name, a role. */
  detail: z.record(z.unknown()).nullable(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

/** An entry to append: the log gives it its id and time. */
export type NewAuditEvent = Omit<AuditEvent, 'id' | 'at'>;

/** What the log is filtered by (GraphQL, the export). */
export const auditFilterSchema = z.object({
  actorId: z.string().optional(),
  actorKind: auditActorSchema.shape.kind.optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  /** Every action beginning so (`auth.`, `source.`). */
  actionPrefix: z.string().max(100).optional(),
  outcome: auditEventSchema.shape.outcome.optional(),
  projectId: z.string().optional(),
  from: z.string().datetime({ offset: true }).optional(),
  to: z.string().datetime({ offset: true }).optional(),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

/** One line of the JSON Lines export. */
export function auditLine(event: AuditEvent): string {
  return JSON.stringify(auditEventSchema.parse(event));
}

/** An exported line read back; throws on a line that is not an entry. */
export function parseAuditLine(line: string): AuditEvent {
  return auditEventSchema.parse(JSON.parse(line));
}

/** Searches and asks of one principal in one project on one day (when queries are only counted). */
export interface QueryCount {
  day: string;
  actor: AuditActor;
  projectId: string;
  searches: number;
  asks: number;
}
