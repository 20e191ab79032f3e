import helmet from 'helmet';

/**
 * Headers for the dashboard and the playground: a CSP that allows scripts only from this origin
 * (the Vite build emits no inline script), no framing, no MIME sniffing, no referrer to other
 * sites. Inline styles stay allowed: Mantine and GraphiQL set CSS variables in `style` elements.
 * GraphiQL's editor (Monaco) runs its language services in same-origin module workers.
 */
export const pageSecurityHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:', 'blob:'],
      'font-src': ["'self'", 'data:'],
      'connect-src': ["'self'"],
      'worker-src': ["'self'", 'blob:'],
      'object-src': ["'none'"],
      'base-uri': ["'self'"],
      'form-action': ["'self'"],
      'frame-ancestors': ["'none'"],
    },
  },
  // The API is often reached over plain HTTP on a LAN; HSTS is the TLS terminator's call.
  strictTransportSecurity: false,
  crossOriginEmbedderPolicy: false,
  // helmet's default is SAMEORIGIN, which would replace the DENY every answer gets (core/security-headers.ts).
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'same-origin' },
});
