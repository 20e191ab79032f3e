import { randomUUID } from 'node:crypto';
import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

/** `json`: one JSON object per line (production, log shippers); `pretty`: for a person at a terminal. */
export type LogFormat = 'json' | 'pretty';
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

export interface LoggingOptions {
  /** Unset: pretty when stdout is a terminal and NODE_ENV is not production, else json. */
  format?: LogFormat;
  level?: LogLevel;
}

/** The format a process logs in when none is configured. */
export function defaultLogFormat(
  env: Record<string, string | undefined> = process.env,
  stdoutIsTty = Boolean(process.stdout.isTTY),
): LogFormat {
  return env.NODE_ENV !== 'production' && stdoutIsTty ? 'pretty' : 'json';
}

/**
 * Paths pino censors wherever they appear in a log record: credentials in headers, and any field
 * named like a secret (a config object or an error's details logged whole). Defence in depth: the
 * request serializer below keeps no header at all.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'req.headers["x-notion-signature"]',
  'headers.authorization',
  'headers["x-api-key"]',
  'authorization',
  'apiKey',
  'token',
  'secret',
  'password',
  'taskToken',
  '*.apiKey',
  '*.token',
  '*.secret',
  '*.password',
  '*.adminApiKey',
  '*.webhookToken',
  '*.verificationToken',
  '*.accessToken',
  '*.taskToken',
];

/** The root logger of a process: `name` is `trove-api` or `trove-worker`. */
export function createLogger(name: string, options: LoggingOptions = {}, stream?: DestinationStream): Logger {
  const format = options.format ?? defaultLogFormat();
  const settings = {
    name,
    level: options.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    // `err` (an Error) is serialized with its stack by pino; `error` holds what loggedError made.
  };
  if (stream) return pino(settings, stream);
  if (format === 'pretty') {
    return pino(
      settings,
      pretty({
        // Synchronous: the last lines before an exit are never lost.
        sync: true,
        colorize: Boolean(process.stdout.isTTY),
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname,name,context,req,res,responseTime,requestId,traceId,spanId',
        messageFormat: '{if context}[{context}] {end}{msg}{if requestId} (request {requestId}){end}',
      }),
    );
  }
  // Synchronous writes to stdout: a crash never swallows the line that explains it.
  return pino(settings, pino.destination({ fd: 1, sync: true }));
}

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** The trace id of a W3C `traceparent` header, when it is well formed (and not all zeros). */
export function traceIdOf(traceparent: string | string[] | undefined): string | undefined {
  const value = Array.isArray(traceparent) ? traceparent[0] : traceparent;
  const match = typeof value === 'string' ? TRACEPARENT.exec(value.trim().toLowerCase()) : null;
  if (!match || /^0+$/.test(match[1])) return undefined;
  return match[1];
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * A request's id: the client's (or a proxy's) `X-Request-Id` when it is a short token, else a
 * fresh UUID. Answered in the response's `X-Request-Id` so a user can quote it.
 */
export function requestIdOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return typeof value === 'string' && REQUEST_ID.test(value) ? value : randomUUID();
}

/** A URL as logged: the path only; query strings carry signatures (`?sig=`) and search text. */
export function loggedPath(url: string | undefined): string {
  return (url ?? '').split('?')[0].slice(0, 512);
}

/**
 * An error as one log field: an expected, permanent failure (a Trove error code, a non-retryable
 * Temporal failure) as its code and message only; anything else with its stack, which is what
 * a person debugging it needs.
 */
export function loggedError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code, type, nonRetryable, permanent } = error as Error & {
    code?: unknown;
    type?: unknown;
    nonRetryable?: boolean;
    permanent?: boolean;
  };
  const expected = nonRetryable === true || permanent === true;
  const errorCode = typeof code === 'string' ? code : typeof type === 'string' ? type : undefined;
  if (expected) return { type: error.name, code: errorCode, message: error.message };
  return { ...pino.stdSerializers.err(error), ...(errorCode ? { code: errorCode } : {}) };
}
