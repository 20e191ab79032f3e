import {
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext } from '@nestjs/graphql';
import { catchError, from, mergeMap, type Observable, throwError } from 'rxjs';
import { AuditRecorder } from '@trove/audit';
import { AuditOutcome, isTroveError, TroveErrorCode } from '@trove/domain';
import { ACCESS_RULE, type AccessRule } from './access.decorators';
import { valueAt } from './project-scope.interceptor';
import { originOf } from './request-admission';
import { principalOf, rememberedProject, requestCarrier } from './request-principal';

/**
 * Records every operation whose access rule names an audit action, once it has run: who, from
 * where, the record it named (and its project), and the outcome — SUCCESS, or FAILURE with the
 * error's code. Refusals by the access rules are recorded where they are decided (the guard, the
 * project check). Arguments are not recorded (they may hold secrets, such as a source's token);
 * the id of what an operation made is.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (rule?.countsAs) return this.countQuery(context, rule.countsAs, next);
    const action = rule?.audit;
    if (!action) return next.handle();
    const { request, graphql } = requestCarrier(context);
    const args =
      context.getType<string>() === 'graphql'
        ? GqlExecutionContext.create(context).getArgs()
        : request?.params;
    const targetId = rule.target ? valueAt(args, rule.target.path) : undefined;
    const operation = `${context.getClass().name}.${context.getHandler().name}`;
    const entry = (
      outcome: (typeof AuditOutcome)[keyof typeof AuditOutcome],
      result?: unknown,
      code?: string,
    ) => {
      const madeId = valueAt(result, 'id') ?? valueAt(result, 'apiKey.id') ?? valueAt(result, 'token.id');
      const projectId =
        rememberedProject(request ?? graphql) ??
        (rule.target?.kind === 'project' && typeof targetId === 'string' ? targetId : undefined);
      return this.audit.record({
        action,
        who: principalOf(context),
        origin: originOf(request),
        ...(typeof targetId === 'string' &&
          rule.target && { target: { kind: rule.target.kind, id: targetId } }),
        ...(projectId && { projectId }),
        outcome,
        ...(code && { code }),
        detail: { operation, ...(typeof madeId === 'string' && madeId !== targetId && { made: madeId }) },
      });
    };
    return next.handle().pipe(
      mergeMap((result) => from(entry(AuditOutcome.SUCCESS, result).then(() => result))),
      catchError((error: unknown) => {
        const code = isTroveError(error) ? error.code : TroveErrorCode.Internal;
        const outcome = code === TroveErrorCode.Forbidden ? AuditOutcome.DENIED : AuditOutcome.FAILURE;
        return from(entry(outcome, undefined, code)).pipe(mergeMap(() => throwError(() => error)));
      }),
    );
  }

  /** A search or an ask, counted (or logged with its text) once it is under way. */
  private countQuery(
    context: ExecutionContext,
    counts: NonNullable<AccessRule['countsAs']>,
    next: CallHandler,
  ): Observable<unknown> {
    const { request, graphql } = requestCarrier(context);
    const args =
      context.getType<string>() === 'graphql'
        ? GqlExecutionContext.create(context).getArgs()
        : { ...(request?.params ?? {}), ...((request?.body as object | undefined) ?? {}) };
    const principal = principalOf(context);
    const projectId = rememberedProject(request ?? graphql);
    const text = valueAt(args, counts.text);
    if (principal && projectId) {
      void this.audit.query(
        principal,
        projectId,
        counts.kind,
        typeof text === 'string' ? text : '',
        originOf(request),
      );
    }
    return next.handle();
  }
}
