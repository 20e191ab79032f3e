import type { ExecutionContext } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { Request } from 'express';
import type { Principal } from '@trove/domain';

/**
 * What a GraphQL context holds: the HTTP request, or for a subscription over WebSocket the
 * connection's parameters (`X-API-Key` or `Authorization` there, as in HTTP headers).
 */
export interface GraphqlContext {
  req?: Request;
  connectionParams?: Record<string, unknown>;
}

const principals = new WeakMap<object, Principal>();

/** The object a principal is kept on for the life of a request (or a subscription's connection). */
export function requestCarrier(context: ExecutionContext): { request?: Request; graphql?: GraphqlContext } {
  if (context.getType<string>() === 'graphql') {
    const graphql = GqlExecutionContext.create(context).getContext<GraphqlContext>();
    return { request: graphql.req, graphql };
  }
  return { request: context.switchToHttp().getRequest<Request>() };
}

export function rememberPrincipal(carrier: object, principal: Principal): void {
  principals.set(carrier, principal);
}

export function rememberedPrincipal(carrier: object | undefined): Principal | undefined {
  return carrier ? principals.get(carrier) : undefined;
}

/** The principal the guard established for this request; undefined on public routes. */
export function principalOf(context: ExecutionContext): Principal | undefined {
  const { request, graphql } = requestCarrier(context);
  return rememberedPrincipal(request) ?? rememberedPrincipal(graphql);
}

const projects = new WeakMap<object, string>();

/** The project of the record the request's operation names, once the access rule has looked it up. */
export function rememberProject(carrier: object | undefined, projectId: string): void {
  if (carrier) projects.set(carrier, projectId);
}

export function rememberedProject(carrier: object | undefined): string | undefined {
  return carrier ? projects.get(carrier) : undefined;
}
