import type { IncomingMessage } from 'node:http';
import {
  type ExecutionArgs,
  type ExecutionResult,
  getOperationAST,
  GraphQLError,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import type { Context, FormattedExecutionResult, SubscribePayload } from 'graphql-ws';
import type { SubscriptionLimits } from '@trove/config';
import { isTroveError, type Principal, TroveError, TroveErrorCode } from '@trove/domain';
import type { RequestAdmission } from '../access/request-admission';
import { RateLimitedError } from '../access/rate-limit';
import type { GraphqlContext } from '../access/request-principal';
import { checkDocument, type DocumentChecks, formatExecutionError } from './graphql-limits';
import { genericMessageFor } from './trove-exception.filter';

/** What graphql-ws's `ws` adapter puts in a connection's context. */
interface SocketExtra {
  readonly socket: { close(code: number, reason: string): void };
  readonly request: IncomingMessage;
}
type Connection = Context;

/** The close code of a connection_init refused for too many failed attempts (cf. HTTP 429). */
export const RATE_LIMITED_CLOSE = 4429;

/** What the gate needs once the app is built: the one admission, and the schema to validate against. */
export interface GateWiring {
  admission: RequestAdmission;
  schema: () => GraphQLSchema;
  log: (line: string) => void;
}

/**
 * GraphQL over WebSocket (graphql-ws on /graphql) under the guards of HTTP:
 *
 * - `connection_init` is admitted as an HTTP request is: the key in its `connectionParams`
 *   (`X-API-Key` or `Authorization`; browsers cannot set headers on a WebSocket), counted in the
 *   key's rate limit, and a failed attempt counted against the client's address. A refused key
 *   closes the socket with 4403, an address over its failure budget with 4429.
 * - Every operation is admitted again, against the key's state at that moment and its rate limit,
 *   before it is parsed; then parsed and validated with exactly the limits of HTTP (checkDocument).
 * - Only subscriptions are served (queries and mutations go to POST /graphql): a socket cannot run
 *   work that HTTP would bound per request. Open subscriptions are capped per socket and per key.
 * - Errors reach the client as over HTTP: a stable code, a human message, internals only logged.
 */
export class SubscriptionGate {
  private wiring?: GateWiring;
  /** The open subscriptions of each connection: operation id → the key they count against. */
  private readonly open = new WeakMap<Connection, Map<string, string>>();
  private readonly perKey = new Map<string, number>();

  constructor(
    private readonly limits: SubscriptionLimits,
    private readonly protection: DocumentChecks,
  ) {}

  attach(wiring: GateWiring): void {
    this.wiring = wiring;
  }

  readonly onConnect = async (connection: Connection): Promise<boolean> => {
    if (!this.wiring) return false;
    try {
      await this.wiring.admission.admit({}, presentedOver(connection), originOfSocket(connection));
      return true;
    } catch (error) {
      if (error instanceof RateLimitedError) {
        // graphql-ws then closes with 4403, which a socket already closing ignores.
        socketOf(connection)?.socket?.close(
          RATE_LIMITED_CLOSE,
          `RATE_LIMITED: ${error.message}`.slice(0, 123),
        );
      } else if (!isTroveError(error)) {
        this.wiring.log(`connection_init failed: ${oneLine(error)}`);
      }
      return false;
    }
  };

  readonly onSubscribe = async (
    connection: Connection,
    id: string,
    payload: SubscribePayload,
  ): Promise<ExecutionArgs | readonly GraphQLError[]> => {
    if (!this.wiring) return [clientError(TroveErrorCode.ServiceUnavailable, 'not ready')];
    // A fresh carrier per operation: the principal admitted here is this operation's alone.
    const carrier: GraphqlContext = { connectionParams: connection.connectionParams ?? {} };
    let principal: Principal;
    try {
      principal = await this.wiring.admission.admit(
        carrier,
        presentedOver(connection),
        originOfSocket(connection),
      );
    } catch (error) {
      return [this.refusal(error)];
    }
    const schema = this.wiring.schema();
    const checked = checkDocument(schema, String(payload.query ?? ''), this.protection);
    if ('errors' in checked) return checked.errors;
    const operation = getOperationAST(checked.document, payload.operationName);
    if (!operation) {
      return [
        clientError(TroveErrorCode.BadRequest, 'the document names no operation to run (operationName)'),
      ];
    }
    if (operation.operation !== 'subscription') {
      return [
        clientError(
          TroveErrorCode.BadRequest,
          `only subscriptions are served over WebSocket; send this ${operation.operation} to POST /graphql`,
        ),
      ];
    }
    const refused = this.reserve(connection, id, principal);
    if (refused) return [refused];
    return {
      schema,
      document: checked.document,
      operationName: payload.operationName,
      variableValues: payload.variables,
      contextValue: carrier,
    };
  };

  readonly onNext = (
    _connection: Connection,
    _id: string,
    _payload: SubscribePayload,
    _args: ExecutionArgs,
    result: ExecutionResult,
  ): FormattedExecutionResult | undefined =>
    result.errors ? { ...result, errors: this.format(result.errors) } : undefined;

  readonly onError = (
    _connection: Connection,
    _id: string,
    _payload: SubscribePayload,
    errors: readonly GraphQLError[],
  ): GraphQLFormattedError[] => this.format(errors);

  /** The subscription ended (completed, failed, or stopped by the client). */
  readonly onComplete = (connection: Connection, id: string): void => {
    this.release(connection, id);
  };

  readonly onClose = (connection: Connection): void => {
    for (const id of [...(this.open.get(connection)?.keys() ?? [])]) this.release(connection, id);
  };

  /** Open subscriptions counted for each key, for tests. */
  openFor(keyBucket: string): number {
    return this.perKey.get(keyBucket) ?? 0;
  }

  /** Takes a slot for the subscription, or says which cap it is over. */
  private reserve(connection: Connection, id: string, principal: Principal): GraphQLError | undefined {
    const open = this.open.get(connection) ?? new Map<string, string>();
    const key = bucketOf(principal);
    if (open.size >= this.limits.perConnection) {
      return clientError(
        TroveErrorCode.RateLimited,
        `too many subscriptions on this connection (at most ${this.limits.perConnection}); complete one first`,
      );
    }
    const forKey = this.perKey.get(key) ?? 0;
    if (forKey >= this.limits.perKey) {
      return clientError(
        TroveErrorCode.RateLimited,
        `too many subscriptions for this API key (at most ${this.limits.perKey}); complete one first`,
      );
    }
    open.set(id, key);
    this.open.set(connection, open);
    this.perKey.set(key, forKey + 1);
    return undefined;
  }

  private release(connection: Connection, id: string): void {
    const open = this.open.get(connection);
    const key = open?.get(id);
    if (!open || key === undefined) return;
    open.delete(id);
    const left = (this.perKey.get(key) ?? 1) - 1;
    if (left > 0) this.perKey.set(key, left);
    else this.perKey.delete(key);
  }

  private refusal(error: unknown): GraphQLError {
    if (isTroveError(error)) return clientError(error.code, genericMessageFor(error.code) ?? error.message);
    this.wiring?.log(`admission failed: ${oneLine(error)}`);
    return clientError(TroveErrorCode.Internal, genericMessageFor(TroveErrorCode.Internal)!);
  }

  /** As over HTTP: Trove errors keep their code, GraphQL's own theirs, anything else is INTERNAL. */
  private format(errors: readonly GraphQLError[]): GraphQLFormattedError[] {
    return errors.map((error) => {
      const original = error.originalError;
      if (isTroveError(original)) {
        return {
          message: genericMessageFor(original.code) ?? original.message,
          ...(error.path ? { path: error.path } : {}),
          extensions: { code: original.code },
        };
      }
      // Without a code it is no client error: Apollo would say INTERNAL_SERVER_ERROR, and so do we.
      return stripUndefined(formatExecutionError(error, (line) => this.wiring?.log(line)));
    });
  }
}

function clientError(code: TroveErrorCode, message: string): GraphQLError {
  return new GraphQLError(message, { originalError: new TroveError(code, message) });
}

/** The peer's address, as HTTP takes it (Express does not trust proxies here either). */
function addressOf(connection: Connection): string | undefined {
  return socketOf(connection)?.request?.socket?.remoteAddress;
}

function originOfSocket(connection: Connection): { address?: string; userAgent?: string } {
  const agent = socketOf(connection)?.request?.headers?.['user-agent'];
  return { address: addressOf(connection), ...(typeof agent === 'string' && { userAgent: agent }) };
}

/**
 * What a socket presents: its connection parameters (a key or token, or a session's CSRF token)
 * and the upgrade request's session cookie. Every operation counts as one that may change state,
 * so a session must show its CSRF token: a page of another site that opens a socket to this one
 * (cookies go along) cannot.
 */
function presentedOver(connection: Connection) {
  const cookie = socketOf(connection)?.request?.headers?.cookie;
  return {
    headers: { ...(connection.connectionParams ?? {}), ...(cookie !== undefined && { cookie }) },
    unsafe: true,
  };
}

function socketOf(connection: Connection): Partial<SocketExtra> | undefined {
  return connection.extra as Partial<SocketExtra> | undefined;
}

function bucketOf(principal: Principal): string {
  return principal.userId !== undefined ? `user:${principal.userId}` : (principal.keyId ?? 'bootstrap-admin');
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
}

function stripUndefined(error: GraphQLFormattedError): GraphQLFormattedError {
  return Object.fromEntries(
    Object.entries(error).filter(([, value]) => value !== undefined),
  ) as GraphQLFormattedError;
}
