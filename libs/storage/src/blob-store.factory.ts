import { S3Client } from '@aws-sdk/client-s3';
import type { StorageConfig } from '@trove/config';
import type { BlobStore } from '@trove/domain';
import { LocalBlobStore } from './local-blob-store';
import { S3BlobStore } from './s3-blob-store';

const MiB = 1024 * 1024;

/** The S3 client for `storage.s3`: the configured keys, or the SDK's default chain when none are set. */
export function createS3Client(storage: StorageConfig): S3Client {
  const s3 = storage.s3;
  return new S3Client({
    region: s3?.region ?? 'us-east-1',
    ...(s3?.endpoint ? { endpoint: s3.endpoint } : {}),
    forcePathStyle: s3?.forcePathStyle ?? Boolean(s3?.endpoint),
    ...(s3?.accessKeyId && s3.secretAccessKey
      ? { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } }
      : {}),
    // Checksums only where the request names one (PutObject and parts carry SHA-256 here), and
    // responses checked when asked (ChecksumMode): servers other than AWS may not know CRC-32.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** The S3 store of `storage` (kind `s3`), for the tools that list or copy the whole bucket. */
export function createS3BlobStore(storage: StorageConfig): S3BlobStore {
  const s3 = storage.s3;
  if (!s3?.bucket) throw new Error('TROVE_BLOB_STORE=s3 needs TROVE_S3_BUCKET');
  return new S3BlobStore(createS3Client(storage), {
    bucket: s3.bucket,
    prefix: s3.prefix,
    serverSideEncryption: s3.serverSideEncryption,
    sseKmsKeyId: s3.sseKmsKeyId,
    partSizeBytes: s3.partSizeMb * MiB,
    uploadConcurrency: s3.uploadConcurrency,
  });
}

/** Where the api and the worker keep blobs: the folder by default, a bucket with TROVE_BLOB_STORE=s3. */
export function createBlobStore(storage: StorageConfig): BlobStore {
  return storage.kind === 's3' ? createS3BlobStore(storage) : new LocalBlobStore(storage.blobDir);
}
