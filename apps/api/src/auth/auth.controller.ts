import { Controller, Get, HttpCode, Inject, Optional, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuditRecorder } from '@trove/audit';
import { AuditAction, isTroveError, TroveError, TroveErrorCode } from '@trove/domain';
import {
  cookieValue,
  CSRF_HEADER,
  LOGIN_COOKIE,
  SESSION_COOKIE,
  SessionAuthenticator,
  SignInFlow,
  SignInRefusedError,
} from '@trove/identity';
import { Public } from '../access/access.decorators';
import { PEOPLE_WIRING, type PeopleWiring, publicUrlOf } from '../access/people.providers';
import { originOf } from '../access/request-admission';
import { httpStatusFor } from '../core/trove-exception.filter';
import { CONFIG } from '../core/tokens';
import type { ApiConfig } from '@trove/config';
import { AUTH_PATH } from '../web/web-routes';

/**
 * Signing people in and out (`/auth/…`): the configured providers, the redirect to one, its
 * callback, the session the dashboard reads (with its CSRF token), and sign-out. Public routes:
 * they are how a credential is obtained; each checks what it is given itself.
 */
@Controller(AUTH_PATH)
@Public()
export class AuthController {
  constructor(
    @Inject(PEOPLE_WIRING) private readonly wiring: PeopleWiring,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
    @Inject(CONFIG) private readonly config: ApiConfig,
    @Optional() @Inject(SignInFlow) private readonly flow?: SignInFlow,
    @Optional() @Inject(SessionAuthenticator) private readonly sessions?: SessionAuthenticator,
  ) {}

  /** The providers people may sign in with, and what `trove login` needs for each. */
  @Get('providers')
  async providers() {
    return {
      providers: await Promise.all(
        this.wiring.providers.list().map(async (provider) => ({
          id: provider.id,
          name: provider.name,
          loginUrl: `${AUTH_PATH}/login/${provider.id}`,
          ...(provider.config.cliClientId && {
            cli: {
              issuer: await provider.issuer().catch(() => provider.config.issuer),
              clientId: provider.config.cliClientId,
              scopes: provider.config.scopes,
              ...(provider.config.audience && { audience: provider.config.audience }),
            },
          }),
        })),
      ),
    };
  }

  /** Sends the browser to the provider; `returnTo` is a path of this site to land on afterwards. */
  @Get('login/:provider')
  async login(
    @Param('provider') provider: string,
    @Query('returnTo') returnTo: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const step = await this.requireFlow().begin(provider, returnTo, originOf(request));
    response.setHeader('Set-Cookie', step.cookies);
    response.redirect(303, step.location);
  }

  /**
   * The provider's answer. A browser is sent on to the page it started from, or (refused) to the
   * dashboard's sign-in page with the reason; other clients get JSON.
   */
  @Get('callback/:provider')
  async callback(@Param('provider') provider: string, @Req() request: Request, @Res() response: Response) {
    const url = new URL(request.originalUrl, publicUrlOf(this.config));
    try {
      const step = await this.requireFlow().complete(
        provider,
        url,
        cookieValue(request.headers.cookie, LOGIN_COOKIE),
        originOf(request),
      );
      response.setHeader('Set-Cookie', step.cookies);
      response.redirect(303, step.location);
    } catch (error) {
      const reason = error instanceof SignInRefusedError ? error.reason : undefined;
      const code = isTroveError(error) ? error.code : TroveErrorCode.Internal;
      const message = isTroveError(error) ? error.message : 'the sign-in failed; see the API logs';
      if (wantsPage(request)) {
        response.redirect(303, `/?signInError=${encodeURIComponent(reason ?? code)}`);
        return;
      }
      response
        .status(isTroveError(error) ? httpStatusFor(code) : 500)
        .json({ error: { code, message, ...(reason && { reason }) } });
    }
  }

  /** The signed-in person and the session's CSRF token (401 without a session). */
  /**
   * The browser's session and its CSRF token. No session cookie is an answer, not an error (the
   * dashboard asks on every load); a cookie that no longer holds is refused.
   */
  @Get('session')
  async session(@Req() request: Request) {
    const cookie = cookieValue(request.headers.cookie, SESSION_COOKIE);
    if (!cookie || !this.sessions) return { user: null, csrfToken: null };
    const principal = await this.sessions.authenticate({ cookie, unsafe: false });
    return {
      user: { id: principal.userId, name: principal.name },
      csrfToken: this.sessions.csrfToken(principal.credentialId!),
    };
  }

  /**
   * Ends the session (its CSRF token required, so another site cannot sign people out) and gives
   * the provider's sign-out address, to end the session there too.
   */
  @Post('logout')
  @HttpCode(200)
  async logout(@Req() request: Request, @Res() response: Response) {
    const cookie = cookieValue(request.headers.cookie, SESSION_COOKIE);
    if (!cookie || !this.sessions || !this.flow)
      throw new TroveError(TroveErrorCode.Unauthenticated, 'not signed in');
    const csrf = request.headers[CSRF_HEADER];
    const principal = await this.sessions.authenticate({
      cookie,
      csrfToken: typeof csrf === 'string' ? csrf : undefined,
      unsafe: true,
    });
    const out = await this.flow.signOut(principal.credentialId!, `${publicUrlOf(this.config)}/`);
    await this.audit.record({
      action: AuditAction.SignOut,
      who: principal,
      origin: originOf(request),
      target: { kind: 'user', id: principal.userId! },
    });
    response.setHeader('Set-Cookie', out.cookies);
    response.json({ signedOut: true, ...(out.logoutUrl && { logoutUrl: out.logoutUrl }) });
  }

  private requireFlow(): SignInFlow {
    if (!this.flow || this.wiring.providers.size === 0) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        'no identity provider is configured (TROVE_OIDC_PROVIDERS): sign in with an API key',
      );
    }
    return this.flow;
  }
}

/** A browser navigating (it asks for HTML), not an API client. */
function wantsPage(request: Request): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html');
}
