import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { API_KEY_TOUCH_INTERVAL_MS, type ApiKeyLookup } from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import { ApiKeyRole, type Principal, TroveError, TroveErrorCode } from '@trove/domain';
import { API_KEY_LOOKUP } from '../core/catalog.providers';
import { CONFIG } from '../core/tokens';
import { parseApiKey, secretMatches, sha256 } from './api-key-secret';

/** The key from configuration (TROVE_ADMIN_API_KEY): ADMIN of every project, the bootstrap key. */
export const BOOTSTRAP_ADMIN: Principal = Object.freeze({
  name: 'admin key (TROVE_ADMIN_API_KEY)',
  role: ApiKeyRole.ADMIN,
  projects: 'ALL',
});

/** How long one check of a key's state answers for all its open subscriptions. */
export const CONFIRM_SHARE_MS = 1000;

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
  /** The latest check of each key's state by `confirm`, shared for CONFIRM_SHARE_MS. */
  private readonly confirmations = new Map<string, { at: number; check: Promise<void> }>();

  constructor(
    @Inject(API_KEY_LOOKUP) private readonly apiKeys: ApiKeyLookup,
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
    const stored = parsed && (await this.apiKeys.get(parsed.id));
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
   * holds until the api restarts with another. Checks of one key within CONFIRM_SHARE_MS share
   * one catalog read, however many subscriptions the key has open.
   */
  confirm(principal: Principal): Promise<void> {
    const keyId = principal.keyId;
    if (keyId === undefined) return Promise.resolve();
    const shared = this.confirmations.get(keyId);
    if (shared && Date.now() - shared.at < CONFIRM_SHARE_MS) return shared.check;
    const check = this.apiKeys.get(keyId).then((stored) => {
      if (!stored || stored.revokedAt) {
        throw new TroveError(TroveErrorCode.Unauthenticated, 'the API key was revoked');
      }
    });
    const confirmation = { at: Date.now(), check };
    this.confirmations.set(keyId, confirmation);
    // Dropped once stale, so the map holds only keys checked in the last moment.
    setTimeout(() => {
      if (this.confirmations.get(keyId) === confirmation) this.confirmations.delete(keyId);
    }, CONFIRM_SHARE_MS).unref();
    return check;
  }

  /** Forgets what is known of a key's use and state (it was revoked or deleted). */
  forget(keyId: string): void {
    this.touched.delete(keyId);
    this.confirmations.delete(keyId);
  }

  private recordUse(keyId: string): void {
    const now = Date.now();
    if (now - (this.touched.get(keyId) ?? 0) < API_KEY_TOUCH_INTERVAL_MS) return;
    this.touched.set(keyId, now);
    // Bookkeeping must not slow or fail the request it describes.
    this.apiKeys.touch(keyId, new Date(now)).catch((error: Error) => {
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
