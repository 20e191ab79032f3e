import {
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext } from '@nestjs/graphql';
import { of, type Observable } from 'rxjs';
import { AuditRecorder } from '@trove/audit';
import { AuditAction, AuditOutcome, roleGrants, roleIn, TroveError, TroveErrorCode } from '@trove/domain';
import { ACCESS_RULE, type AccessRule } from './access.decorators';
import { admittedBySignedLink, projectRefusal } from './access.guard';
import { notFound, ProjectAccess } from './project-access.service';
import { originOf } from './request-admission';
import { principalOf, rememberProject, requestCarrier } from './request-principal';

/**
 * The project half of the access rule: the record an operation names (a project, or a document,
 * source, run or chunk of one) must be in a project the caller reaches, and the caller's role
 * there must grant the permission (FORBIDDEN, with an audit entry, otherwise). A record that is
 * out of reach and one that does not exist get the same answer — null for nullable lookups,
 * NOT_FOUND otherwise — before the operation runs (an upload is refused before its body is read).
 */
@Injectable()
export class ProjectScopeInterceptor implements NestInterceptor {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(ProjectAccess) private readonly access: ProjectAccess,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, [
      context.getHandler(),
      context.getClass(),
    ]);
    const target = rule?.target;
    if (!target) return next.handle();
    const { request } = requestCarrier(context);
    if (context.getType<string>() !== 'graphql' && admittedBySignedLink(request)) return next.handle();
    const args =
      context.getType<string>() === 'graphql'
        ? GqlExecutionContext.create(context).getArgs()
        : request?.params;
    const id = valueAt(args, target.path);
    // Fail closed: a rule whose path names no argument (renamed, mistyped) must not let anything by.
    if (typeof id !== 'string') {
      throw new Error(
        `the access rule of ${context.getClass().name}.${context.getHandler().name} names no argument ${target.path}`,
      );
    }
    if (!ProjectAccess.wellFormed(target.kind, id)) return next.handle();
    const principal = principalOf(context);
    const projectId = await this.access.projectOf(target.kind, id);
    const role = principal && projectId !== undefined ? roleIn(principal, projectId) : undefined;
    if (principal && projectId !== undefined && role !== undefined) {
      // The record's project is known now: the audit entry of the operation names it.
      rememberProject(request ?? requestCarrier(context).graphql, projectId);
      if (roleGrants(role, rule.permission)) return next.handle();
      const refusal = projectRefusal(principal, role, rule.permission);
      await this.audit.record({
        action: AuditAction.AccessDenied,
        who: principal,
        origin: originOf(request),
        projectId,
        target: { kind: target.kind, id },
        outcome: AuditOutcome.DENIED,
        code: TroveErrorCode.Forbidden,
        detail: { operation: `${context.getClass().name}.${context.getHandler().name}`, reason: refusal },
      });
      throw new TroveError(TroveErrorCode.Forbidden, refusal);
    }
    if (target.nullable) return of(null);
    throw notFound(target.kind, id);
  }
}

/** `input.projectId` of `{ input: { projectId } }`. */
export function valueAt(args: unknown, path: string): unknown {
  let value = args;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
