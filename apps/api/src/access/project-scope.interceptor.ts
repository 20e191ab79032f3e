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
import { ACCESS_RULE, type AccessRule } from './access.decorators';
import { admittedBySignedLink } from './access.guard';
import { notFound, ProjectAccess } from './project-access.service';
import { principalOf, requestCarrier } from './request-principal';

/**
 * The project-scope half of the access rule: the record an operation names (a project, or a
 * document, source, run or chunk of one) must be in the key's projects. A record that is out of
 * scope and one that does not exist get the same answer — null for nullable lookups, NOT_FOUND
 * otherwise — before the operation runs (an upload is refused before its body is read).
 */
@Injectable()
export class ProjectScopeInterceptor implements NestInterceptor {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(ProjectAccess) private readonly access: ProjectAccess,
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
    if (principal && (await this.access.reaches(principal, target.kind, id))) return next.handle();
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
