import type { AuditRepository } from '@trove/catalog';
import type { AuditConfig } from '@trove/config';
import {
  type AuditAction,
  type AuditActor,
  AuditActorKind,
  AuditOutcome,
  CredentialKind,
  type NewAuditEvent,
  type Principal,
} from '@trove/domain';

/** Where a request came from, as the api saw it. */
export interface RequestOrigin {
  address?: string;
  userAgent?: string;
}

/** One entry to record: who (a principal, an actor, or nobody), what, on what, with what outcome. */
export interface AuditEntry {
  action: AuditAction;
  /** The caller; undefined: anonymous (no valid credential). */
  who?: Principal | AuditActor;
  origin?: RequestOrigin;
  target?: { kind: string; id: string };
  projectId?: string;
  outcome?: (typeof AuditOutcome)[keyof typeof AuditOutcome];
  code?: string;
  detail?: Record<string, unknown>;
}

/** The anonymous caller of a refused request. */
export const ANONYMOUS: AuditActor = Object.freeze({
  kind: AuditActorKind.ANONYMOUS,
  id: null,
  name: 'anonymous',
  credential: null,
  credentialId: null,
});

/** Trove itself (retention, start-up). */
export const SYSTEM: AuditActor = Object.freeze({
  kind: AuditActorKind.SYSTEM,
  id: null,
  name: 'trove',
  credential: null,
  credentialId: null,
});

/** The actor an entry names for a principal: the person (with the session or token used), or the key. */
export function actorOf(principal: Principal | undefined): AuditActor {
  if (!principal) return ANONYMOUS;
  if (principal.userId !== undefined) {
    return {
      kind: AuditActorKind.USER,
      id: principal.userId,
      name: principal.name,
      credential: principal.credential ?? null,
      credentialId: principal.credentialId ?? null,
    };
  }
  return {
    kind: AuditActorKind.API_KEY,
    id: principal.keyId ?? null,
    name: principal.name,
    credential: CredentialKind.API_KEY,
    credentialId: principal.keyId ?? null,
  };
}

function isActor(who: Principal | AuditActor): who is AuditActor {
  return 'kind' in who && 'credentialId' in who && !('role' in who);
}

/** What the log stores of a user agent: enough to recognise it, bounded. */
const MAX_USER_AGENT = 300;

/**
 * Appends to the audit log. Recording never fails the request it describes: an entry that cannot
 * be written is logged (with its action and outcome) and the request goes on. Searches and asks
 * are counted per person and day, or recorded each with its text when full query logging is on.
 */
export class AuditRecorder {
  constructor(
    private readonly store: Pick<AuditRepository, 'append' | 'countQuery'>,
    private readonly config: Pick<AuditConfig, 'queryLog'>,
    private readonly log: (line: string) => void,
  ) {}

  /** The entry as it will be stored (exposed for tests of what callers record). */
  static event(entry: AuditEntry): NewAuditEvent {
    const actor = entry.who === undefined ? ANONYMOUS : isActor(entry.who) ? entry.who : actorOf(entry.who);
    return {
      actor,
      address: entry.origin?.address ?? null,
      userAgent: entry.origin?.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
      action: entry.action,
      target: entry.target ?? null,
      projectId: entry.projectId ?? null,
      outcome: entry.outcome ?? AuditOutcome.SUCCESS,
      code: entry.code ?? null,
      detail: entry.detail ?? null,
    };
  }

  async record(entry: AuditEntry): Promise<void> {
    const event = AuditRecorder.event(entry);
    try {
      await this.store.append(event);
    } catch (error) {
      this.log(
        `could not append to the audit log (${event.action} ${event.outcome} by ${event.actor.kind} ${event.actor.id ?? ''}): ${(error as Error).message}`,
      );
    }
  }

  /** A search or an ask: counted, or (full query logging) recorded with its text. */
  async query(
    principal: Principal,
    projectId: string,
    kind: 'search' | 'ask',
    text: string,
    origin: RequestOrigin = {},
  ): Promise<void> {
    if (this.config.queryLog === 'full') {
      await this.record({
        action: kind === 'search' ? 'query.search' : 'query.ask',
        who: principal,
        origin,
        projectId,
        target: { kind: 'project', id: projectId },
        detail: { text: text.slice(0, 2000) },
      });
      return;
    }
    try {
      await this.store.countQuery(actorOf(principal), projectId, kind);
    } catch (error) {
      this.log(`could not count a ${kind}: ${(error as Error).message}`);
    }
  }
}
