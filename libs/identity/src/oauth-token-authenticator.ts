import { decodeJwt } from 'jose';
import { LRUCache } from 'lru-cache';
import type { UserRepository } from '@trove/catalog';
import { CredentialKind, type Principal, TroveError, TroveErrorCode, UserStatus } from '@trove/domain';
import { identityFrom } from './claims';
import { sha256 } from './credentials';
import type { IdentityProviders } from './identity-providers';
import { SignInRefusedError } from './oidc-provider';
import { personPrincipal } from './person-principal';
import type { Provisioning } from './provisioning';

/** A compact JWS: three base64url parts. */
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * OAuth 2.1 access tokens a configured provider issued for Trove (its audience): `trove login`
 * and MCP clients send them as bearer tokens, acting as the person. The token is checked against
 * the provider's JWKS (issuer, audience, expiry) on every request; the person is found, or
 * provisioned, once per token (their groups from its claims), and their rights are read afresh on
 * every request, so a deactivation counts from the next one.
 */
export class OAuthTokenAuthenticator {
  /** Token digest → user id, for the token's life (at most an hour), so provisioning runs once per token. */
  private readonly seen = new LRUCache<string, string>({ max: 10_000, ttl: 3600_000 });

  constructor(
    private readonly providers: IdentityProviders,
    private readonly provisioning: Provisioning,
    private readonly users: Pick<UserRepository, 'access'>,
  ) {}

  /** Whether a presented bearer looks like a JWT (else it is not ours to judge). */
  static recognises(token: string): boolean {
    return JWT.test(token) && token.startsWith('eyJ');
  }

  async authenticate(token: string): Promise<Principal> {
    let issuer: unknown;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      throw new TroveError(TroveErrorCode.Unauthenticated, 'the OAuth token is malformed');
    }
    const provider = await this.providerFor(issuer);
    const verified = await provider.verifyAccessToken(token);
    const digest = sha256(token).toString('base64url');
    let userId = this.seen.get(digest);
    if (userId === undefined) {
      try {
        const match = await this.provisioning.signedIn(
          identityFrom(provider.id, await provider.issuer(), verified.claims),
          verified.groups,
        );
        userId = match.user.id;
      } catch (error) {
        if (error instanceof SignInRefusedError) {
          throw new TroveError(
            TroveErrorCode.Unauthenticated,
            `the OAuth token’s person may not use Trove: ${error.message}`,
          );
        }
        throw error;
      }
      const ttl = verified.expiresAt ? Math.max(1000, verified.expiresAt * 1000 - Date.now()) : 300_000;
      this.seen.set(digest, userId, { ttl: Math.min(ttl, 3600_000) });
    }
    const access = await this.users.access(userId);
    if (!access || access.user.status !== UserStatus.ACTIVE) {
      throw new TroveError(
        TroveErrorCode.Unauthenticated,
        'this person is deactivated in Trove: their tokens no longer work',
      );
    }
    return personPrincipal(access, CredentialKind.OAUTH_TOKEN, digest.slice(0, 16));
  }

  private async providerFor(issuer: unknown) {
    const candidates = this.providers.bearerProviders();
    if (candidates.length === 0) {
      throw new TroveError(
        TroveErrorCode.Unauthenticated,
        'OAuth tokens are not accepted here: no identity provider has an audience for Trove (TROVE_OIDC_<ID>_AUDIENCE)',
      );
    }
    for (const provider of candidates) {
      const known = await provider.issuer().catch(() => provider.config.issuer);
      if (known === issuer) return provider;
    }
    throw new TroveError(
      TroveErrorCode.Unauthenticated,
      'the OAuth token was issued by a provider Trove does not trust',
    );
  }
}
