import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Every key Trove issues starts so (secret scanners and people recognise it). */
export const API_KEY_PREFIX = 'trove_';

/** `trove_<key id, 32 hex digits>_<secret, 256 random bits in base64url>` */
const API_KEY = /^trove_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

/**
 * A new key for the key record `id` (a UUID): the id names the record (so the lookup is by a
 * non-secret), the secret proves possession and is stored only as its SHA-256.
 */
export function newApiKeySecret(id: string): { token: string; secretSha256: Buffer } {
  const secret = randomBytes(32).toString('base64url');
  return { token: `${API_KEY_PREFIX}${id.replace(/-/g, '')}_${secret}`, secretSha256: sha256(secret) };
}

/** The record id and secret of a key in Trove's format; undefined for anything else. */
export function parseApiKey(token: string): { id: string; secret: string } | undefined {
  const match = API_KEY.exec(token);
  if (!match) return undefined;
  const hex = match[1];
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { id, secret: match[2] };
}

/** Whether `secret` is the one whose SHA-256 is stored; constant-time over fixed-size digests. */
export function secretMatches(secret: string, storedSha256: Buffer): boolean {
  const digest = sha256(secret);
  return storedSha256.length === digest.length && timingSafeEqual(digest, storedSha256);
}

/** What lists show of a key: its prefix and the start of its id, never the secret. */
export function maskedApiKey(id: string): string {
  return `${API_KEY_PREFIX}${id.replace(/-/g, '').slice(0, 8)}…`;
}

export function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
