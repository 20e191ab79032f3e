import type { Context } from 'graphql-ws';
import type { RequestAdmission } from '../access/request-admission';

/**
 * Authenticates a graphql-ws connection (subscriptions) before any operation is parsed or run:
 * the key comes in the connection's `connectionParams` (`X-API-Key` or `Authorization`; browsers
 * cannot set headers on a WebSocket), and a refused key closes the socket (4403 Forbidden). Each
 * operation is then checked by the access guard like any other. The admission is attached once
 * the app is built (bootstrap.ts), as the HTTP middleware receives it.
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
}
