import type { AuditRecorder } from '@trove/audit';
import type { SessionRepository, UserRepository } from '@trove/catalog';
import type { IdentityConfig, SecretBox } from '@trove/config';
import {
  AuditAction,
  AuditOutcome,
  CredentialKind,
  type Principal,
  type SessionRecord,
  TroveError,
  TroveErrorCode,
  UserStatus,
} from '@trove/domain';
import { type CookieSigner, secretMatches } from './credentials';
import type { IdentityProviders } from './identity-providers';
import { SignInRefusal, SignInRefusedError } from './oidc-provider';
import { personPrincipal } from './person-principal';

export type SessionReads = Pick<
  SessionRepository,
  'getSession' | 'refreshed' | 'revokeSession' | 'touchSession'
>;
export type AccessReads = Pick<UserRepository, 'access' | 'syncProviderGroups' | 'touch'>;

/** What a request presents of a session. */
export interface PresentedSession {
  cookie: string;
  csrfToken?: string;
  /** A request that may change something (anything but GET and HEAD): it must carry the CSRF token. */
  unsafe: boolean;
}

const ENDED = 'your session has ended (signed out, revoked or deactivated): sign in again';

/**
 * A browser's session cookie as a principal. The cookie must be signed by this install; its
 * session must exist, be open and unexpired; state-changing requests must carry the session's
 * CSRF token. Every `revalidateSeconds` the provider is asked again with the refresh token: a
 * refusal ends the session, and the groups it names replace the person's provider groups. The
 * person's roles are read afresh on every request, so a deactivation or a group change counts
 * from the next one.
 */
export class SessionAuthenticator {
  /** Revalidations under way, so concurrent requests of one session ask the provider once. */
  private readonly revalidating = new Map<string, Promise<void>>();

  constructor(
    private readonly sessions: SessionReads,
    private readonly users: AccessReads,
    private readonly providers: IdentityProviders,
    private readonly signer: CookieSigner,
    private readonly box: SecretBox,
    private readonly audit: AuditRecorder,
    private readonly config: Pick<IdentityConfig, 'revalidateSeconds'>,
  ) {}

  async authenticate(presented: PresentedSession): Promise<Principal> {
    const opened = this.signer.openSession(presented.cookie);
    if (opened === 'foreign') {
      throw new TroveError(
        TroveErrorCode.Unauthenticated,
        'this session cookie was not issued by this Trove install: sign in again',
      );
    }
    if (opened === 'malformed')
      throw new TroveError(TroveErrorCode.Unauthenticated, 'the session cookie is malformed: sign in again');
    const session = await this.sessions.getSession(opened.id);
    if (!session || !secretMatches(opened.secret, session.secretSha256)) {
      throw new TroveError(TroveErrorCode.Unauthenticated, 'this session is not known here: sign in again');
    }
    if (session.revokedAt) throw new TroveError(TroveErrorCode.Unauthenticated, ENDED);
    if (Date.parse(session.expiresAt) <= Date.now()) {
      throw new TroveError(TroveErrorCode.Unauthenticated, 'your session has expired: sign in again');
    }
    if (presented.unsafe && !this.signer.csrfMatches(session.id, presented.csrfToken)) {
      throw new TroveError(
        TroveErrorCode.Forbidden,
        'this request changes something but carries no valid CSRF token (X-CSRF-Token): refused as a possible cross-site request',
      );
    }
    if (Date.parse(session.revalidateAt) <= Date.now()) await this.revalidate(session);
    const access = await this.users.access(session.userId);
    if (!access || access.user.status !== UserStatus.ACTIVE) {
      await this.sessions.revokeSession(session.id);
      throw new TroveError(TroveErrorCode.Unauthenticated, ENDED);
    }
    // Bookkeeping must not slow or fail the request it describes.
    void this.sessions.touchSession(session.id).catch(() => undefined);
    void this.users.touch(session.userId).catch(() => undefined);
    return personPrincipal(access, CredentialKind.SESSION, session.id);
  }

  /** The CSRF token of the session a cookie opens (for the dashboard, via GET /auth/session). */
  csrfToken(sessionId: string): string {
    return this.signer.csrfToken(sessionId);
  }

  private revalidate(session: SessionRecord): Promise<void> {
    let running = this.revalidating.get(session.id);
    if (!running) {
      running = this.askProvider(session).finally(() => this.revalidating.delete(session.id));
      this.revalidating.set(session.id, running);
    }
    return running;
  }

  private async askProvider(session: SessionRecord): Promise<void> {
    const next = new Date(Date.now() + this.config.revalidateSeconds * 1000).toISOString();
    if (!session.refreshTokenSealed) {
      // A provider that gave no refresh token: the person's Trove state is still read every request.
      await this.sessions.refreshed(session.id, { revalidateAt: next });
      return;
    }
    try {
      const provider = this.providers.require(session.provider);
      const result = await provider.refresh(this.box.decrypt(session.refreshTokenSealed));
      if (result.groups !== undefined)
        await this.users.syncProviderGroups(session.userId, provider.id, result.groups);
      await this.sessions.refreshed(session.id, {
        revalidateAt: next,
        ...(result.refreshToken && { refreshTokenSealed: this.box.encrypt(result.refreshToken) }),
        ...(result.idToken && { idTokenSealed: this.box.encrypt(result.idToken) }),
      });
    } catch (error) {
      if (error instanceof SignInRefusedError && error.reason === SignInRefusal.ProviderUnavailable) {
        // The provider down is no verdict on the person: ask again in a minute, keep serving.
        await this.sessions.refreshed(session.id, {
          revalidateAt: new Date(Date.now() + 60_000).toISOString(),
        });
        return;
      }
      await this.sessions.revokeSession(session.id);
      await this.audit.record({
        action: AuditAction.SessionEnded,
        who: {
          kind: 'USER',
          id: session.userId,
          name: session.userId,
          credential: CredentialKind.SESSION,
          credentialId: session.id,
        },
        outcome: AuditOutcome.DENIED,
        code: TroveErrorCode.Unauthenticated,
        target: { kind: 'user', id: session.userId },
        detail: {
          reason: 'the identity provider refused to refresh the session',
          message: (error as Error).message.slice(0, 300),
        },
      });
      throw new TroveError(
        TroveErrorCode.Unauthenticated,
        'your identity provider no longer accepts this session: sign in again',
      );
    }
  }
}
