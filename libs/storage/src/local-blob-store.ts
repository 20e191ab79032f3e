import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type {
  BlobReader,
  BlobStat,
  BlobStore,
  ByteRange,
  PutStreamOptions,
  StoredStream,
} from '@trove/domain';
import { checkBlobKey, StreamMeter } from './stream-meter';

/** Blobs as files under one root folder. Writes are atomic (temp file + rename). */
export class LocalBlobStore implements BlobStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private path(key: string): string {
    const path = join(this.root, checkBlobKey(key));
    if (!path.startsWith(this.root + sep)) throw new Error(`invalid blob key: ${JSON.stringify(key)}`);
    return path;
  }

  async put(key: string, data: Buffer | string): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${randomUUID()}.tmp`;
    await writeFile(tmp, data);
    await rename(tmp, path);
  }

  async putStream(
    key: string,
    data: NodeJS.ReadableStream,
    options: PutStreamOptions = {},
  ): Promise<StoredStream> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${randomUUID()}.tmp`;
    const meter = new StreamMeter(options);
    try {
      await pipeline(data, meter, createWriteStream(tmp));
      await rename(tmp, path);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
    return meter.result();
  }

  async move(from: string, to: string): Promise<void> {
    const target = this.path(to);
    await mkdir(dirname(target), { recursive: true });
    await rename(this.path(from), target);
  }

  async get(key: string): Promise<Buffer> {
    return readFile(this.path(key));
  }

  async stat(key: string): Promise<BlobStat | undefined> {
    try {
      const stats = await stat(this.path(key));
      return stats.isFile() ? { sizeBytes: stats.size, modifiedAt: stats.mtime } : undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  getStream(key: string, range?: ByteRange): Readable {
    // Opened lazily by the stream and closed when it ends or is destroyed (autoClose).
    return createReadStream(this.path(key), range ? { start: range.start, end: range.end } : {});
  }

  async openReader(key: string): Promise<BlobReader> {
    const handle = await open(this.path(key), 'r');
    try {
      const { size } = await handle.stat();
      return {
        size,
        readRange: (start, end) => rangeStream(handle, start, end),
        read: async (start, end) => {
          const length = Math.max(end - start, 0);
          const { bytesRead, buffer } = await handle.read(Buffer.alloc(length), 0, length, start);
          return buffer.subarray(0, bytesRead);
        },
        close: () => handle.close(),
      };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async putJson(key: string, value: unknown): Promise<void> {
    await this.put(key, JSON.stringify(value));
  }

  async getJson<T>(key: string): Promise<T> {
    return JSON.parse((await this.get(key)).toString('utf8')) as T;
  }

  async exists(key: string): Promise<boolean> {
    try {
      await stat(this.path(key));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.path(prefix.replace(/\/+$/, '')), { recursive: true, force: true });
  }
}

/**
 * Bytes `start` to `end` (excluded) of an open file, by positional reads: ranges of one file may
 * be read at the same time, and ending or destroying a stream leaves the file open (fs read
 * streams close their file handle when destroyed).
 */
function rangeStream(handle: FileHandle, start: number, end: number): Readable {
  let position = start;
  return new Readable({
    read(size) {
      const length = Math.min(size, end - position);
      if (length <= 0) {
        this.push(null);
        return;
      }
      handle.read(Buffer.allocUnsafe(length), 0, length, position).then(
        ({ bytesRead, buffer }) => {
          position += bytesRead;
          // A file shorter than the range ends early; readers check the byte count.
          this.push(bytesRead === 0 ? null : buffer.subarray(0, bytesRead));
        },
        (error: Error) => this.destroy(error),
      );
    },
  });
}
