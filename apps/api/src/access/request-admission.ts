import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { IncomingHttpHeaders } from 'node:http';
import { isTroveError, type Principal, TroveErrorCode } from '@trove/domain';
import { ApiKeyAuthenticator, presentedKey } from './api-key-authenticator';
import { RequestRateLimit } from './rate-limit';
import { rememberedPrincipal, rememberPrincipal } from './request-principal';

/**
 * Who is calling, once per request: the key is authenticated and counted against its rate limit,
 * and the principal (role and project scope) is kept for every later check of the same request.
 */
@Injectable()
export class RequestAdmission {
  constructor(
    @Inject(ApiKeyAuthenticator) private readonly authenticator: ApiKeyAuthenticator,
    @Inject(RequestRateLimit) private readonly rateLimit: RequestRateLimit,
  ) {}

  /**
   * UNAUTHENTICATED without a valid key, RATE_LIMITED over the key's limit (or, for failed
   * attempts, over the limit of the client's `address`).
   */
  async admit(
    carrier: object,
    headers: IncomingHttpHeaders | Record<string, unknown>,
    address?: string,
  ): Promise<Principal> {
    const known = rememberedPrincipal(carrier);
    if (known) return known;
    let principal: Principal;
    try {
      principal = await this.authenticator.authenticate(presentedKey(headers));
    } catch (error) {
      if (address && isTroveError(error) && error.code === TroveErrorCode.Unauthenticated) {
        await this.rateLimit.consumeFailure(address);
      }
      throw error;
    }
    await this.rateLimit.consume(principal);
    rememberPrincipal(carrier, principal);
    return principal;
  }
}

/** The peer's address (a proxy in front is one client to us unless Express is told to trust it). */
export function clientAddress(request: Request): string | undefined {
  return request.ip ?? request.socket?.remoteAddress;
}
