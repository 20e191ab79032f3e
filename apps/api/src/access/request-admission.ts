import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Request } from 'express';
import type { IncomingHttpHeaders } from 'node:http';
import { AuditRecorder, type RequestOrigin } from '@trove/audit';
import {
  AuditAction,
  AuditOutcome,
  isTroveError,
  type Principal,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import {
  cookieValue,
  CSRF_HEADER,
  OAuthTokenAuthenticator,
  PersonalTokens,
  SESSION_COOKIE,
  SessionAuthenticator,
} from '@trove/identity';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { RequestRateLimit } from './rate-limit';
import { rememberedPrincipal, rememberPrincipal } from './request-principal';

/** What a request presents: its headers (an upgrade request's cookie included), and whether it may change something. */
export interface Presented {
  headers: IncomingHttpHeaders | Record<string, unknown>;
  /** Anything but GET and HEAD (and every WebSocket operation): a session must prove it with its CSRF token. */
  unsafe: boolean;
}

/** Which credential a request presents, in the order they are looked for. */
type Credential =
  | { kind: 'api-key'; value: string | undefined }
  | { kind: 'personal-token'; value: string }
  | { kind: 'oauth-token'; value: string }
  | { kind: 'session'; value: string; csrfToken?: string };

/**
 * Who is calling, once per request: an API key (`X-API-Key`, or `Authorization: Bearer` with a
 * key), a personal access token or an identity provider's OAuth token (`Authorization: Bearer`),
 * or a browser session (its cookie, with its CSRF token on anything that changes state). The
 * principal is counted against its rate limit and kept for every later check of the request. A
 * refusal says why, is counted against the client's address, and leaves an audit entry.
 */
@Injectable()
export class RequestAdmission {
  constructor(
    @Inject(ApiKeyAuthenticator) private readonly keys: ApiKeyAuthenticator,
    @Inject(RequestRateLimit) private readonly rateLimit: RequestRateLimit,
    @Inject(PersonalTokens) private readonly personalTokens: PersonalTokens,
    @Inject(OAuthTokenAuthenticator) private readonly oauthTokens: OAuthTokenAuthenticator,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
    @Optional() @Inject(SessionAuthenticator) private readonly sessions?: SessionAuthenticator,
  ) {}

  /**
   * UNAUTHENTICATED without a valid credential, FORBIDDEN for a session's unsafe request without
   * its CSRF token, RATE_LIMITED over the principal's limit (or, for failed attempts, over the
   * limit of the client's address).
   */
  async admit(carrier: object, presented: Presented, origin: RequestOrigin = {}): Promise<Principal> {
    const known = rememberedPrincipal(carrier);
    if (known) return known;
    const credential = credentialOf(presented);
    let principal: Principal;
    try {
      principal = await this.authenticate(credential, presented.unsafe);
    } catch (error) {
      if (
        isTroveError(error) &&
        (error.code === TroveErrorCode.Unauthenticated || error.code === TroveErrorCode.Forbidden)
      ) {
        await this.audit.record({
          action:
            error.code === TroveErrorCode.Forbidden
              ? AuditAction.AccessDenied
              : AuditAction.AuthenticationRefused,
          origin,
          outcome: AuditOutcome.DENIED,
          code: error.code,
          detail: { credential: credential.kind, reason: error.message },
        });
        if (origin.address) await this.rateLimit.consumeFailure(origin.address);
      }
      throw error;
    }
    await this.rateLimit.consume(principal);
    rememberPrincipal(carrier, principal);
    return principal;
  }

  private authenticate(credential: Credential, unsafe: boolean): Promise<Principal> {
    switch (credential.kind) {
      case 'api-key':
        return this.keys.authenticate(credential.value);
      case 'personal-token':
        return this.personalTokens.authenticate(credential.value);
      case 'oauth-token':
        return this.oauthTokens.authenticate(credential.value);
      case 'session':
        if (!this.sessions) {
          return Promise.reject(
            new TroveError(TroveErrorCode.Unauthenticated, 'sign-in is not configured here: use an API key'),
          );
        }
        return this.sessions.authenticate({
          cookie: credential.value,
          csrfToken: credential.csrfToken,
          unsafe,
        });
      default: {
        const unknown: never = credential;
        throw new Error(`unknown credential ${String(unknown)}`);
      }
    }
  }
}

/** The credential a request presents (header names in any case); an API key when none is recognised. */
function credentialOf(presented: Presented): Credential {
  const lower = Object.fromEntries(
    Object.entries(presented.headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const apiKey = lower['x-api-key'];
  if (typeof apiKey === 'string' && apiKey) return { kind: 'api-key', value: apiKey };
  const authorization = lower.authorization;
  const bearer = typeof authorization === 'string' ? /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] : undefined;
  if (bearer) {
    if (PersonalTokens.recognises(bearer)) return { kind: 'personal-token', value: bearer };
    if (OAuthTokenAuthenticator.recognises(bearer)) return { kind: 'oauth-token', value: bearer };
    return { kind: 'api-key', value: bearer };
  }
  const session = cookieValue(lower.cookie, SESSION_COOKIE);
  if (session) {
    const csrf = lower[CSRF_HEADER];
    return { kind: 'session', value: session, ...(typeof csrf === 'string' && { csrfToken: csrf }) };
  }
  return { kind: 'api-key', value: undefined };
}

/** The peer's address (a proxy in front is one client to us unless Express is told to trust it). */
export function clientAddress(request: Request): string | undefined {
  return request.ip ?? request.socket?.remoteAddress;
}

/** Where an HTTP request came from, for the audit log. */
export function originOf(request: Request | undefined): RequestOrigin {
  if (!request) return {};
  const agent = request.headers?.['user-agent'];
  return { address: clientAddress(request), ...(typeof agent === 'string' && { userAgent: agent }) };
}

/** What an HTTP request presents. */
export function presentedBy(request: Request): Presented {
  return { headers: request.headers, unsafe: request.method !== 'GET' && request.method !== 'HEAD' };
}
