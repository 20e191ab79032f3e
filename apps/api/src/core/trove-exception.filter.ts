import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { GqlArgumentsHost } from '@nestjs/graphql';
import type { Response } from 'express';
import { GraphQLError } from 'graphql';
import { TroveError, TroveErrorCode } from '@trove/domain';

/** Maps every Trove error code to an HTTP status; the switch is exhaustive by construction. */
export function httpStatusFor(code: TroveErrorCode): number {
  switch (code) {
    case TroveErrorCode.BadRequest:
    case TroveErrorCode.EmptyDocument:
    case TroveErrorCode.UndecodableDocument:
    case TroveErrorCode.ParseFailed:
    case TroveErrorCode.NoTextLayer:
    case TroveErrorCode.EncryptedDocument:
    case TroveErrorCode.CorruptDocument:
    case TroveErrorCode.UnsafeArchive:
    case TroveErrorCode.ParseLimitExceeded:
      return HttpStatus.BAD_REQUEST;
    case TroveErrorCode.Unauthenticated:
      return HttpStatus.UNAUTHORIZED;
    case TroveErrorCode.WebhookExpired:
      return HttpStatus.BAD_REQUEST;
    case TroveErrorCode.ProjectNotFound:
    case TroveErrorCode.DocumentNotFound:
    case TroveErrorCode.SourceNotFound:
      return HttpStatus.NOT_FOUND;
    case TroveErrorCode.DocumentNameConflict:
      return HttpStatus.CONFLICT;
    case TroveErrorCode.PayloadTooLarge:
      return HttpStatus.PAYLOAD_TOO_LARGE;
    case TroveErrorCode.UnsupportedMediaType:
      return HttpStatus.UNSUPPORTED_MEDIA_TYPE;
    case TroveErrorCode.EmbeddingFailed:
    case TroveErrorCode.IndexFailed:
    case TroveErrorCode.NotionUnauthorized:
      return HttpStatus.BAD_GATEWAY;
    case TroveErrorCode.ServiceUnavailable:
      return HttpStatus.SERVICE_UNAVAILABLE;
    case TroveErrorCode.Internal:
      return HttpStatus.INTERNAL_SERVER_ERROR;
    default: {
      const unhandled: never = code;
      throw new Error(`unmapped error code ${String(unhandled)}`);
    }
  }
}

const CODE_BY_STATUS: Record<number, string> = {
  400: TroveErrorCode.BadRequest,
  401: TroveErrorCode.Unauthenticated,
  404: 'NOT_FOUND',
  413: TroveErrorCode.PayloadTooLarge,
  415: TroveErrorCode.UnsupportedMediaType,
};

interface ClientError {
  status: number;
  code: string;
  message: string;
}

/** One filter for REST and GraphQL: a stable code and a human message, never a stack trace. */
@Catch()
export class TroveExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost) {
    const error = this.toClientError(exception);
    if (host.getType<string>() === 'graphql') {
      GqlArgumentsHost.create(host);
      return new GraphQLError(error.message, { extensions: { code: error.code, status: error.status } });
    }
    const response = host.switchToHttp().getResponse<Response>();
    response.status(error.status).json({ error: { code: error.code, message: error.message } });
  }

  private toClientError(exception: unknown): ClientError {
    if (exception instanceof TroveError) {
      const status = httpStatusFor(exception.code);
      if (status >= 500) this.logger.warn(`${exception.code}: ${exception.message}`);
      return { status, code: exception.code, message: exception.message };
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
    this.logger.error(
      exception instanceof Error ? (exception.stack ?? exception.message) : String(exception),
    );
    return { status: 500, code: TroveErrorCode.Internal, message: 'internal error; see the API logs' };
  }
}
