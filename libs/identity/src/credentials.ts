import { createHash, createHmac, hkdfSync, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** The cookie of a signed-in browser (HttpOnly, SameSite=Strict, Secure). */
export const SESSION_COOKIE = 'trove_session';
/** The cookie binding a sign-in under way to the browser that started it (SameSite=Lax: it must come back from the provider). */
export const LOGIN_COOKIE = 'trove_login';
/** The header a session's state-changing requests carry its CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

/** Every personal access token starts so (secret scanners and people recognise it). */
export const PERSONAL_TOKEN_PREFIX = 'trove_pat_';

const PERSONAL_TOKEN = /^trove_pat_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;
const SESSION_VALUE = /^([0-9a-f]{32})\.([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})$/;

export function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Whether `secret` is the one whose SHA-256 is stored; constant-time over fixed-size digests. */
export function secretMatches(secret: string, storedSha256: Buffer): boolean {
  const digest = sha256(secret);
  return storedSha256.length === digest.length && timingSafeEqual(digest, storedSha256);
}

function hexId(uuid: string): string {
  return uuid.replace(/-/g, '');
}

function uuidOf(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A new personal access token: the id names the record, the secret (stored as its SHA-256) proves possession. */
export function newPersonalToken(): { id: string; token: string; secretSha256: Buffer } {
  const id = randomUUID();
  const secret = randomBytes(32).toString('base64url');
  return { id, token: `${PERSONAL_TOKEN_PREFIX}${hexId(id)}_${secret}`, secretSha256: sha256(secret) };
}

export function parsePersonalToken(token: string): { id: string; secret: string } | undefined {
  const match = PERSONAL_TOKEN.exec(token);
  return match ? { id: uuidOf(match[1]), secret: match[2] } : undefined;
}

/** What lists show of a personal token: its prefix and the start of its id. */
export function maskedPersonalToken(id: string): string {
  return `${PERSONAL_TOKEN_PREFIX}${hexId(id).slice(0, 8)}…`;
}

/**
 * Signs and checks what this install hands to browsers: session cookies (`<id>.<secret>.<mac>`,
 * the MAC by a key derived from TROVE_SECRET_KEY, so a cookie of another install, or one made up,
 * is refused before any lookup) and each session's CSRF token.
 */
export class CookieSigner {
  private readonly key: Buffer;

  constructor(secretKeyBase64: string) {
    const secretKey = Buffer.from(secretKeyBase64, 'base64');
    this.key = Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'trove session cookies', 32));
  }

  /** A new session: its id, the cookie value, and the SHA-256 of the secret to store. */
  newSession(): { id: string; cookie: string; secretSha256: Buffer } {
    const id = randomUUID();
    const secret = randomBytes(32).toString('base64url');
    const body = `${hexId(id)}.${secret}`;
    return { id, cookie: `${body}.${this.mac(body)}`, secretSha256: sha256(secret) };
  }

  /**
   * The session id and secret of a cookie value: `malformed` for anything not in the format,
   * `foreign` for a well-formed value this install did not sign (another install's, or forged).
   */
  openSession(value: string): { id: string; secret: string } | 'malformed' | 'foreign' {
    const match = SESSION_VALUE.exec(value);
    if (!match) return 'malformed';
    const body = `${match[1]}.${match[2]}`;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(match[3]);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'foreign';
    return { id: uuidOf(match[1]), secret: match[2] };
  }

  /** The CSRF token of a session (derived, so nothing more is stored). */
  csrfToken(sessionId: string): string {
    return this.mac(`csrf:${sessionId}`);
  }

  csrfMatches(sessionId: string, token: string | undefined): boolean {
    if (!token) return false;
    const expected = Buffer.from(this.csrfToken(sessionId));
    const given = Buffer.from(token);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private mac(value: string): string {
    return createHmac('sha256', this.key).update(value).digest('base64url');
  }
}

/** A cookie's value from a `Cookie` header (the first of that name). */
export function cookieValue(header: unknown, name: string): string | undefined {
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() === name) {
      const value = part.slice(index + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return undefined;
}

export interface CookieOptions {
  maxAgeSeconds?: number;
  secure: boolean;
  sameSite: 'Strict' | 'Lax';
}

/** A `Set-Cookie` value: HttpOnly always, Path=/ always. */
export function setCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    'Path=/',
    'HttpOnly',
    `SameSite=${options.sameSite}`,
  ];
  if (options.secure) parts.push('Secure');
  if (options.maxAgeSeconds !== undefined)
    parts.push(`Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`);
  return parts.join('; ');
}

/** A `Set-Cookie` value that removes the cookie. */
export function clearCookie(name: string, options: Omit<CookieOptions, 'maxAgeSeconds'>): string {
  return setCookie(name, '', { ...options, maxAgeSeconds: 0 });
}
