import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BackupError, BackupErrorCode } from './manifest';

/** One copied blob: its path under the blob folder (with `/`), size and sha256. */
export interface BlobEntry {
  path: string;
  bytes: number;
  sha256: string;
}

/** Every file under `root`, as paths relative to it; files being written (`*.tmp`) and `exclude` left out. */
export async function listFiles(root: string, exclude: string[] = []): Promise<string[]> {
  const skip = exclude.map((path) => resolve(path));
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (skip.includes(path)) continue;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && !entry.name.endsWith('.tmp')) files.push(relative(root, path));
    }
  };
  await walk(resolve(root));
  return files.sort();
}

/** Copies a file to `to` (atomically: a temporary file renamed) and returns the copy's size and sha256. */
function copyWithHash(from: string, to: string): Promise<{ bytes: number; sha256: string }> {
  return writeWithHash(createReadStream(from), to);
}

/** Writes a stream to `to` (atomically: a temporary file renamed) and returns its size and sha256. */
export async function writeWithHash(
  source: NodeJS.ReadableStream,
  to: string,
): Promise<{ bytes: number; sha256: string }> {
  await mkdir(dirname(to), { recursive: true });
  const hash = createHash('sha256');
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  const tmp = `${to}.${process.pid}.tmp`;
  try {
    await pipeline(source, meter, createWriteStream(tmp));
    await rename(tmp, to);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** `sha256sum` lines (`<hash>  blobs/<path>`), checkable with `sha256sum -c` from the backup folder. */
export function checksumLines(entries: BlobEntry[], folder: string): string {
  return entries.map((e) => `${e.sha256}  ${folder}/${e.path.split(sep).join('/')}\n`).join('');
}

export function parseChecksums(text: string, folder: string): BlobEntry[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
      if (!match || !match[2].startsWith(`${folder}/`)) {
        throw new BackupError(BackupErrorCode.Corrupt, `a malformed checksum line: ${line.slice(0, 120)}`);
      }
      return { sha256: match[1], path: match[2].slice(folder.length + 1), bytes: 0 };
    });
}

export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/** Copies the blob folder's files into `target`; `progress` after each file. */
export async function copyBlobsOut(
  blobDir: string,
  target: string,
  exclude: string[],
  progress: (done: number, total: number) => void,
): Promise<BlobEntry[]> {
  const files = await listFiles(blobDir, exclude);
  const entries: BlobEntry[] = [];
  for (const [i, path] of files.entries()) {
    const copied = await copyWithHash(join(blobDir, path), join(target, path));
    entries.push({ path, ...copied });
    progress(i + 1, files.length);
  }
  return entries;
}

/**
 * Copies the backed-up blobs into the blob folder, each checked against its sha256 before it is
 * put in place; a missing or changed file stops the restore.
 */
export async function copyBlobsIn(
  source: string,
  blobDir: string,
  entries: BlobEntry[],
  progress: (done: number, total: number) => void,
): Promise<number> {
  let bytes = 0;
  for (const [i, entry] of entries.entries()) {
    const from = join(source, entry.path);
    const to = resolve(blobDir, entry.path);
    if (!to.startsWith(resolve(blobDir) + sep)) {
      throw new BackupError(BackupErrorCode.Corrupt, `a blob path leaves the blob folder: ${entry.path}`);
    }
    const exists = await stat(from).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!exists) throw new BackupError(BackupErrorCode.Corrupt, `the backup lacks the blob ${entry.path}`);
    const copied = await copyWithHash(from, `${to}.restoring`);
    if (copied.sha256 !== entry.sha256) {
      await rm(`${to}.restoring`, { force: true });
      throw new BackupError(BackupErrorCode.Corrupt, `the blob ${entry.path} does not match its checksum`);
    }
    await rename(`${to}.restoring`, to);
    bytes += copied.bytes;
    progress(i + 1, entries.length);
  }
  return bytes;
}

export async function writeText(path: string, text: string): Promise<void> {
  await writeFile(path, text);
}

export async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    throw new BackupError(BackupErrorCode.Corrupt, `the backup lacks ${what}`);
  }
}
