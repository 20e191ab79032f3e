import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Catalog } from '@trove/catalog';
import type { BlobStore } from '@trove/domain';
import { Permission, TroveError, TroveErrorCode } from '@trove/domain';
import { document, Requires } from '../access/access.decorators';
import { BLOBS } from '../core/tokens';

/**
 * `GET /v1/documents/:id/original`: the stored original, where file citations point
 * (`#page=N` opens a PDF at the page). Needs a key that reaches the document, or the link's
 * per-document signature (`?sig=`), which expires.
 */
@Controller('v1/documents/:documentId/original')
export class OriginalsController {
  constructor(
    @Inject(Catalog) private readonly catalog: Catalog,
    @Inject(BLOBS) private readonly blobs: BlobStore,
  ) {}

  @Get()
  @Requires(Permission.READ, document('documentId'), { signedLinkFor: 'documentId' })
  async original(@Param('documentId') documentId: string, @Res() response: Response) {
    const document = await this.catalog.getDocument(documentId);
    if (!document?.blobKey || !(await this.blobs.exists(document.blobKey))) {
      throw new TroveError(TroveErrorCode.DocumentNotFound, `document ${documentId} has no stored original`);
    }
    const data = await this.blobs.get(document.blobKey);
    response.setHeader('Content-Type', servedType(document.mediaType));
    response.setHeader(
      'Content-Disposition',
      `inline; filename*=UTF-8''${encodeURIComponent(document.fileName)}`,
    );
    // Stored HTML is somebody else's page: never let it run scripts on the API's origin.
    response.setHeader('Content-Security-Policy', 'sandbox');
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Cache-Control', 'private, max-age=300');
    response.send(data);
  }
}

/** Text is served with its charset; the parsed-JSON form of connector items as JSON. */
function servedType(mediaType: string): string {
  if (mediaType.startsWith('text/markdown') || mediaType.startsWith('text/plain'))
    return `${mediaType}; charset=utf-8`;
  if (mediaType.startsWith('application/vnd.trove.parsed+json')) return 'application/json; charset=utf-8';
  return mediaType;
}
