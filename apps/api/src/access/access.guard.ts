import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { roleGrants, TroveError, TroveErrorCode } from '@trove/domain';
import { CitationLinks } from '../core/citation-links';
import { ACCESS_RULE, type AccessRule, PUBLIC } from './access.decorators';
import { presentedKey } from './api-key-authenticator';
import { clientAddress, RequestAdmission } from './request-admission';
import { requestCarrier } from './request-principal';

/** Requests let in by a signed link to an original rather than a key (no project scope applies). */
const signedLinkRequests = new WeakSet<object>();

export function admittedBySignedLink(request: object | undefined): boolean {
  return request !== undefined && signedLinkRequests.has(request);
}

/**
 * The one gate of every resolver and route: the operation's `@Requires` rule (or `@Public()`)
 * decides. Authenticates the key, then refuses a role without the permission (FORBIDDEN); the
 * project scope of the record named is checked next by ProjectScopeInterceptor.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(RequestAdmission) private readonly admission: RequestAdmission,
    @Inject(CitationLinks) private readonly links: CitationLinks,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC, targets)) return true;
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, targets);
    // AccessRegistryCheck refuses to start with such an operation; this is the belt to those braces.
    if (!rule) throw new TroveError(TroveErrorCode.Forbidden, 'this operation is not open to API keys');
    const { request, graphql } = requestCarrier(context);
    if (rule.signedLinkFor && request && this.signedLinkAdmits(request, rule.signedLinkFor)) return true;
    const principal = request
      ? await this.admission.admit(request, request.headers, clientAddress(request))
      : await this.admission.admit(graphql!, graphql?.connectionParams ?? {});
    if (!roleGrants(principal.role, rule.permission)) {
      throw new TroveError(
        TroveErrorCode.Forbidden,
        `this API key (role ${principal.role}) may not do this: it needs ${rule.permission} permission`,
      );
    }
    return true;
  }

  /** A valid signature admits; an expired or forged one without a key gets a clear word. */
  private signedLinkAdmits(request: Request, param: string): boolean {
    const signature = typeof request.query.sig === 'string' ? request.query.sig : undefined;
    const check = this.links.check(String(request.params[param]), signature);
    if (check === 'valid') {
      signedLinkRequests.add(request);
      return true;
    }
    if (signature !== undefined && !presentedKey(request.headers)) {
      throw new TroveError(
        TroveErrorCode.Unauthenticated,
        check === 'expired'
          ? 'this link to the original has expired; get a fresh one from the search hit or the document (or send the API key)'
          : 'this link to the original is not valid (its signature does not match)',
      );
    }
    return false;
  }
}
