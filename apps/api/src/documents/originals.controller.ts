import { Controller, Get, Inject, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Catalog } from '@trove/catalog';
import type { BlobStore } from '@trove/domain';
import { TroveError, TroveErrorCode } from '@trove/domain';
import { ApiKeyGuard, Public } from '../core/api-key.guard';
import { CitationLinks } from '../core/citation-links';
import { BLOBS } from '../core/tokens';

/**
 * `GET /v1/documents/:id/original`: the stored original, where file citations point
 * (`#page=N` opens a PDF at the page). Needs the API key or the link's per-document signature, which expires.
 */
@Controller('v1/documents/:documentId/original')
export class OriginalsController {
  constructor(
    @Inject(Catalog) private readonly catalog: Catalog,
    @Inject(BLOBS) private readonly blobs: BlobStore,
    @Inject(CitationLinks) private readonly links: CitationLinks,
    @Inject(ApiKeyGuard) private readonly guard: ApiKeyGuard,
  ) {}

  @Get()
  @Public()
  async original(
    @Param('documentId') documentId: string,
    @Query('sig') signature: string | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ) {
    this.authorize(documentId, signature, request);
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

  /** The link's signature, or else the API key; a clear word on expired and forged links. */
  private authorize(documentId: string, signature: string | undefined, request: Request): void {
    const link = this.links.check(documentId, signature);
    if (link === 'valid') return;
    try {
      this.guard.checkRequest(request);
    } catch (error) {
      if (signature === undefined) throw error;
      throw new TroveError(
        TroveErrorCode.Unauthenticated,
        link === 'expired'
          ? 'this link to the original has expired; get a fresh one from the search hit or the document (or send the API key)'
          : 'this link to the original is not valid (its signature does not match)',
      );
    }
  }
}

/** Text is served with its charset; the parsed-JSON form of connector items as JSON. */
function servedType(mediaType: string): string {
  if (mediaType.startsWith('text/markdown') || mediaType.startsWith('text/plain'))
    return `${mediaType}; charset=utf-8`;
  if (mediaType.startsWith('application/vnd.trove.parsed+json')) return 'application/json; charset=utf-8';
  return mediaType;
}
