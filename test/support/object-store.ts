import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runLocalScript } from './installed';
import { LOCAL_DIR } from './services';

/**
 * The local S3-compatible server (SeaweedFS, infra/local/install-seaweedfs.sh): started once by
 * the first test that needs it and then shared. Each test file makes a bucket of its own.
 */
export const S3_ENDPOINT = `http://127.0.0.1:${process.env.TROVE_S3_PORT ?? '8333'}`;
export const S3_REGION = 'us-east-1';

let started: Promise<void> | undefined;

/**
 * Starts SeaweedFS unless it answers already; on a new machine first waits for `npm test`'s build
 * job to finish building it (give the hook BUILD_WAIT_MS).
 */
export function ensureSeaweedfs(): Promise<void> {
  started ??= runLocalScript('up.sh', 'seaweedfs').catch((error: unknown) => {
    started = undefined;
    throw error;
  });
  return started;
}

/** The access keys up.sh generated (infra/local/env.sh's SEAWEEDFS_KEYS_FILE). */
export function s3Keys(): { accessKeyId: string; secretAccessKey: string } {
  const file = join(process.env.TROVE_LOCAL_DATA_DIR ?? join(LOCAL_DIR, 'data'), 'seaweedfs', 'access-keys');
  const [accessKeyId, secretAccessKey] = readFileSync(file, 'utf8').split('\n');
  return { accessKeyId, secretAccessKey };
}

/** A client of the local server, as the stores build theirs. */
export function s3Client(): S3Client {
  return new S3Client({
    endpoint: S3_ENDPOINT,
    region: S3_REGION,
    forcePathStyle: true,
    credentials: s3Keys(),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Makes a bucket named `name` (lower-case, unique per test file). */
export async function createBucket(name: string): Promise<void> {
  const client = s3Client();
  try {
    await client.send(new CreateBucketCommand({ Bucket: name }));
  } finally {
    client.destroy();
  }
}

/**
 * Empties and removes a bucket `createBucket` made. The server gives each bucket storage volumes of
 * its own, out of a fixed number: a test that leaves its bucket leaves them taken.
 */
export async function deleteBucket(name: string): Promise<void> {
  const client = s3Client();
  try {
    for (;;) {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: name, MaxKeys: 1000 }));
      const keys = (listed.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length === 0) break;
      await client.send(new DeleteObjectsCommand({ Bucket: name, Delete: { Objects: keys, Quiet: true } }));
    }
    await client.send(new DeleteBucketCommand({ Bucket: name }));
  } finally {
    client.destroy();
  }
}

/** The settings that point an api or worker at a bucket of the local server. */
export function s3Env(bucket: string): Record<string, string> {
  const keys = s3Keys();
  return {
    TROVE_BLOB_STORE: 's3',
    TROVE_S3_ENDPOINT: S3_ENDPOINT,
    TROVE_S3_REGION: S3_REGION,
    TROVE_S3_BUCKET: bucket,
    TROVE_S3_ACCESS_KEY_ID: keys.accessKeyId,
    TROVE_S3_SECRET_ACCESS_KEY: keys.secretAccessKey,
  };
}
