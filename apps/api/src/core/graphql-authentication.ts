import type { RequestHandler } from 'express';
import { TroveError, TroveErrorCode } from '@trove/domain';
import type { ApiKeyGuard } from './api-key.guard';

/** Where Apollo is mounted; the authentication middleware is mounted on the same path. */
export const GRAPHQL_PATH = '/graphql';

/**
 * Express middleware mounted on the GraphQL path ahead of Apollo (and of body parsing): no
 * parsing, validation or introspection happens without the API key. The resolver guard runs
 * per field, after all of that, so it cannot protect those steps. The playground is a page of
 * its own (/playground) and sends the key as a header.
 */
export function graphqlAuthentication(guard: ApiKeyGuard): RequestHandler {
  return (request, response, next) => {
    try {
      guard.checkRequest(request);
    } catch (error) {
      const message = error instanceof TroveError ? error.message : 'an API key is required';
      response
        .status(401)
        .json({ errors: [{ message, extensions: { code: TroveErrorCode.Unauthenticated } }] });
      return;
    }
    next();
  };
}
