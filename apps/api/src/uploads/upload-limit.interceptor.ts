import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Observable } from 'rxjs';
import type { ApiConfig } from '@trove/config';
import { CONFIG } from '../core/tokens';
import { tooLarge } from './blob-storage.engine';

/** Multipart framing per part (boundary, headers, file name) is well under this. */
const PART_OVERHEAD_BYTES = 1024;

/** The largest multipart request a valid upload can make: the file, the fields and their framing. */
export function maxRequestBytes(api: ApiConfig['api']): number {
  return (
    api.maxUploadBytes + api.uploadMaxFields * (api.uploadMaxFieldBytes + PART_OVERHEAD_BYTES) + 64 * 1024
  );
}

/**
 * Refuses an upload whose declared `Content-Length` is over the limit before any of the body is
 * read; runs before the multipart parser. The connection is closed rather than drained.
 */
@Injectable()
export class UploadLimitInterceptor implements NestInterceptor {
  private readonly maxBytes: number;
  private readonly maxFileBytes: number;

  constructor(@Inject(CONFIG) config: ApiConfig) {
    this.maxBytes = maxRequestBytes(config.api);
    this.maxFileBytes = config.api.maxUploadBytes;
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxBytes) {
      // Otherwise Node reads (and discards) the rest of the body to keep the connection alive.
      context.switchToHttp().getResponse<Response>().setHeader('Connection', 'close');
      throw tooLarge(this.maxFileBytes);
    }
    return next.handle();
  }
}
