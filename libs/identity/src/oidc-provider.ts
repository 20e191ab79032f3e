import * as client from 'openid-client';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { OidcProviderConfig } from '@trove/config';
import { TroveError, TroveErrorCode } from '@trove/domain';
import { groupsFrom, type IdentityClaims, identityClaimsSchema } from './claims';

/** Why a sign-in or a token was refused: stable, for the audit log, the dashboard and tests. */
export enum SignInRefusal {
  /** The callback's state names no sign-in under way (forged, or the sign-in was never started here). */
  UnknownState = 'UNKNOWN_STATE',
  /** The sign-in was completed already: a replayed callback. */
  StateUsed = 'STATE_USED',
  /** The sign-in took longer than TROVE_OIDC_LOGIN_TTL_SECONDS. */
  Expired = 'LOGIN_EXPIRED',
  /** The browser coming back is not the one that started the sign-in (login CSRF). */
  NotThisBrowser = 'NOT_THIS_BROWSER',
  /** The provider answered with an error (the person cancelled, or it refused). */
  ProviderError = 'PROVIDER_ERROR',
  /** The provider refused the authorization code (replayed, expired, or not its own). */
  CodeRejected = 'CODE_REJECTED',
  /** The ID token did not check out: signature, issuer, audience, expiry or nonce. */
  InvalidIdToken = 'INVALID_ID_TOKEN',
  /** The person is deactivated in Trove. */
  Deactivated = 'DEACTIVATED',
  /** Provisioning is by invitation and the person was not made ahead. */
  NotInvited = 'NOT_INVITED',
  /** The provider could not be reached or its discovery document is wrong. */
  ProviderUnavailable = 'PROVIDER_UNAVAILABLE',
  /** The callback names a provider that is not configured. */
  UnknownProvider = 'UNKNOWN_PROVIDER',
}

/** A refused sign-in: the code is SIGN_IN_REFUSED, `reason` says which check failed. */
export class SignInRefusedError extends TroveError {
  constructor(
    readonly reason: SignInRefusal,
    message: string,
    cause?: unknown,
  ) {
    super(TroveErrorCode.SignInRefused, message, { cause });
    this.name = 'SignInRefusedError';
  }
}

/** What a sign-in sends the browser to the provider with, and keeps to check the answer. */
export interface SignInStart {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The provider's answer, checked: who signed in, and the tokens to keep. */
export interface SignInResult {
  claims: IdentityClaims;
  /** The groups claim (ID token, else userinfo); empty when neither names any. */
  groups: string[];
  refreshToken?: string;
  idToken?: string;
  /** Seconds the access token lives: a session asks again before then. */
  expiresIn?: number;
}

export interface ProviderOptions {
  /** Leeway for the provider's clock (seconds). */
  clockToleranceSeconds: number;
}

/**
 * One configured OpenID Provider, through `openid-client` (a certified relying-party library):
 * discovery from the issuer, authorization code flow with PKCE (S256), state and nonce, ID-token
 * validation, refresh, RP-initiated logout, and the provider's access tokens for Trove checked
 * against its JWKS. Discovery is fetched on first use and kept; a failure is tried again next time.
 */
export class OidcProvider {
  private configuration?: Promise<client.Configuration>;
  private jwks?: ReturnType<typeof createRemoteJWKSet>;

  constructor(
    readonly config: OidcProviderConfig,
    readonly redirectUrl: string,
    private readonly options: ProviderOptions,
  ) {}

  get id(): string {
    return this.config.id;
  }

  get name(): string {
    return this.config.name;
  }

  /** Whether the provider's access tokens are accepted as bearer tokens (an audience is set). */
  get acceptsBearerTokens(): boolean {
    return this.config.audience !== undefined;
  }

  /** The issuer as the provider's discovery document names it. */
  async issuer(): Promise<string> {
    return (await this.discovered()).serverMetadata().issuer;
  }

  /** Discovery metadata the CLI needs for `trove login` (device flow, token endpoint). */
  async metadata(): Promise<client.ServerMetadata> {
    return (await this.discovered()).serverMetadata();
  }

