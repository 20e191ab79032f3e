import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiConfig } from '@trove/config';
import { createLogger, loggedPath, requestIdOf, traceIdOf } from '@trove/logging';
import { traceFields } from '@trove/tracing';
import type { Params } from 'nestjs-pino';

/** Scrapes and probes come every few seconds: logging each would drown the requests that matter. */
const QUIET_PATHS = new Set(['/metrics', '/healthz', '/readyz']);

/**
 * The api's logging: every Nest logger line through pino, and one line per finished request
 * (method, path without its query, status, time, request id, and the trace and span ids of the
 * request's span, or with tracing off the trace id of a W3C `traceparent` header). Headers are not logged at all; the redaction list covers the rest.
 */
export function apiLogging(config: Pick<ApiConfig, 'logging'>): Params {
  const logger = createLogger('trove-api', config.logging ?? {});
  return {
    pinoHttp: {
      logger,
      genReqId: (request: IncomingMessage, response: ServerResponse) => {
        const id = requestIdOf(request.headers['x-request-id']);
        response.setHeader('X-Request-Id', id);
        return id;
      },
      customAttributeKeys: { reqId: 'requestId' },
      // Lines logged while serving a request carry its id (and trace id), not the whole request.
      quietReqLogger: true,
      customProps: (request: IncomingMessage) => {
        // The request's span when tracing is on; else the caller's W3C `traceparent`, if any.
        const active = traceFields();
        if (active.traceId) return active;
        const traceId = traceIdOf(request.headers.traceparent);
        return traceId ? { traceId } : {};
      },
      serializers: {
        req: (request: { id?: unknown; method?: string; url?: string }) => ({
          id: request.id,
          method: request.method,
          path: loggedPath(request.url),
        }),
        res: (response: { statusCode?: number }) => ({ statusCode: response.statusCode }),
      },
      customLogLevel: (_request: IncomingMessage, response: ServerResponse, error?: Error) =>
        error || response.statusCode >= 500 ? 'error' : 'info',
      customSuccessMessage: (request: IncomingMessage, response: ServerResponse) =>
        `${request.method} ${loggedPath(request.url)} ${response.statusCode}`,
      customErrorMessage: (request: IncomingMessage, response: ServerResponse) =>
        `${request.method} ${loggedPath(request.url)} ${response.statusCode}`,
      autoLogging: {
        ignore: (request: IncomingMessage) =>
          QUIET_PATHS.has(loggedPath(request.url)) && (request.method === 'GET' || request.method === 'HEAD'),
      },
    },
  };
}
