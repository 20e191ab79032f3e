import type { GraphQLError, GraphQLFormattedError } from 'graphql';
import type { Context } from 'graphql-ws';
import { isTroveError } from '@trove/domain';
import type { RequestAdmission } from '../access/request-admission';
import { genericMessageFor } from './trove-exception.filter';

/**
 * Authenticates a graphql-ws connection (subscriptions) before any operation is parsed or run:
 * the key comes in the connection's `connectionParams` (`X-API-Key` or `Authorization`; browsers
 * cannot set headers on a WebSocket), and a refused key closes the socket (4403 Forbidden). Each
 * operation is then checked by the access guard like any other. The admission is attached once
 * the app is built (bootstrap.ts), as the HTTP middleware receives it.
 *
 * An error raised while a subscription runs (after the guard and the exception filter, e.g. its
 * key revoked) reaches the client with its stable code, as any other error does.
 */
export class SubscriptionGate {
  private admission?: RequestAdmission;

  attach(admission: RequestAdmission): void {
    this.admission = admission;
  }

  readonly onConnect = async (connection: Context): Promise<boolean> => {
    if (!this.admission) return false;
    try {
      await this.admission.admit(connection, connection.connectionParams ?? {});
      return true;
    } catch {
      return false;
    }
  };

  readonly onError = (
    _connection: Context,
    _id: string,
    _payload: unknown,
    errors: readonly GraphQLError[],
  ): GraphQLFormattedError[] =>
    errors.map((error) => {
      const original = error.originalError;
      if (!isTroveError(original)) return error.toJSON();
      return {
        message: genericMessageFor(original.code) ?? original.message,
        ...(error.path ? { path: error.path } : {}),
        extensions: { code: original.code },
      };
    });
}