  async beginSignIn(): Promise<SignInStart> {
    const configuration = await this.discovered();
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUrl,
      scope: this.config.scopes,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url, state, nonce, codeVerifier };
  }

  /**
   * Exchanges the callback's code (with the PKCE verifier) and checks the ID token: signature
   * (the provider's JWKS), issuer, audience, expiry, nonce. SignInRefusedError says which failed.
   */
  async completeSignIn(
    callbackUrl: URL,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<SignInResult> {
    const configuration = await this.discovered();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw refusalOf(error);
    }
    return this.result(configuration, tokens);
  }

  /**
   * Asks the provider again with the refresh token: a refusal means the person may no longer sign
   * in (disabled, signed out there, the session revoked); the new ID token's groups replace the old.
   */
  async refresh(refreshToken: string): Promise<SignInResult> {
    const configuration = await this.discovered();
    let tokens: Awaited<ReturnType<typeof client.refreshTokenGrant>>;
    try {
      tokens = await client.refreshTokenGrant(configuration, refreshToken);
    } catch (error) {
      throw refusalOf(error);
    }
    return this.result(configuration, tokens);
  }

  /** The provider's logout page, ending its session too (RP-initiated logout), or undefined. */
  async endSessionUrl(idToken: string | undefined, returnTo: string): Promise<string | undefined> {
    const configuration = await this.discovered();
    if (!configuration.serverMetadata().end_session_endpoint) return undefined;
    return client
      .buildEndSessionUrl(configuration, {
        ...(idToken ? { id_token_hint: idToken } : {}),
        post_logout_redirect_uri: returnTo,
        client_id: this.config.clientId,
      })
      .toString();
  }

