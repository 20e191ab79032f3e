import type { Request } from 'express';
import type { StorageEngine } from 'multer';
import { randomUUID } from 'node:crypto';
import type { BlobStore, StoredStream } from '@trove/domain';
import { blobKeys, TroveError, TroveErrorCode } from '@trove/domain';

/** Where uploads land while they are checked; the service moves them to their final key. */

/** An uploaded file as the controllers get it: written to the blob store, never held in memory. */
export interface StagedFile extends Express.Multer.File, StoredStream {
  /** The staging blob key (also in `path`). */
  blobKey: string;
}

/**
 * A multer storage engine that streams each file into the blob store (temp file, then rename),
 * hashing it and keeping its first and last bytes for type detection, and stops at `maxBytes`.
 */
export class BlobStorageEngine implements StorageEngine {
  constructor(
    private readonly blobs: BlobStore,
    private readonly maxBytes: number,
  ) {}

  _handleFile(
    _request: Request,
    file: Express.Multer.File,
    callback: (error?: unknown, info?: Partial<StagedFile>) => void,
  ): void {
    const blobKey = blobKeys.incoming(randomUUID());
    this.blobs.putStream(blobKey, file.stream, { maxBytes: this.maxBytes }).then(
      async (stored) => {
        // busboy ends a stream early at its own limit; never accept a cut file.
        if ((file.stream as { truncated?: boolean }).truncated) {
          await this.blobs.deletePrefix(blobKey);
          callback(tooLarge(this.maxBytes));
          return;
        }
        callback(null, { ...stored, blobKey, path: blobKey, size: stored.sizeBytes });
      },
      (error: unknown) => callback(error),
    );
  }

  _removeFile(_request: Request, file: Express.Multer.File, callback: (error: Error | null) => void): void {
    this.blobs.deletePrefix(file.path).then(
      () => callback(null),
      (error: Error) => callback(error),
    );
  }
}

export function tooLarge(maxBytes: number): TroveError {
  return new TroveError(
    TroveErrorCode.PayloadTooLarge,
    `the upload is larger than the limit of ${maxBytes} bytes (TROVE_MAX_UPLOAD_BYTES)`,
  );
}
