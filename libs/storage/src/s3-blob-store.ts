import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
  type ServerSideEncryption,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { PassThrough, pipeline, Readable } from 'node:stream';
import type {
  BlobReader,
  BlobStat,
  BlobStore,
  ByteRange,
  PutStreamOptions,
  StoredStream,
} from '@trove/domain';
import { TroveError } from '@trove/domain';
import { checkBlobKey, StreamMeter } from './stream-meter';

const MiB = 1024 * 1024;
/** S3 deletes at most this many keys per request. */
const DELETE_BATCH = 1000;

export interface S3BlobStoreOptions {
  bucket: string;
  /** Prepended to every key (a folder in a shared bucket), e.g. `trove/`. */
  prefix?: string;
  /** Passed through on every write (SSE-S3 `AES256`, SSE-KMS `aws:kms`). */
  serverSideEncryption?: ServerSideEncryption;
  /** The KMS key for `aws:kms`; unset: the bucket's default key. */
  sseKmsKeyId?: string;
  /** Streams longer than one part become multipart uploads of parts this large (at least 5 MiB). */
  partSizeBytes?: number;
  /** Parts of one upload in flight at once. */
  uploadConcurrency?: number;
}

/** A blob in a listing: its key (without the store's prefix) and size. */
export interface BlobListing {
  key: string;
  sizeBytes: number;
}

/**
 * Blobs as objects in an S3-compatible bucket. Writes are atomic by S3's own rules (an object
 * appears only when its upload completes); streams go out as multipart uploads of bounded parts
 * and come back as the response body, never held whole in memory. Every write carries a SHA-256
 * checksum that the server verifies (per part for multipart uploads), and whole-object reads ask
 * the SDK to verify the checksum the server stored.
 */
export class S3BlobStore implements BlobStore {
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly partSize: number;
  private readonly queueSize: number;
  private readonly encryption: { ServerSideEncryption?: ServerSideEncryption; SSEKMSKeyId?: string };

  constructor(
    private readonly client: S3Client,
    options: S3BlobStoreOptions,
  ) {
    this.bucket = options.bucket;
    this.prefix = options.prefix ?? '';
    this.partSize = Math.max(options.partSizeBytes ?? 8 * MiB, 5 * MiB);
    this.queueSize = options.uploadConcurrency ?? 2;
    this.encryption = {
      ...(options.serverSideEncryption ? { ServerSideEncryption: options.serverSideEncryption } : {}),
      ...(options.sseKmsKeyId ? { SSEKMSKeyId: options.sseKmsKeyId } : {}),
    };
  }

  private objectKey(key: string): string {
    return this.prefix + checkBlobKey(key);
  }

