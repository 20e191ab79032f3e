import { randomBytes } from 'node:crypto';
import { type AuditRecorder, type RequestOrigin } from '@trove/audit';
import type { SessionRepository } from '@trove/catalog';
import type { IdentityConfig, SecretBox } from '@trove/config';
import {
  AuditAction,
  AuditOutcome,
  CredentialKind,
  type User,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { identityFrom } from './claims';
import {
  clearCookie,
  type CookieSigner,
  LOGIN_COOKIE,
  SESSION_COOKIE,
  setCookie,
  sha256,
} from './credentials';
import type { IdentityProviders } from './identity-providers';
import { SignInRefusal, SignInRefusedError } from './oidc-provider';
import type { Provisioning } from './provisioning';
import { safeReturnTo } from './return-to';

export type SessionStore = Pick<
  SessionRepository,
  'startLogin' | 'consumeLogin' | 'createSession' | 'revokeSession' | 'getSession'
>;

/** What the browser gets: where to go, and the cookies to set. */
export interface BrowserStep {
  location: string;
  cookies: string[];
}

export interface CookiePolicy {
  secure: boolean;
}

/**
 * Signing in through a provider and out again. Starting records the sign-in (state hashed, nonce,
 * PKCE verifier, where to return) bound to the browser by a random value in the login cookie; the
 * callback takes it once, checks the browser, lets `openid-client` exchange the code and check the
 * ID token, finds or provisions the person and opens a server-side session. Every refusal is a
 * SIGN_IN_REFUSED with its reason, and an audit entry.
 */
export class SignInFlow {
  constructor(
    private readonly providers: IdentityProviders,
    private readonly provisioning: Provisioning,
    private readonly sessions: SessionStore,
    private readonly signer: CookieSigner,
    private readonly box: SecretBox,
    private readonly audit: AuditRecorder,
    private readonly config: Pick<IdentityConfig, 'sessionHours' | 'revalidateSeconds' | 'loginTtlSeconds'>,
    private readonly cookies: CookiePolicy,
  ) {}

  /** Sends the browser to the provider. BAD_REQUEST for a return address off this site (no open redirect). */
  async begin(providerId: string, returnTo: unknown, origin: RequestOrigin): Promise<BrowserStep> {
    const back = safeReturnTo(returnTo);
    if (back.refused) {
      await this.audit.record({
        action: AuditAction.SignInFailed,
        origin,
        outcome: AuditOutcome.DENIED,
        code: TroveErrorCode.BadRequest,
        detail: { reason: 'OPEN_REDIRECT', provider: providerId, returnTo: String(returnTo).slice(0, 300) },
      });
      throw new TroveError(
        TroveErrorCode.BadRequest,
        'returnTo must be a path on this site (such as /projects); other addresses are refused',
      );
    }
    let provider;
    let start;
    try {
      provider = this.providers.require(providerId);
      start = await provider.beginSignIn();
    } catch (error) {
      await this.refused(error, providerId, origin);
      throw error;
    }
    const binding = randomBytes(32).toString('base64url');
    await this.sessions.startLogin({
      id: sha256(start.state).toString('hex'),
      provider: provider.id,
      nonce: start.nonce,
      codeVerifier: start.codeVerifier,
      returnTo: back.path,
      bindingSha256: sha256(binding),
    });
    return {
      location: start.url.toString(),
      cookies: [
        setCookie(LOGIN_COOKIE, binding, {
          sameSite: 'Lax',
          secure: this.cookies.secure,
          maxAgeSeconds: this.config.loginTtlSeconds,
        }),
      ],
    };
  }

  /** The provider's answer: a session for the person, or SIGN_IN_REFUSED with the reason. */
  async complete(
    providerId: string,
    callbackUrl: URL,
    loginCookie: string | undefined,
    origin: RequestOrigin,
  ): Promise<BrowserStep & { user: User; sessionId: string }> {
    let user: User | undefined;
    try {
      const provider = this.providers.require(providerId);
      const state = callbackUrl.searchParams.get('state');
      if (!state)
        throw new SignInRefusedError(SignInRefusal.UnknownState, 'the provider’s answer has no state');
      const taken = await this.sessions.consumeLogin(
        sha256(state).toString('hex'),
        this.config.loginTtlSeconds * 1000,
      );
      if (!taken.ok) {
        throw taken.reason === 'used'
          ? new SignInRefusedError(
              SignInRefusal.StateUsed,
              'this sign-in was completed already (a replayed answer): sign in again',
            )
          : taken.reason === 'expired'
            ? new SignInRefusedError(SignInRefusal.Expired, 'this sign-in took too long: sign in again')
            : new SignInRefusedError(
                SignInRefusal.UnknownState,
                'this answer names no sign-in started here (its state is unknown)',
              );
      }
      const transaction = taken.transaction;
      if (transaction.provider !== provider.id) {
        throw new SignInRefusedError(
          SignInRefusal.UnknownState,
          'this answer is for a sign-in with another provider',
        );
      }
      // Login CSRF: an answer carried to another browser (a link, a form) does not sign that browser in.
      if (!loginCookie || !sha256(loginCookie).equals(transaction.bindingSha256)) {
        throw new SignInRefusedError(
          SignInRefusal.NotThisBrowser,
          'this sign-in was not started in this browser: start it here (refused to prevent login CSRF)',
        );
      }
      const error = callbackUrl.searchParams.get('error');
      if (error) {
        const description = callbackUrl.searchParams.get('error_description');
        throw new SignInRefusedError(
          SignInRefusal.ProviderError,
          `the identity provider refused the sign-in: ${error}${description ? ` (${description.slice(0, 200)})` : ''}`,
        );
      }
      const result = await provider.completeSignIn(callbackUrl, {
        state,
        nonce: transaction.nonce,
        codeVerifier: transaction.codeVerifier,
      });
      const identity = identityFrom(provider.id, await provider.issuer(), result.claims);
      const match = await this.provisioning.signedIn(identity, result.groups);
      user = match.user;
      const opened = this.signer.newSession();
      const now = Date.now();
      const expiresAt = new Date(now + this.config.sessionHours * 3600_000);
      await this.sessions.createSession({
        id: opened.id,
        userId: user.id,
        provider: provider.id,
        secretSha256: opened.secretSha256,
        expiresAt: expiresAt.toISOString(),
        revalidateAt: new Date(now + this.config.revalidateSeconds * 1000).toISOString(),
        ...(result.refreshToken && { refreshTokenSealed: this.box.encrypt(result.refreshToken) }),
        ...(result.idToken && { idTokenSealed: this.box.encrypt(result.idToken) }),
        ...(origin.address && { address: origin.address }),
        ...(origin.userAgent && { userAgent: origin.userAgent.slice(0, 300) }),
      });
      await this.audit.record({
        action: AuditAction.SignIn,
        who: {
          kind: 'USER',
          id: user.id,
          name: user.email ? `${user.name} <${user.email}>` : user.name,
          credential: CredentialKind.SESSION,
          credentialId: opened.id,
        },
        origin,
        target: { kind: 'user', id: user.id },
        detail: {
          provider: provider.id,
          ...(match.created && { provisioned: true }),
          ...(match.linked && { linked: true }),
          ...(result.groups && { groups: result.groups.slice(0, 50) }),
        },
      });
      return {
        location: transaction.returnTo,
        user,
        sessionId: opened.id,
        cookies: [
          setCookie(SESSION_COOKIE, opened.cookie, {
            sameSite: 'Strict',
            secure: this.cookies.secure,
            maxAgeSeconds: this.config.sessionHours * 3600,
          }),
          clearCookie(LOGIN_COOKIE, { sameSite: 'Lax', secure: this.cookies.secure }),
        ],
      };
    } catch (error) {
      await this.refused(error, providerId, origin, user);
      throw error;
    }
  }

  /**
   * Ends the session here, and says where the provider's own sign-out is (so its session ends
   * too), returning to `returnTo` (an absolute URL of this site) afterwards.
   */
  async signOut(sessionId: string, returnTo: string): Promise<{ logoutUrl?: string; cookies: string[] }> {
    const session = await this.sessions.revokeSession(sessionId);
    const cookies = [clearCookie(SESSION_COOKIE, { sameSite: 'Strict', secure: this.cookies.secure })];
    if (!session) return { cookies };
    let logoutUrl: string | undefined;
    try {
      const provider = this.providers.require(session.provider);
      const idToken = session.idTokenSealed ? this.box.decrypt(session.idTokenSealed) : undefined;
      logoutUrl = await provider.endSessionUrl(idToken, returnTo);
    } catch {
      // The provider gone from the configuration or unreachable: the session here has ended anyway.
    }
    return { cookies, ...(logoutUrl && { logoutUrl }) };
  }

  private async refused(
    error: unknown,
    providerId: string,
    origin: RequestOrigin,
    user?: User,
  ): Promise<void> {
    const reason = error instanceof SignInRefusedError ? error.reason : undefined;
    await this.audit.record({
      action: AuditAction.SignInFailed,
      ...(user && {
        who: { kind: 'USER', id: user.id, name: user.name, credential: null, credentialId: null },
      }),
      origin,
      outcome: AuditOutcome.DENIED,
      code: error instanceof TroveError ? error.code : TroveErrorCode.Internal,
      detail: {
        provider: providerId,
        ...(reason && { reason }),
        message: (error as Error).message.slice(0, 300),
      },
    });
  }
}
