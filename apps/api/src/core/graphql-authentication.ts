import type { RequestHandler } from 'express';
import { TroveError, TroveErrorCode } from '@trove/domain';
import { originOf, presentedBy, type RequestAdmission } from '../access/request-admission';
import { RateLimitedError } from '../access/rate-limit';
import { genericMessageFor, httpStatusFor } from './trove-exception.filter';

/** Where Apollo is mounted; the authentication middleware is mounted on the same path. */
export const GRAPHQL_PATH = '/graphql';

/**
 * Express middleware mounted on the GraphQL path ahead of Apollo (and of body parsing): no
 * parsing, validation or introspection happens without a valid credential (an API key, a
 * person's token, or a signed-in session with its CSRF token: GraphQL is POSTed, so every
 * session request carries it), and the request counts against the caller's rate limit. The resolver guard runs per field, after all of that, so it
 * cannot protect those steps; it reuses the principal established here. The playground is a
 * page of its own (/playground, web/web-pages.ts) and sends the key as a header.
 */
export function graphqlAuthentication(admission: RequestAdmission): RequestHandler {
  return (request, response, next) => {
    admission.admit(request, presentedBy(request), originOf(request)).then(
      () => next(),
      (error: unknown) => {
        const code = error instanceof TroveError ? error.code : TroveErrorCode.Unauthenticated;
        const message =
          genericMessageFor(code) ?? (error instanceof TroveError ? error.message : 'an API key is required');
        if (error instanceof RateLimitedError)
          response.setHeader('Retry-After', String(error.retryAfterSeconds));
        response.status(httpStatusFor(code)).json({ errors: [{ message, extensions: { code } }] });
      },
    );
  };
}
