import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { GqlArgumentsHost } from '@nestjs/graphql';
import type { Response } from 'express';
import { GraphQLError } from 'graphql';
import {
  type ConfigProblem,
  type ErrorKind,
  errorKind,
  ProtocolErrorCode,
  SourceConfigError,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { RateLimitedError } from '../access/rate-limit';

/** The HTTP status of each kind of error (libs/domain `errorKind`, which clients classify by too). */
const STATUS_OF_KIND: Record<ErrorKind, number> = {
  auth: HttpStatus.UNAUTHORIZED,
  forbidden: HttpStatus.FORBIDDEN,
  'not-found': HttpStatus.NOT_FOUND,
  malformed: HttpStatus.BAD_REQUEST,
  invalid: HttpStatus.BAD_REQUEST,
  unavailable: HttpStatus.SERVICE_UNAVAILABLE,
  failure: HttpStatus.INTERNAL_SERVER_ERROR,
};

/** Maps every Trove error code to an HTTP status: its kind's, unless the code says more. */
export function httpStatusFor(code: TroveErrorCode): number {
  switch (code) {
    case TroveErrorCode.DocumentNameConflict:
    case TroveErrorCode.ProjectNameConflict:
    case TroveErrorCode.ProjectDeleting:
    case TroveErrorCode.IndexRebuildInProgress:
    case TroveErrorCode.SettingsConflict:
    case TroveErrorCode.Skipped:
    case TroveErrorCode.DocumentBusy:
      return HttpStatus.CONFLICT;
    case TroveErrorCode.PayloadTooLarge:
      return HttpStatus.PAYLOAD_TOO_LARGE;
    case TroveErrorCode.UnsupportedMediaType:
      return HttpStatus.UNSUPPORTED_MEDIA_TYPE;
    case TroveErrorCode.RateLimited:
      return HttpStatus.TOO_MANY_REQUESTS;
    // A backend (embedder, model, reranker, index, the source system) failed, not the API.
    case TroveErrorCode.EmbeddingFailed:
    case TroveErrorCode.EmbeddingRejected:
    case TroveErrorCode.LlmFailed:
    case TroveErrorCode.RerankFailed:
    case TroveErrorCode.IndexFailed:
    case TroveErrorCode.SourceUnauthorized:
    case TroveErrorCode.SourceUnreachable:
      return HttpStatus.BAD_GATEWAY;
    case TroveErrorCode.Cancelled:
      return 499; // "client closed request" (nginx): nobody reads it, and it is not logged as a fault
    default:
      return STATUS_OF_KIND[errorKind(code)];
  }
}

/**
 * Messages clients get for failures of a backend (Elasticsearch, embedder, Temporal) or of our
 * own code: the original message can carry URIs, paths or backend replies, so it goes to the log.
 */
export function genericMessageFor(code: TroveErrorCode): string | undefined {
  switch (code) {
    case TroveErrorCode.Internal:
      return 'internal error; see the API logs';
    case TroveErrorCode.IndexFailed:
      return 'the search index could not complete the request; see the API logs';
    case TroveErrorCode.EmbeddingFailed:
      return 'the embedding server could not complete the request; see the API logs';
    case TroveErrorCode.EmbeddingRejected:
      return 'the embedding server refused the text; see the API logs';
    case TroveErrorCode.LlmFailed:
      return 'the language model could not complete the request; see the API logs';
    case TroveErrorCode.RerankFailed:
      return 'the reranker could not complete the request; see the API logs';
    case TroveErrorCode.ServiceUnavailable:
      return 'a backend service is unavailable; nothing was changed, try again shortly';
    default:
      return undefined;
  }
}

const CODE_BY_STATUS: Record<number, string> = {
  400: TroveErrorCode.BadRequest,
  401: TroveErrorCode.Unauthenticated,
  403: TroveErrorCode.Forbidden,
  404: ProtocolErrorCode.NotFound,
  413: TroveErrorCode.PayloadTooLarge,
  415: TroveErrorCode.UnsupportedMediaType,
  429: TroveErrorCode.RateLimited,
};

interface ClientError {
  status: number;
  code: string;
  message: string;
  /** An invalid source configuration: each field at fault, for forms to show next to the field. */
  problems?: ConfigProblem[];
}

/** The fields body-parser (via http-errors) sets on the errors it passes to Express. */
interface HttpError extends Error {
  status: number;
  expose: boolean;
  type?: string;
  limit?: number;
}

function isClientHttpError(error: unknown): error is HttpError {
  const candidate = error as Partial<HttpError> | null;
  return (
    error instanceof Error &&
    typeof candidate?.status === 'number' &&
    candidate.status >= 400 &&
    candidate.status < 500 &&
    candidate.expose === true
  );
}

/** A request body Express could not read: too large, an unknown or broken encoding. */
export function requestBodyError(error: HttpError): ClientError {
  switch (error.type) {
    case 'entity.too.large':
      return {
        status: 413,
        code: TroveErrorCode.PayloadTooLarge,
        message: `the request body is larger than the limit of ${error.limit ?? '?'} bytes`,
      };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { status: 415, code: TroveErrorCode.UnsupportedMediaType, message: error.message };
    case 'entity.parse.failed':
      return { status: 400, code: TroveErrorCode.BadRequest, message: 'the request body is not valid JSON' };
    default:
      return {
        status: 400,
        code: TroveErrorCode.BadRequest,
        message: 'the request body could not be read (is its Content-Encoding right?)',
      };
  }
}

/** Collapses a message to one log line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** One filter for REST and GraphQL: a stable code and a human message, never a stack trace. */
@Catch()
export class TroveExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost) {
    const error = this.toClientError(exception);
    if (host.getType<string>() === 'graphql') {
      GqlArgumentsHost.create(host);
      const problems = error.problems ? { problems: error.problems } : {};
      return new GraphQLError(error.message, {
        extensions: { code: error.code, status: error.status, ...problems },
      });
    }
    const response = host.switchToHttp().getResponse<Response>();
    if (exception instanceof RateLimitedError) {
      response.setHeader('Retry-After', String(exception.retryAfterSeconds));
    }
    const problems = error.problems ? { problems: error.problems } : {};
    response.status(error.status).json({ error: { code: error.code, message: error.message, ...problems } });
  }

  private toClientError(exception: unknown): ClientError {
    if (exception instanceof TroveError) {
      const status = httpStatusFor(exception.code);
      const generic = genericMessageFor(exception.code);
      if (generic || status >= 500) this.logger.warn(oneLine(`${exception.code}: ${exception.message}`));
      const problems = exception instanceof SourceConfigError ? { problems: exception.problems } : {};
      return { status, code: exception.code, message: generic ?? exception.message, ...problems };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const body = exception.getResponse();
      const message =
        typeof body === 'object' && body && 'message' in body
          ? [body.message].flat().join('; ')
          : exception.message;
      return { status, code: CODE_BY_STATUS[status] ?? `HTTP_${status}`, message };
    }
    if (isClientHttpError(exception)) {
      // Raised before any route runs (body parsing): the client's fault, worth one line.
      const error = requestBodyError(exception);
      const detail = exception.message === error.message ? '' : ` (${exception.message})`;
      this.logger.warn(oneLine(`${error.status} ${error.code}: ${error.message}${detail}`));
      return error;
    }
    const where = exception instanceof Error ? exception.stack?.split('\n')[1]?.trim() : undefined;
    this.logger.error(
      oneLine(
        exception instanceof Error
          ? `${exception.name}: ${exception.message}${where ? ` (${where})` : ''}`
          : String(exception),
      ),
    );
    return {
      status: 500,
      code: TroveErrorCode.Internal,
      message: genericMessageFor(TroveErrorCode.Internal)!,
    };
  }
}
