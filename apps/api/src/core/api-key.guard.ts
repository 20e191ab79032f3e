import { CanActivate, ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext } from '@nestjs/graphql';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { ApiConfig } from '@trove/config';
import { TroveError, TroveErrorCode } from '@trove/domain';
import { CONFIG } from './tokens';

const PUBLIC = 'trove:public';
/** Marks a route that needs no API key (liveness and readiness probes). */
export const Public = () => SetMetadata(PUBLIC, true);

/** Every request needs the API key, as `X-API-Key: <key>` or `Authorization: Bearer <key>`. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly adminKeyDigest: Buffer;

  constructor(
    private readonly reflector: Reflector,
    @Inject(CONFIG) config: ApiConfig,
  ) {
    this.adminKeyDigest = digest(config.api.adminApiKey);
  }

  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC, [context.getHandler(), context.getClass()]))
      return true;
    const request: Request =
      context.getType<string>() === 'graphql'
        ? GqlExecutionContext.create(context).getContext<{ req: Request }>().req
        : context.switchToHttp().getRequest<Request>();
    return this.checkRequest(request);
  }

  /** Throws UNAUTHENTICATED unless the request carries the API key. */
  checkRequest(request: Request): true {
    const key = presentedKey(request);
    if (!key) {
      throw new TroveError(
        TroveErrorCode.Unauthenticated,
        'an API key is required (X-API-Key or Authorization: Bearer)',
      );
    }
    // Comparing fixed-size digests keeps the comparison constant-time whatever the key length.
    if (!timingSafeEqual(digest(key), this.adminKeyDigest)) {
      throw new TroveError(TroveErrorCode.Unauthenticated, 'the API key is not valid');
    }
    return true;
  }
}

function presentedKey(request: Request): string | undefined {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header) return header;
  const authorization = request.headers.authorization;
  const match = authorization ? /^Bearer\s+(\S+)$/i.exec(authorization) : null;
  return match?.[1];
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
