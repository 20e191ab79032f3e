import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AuditRecorder } from '@trove/audit';
import {
  AuditAction,
  AuditOutcome,
  CredentialKind,
  highestRole,
  isPerson,
  type Permission,
  type Principal,
  roleGrants,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { cookieValue, SESSION_COOKIE } from '@trove/identity';
import { CitationLinks } from '../core/citation-links';
import { ACCESS_RULE, type AccessRule, PUBLIC } from './access.decorators';
import { presentedKey } from './api-key-authenticator';
import { originOf, presentedBy, RequestAdmission } from './request-admission';
import { requestCarrier } from './request-principal';

/** Requests let in by a signed link to an original rather than a key (no project scope applies). */
const signedLinkRequests = new WeakSet<object>();

export function admittedBySignedLink(request: object | undefined): boolean {
  return request !== undefined && signedLinkRequests.has(request);
}

/**
 * The one gate of every resolver and route: the operation's `@Requires` rule (or `@Public()`)
 * decides. Authenticates the caller (a key or a person), then refuses one that holds no role
 * granting the permission: an operation on a record needs it somewhere (the role in the record's
 * own project is checked next by ProjectScopeInterceptor), one that names no project needs it
 * install-wide. Refusals are FORBIDDEN and leave an audit entry.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(RequestAdmission) private readonly admission: RequestAdmission,
    @Inject(CitationLinks) private readonly links: CitationLinks,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
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
      ? await this.admission.admit(request, presentedBy(request), originOf(request))
      : await this.admission.admit(graphql!, { headers: graphql?.connectionParams ?? {}, unsafe: true });
    const refusal = refusalOf(principal, rule);
    if (refusal) {
      await this.audit.record({
        action: AuditAction.AccessDenied,
        who: principal,
        origin: originOf(request),
        outcome: AuditOutcome.DENIED,
        code: TroveErrorCode.Forbidden,
        detail: { operation: `${context.getClass().name}.${context.getHandler().name}`, reason: refusal },
      });
      throw new TroveError(TroveErrorCode.Forbidden, refusal);
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
    if (
      signature !== undefined &&
      !presentedKey(request.headers) &&
      !cookieValue(request.headers.cookie, SESSION_COOKIE)
    ) {
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

/** Why the rule refuses the principal before any record is looked up; undefined when it does not. */
export function refusalOf(principal: Principal, rule: AccessRule): string | undefined {
  if (rule.caller && !isPerson(principal)) {
    return 'only people may do this (sign in); API keys cannot';
  }
  if (rule.caller === 'signed-in person' && principal.credential === CredentialKind.PERSONAL_TOKEN) {
    return 'a personal token cannot do this: sign in (the dashboard, or trove login)';
  }
  const role = rule.target ? highestRole(principal) : principal.role;
  if (roleGrants(role, rule.permission)) return undefined;
  return `${callerWords(principal)} (role ${role}${rule.target || !isPerson(principal) ? '' : ' install-wide'}) may not do this: it needs ${rule.permission} permission`;
}

/** How a refusal names the caller. */
export function callerWords(principal: Principal): string {
  return isPerson(principal) ? `${principal.name}` : 'this API key';
}

/** The refusal of a role in the record's project (ProjectScopeInterceptor). */
export function projectRefusal(principal: Principal, role: string, permission: Permission): string {
  return `${callerWords(principal)} is ${role} in this project and may not do this: it needs ${permission} permission`;
}
