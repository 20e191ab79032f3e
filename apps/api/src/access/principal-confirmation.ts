import { Inject, Injectable } from '@nestjs/common';
import type { SessionRepository, UserRepository } from '@trove/catalog';
import {
  CredentialKind,
  type Permission,
  type Principal,
  roleGrants,
  roleIn,
  TroveError,
  TroveErrorCode,
  UserStatus,
} from '@trove/domain';
import { personPrincipal } from '@trove/identity';
import { SESSIONS, USERS } from '../core/catalog.providers';
import type { TargetKind } from './access.decorators';
import { ApiKeyAuthenticator, CONFIRM_SHARE_MS } from './api-key-authenticator';
import { ProjectAccess } from './project-access.service';

/**
 * Whether a principal admitted earlier still holds, for what outlives one request (a
 * subscription): a key not revoked; a person still active, their session or token not ended, and
 * still holding `permission` in the record's project (a grant taken away, or a group left, ends
 * it). Checks of one principal within CONFIRM_SHARE_MS share one read, however many
 * subscriptions it has open.
 */
@Injectable()
export class PrincipalConfirmation {
  private readonly shared = new Map<string, { at: number; check: Promise<void> }>();

  constructor(
    @Inject(ApiKeyAuthenticator) private readonly keys: ApiKeyAuthenticator,
    @Inject(ProjectAccess) private readonly access: ProjectAccess,
    @Inject(USERS) private readonly users: Pick<UserRepository, 'access'>,
    @Inject(SESSIONS) private readonly sessions: Pick<SessionRepository, 'getSession' | 'getToken'>,
  ) {}

  confirm(
    principal: Principal,
    record: { kind: TargetKind; id: string },
    permission: Permission,
  ): Promise<void> {
    if (principal.userId === undefined) return this.keys.confirm(principal);
    const key = `${principal.credentialId}:${record.kind}:${record.id}:${permission}`;
    const shared = this.shared.get(key);
    if (shared && Date.now() - shared.at < CONFIRM_SHARE_MS) return shared.check;
    const check = this.person(principal, record, permission);
    const entry = { at: Date.now(), check };
    this.shared.set(key, entry);
    setTimeout(() => {
      if (this.shared.get(key) === entry) this.shared.delete(key);
    }, CONFIRM_SHARE_MS).unref();
    return check;
  }

  private async person(
    principal: Principal,
    record: { kind: TargetKind; id: string },
    permission: Permission,
  ): Promise<void> {
    const access = await this.users.access(principal.userId!);
    if (!access || access.user.status !== UserStatus.ACTIVE) {
      throw new TroveError(TroveErrorCode.Unauthenticated, 'this person was deactivated');
    }
    if (principal.credential === CredentialKind.SESSION && principal.credentialId) {
      const session = await this.sessions.getSession(principal.credentialId);
      if (!session || session.revokedAt || Date.parse(session.expiresAt) <= Date.now()) {
        throw new TroveError(TroveErrorCode.Unauthenticated, 'your session has ended: sign in again');
      }
    }
    if (principal.credential === CredentialKind.PERSONAL_TOKEN && principal.credentialId) {
      const token = await this.sessions.getToken(principal.credentialId);
      if (!token || token.revokedAt)
        throw new TroveError(TroveErrorCode.Unauthenticated, 'the personal token was revoked');
    }
    const now = personPrincipal(access, principal.credential!, principal.credentialId ?? '');
    const projectId = await this.access.projectOf(record.kind, record.id);
    const role = projectId === undefined ? undefined : roleIn(now, projectId);
    if (!role || !roleGrants(role, permission)) {
      throw new TroveError(
        TroveErrorCode.Forbidden,
        `${principal.name} no longer has access to this project`,
      );
    }
  }
}
