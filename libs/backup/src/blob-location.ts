import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { createS3BlobStore, type S3BlobStore } from '@trove/storage';
import type { InstallConfig } from './backup';
import { copyBlobsIn, copyBlobsOut, listFiles, writeWithHash, type BlobEntry } from './blobs';
import { BackupError, BackupErrorCode } from './manifest';

type Done = (done: number, total: number) => void;

/**
 * Where an install keeps its blobs, as a backup reads and a restore writes them: the blob folder,
 * or the bucket of TROVE_BLOB_STORE=s3. A backup holds the same `blobs/` files either way, so a
 * backup of one can be restored into the other.
 */
export interface BlobLocation {
  /** For messages: `/var/lib/trove/blobs`, `s3://bucket/prefix`. */
  readonly name: string;
  /** How many blobs it holds (a restore's target must hold none). */
  count(): Promise<number>;
  /** Copies every blob into `target` (files named by key) with its size and sha256. */
  copyOut(target: string, progress: Done): Promise<BlobEntry[]>;
  /** Copies the backed-up blobs in, each checked against its sha256 before it becomes visible. */
  copyIn(source: string, entries: BlobEntry[], progress: Done): Promise<number>;
  /** Removes every blob (restore --force). */
  clear(): Promise<void>;
}

export function blobLocation(config: InstallConfig): BlobLocation {
  const { storage } = config;
  if (storage.kind === 's3')
    return new BucketLocation(createS3BlobStore(storage), storage.s3!.bucket!, storage.s3!.prefix);
  // The folder cache is rebuilt from the blobs: left out when it lies inside the blob folder.
  return new FolderLocation(storage.blobDir, config.folders ? [config.folders.cacheDir] : []);
}

class FolderLocation implements BlobLocation {
  constructor(
    readonly name: string,
    private readonly exclude: string[],
  ) {}

  async count(): Promise<number> {
    return (await listFiles(this.name)).length;
  }

  copyOut(target: string, progress: Done): Promise<BlobEntry[]> {
    return copyBlobsOut(this.name, target, this.exclude, progress);
  }

  async copyIn(source: string, entries: BlobEntry[], progress: Done): Promise<number> {
    await mkdir(this.name, { recursive: true });
    return copyBlobsIn(source, this.name, entries, progress);
  }

  async clear(): Promise<void> {
    await rm(this.name, { recursive: true, force: true });
  }
}

class BucketLocation implements BlobLocation {
  readonly name: string;

  constructor(
    private readonly store: S3BlobStore,
    bucket: string,
    prefix = '',
  ) {
    this.name = `s3://${bucket}/${prefix}`;
  }

  async count(): Promise<number> {
    let count = 0;
    for await (const blob of this.store.list()) if (blob.key) count += 1;
    return count;
  }

  async copyOut(target: string, progress: Done): Promise<BlobEntry[]> {
    const keys: string[] = [];
    for await (const blob of this.store.list()) keys.push(blob.key);
    const entries: BlobEntry[] = [];
    for (const [i, key] of keys.entries()) {
      const to = resolve(target, key);
      if (!to.startsWith(resolve(target) + sep)) {
        throw new BackupError(BackupErrorCode.Corrupt, `an object key leaves the backup folder: ${key}`);
      }
      const { bytes, sha256 } = await writeWithHash(this.store.getStream(key), to);
      entries.push({ path: key, bytes, sha256 });
      progress(i + 1, keys.length);
    }
    return entries;
  }

  async copyIn(source: string, entries: BlobEntry[], progress: Done): Promise<number> {
    let bytes = 0;
    for (const [i, entry] of entries.entries()) {
      const from = join(source, entry.path);
      const exists = await stat(from).then(
        (s) => s.isFile(),
        () => false,
      );
      if (!exists) throw new BackupError(BackupErrorCode.Corrupt, `the backup lacks the blob ${entry.path}`);
      try {
        // The store refuses bytes that differ from the recorded sha256: no changed blob is kept.
        const stored = await this.store.putStream(entry.path.split(sep).join('/'), createReadStream(from), {
          sha256: entry.sha256,
        });
        bytes += stored.sizeBytes;
      } catch (error) {
        if (/do not match their SHA-256/.test((error as Error).message)) {
          throw new BackupError(
            BackupErrorCode.Corrupt,
            `the blob ${entry.path} does not match its checksum`,
          );
        }
        throw error;
      }
      progress(i + 1, entries.length);
    }
    return bytes;
  }

  async clear(): Promise<void> {
    const tops = new Set<string>();
    for await (const blob of this.store.list()) tops.add(blob.key.split('/')[0]);
    for (const top of tops) await this.store.deletePrefix(top);
  }
}