  /**
   * The claims of one of the provider's access tokens for Trove, checked against its JWKS: issuer,
   * the configured audience, expiry. UNAUTHENTICATED with the reason otherwise.
   */
  async verifyAccessToken(
    token: string,
  ): Promise<{ claims: IdentityClaims; groups?: string[]; expiresAt?: number }> {
    if (!this.config.audience) {
      throw new TroveError(TroveErrorCode.Unauthenticated, 'this provider’s tokens are not accepted here');
    }
    const metadata = await this.metadata();
    if (!metadata.jwks_uri)
      throw new TroveError(TroveErrorCode.ServiceUnavailable, 'the provider publishes no JWKS');
    this.jwks ??= createRemoteJWKSet(new URL(metadata.jwks_uri));
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.jwks, {
        issuer: metadata.issuer,
        audience: this.config.audience,
        clockTolerance: this.options.clockToleranceSeconds,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (error) {
      throw new TroveError(
        TroveErrorCode.Unauthenticated,
        `the OAuth token is not valid: ${joseReason(error)}`,
        {
          cause: error,
        },
      );
    }
    const claims = identityClaimsSchema.safeParse(payload);
    if (!claims.success)
      throw new TroveError(TroveErrorCode.Unauthenticated, 'the OAuth token names no subject');
    return {
      claims: claims.data,
      groups: groupsFrom(payload, this.config.groupsClaim),
      expiresAt: payload.exp,
    };
  }

  private async result(
    configuration: client.Configuration,
    tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
  ): Promise<SignInResult> {
    const idClaims = tokens.claims();
    if (!idClaims)
      throw new SignInRefusedError(SignInRefusal.InvalidIdToken, 'the provider sent no ID token');
    const parsed = identityClaimsSchema.safeParse(idClaims);
    if (!parsed.success) {
      throw new SignInRefusedError(SignInRefusal.InvalidIdToken, 'the ID token names no subject');
    }
    let groups = groupsFrom(idClaims as Record<string, unknown>, this.config.groupsClaim);
    if (groups === undefined && tokens.access_token && configuration.serverMetadata().userinfo_endpoint) {
      // Some providers put groups in userinfo only.
      const info = await client
        .fetchUserInfo(configuration, tokens.access_token, parsed.data.sub)
        .catch(() => undefined);
      if (info) groups = groupsFrom(info as Record<string, unknown>, this.config.groupsClaim);
    }
    return {
      claims: parsed.data,
      // Providers leave the claim out when the person is in no group (Keycloak does): none, then.
      groups: groups ?? [],
      ...(tokens.refresh_token && { refreshToken: tokens.refresh_token }),
      ...(tokens.id_token && { idToken: tokens.id_token }),
      ...(tokens.expires_in !== undefined && { expiresIn: tokens.expires_in }),
    };
  }

  private discovered(): Promise<client.Configuration> {
    this.configuration ??= this.discover().catch((error: unknown) => {
      this.configuration = undefined;
      throw new SignInRefusedError(
        SignInRefusal.ProviderUnavailable,
        `the identity provider ${this.config.id} could not be reached at ${this.config.issuer}: ${(error as Error).message}`,
        error,
      );
    });
    return this.configuration;
  }

  private async discover(): Promise<client.Configuration> {
    const issuer = new URL(this.config.issuer);
    const secret = this.config.clientSecret as string | undefined;
    const configuration = await client.discovery(
      issuer,
      this.config.clientId,
      { [client.clockTolerance]: this.options.clockToleranceSeconds },
      secret ? client.ClientSecretPost(secret) : client.None(),
      {
        execute: [
          // The ID token's signature is checked against the provider's JWKS too, not only its
          // claims: TLS to the token endpoint is not taken as proof of who signed it.
          client.enableNonRepudiationChecks,
          // http:// issuers pass config validation only on loopback (a local provider).
          ...(issuer.protocol === 'http:' ? [client.allowInsecureRequests] : []),
        ],
      },
    );
    return configuration;
  }
}

/** A library error as a refusal that says what failed (never the token itself). */
function refusalOf(error: unknown): SignInRefusedError {
  if (error instanceof SignInRefusedError) return error;
  if (error instanceof client.AuthorizationResponseError) {
    return new SignInRefusedError(
      SignInRefusal.ProviderError,
      `the identity provider refused the sign-in: ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`,
      error,
    );
  }
  if (error instanceof client.ResponseBodyError) {
    return new SignInRefusedError(
      SignInRefusal.CodeRejected,
      `the identity provider refused the code: ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`,
      error,
    );
  }
  const message = (error as Error | undefined)?.message ?? String(error);
  const code = (error as { code?: unknown } | undefined)?.code;
  if (
    code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' ||
    code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED' ||
    code === 'OAUTH_JWS_SIGNATURE_VERIFICATION_FAILED' ||
    code === 'OAUTH_INVALID_RESPONSE' ||
    code === 'OAUTH_KEY_SELECTION_FAILED' ||
    code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'
  ) {
    // openid-client wraps the check that failed; the innermost error's message names the claim.
    let root = error as Error;
    while (root.cause instanceof Error) root = root.cause;
    const claim = (root as { cause?: { claim?: unknown } }).cause?.claim;
    const which = typeof claim === 'string' ? ` (its ${claim} claim)` : '';
    return new SignInRefusedError(
      SignInRefusal.InvalidIdToken,
      `the ID token was refused: ${root.message}${which}`,
      error,
    );
  }
  if (error instanceof TypeError || code === 'OAUTH_RESPONSE_IS_NOT_CONFORM') {
    return new SignInRefusedError(
      SignInRefusal.ProviderUnavailable,
      `the identity provider failed: ${message}`,
      error,
    );
  }
  return new SignInRefusedError(
    SignInRefusal.InvalidIdToken,
    `the provider’s answer was refused: ${message}`,
    error,
  );
}

function joseReason(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'it has expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    return error.claim === 'aud'
      ? 'it is not meant for Trove (audience)'
      : `its ${error.claim} claim does not check out`;
  }
  if (
    error instanceof joseErrors.JWSSignatureVerificationFailed ||
    error instanceof joseErrors.JWKSNoMatchingKey
  ) {
    return 'its signature is not the provider’s';
  }
  if (error instanceof joseErrors.JWTInvalid || error instanceof joseErrors.JWSInvalid)
    return 'it is malformed';
  return (error as Error | undefined)?.message ?? 'it does not check out';
}
