import { Controller, Get, Inject, Logger, Param, Req, Res } from '@nestjs/common';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import type { DocumentRecords } from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import type { BlobStore } from '@trove/domain';
import { Permission, TroveError, TroveErrorCode } from '@trove/domain';
import { DOCUMENT_RECORDS } from '../core/catalog.providers';
import { document, Requires } from '../access/access.decorators';
import { clientAddress } from '../access/request-admission';
import { BLOBS, CONFIG } from '../core/tokens';
import { DownloadSlots } from './download-slots';
import { entityTag, lastModified, originalHeaders, planRange } from './original-responses';

/**
 * `GET /v1/documents/:id/original`: the stored original, where file citations point
 * (`#page=N` opens a PDF at the page). Needs a key that reaches the document, or the link's
 * per-document signature (`?sig=`), which expires. The file is streamed from the blob store, one
 * byte range of it on request, with a bounded number of downloads per original and per client.
 */
@Controller('v1/documents/:documentId/original')
export class OriginalsController {
  private readonly logger = new Logger('Originals');
  private readonly slots: DownloadSlots;
  private readonly stallMs: number;

  constructor(
    @Inject(DOCUMENT_RECORDS) private readonly documents: Pick<DocumentRecords, 'getDocument'>,
    @Inject(BLOBS) private readonly blobs: BlobStore,
    @Inject(CONFIG) config: ApiConfig,
  ) {
    this.slots = new DownloadSlots({
      perLink: config.api.originalDownloadsPerLink,
      perAddress: config.api.originalDownloadsPerAddress,
    });
    this.stallMs = config.api.originalStallSeconds * 1000;
  }

  @Get()
  @Requires(Permission.READ, document('documentId'), { signedLinkFor: 'documentId' })
  async original(
    @Param('documentId') documentId: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const document = await this.documents.getDocument(documentId);
    const stat = document?.blobKey ? await this.blobs.stat(document.blobKey) : undefined;
    if (!document?.blobKey || !stat) {
      throw new TroveError(TroveErrorCode.DocumentNotFound, `document ${documentId} has no stored original`);
    }
    response.setHeader('ETag', entityTag(stat));
    response.setHeader('Last-Modified', lastModified(stat));
    if (request.fresh) {
      response.status(304).end();
      return;
    }
    const plan = planRange(stat, request.headers);
    if (plan.kind === 'unsatisfiable') {
      // 416 has no code of its own among Trove's errors: the body says BAD_REQUEST, the status
      // and Content-Range say what HTTP clients need.
      response.setHeader('Content-Range', `bytes */${stat.sizeBytes}`);
      response.status(416).json({
        error: {
          code: TroveErrorCode.BadRequest,
          message: `the requested range is outside the file (${stat.sizeBytes} bytes)`,
        },
      });
      return;
    }

    // Throws RATE_LIMITED (429, Retry-After) when the original or the client has enough downloads.
    const release = this.slots.acquire(documentId, clientAddress(request));
    response.once('close', release);
    if (request.socket.destroyed) {
      release(); // gone while the catalog was asked: its 'close' may have passed already
      return;
    }
    response.set(originalHeaders(document.mediaType, document.fileName));
    const range = plan.kind === 'partial' ? plan.range : undefined;
    if (range) {
      response.status(206);
      response.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${stat.sizeBytes}`);
    }
    response.setHeader('Content-Length', String(range ? range.end - range.start + 1 : stat.sizeBytes));
    if (request.method === 'HEAD' || stat.sizeBytes === 0) {
      response.end();
      return;
    }
    // A client that stops reading would hold its slot and file for as long as its connection
    // lasts: once the socket has moved no byte for stallMs, it is closed (and the file with it).
    const socket = request.socket;
    socket.setTimeout(this.stallMs, () => socket.destroy());
    response.once('close', () => socket.setTimeout(0));
    // pipeline destroys the file stream (closing the file) when the client goes away mid-way.
    pipeline(this.blobs.getStream(document.blobKey, range), response).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE') {
          this.logger.warn(
            `reading the original of document ${documentId} failed: ${error.code ?? error.name}`,
          );
        }
      },
    );
  }
}
