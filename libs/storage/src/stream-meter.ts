import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import type { PutStreamOptions, StoredStream } from '@trove/domain';
import { TroveError, TroveErrorCode } from '@trove/domain';

const DEFAULT_SAMPLE_BYTES = 64 * 1024;

const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** The key itself when it is a relative path of plain names (no `..`, no leading `/`); throws otherwise. */
export function checkBlobKey(key: string): string {
  if (!KEY_PATTERN.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`invalid blob key: ${JSON.stringify(key)}`);
  }
  return key;
}

/**
 * Counts, hashes and samples bytes on their way to the store; fails as soon as the limit is
 * passed, and at the end when the bytes do not match the SHA-256 the writer announced, so the
 * store never completes the blob.
 */
export class StreamMeter extends Transform {
  // Not `size`: upload helpers read a body's `size` as its total length.
  private received = 0;
  private readonly hash = createHash('sha256');
  private head: Buffer[] = [];
  private headSize = 0;
  /** The latest chunks, as received (no copies), holding at least the last `sampleBytes`. */
  private tailChunks: Buffer[] = [];
  private tailSize = 0;
  private digest?: string;
  private readonly maxBytes: number;
  private readonly sampleBytes: number;
  private readonly expectedSha256?: string;

  constructor(options: PutStreamOptions = {}) {
    super();
    this.maxBytes = options.maxBytes ?? Infinity;
    this.sampleBytes = options.sampleBytes ?? DEFAULT_SAMPLE_BYTES;
    this.expectedSha256 = options.sha256?.toLowerCase();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    if (this.received > this.maxBytes) {
      callback(
        new TroveError(
          TroveErrorCode.PayloadTooLarge,
          `the file is larger than the limit of ${this.maxBytes} bytes`,
        ),
      );
      return;
    }
    this.hash.update(chunk);
    if (this.headSize < this.sampleBytes) {
      const part = chunk.subarray(0, this.sampleBytes - this.headSize);
      this.head.push(Buffer.from(part));
      this.headSize += part.length;
    }
    // Keep only the chunks that hold the last `sampleBytes` (a ZIP's central directory lives at its
    // end); copied once, at the end, so a large upload makes no per-chunk garbage here.
    this.tailChunks.push(chunk);
    this.tailSize += chunk.length;
    while (this.tailSize - this.tailChunks[0].length >= this.sampleBytes) {
      this.tailSize -= this.tailChunks.shift()!.length;
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.digest = this.hash.digest('hex');
    if (this.expectedSha256 && this.expectedSha256 !== this.digest) {
      callback(
        new TroveError(
          TroveErrorCode.BadRequest,
          `the bytes received do not match their SHA-256 (expected ${this.expectedSha256}, got ${this.digest})`,
          { permanent: true },
        ),
      );
      return;
    }
    callback();
  }

  private tail(): Buffer {
    const joined = Buffer.concat(this.tailChunks);
    return Buffer.from(joined.subarray(Math.max(0, joined.length - this.sampleBytes)));
  }

  result(): StoredStream {
    return {
      sizeBytes: this.received,
      sha256: this.digest ?? this.hash.digest('hex'),
      head: Buffer.concat(this.head),
      tail: this.tail(),
    };
  }
}
