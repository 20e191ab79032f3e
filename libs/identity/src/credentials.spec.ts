import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  cookieValue,
  CookieSigner,
  newPersonalToken,
  parsePersonalToken,
  secretMatches,
  setCookie,
} from './credentials';

const key = () => randomBytes(32).toString('base64');

describe('session cookies', () => {
  it('open when this install signed them, and say so when another did', () => {
    const here = new CookieSigner(key());
    const session = here.newSession();
    const opened = here.openSession(session.cookie);
    expect(opened).toMatchObject({ id: session.id });
    expect(secretMatches((opened as { secret: string }).secret, session.secretSha256)).toBe(true);
    const elsewhere = new CookieSigner(key()).newSession();
    expect(here.openSession(elsewhere.cookie)).toBe('foreign');
    expect(here.openSession('not a cookie')).toBe('malformed');
    const tampered = `${session.cookie.slice(0, 33)}${'A'.repeat(43)}${session.cookie.slice(76)}`;
    expect(here.openSession(tampered)).toBe('foreign');
  });

  it('derive a CSRF token per session that another session’s does not match', () => {
    const signer = new CookieSigner(key());
    const a = signer.newSession();
    const b = signer.newSession();
    expect(signer.csrfMatches(a.id, signer.csrfToken(a.id))).toBe(true);
    expect(signer.csrfMatches(a.id, signer.csrfToken(b.id))).toBe(false);
    expect(signer.csrfMatches(a.id, undefined)).toBe(false);
  });

  it('are set HttpOnly, with SameSite and Secure as asked, and read back from a Cookie header', () => {
    expect(setCookie('trove_session', 'v', { sameSite: 'Strict', secure: true, maxAgeSeconds: 60 })).toBe(
      'trove_session=v; Path=/; HttpOnly; SameSite=Strict; Secure; Max-Age=60',
    );
    expect(cookieValue('a=1; trove_session=abc.def; b=2', 'trove_session')).toBe('abc.def');
    expect(cookieValue(undefined, 'trove_session')).toBeUndefined();
  });
});

describe('personal tokens', () => {
  it('name their record and prove possession by a secret kept as its digest', () => {
    const made = newPersonalToken();
    expect(made.token).toMatch(/^trove_pat_[0-9a-f]{32}_[\w-]{43}$/);
    const parsed = parsePersonalToken(made.token)!;
    expect(parsed.id).toBe(made.id);
    expect(secretMatches(parsed.secret, made.secretSha256)).toBe(true);
    expect(parsePersonalToken(`${made.token}x`)).toBeUndefined();
  });
});
