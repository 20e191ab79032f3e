/** Where the dashboard lands when a sign-in names no page, or names one it may not go to. */
export const DEFAULT_RETURN_TO = '/';

/**
 * The page to return to after signing in: a path on this origin, nothing else. Absolute URLs,
 * protocol-relative `//host`, backslashes (`/\host` reads as `//host` to browsers), control
 * characters and paths of the API itself (a sign-in never lands on `/auth/…`) are refused, so
 * the sign-in cannot be made an open redirect.
 */
export function safeReturnTo(value: unknown): { path: string; refused: boolean } {
  if (value === undefined || value === null || value === '')
    return { path: DEFAULT_RETURN_TO, refused: false };
  if (typeof value !== 'string' || value.length > 2000) return { path: DEFAULT_RETURN_TO, refused: true };
  // eslint-disable-next-line no-control-regex
  if (!value.startsWith('/') || value.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(value)) {
    return { path: DEFAULT_RETURN_TO, refused: true };
  }
  let url: URL;
  try {
    url = new URL(value, 'http://trove.invalid');
  } catch {
    return { path: DEFAULT_RETURN_TO, refused: true };
  }
  if (url.origin !== 'http://trove.invalid' || url.pathname.startsWith('/auth/')) {
    return { path: DEFAULT_RETURN_TO, refused: true };
  }
  return { path: `${url.pathname}${url.search}${url.hash}`, refused: false };
}
