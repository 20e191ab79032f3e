import helmet, { type HelmetOptions } from 'helmet';
import type { RequestHandler } from 'express';

/**
 * Security headers on every response (helmet): `X-Content-Type-Options: nosniff`, framing
 * denied (`X-Frame-Options: DENY`, and `frame-ancestors 'none'` in the policy below),
 * `Referrer-Policy: no-referrer`, cross-origin isolation headers.
 *
 * The Content-Security-Policy here suits the API's own answers (JSON, files): nothing may load
 * or run. A route serving HTML (dashboard, playground) sets its own policy on its responses, which
 * replaces this one — e.g. `res.setHeader('Content-Security-Policy', contentSecurityPolicy({...}))`
 * — or passes `contentSecurityPolicy` here for the whole app.
 */
export function securityHeaders(
  options: { contentSecurityPolicy?: HelmetOptions['contentSecurityPolicy'] } = {},
): RequestHandler {
  return helmet({
    contentSecurityPolicy: options.contentSecurityPolicy ?? {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Browsers ignore HSTS over plain HTTP; behind TLS the proxy in front decides.
    strictTransportSecurity: false,
  }) as RequestHandler;
}

/** A policy as a header value, for routes that serve HTML: `contentSecurityPolicy({ 'script-src': ["'self'"] })`. */
export function contentSecurityPolicy(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join('; ');
}
