import helmet, { type HelmetOptions } from 'helmet';
import type { RequestHandler } from 'express';
import { AUTH_PATH, MCP_PATH } from '../web/web-routes';

/**
 * Paths that answer only JSON or stored files, never a page: they get a Content-Security-Policy
 * that lets nothing load or run. Pages (the dashboard, the GraphQL playground) set their own.
 */
export const NON_PAGE_PATHS = [
  '/v1',
  '/webhooks',
  MCP_PATH,
  '/healthz',
  '/readyz',
  AUTH_PATH,
  '/.well-known',
];

/**
 * Security headers on every response (helmet): `X-Content-Type-Options: nosniff`, framing
 * denied (`X-Frame-Options: DENY`), `Referrer-Policy: no-referrer`, cross-origin isolation
 * headers. No Content-Security-Policy unless given: a policy belongs to the page it protects, so
 * a route serving HTML passes its own here or sets it on its responses (`contentSecurityPolicy`
 * below builds the header value).
 */
export function securityHeaders(
  options: { contentSecurityPolicy?: HelmetOptions['contentSecurityPolicy'] } = {},
): RequestHandler {
  return helmet({
    contentSecurityPolicy: options.contentSecurityPolicy ?? false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Browsers ignore HSTS over plain HTTP; behind TLS the proxy in front decides.
    strictTransportSecurity: false,
  }) as RequestHandler;
}

/** For NON_PAGE_PATHS: nothing may load, run or frame the answer. */
export function nonPageContentSecurityPolicy(): RequestHandler {
  const value = contentSecurityPolicy({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] });
  return (_request, response, next) => {
    response.setHeader('Content-Security-Policy', value);
    next();
  };
}

/** A policy as a header value: `contentSecurityPolicy({ 'script-src': ["'self'"] })`. */
export function contentSecurityPolicy(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join('; ');
}
