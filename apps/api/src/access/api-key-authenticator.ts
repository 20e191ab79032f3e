import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { API_KEY_TOUCH_INTERVAL_MS, Catalog } from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import { ApiKeyRole, type Principal, TroveError, TroveErrorCode } from '@trove/domain';
import { CONFIG } from '../core/tokens';
import { parseApiKey, secretMatches, sha256 } from './api-key-secret';

/** The key from configuration (TROVE_ADMIN_API_KEY): ADMIN of every project, the bootstrap key. */
export const BOOTSTRAP_ADMIN: Principal = Object.freeze({
  name: 'admin key (TROVE_ADMIN_API_KEY)',
  role: ApiKeyRole.ADMIN,
  projects: 'ALL',
});

/**
 * Turns a presented API key into a principal: the bootstrap admin key from configuration, or a
 * key from the catalog that is not revoked. Secrets are compared as SHA-256 digests in constant
 * time; a key's last use is recorded at most once a minute.
 */
@Injectable()
export class ApiKeyAuthenticator {
  private readonly logger = new Logger('ApiKeys');
  private readonly adminDigest: Buffer;
  /** When this process last recorded each key's use. */
  private readonly touched = new Map<string, number>();

  constructor(
    @Inject(Catalog) private readonly catalog: Catalog,
    @Inject(CONFIG) config: ApiConfig,
  ) {
    this.adminDigest = sha256(config.api.adminApiKey);
  }

  /** The principal of a request's `X-API-Key` or `Authorization: Bearer` header. */
  authenticateHeaders(headers: IncomingHttpHeaders | Record<string, unknown>): Promise<Principal> {
    return this.authenticate(presentedKey(headers));
  }

  /** Throws UNAUTHENTICATED for a missing, unknown, malformed or revoked key. */
  async authenticate(key: string | undefined): Promise<Principal> {
    if (!key) {
      throw new TroveError(
        TroveErrorCode.Unauthenticated,
        'an API key is required (X-API-Key or Authorization: Bearer)',
      );
    }
    // Comparing fixed-size digests keeps the comparison constant-time whatever the key length.
    if (timingSafeEqual(sha256(key), this.adminDigest)) return BOOTSTRAP_ADMIN;
    const parsed = parseApiKey(key);
    const stored = parsed && (await this.catalog.apiKeys.get(parsed.id));
    if (!parsed || !stored || !secretMatches(parsed.secret, stored.secretSha256) || stored.revokedAt) {
      throw new TroveError(TroveErrorCode.Unauthenticated, 'the API key is not valid');
    }
    this.recordUse(stored.id);
    return {
      keyId: stored.id,
      name: stored.name,
      role: stored.role,
      projects: stored.projectIds ?? 'ALL',
    };
  }

  /**
   * Throws UNAUTHENTICATED when the principal's key has been revoked (or deleted) since it was
   * admitted: for what outlives one request, such as a subscription. The configuration's key
   * holds until the api restarts with another.
   */
  async confirm(principal: Principal): Promise<void> {
    if (principal.keyId === undefined) return;
    const stored = await this.catalog.apiKeys.get(principal.keyId);
    if (!stored || stored.revokedAt) {
      throw new TroveError(TroveErrorCode.Unauthenticated, 'the API key was revoked');
    }
  }

  /** Forgets when a key was last recorded (it was revoked or deleted). */
  forget(keyId: string): void {
    this.touched.delete(keyId);
  }

  private recordUse(keyId: string): void {
    const now = Date.now();
    if (now - (this.touched.get(keyId) ?? 0) < API_KEY_TOUCH_INTERVAL_MS) return;
    this.touched.set(keyId, now);
    // Bookkeeping must not slow or fail the request it describes.
    this.catalog.apiKeys.touch(keyId, new Date(now)).catch((error: Error) => {
      this.touched.delete(keyId);
      this.logger.warn(`could not record the use of API key ${keyId}: ${error.message}`);
    });
  }
}

/** `X-API-Key: <key>` or `Authorization: Bearer <key>` (header names in any case). */
export function presentedKey(headers: IncomingHttpHeaders | Record<string, unknown>): string | undefined {
  const lower = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const header = lower['x-api-key'];
  if (typeof header === 'string' && header) return header;
  const authorization = lower.authorization;
  const match = typeof authorization === 'string' ? /^Bearer\s+(\S+)$/i.exec(authorization) : null;
  return match?.[1];
}