  async put(key: string, data: Buffer | string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(key),
        Body: typeof data === 'string' ? Buffer.from(data) : data,
        ChecksumAlgorithm: 'SHA256',
        ...this.encryption,
      }),
    );
  }

  async putStream(
    key: string,
    data: NodeJS.ReadableStream,
    options: PutStreamOptions = {},
  ): Promise<StoredStream> {
    const objectKey = this.objectKey(key);
    const meter = new StreamMeter(options);
    // The meter fails the body (too large, or not the announced SHA-256) before its end: the
    // upload then aborts, and a multipart upload's parts are removed with it.
    const body = pipeline(data as Readable, meter, () => undefined);
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: objectKey,
        Body: body,
        ChecksumAlgorithm: 'SHA256',
        ...this.encryption,
      },
      partSize: this.partSize,
      queueSize: this.queueSize,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // The meter's own refusal (PAYLOAD_TOO_LARGE, a checksum mismatch) rather than the abort it
      // caused; otherwise the bucket's answer (the SDK aborts the body after a refused request).
      const reason = meter.errored instanceof TroveError ? meter.errored : error;
      // The source is not read further (as the folder store's pipeline destroys it), so an
      // upload's connection does not hang on unread bytes.
      meter.destroy();
      (data as Readable).destroy();
      throw reason;
    }
    return meter.result();
  }

  async move(from: string, to: string): Promise<void> {
    const source = this.objectKey(from);
    await this.client.send(
      new CopyObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(to),
        CopySource: `${this.bucket}/${source.split('/').map(encodeURIComponent).join('/')}`,
        ChecksumAlgorithm: 'SHA256',
        ...this.encryption,
      }),
    );
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: source }));
  }

  async get(key: string): Promise<Buffer> {
    const objectKey = this.objectKey(key);
    try {
      const response = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: objectKey, ChecksumMode: 'ENABLED' }),
      );
      return Buffer.from(await response.Body!.transformToByteArray());
    } catch (error) {
      throw asNotFound(error, key);
    }
  }

  async stat(key: string): Promise<BlobStat | undefined> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      return { sizeBytes: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  getStream(key: string, range?: ByteRange): Readable {
    const out = new PassThrough();
    const objectKey = this.objectKey(key);
    // Destroying the stream (a client that went away) aborts the request and frees its connection.
    const abort = new AbortController();
    out.once('close', () => abort.abort());
    this.client
      .send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: objectKey,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : { ChecksumMode: 'ENABLED' }),
        }),
        { abortSignal: abort.signal },
      )
      .then(
        (response) => {
          if (out.destroyed) {
            (response.Body as Readable | undefined)?.destroy();
            return;
          }
          pipeline(response.Body as Readable, out, () => undefined);
        },
        (error: unknown) => out.destroy(asNotFound(error, key) as Error),
      );
    return out;
  }

  async openReader(key: string): Promise<BlobReader> {
    const stat = await this.stat(key);
    if (!stat) throw asNotFound(undefined, key);
    const readRange = (start: number, end: number): Readable => {
      const last = Math.min(end, stat.sizeBytes) - 1;
      if (last < start) return Readable.from([]);
      return this.getStream(key, { start, end: last });
    };
    return {
      size: stat.sizeBytes,
      readRange,
      read: async (start, end) => {
        const parts: Buffer[] = [];
        for await (const part of readRange(start, end)) parts.push(part as Buffer);
        return Buffer.concat(parts);
      },
      close: async () => undefined,
    };
  }

  async putJson(key: string, value: unknown): Promise<void> {
    await this.put(key, JSON.stringify(value));
  }

  async getJson<T>(key: string): Promise<T> {
    return JSON.parse((await this.get(key)).toString('utf8')) as T;
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== undefined;
  }

  /** As a folder's removal: the blob named `prefix` and every blob under `prefix/`, nothing else. */
  async deletePrefix(prefix: string): Promise<void> {
    const base = this.objectKey(prefix.replace(/\/+$/, ''));
    let batch: string[] = [base];
    const flush = async () => {
      if (batch.length === 0) return;
      const response = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      batch = [];
      const failed = (response.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length) {
        throw new Error(
          `the object store kept ${failed.length} objects under ${prefix}: ${failed[0].Code} ${failed[0].Message ?? ''}`,
        );
      }
    };
    for await (const object of this.listObjects(`${base}/`)) {
      batch.push(object.key);
      if (batch.length === DELETE_BATCH) await flush();
    }
    await flush();
  }

  /** Every blob whose key starts with `prefix` (a folder: end it with `/`), in key order. */
  async *list(prefix = ''): AsyncGenerator<BlobListing> {
    for await (const object of this.listObjects(this.prefix + prefix)) {
      yield { key: object.key.slice(this.prefix.length), sizeBytes: object.sizeBytes };
    }
  }

  private async *listObjects(prefix: string): AsyncGenerator<BlobListing> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key) yield { key: object.Key, sizeBytes: object.Size ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/**
 * A missing object fails as a missing file does (code ENOENT), so callers treat both stores
 * alike; other errors pass unchanged.
 */
function asNotFound(error: unknown, key: string): unknown {
  if (error !== undefined && !isNotFound(error)) return error;
  return Object.assign(new Error(`no blob ${JSON.stringify(key)} in the object store`), { code: 'ENOENT' });
}
