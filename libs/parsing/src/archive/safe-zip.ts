import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pLimit from 'p-limit';
import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import type { BlobReader } from '@trove/domain';
import { PermanentDocumentError, TroveErrorCode } from '@trove/domain';

const MiB = 1024 * 1024;

/** Caps applied to an archive before and while it is expanded. */
export interface ZipLimits {
  /** Entries in the central directory, directories included. */
  maxEntries: number;
  /** Expanded bytes of all entries together (declared in the headers, and actually inflated). */
  maxTotalBytes: number;
  /** Expanded bytes of one entry. */
  maxEntryBytes: number;
  /** Expanded size / compressed size, per entry and for the whole archive (zip bombs). */
  maxRatio: number;
  /** The setting that raises `maxTotalBytes` and `maxEntryBytes`, named in refusals. */
  setting?: string;
}

/** Generous enough for large EPUBs, DOCX files and folder uploads; small enough to refuse bombs. */
export const DEFAULT_ZIP_LIMITS: Readonly<ZipLimits> = Object.freeze({
  maxEntries: 10_000,
  maxTotalBytes: 512 * MiB,
  maxEntryBytes: 100 * MiB,
  maxRatio: 200,
});

/**
 * The compression ratio is only judged above this many expanded bytes: small, very repetitive
 * files (a run of spaces, an empty XML skeleton) legitimately compress more than 200:1.
 */
const RATIO_MIN_BYTES = 1 * MiB;

/** One entry of an archive, as its central directory declares it. */
export interface ZipEntryInfo {
  /** Forward-slash path inside the archive; directories end with `/`. */
  path: string;
  compressedSize: number;
  uncompressedSize: number;
  isDirectory: boolean;
  /** Encrypted with ZIP traditional encryption: it cannot be read. */
  encrypted: boolean;
}

/** A regular file read from an archive. */
export interface ZipFileData {
  path: string;
  data: Buffer;
}

/**
 * Random access to an archive kept elsewhere (a blob store's {@link BlobReader}): read range by
 * range, never whole; closed with the archive.
 */
export type ZipByteSource = Pick<BlobReader, 'size' | 'readRange' | 'read'> &
  Partial<Pick<BlobReader, 'close'>>;

/**
 * An archive: its bytes (small documents such as DOCX and EPUB), the path of a file holding it,
 * or a {@link ZipByteSource}. Only the central directory, the local headers and the entry being
 * read are ever in memory for the last two. A byte source is closed with the archive.
 */
export type ZipInput = Buffer | string | ZipByteSource;

export interface ZipOptions {
  limits?: ZipLimits;
  /** Named in error messages, e.g. the uploaded file name. */
  archiveName?: string;
}

export interface ReadZipOptions extends ZipOptions {
  /** Which regular files to read (all when omitted); the others are never inflated. */
  select?: (path: string) => boolean;
}

/** An archive whose central directory passed the checks; entries are inflated on demand. */
export interface SafeZip {
  readonly entries: readonly ZipEntryInfo[];
  /** Whether a regular file with this exact path exists. */
  has(path: string): boolean;
  /**
   * Inflates one regular file, counting bytes as they come: the read is aborted as soon as
   * the entry or the archive-wide cap is crossed, whatever the headers said.
   */
  read(path: string): Promise<Buffer>;
  /**
   * Streams one regular file's inflated bytes, counted as {@link read} counts them: the stream
   * fails with UNSAFE_ARCHIVE as soon as a cap is crossed.
   */
  openReadStream(path: string): Promise<Readable>;
  /**
   * Inflates every regular file and throws the data away: proves that the archive expands within
   * the limits before it is handed to a library that would inflate it without limits.
   */
  verifyAll(): Promise<void>;
  /**
   * Writes every entry under `dir` (created if missing; it should be empty), one entry at a time,
   * streamed to disk with backpressure: memory stays flat whatever the archive expands to.
   * Refusals stop the unpack where it is; the caller removes what was written. `onData` sees
   * every file's bytes as they are written (in order per file), e.g. to hash them on the way.
   */
  extractTo(dir: string, options?: ExtractOptions): Promise<void>;
  /** Releases the archive (a file or byte source stays open until then). */
  close(): void;
}

export interface ExtractOptions {
  /** Called with each chunk of a file's inflated bytes, in order, as it is written. */
  onData?: (path: string, chunk: Buffer) => void;
}

/** Entries written at once by `extractTo`. */
const EXTRACT_CONCURRENCY = 8;

/**
 * Lists an archive's entries after checking paths, entry types, counts, declared sizes and the
 * layout (no overlapping entries). Takes the archive's bytes or the path of a file holding them.
 */
export async function listZip(
  input: ZipInput,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
  archiveName = 'archive',
): Promise<ZipEntryInfo[]> {
  const zipfile = await openZipFile(input, archiveName);
  try {
    const { entries } = await checkDirectory(zipfile, limits, archiveName);
    return entries;
  } finally {
    zipfile.close();
  }
}

/**
 * Reads the selected regular files (all by default) into memory, with every check of
 * {@link openZip}: for small documents; unpack large archives with {@link unpackZip}.
 */
export async function readZip(input: ZipInput, options: ReadZipOptions = {}): Promise<ZipFileData[]> {
  const zip = await openZip(input, options);
  try {
    const files: ZipFileData[] = [];
    for (const entry of zip.entries) {
      if (entry.isDirectory || (options.select && !options.select(entry.path))) continue;
      files.push({ path: entry.path, data: await zip.read(entry.path) });
    }
    return files;
  } finally {
    zip.close();
  }
}

/** Opens the archive and inflates every regular file without keeping it: see {@link SafeZip.verifyAll}. */
export async function verifyZip(input: ZipInput, options: ZipOptions = {}): Promise<ZipEntryInfo[]> {
  const zip = await openZip(input, options);
  try {
    await zip.verifyAll();
    return [...zip.entries];
  } finally {
    zip.close();
  }
}

/**
 * Checks an archive and unpacks it under `dir`, entry by entry, each streamed from the archive
 * to disk (see {@link SafeZip.extractTo}), with every check of {@link openZip} and the sizes and
 * ratios enforced on the bytes actually inflated. Returns the entries.
 */
export async function unpackZip(
  input: ZipInput,
  dir: string,
  options: ZipOptions & ExtractOptions = {},
): Promise<ZipEntryInfo[]> {
  const zip = await openZip(input, options);
  try {
    await zip.extractTo(dir, { onData: options.onData });
    return [...zip.entries];
  } finally {
    zip.close();
  }
}

/**
 * Opens an archive. Refuses with UNSAFE_ARCHIVE: zip-slip paths (absolute, drive letters, `..`
 * segments, backslashes), duplicate paths, a file that is also the folder of another entry,
 * symlinks and device entries, more entries than allowed, entries whose bytes overlap each other
 * or the central directory, declared sizes or compression ratios beyond the limits. A truncated
 * or broken archive is CORRUPT_DOCUMENT with yauzl's reason; reading an encrypted entry is
 * ENCRYPTED_DOCUMENT. Entries are inflated only when read, and their bytes counted as they come.
 */
export async function openZip(input: ZipInput, options: ZipOptions = {}): Promise<SafeZip> {
  const limits = options.limits ?? DEFAULT_ZIP_LIMITS;
  const name = options.archiveName ?? 'archive';
  const zipfile = await openZipFile(input, name);
  let checked: Awaited<ReturnType<typeof checkDirectory>>;
  try {
    checked = await checkDirectory(zipfile, limits, name);
  } catch (error) {
    zipfile.close();
    throw error;
  }
  const { entries, byPath } = checked;

  let inflatedTotal = 0;
  const openReadStream = async (path: string): Promise<Readable> => {
    const entry = byPath.get(path);
    if (!entry || path.endsWith('/')) {
      throw new PermanentDocumentError(TroveErrorCode.CorruptDocument, `${name} has no file "${path}"`);
    }
    if (entry.isEncrypted()) {
      throw new PermanentDocumentError(
        TroveErrorCode.EncryptedDocument,
        `${name}: the entry "${path}" is encrypted (password-protected); it cannot be read`,
      );
    }
    const budget = Math.min(limits.maxEntryBytes, limits.maxTotalBytes - inflatedTotal);
    const inflated = await openEntry(zipfile, entry, name);
    let bytes = 0;
    const refusal = (): Error | undefined => {
      // Against the bytes the archive really holds: shared or overlapping data cannot hide here.
      if (inflatedTotal > RATIO_MIN_BYTES && inflatedTotal / zipfile.fileSize > limits.maxRatio) {
        return unsafe(
          name,
          `reading "${path}": the archive expands more than ${limits.maxRatio} times its size (a zip bomb?)`,
        );
      }
      if (bytes > budget) {
        const what =
          budget < limits.maxEntryBytes
            ? `the archive expands to more than ${formatBytes(limits.maxTotalBytes)} (${theLimit(limits)})`
            : `the entry expands to more than ${formatBytes(limits.maxEntryBytes)} (${theLimit(limits)})`;
        return unsafe(name, `reading "${path}": ${what}`);
      }
      if (bytes > RATIO_MIN_BYTES && bytes / Math.max(entry.compressedSize, 1) > limits.maxRatio) {
        return unsafe(name, `reading "${path}": it expands more than ${limits.maxRatio} times (a zip bomb?)`);
      }
      return undefined;
    };
    // Counts what inflates, whatever the headers declared, and stops the inflating at a cap.
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        inflatedTotal += chunk.length;
        const refused = refusal();
        if (refused) callback(refused);
        else callback(null, chunk);
      },
    });
    inflated.on('error', (error: Error) => counter.destroy(zipError(name, error, path)));
    counter.once('close', () => inflated.destroy());
    inflated.pipe(counter);
    return counter;
  };

  const read = async (path: string): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    for await (const chunk of await openReadStream(path)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const discard = async (path: string): Promise<void> => {
    await pipeline(await openReadStream(path), new Writable({ write: (_chunk, _encoding, done) => done() }));
  };

  return {
    entries,
    has: (path) => byPath.has(path) && !path.endsWith('/'),
    read,
    openReadStream,
    verifyAll: async () => {
      for (const entry of entries) {
        if (!entry.isDirectory) await discard(entry.path);
      }
    },
    extractTo: async (dir, options = {}) => {
      const root = resolve(dir);
      await mkdir(root, { recursive: true });
      const targets = entries.map((entry) => {
        const target = resolve(root, entry.path);
        // checkPath refused such paths already; checked again where the file is written.
        if (!target.startsWith(root + sep)) throw unsafe(name, `unsafe entry path "${entry.path}"`);
        return { entry, target };
      });
      // Folders first, each once; then the files, a few at a time (an archive of thousands of
      // small files is bound by round trips, not bytes). The size and ratio limits count every
      // inflated byte whichever entry it belongs to, so they hold across parallel reads.
      const folders = new Set(
        targets.map(({ entry, target }) => (entry.isDirectory ? target : dirname(target))),
      );
      for (const folder of [...folders].sort()) await mkdir(folder, { recursive: true });
      const limit = pLimit(EXTRACT_CONCURRENCY);
      const files = targets.filter(({ entry }) => !entry.isDirectory);
      let failed = false;
      const outcomes = await Promise.allSettled(
        files.map(({ entry, target }) =>
          limit(async () => {
            if (failed) return; // a refused entry stops the rest: the caller removes the folder
            try {
              // `wx`: never write through something already there (the folder should be new).
              const source = await openReadStream(entry.path);
              const { onData } = options;
              if (onData) source.on('data', (chunk: Buffer) => onData(entry.path, chunk));
              await pipeline(source, createWriteStream(target, { flags: 'wx' }));
            } catch (error) {
              failed = true;
              throw error;
            }
          }),
        ),
      );
      // Settled, not raced: nothing is still writing when the caller cleans up.
      const refused = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
      if (refused) throw refused.reason;
    },
    close: () => zipfile.close(),
  };
}

/** Checks the central directory and the layout of the entries; see {@link openZip}. */
async function checkDirectory(
  zipfile: ZipFile,
  limits: ZipLimits,
  name: string,
): Promise<{ entries: ZipEntryInfo[]; byPath: Map<string, Entry> }> {
  if (zipfile.entryCount > limits.maxEntries) {
    throw unsafe(name, `has ${zipfile.entryCount} entries; the limit is ${limits.maxEntries}`);
  }
  // Before any entry is read, yauzl's cursor is the start of the central directory (the type
  // declarations call it a boolean; it is the offset).
  const centralDirectoryOffset = (zipfile as unknown as { readEntryCursor: number }).readEntryCursor;
  const rawEntries = await readEntries(zipfile, name, limits.maxEntries);

  const entries: ZipEntryInfo[] = [];
  const byPath = new Map<string, Entry>();
  let declaredTotal = 0;
  let compressedTotal = 0;
  for (const entry of rawEntries) {
    const path = entry.fileName;
    checkPath(name, path);
    const isDirectory = path.endsWith('/');
    checkEntryType(name, entry, isDirectory);
    if (byPath.has(path)) throw unsafe(name, `contains the entry "${path}" twice`);
    byPath.set(path, entry);
    if (!isDirectory) {
      checkDeclaredSize(name, entry, limits);
      declaredTotal += entry.uncompressedSize;
      compressedTotal += entry.compressedSize;
      if (declaredTotal > limits.maxTotalBytes) {
        throw unsafe(
          name,
          `expands to more than ${formatBytes(limits.maxTotalBytes)} (${theLimit(limits)}), reached at entry "${path}"`,
        );
      }
    }
    entries.push({
      path,
      compressedSize: entry.compressedSize,
      uncompressedSize: entry.uncompressedSize,
      isDirectory,
      encrypted: entry.isEncrypted(),
    });
  }
  checkConflicts(name, byPath);
  // Judged against the archive's real size too: entries sharing compressed data each pass the
  // per-entry ratio while the archive as a whole expands far beyond it.
  const held = Math.max(Math.min(compressedTotal, zipfile.fileSize), 1);
  if (declaredTotal > RATIO_MIN_BYTES && declaredTotal / held > limits.maxRatio) {
    throw unsafe(
      name,
      `expands ${Math.round(declaredTotal / held)} times (${formatBytes(held)} to ${formatBytes(declaredTotal)}); ` +
        `the limit is ${limits.maxRatio} (a zip bomb?)`,
    );
  }
  await checkLayout(zipfile, name, rawEntries, centralDirectoryOffset);
  return { entries, byPath };
}

/** A file `docs` next to `docs/x.md` cannot be unpacked: one path would be a file and a folder. */
function checkConflicts(name: string, byPath: Map<string, Entry>): void {
  for (const path of byPath.keys()) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const parent = parts.slice(0, i).join('/');
      if (byPath.has(parent)) {
        throw unsafe(name, `"${parent}" is a file and also the folder of "${path}"`);
      }
    }
  }
}

/**
 * Each entry's local header and compressed data must have bytes of their own, before the central
 * directory: overlapping entries are how a small archive unpacks into far more than its ratio says.
 */
async function checkLayout(
  zipfile: ZipFile,
  name: string,
  rawEntries: Entry[],
  centralDirectoryOffset: number,
): Promise<void> {
  const ranges: { start: number; end: number; path: string }[] = [];
  for (const entry of rawEntries) {
    let fileDataStart: number;
    try {
      ({ fileDataStart } = await zipfile.readLocalFileHeaderPromise(entry, { minimal: true }));
    } catch (error) {
      throw zipError(name, error as Error, entry.fileName);
    }
    const end = fileDataStart + entry.compressedSize;
    if (end > centralDirectoryOffset) {
      throw unsafe(name, `the data of the entry "${entry.fileName}" overlaps the central directory`);
    }
    ranges.push({ start: entry.relativeOffsetOfLocalHeader, end, path: entry.fileName });
  }
  ranges.sort((a, b) => a.start - b.start);
  for (let i = 1; i < ranges.length; i++) {
    if (ranges[i].start < ranges[i - 1].end) {
      throw unsafe(
        name,
        `the entries "${ranges[i - 1].path}" and "${ranges[i].path}" overlap (they share compressed data)`,
      );
    }
  }
}

function openZipFile(input: ZipInput, name: string): Promise<ZipFile> {
  if (typeof input === 'string') return fromPath(input, name);
  if (Buffer.isBuffer(input)) return fromBuffer(input, name);
  return fromByteSource(input, name);
}

/** Bytes of the archive kept in memory by a {@link ByteSourceReader}: a few blocks, never the whole. */
const BLOCK_BYTES = 256 * 1024;
const BLOCKS_KEPT = 4;

/**
 * yauzl's reader over a {@link ZipByteSource}. Reads go through a few cached blocks: an archive of
 * thousands of small files is read a block at a time, not two small reads per entry (each a round
 * trip to the blob store); a range larger than a block is streamed from the source.
 */
class ByteSourceReader extends yauzl.RandomAccessReader {
  /** Block start → its bytes (the last block of the archive may be short); oldest first. */
  private readonly blocks = new Map<number, Promise<Buffer>>();

  constructor(private readonly source: ZipByteSource) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    if (end - start > BLOCK_BYTES) return this.source.readRange(start, end);
    const reading = this.bytes(start, end);
    let asked = false;
    return new Readable({
      read() {
        if (asked) return; // the whole range comes in one push
        asked = true;
        reading.then(
          (data) => {
            this.push(data);
            this.push(null);
          },
          (error: Error) => this.destroy(error),
        );
      },
    });
  }

  // Headers and directory records are read a few dozen bytes at a time, from the cached blocks.
  override read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    callback: (error: Error | null) => void,
  ): void {
    const reading =
      length > BLOCK_BYTES
        ? this.source.read(position, position + length)
        : this.bytes(position, position + length);
    reading.then((data) => {
      data.copy(buffer, offset);
      callback(data.length < length ? new Error('unexpected EOF') : null);
    }, callback);
  }

  // yauzl calls this once the archive is closed and its last stream has ended.
  override close(callback: (error: Error | null) => void): void {
    this.blocks.clear();
    if (!this.source.close) return callback(null);
    this.source.close().then(() => callback(null), callback);
  }

  /** The bytes from `start` to `end` (at most a block apart; fewer at the end of the archive). */
  private async bytes(start: number, end: number): Promise<Buffer> {
    const first = Math.floor(start / BLOCK_BYTES) * BLOCK_BYTES;
    const parts: Buffer[] = [];
    for (let block = first; block < end; block += BLOCK_BYTES) {
      const data = await this.block(block);
      parts.push(data.subarray(Math.max(start - block, 0), Math.min(end - block, data.length)));
      if (data.length < BLOCK_BYTES) break; // the end of the archive
    }
    return parts.length === 1 ? parts[0] : Buffer.concat(parts);
  }

  private block(start: number): Promise<Buffer> {
    let block = this.blocks.get(start);
    if (block) {
      this.blocks.delete(start); // most recently used last
    } else {
      block = this.source.read(start, Math.min(start + BLOCK_BYTES, this.source.size));
      // A failed read is not kept: the next one tries again.
      block.catch(() => this.blocks.delete(start));
      if (this.blocks.size >= BLOCKS_KEPT) this.blocks.delete(this.blocks.keys().next().value!);
    }
    this.blocks.set(start, block);
    return block;
  }
}

function fromByteSource(source: ZipByteSource, name: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromRandomAccessReader(
      new ByteSourceReader(source),
      source.size,
      {
        lazyEntries: true,
        autoClose: false,
        validateEntrySizes: true,
        strictFileNames: true,
        decodeStrings: true,
      },
      (error, zipfile) => {
        if (!error) return resolve(zipfile);
        // yauzl releases the reader only through a ZipFile it could open.
        void source.close?.().catch(() => undefined);
        reject(zipError(name, error));
      },
    );
  });
}

function fromPath(path: string, name: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      path,
      {
        lazyEntries: true,
        autoClose: false,
        validateEntrySizes: true,
        strictFileNames: true,
        decodeStrings: true,
      },
      (error, zipfile) => (error ? reject(zipError(name, error)) : resolve(zipfile)),
    );
  });
}

function fromBuffer(data: Buffer, name: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      data,
      { lazyEntries: true, validateEntrySizes: true, strictFileNames: true, decodeStrings: true },
      (error, zipfile) => (error ? reject(zipError(name, error)) : resolve(zipfile)),
    );
  });
}

function readEntries(zipfile: ZipFile, name: string, maxEntries: number): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zipfile.on('entry', (entry: Entry) => {
      entries.push(entry);
      // The end-of-central-directory count was checked, but do not trust it to bound the loop.
      if (entries.length > maxEntries) {
        zipfile.close();
        reject(unsafe(name, `has more than ${maxEntries} entries (the limit)`));
        return;
      }
      zipfile.readEntry();
    });
    zipfile.once('end', () => resolve(entries));
    zipfile.once('error', (error: Error) => reject(zipError(name, error)));
    zipfile.readEntry();
  });
}

/** yauzl already rejects these with strictFileNames; checked again so the rule holds on its own. */
function checkPath(name: string, path: string): void {
  let reason: string | undefined;
  if (path.length === 0) reason = 'empty path';
  else if (path.includes('\0')) reason = 'NUL byte in the path';
  else if (path.includes('\\')) reason = 'backslash in the path';
  else if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) reason = 'absolute path';
  else if (path.split('/').includes('..')) reason = '".." path segment';
  // File systems refuse longer names: the unpack would fail halfway in the worker.
  else if (path.split('/').some((part) => Buffer.byteLength(part) > 255)) reason = 'a name over 255 bytes';
  if (reason) throw unsafe(name, `unsafe entry path "${path}" (${reason})`);
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

function checkEntryType(name: string, entry: Entry, isDirectory: boolean): void {
  // Unix tools store the file mode in the high 16 bits of the external attributes; 0 means unknown.
  const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
  if (type === 0 || type === S_IFREG || (type === S_IFDIR && isDirectory)) return;
  if (type === S_IFLNK) throw unsafe(name, `the entry "${entry.fileName}" is a symbolic link`);
  throw unsafe(name, `the entry "${entry.fileName}" is not a regular file (mode 0${type.toString(8)})`);
}

/** How a refusal names the size limit: with the setting that raises it, when there is one. */
function theLimit(limits: ZipLimits): string {
  return limits.setting ? `the limit; ${limits.setting} raises it` : 'the limit';
}

function checkDeclaredSize(name: string, entry: Entry, limits: ZipLimits): void {
  const path = entry.fileName;
  if (entry.uncompressedSize > limits.maxEntryBytes) {
    throw unsafe(
      name,
      `the entry "${path}" expands to ${formatBytes(entry.uncompressedSize)}; ` +
        `the limit is ${formatBytes(limits.maxEntryBytes)}${limits.setting ? ` (${limits.setting} raises it)` : ''}`,
    );
  }
  const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
  if (entry.uncompressedSize > RATIO_MIN_BYTES && ratio > limits.maxRatio) {
    throw unsafe(
      name,
      `the entry "${path}" expands ${Math.round(ratio)} times ` +
        `(${formatBytes(entry.compressedSize)} to ${formatBytes(entry.uncompressedSize)}); ` +
        `the limit is ${limits.maxRatio} (a zip bomb?)`,
    );
  }
}

/** The entry's inflated bytes as yauzl streams them (it also checks them against the declared size). */
function openEntry(zipfile: ZipFile, entry: Entry, name: string): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zipfile.openReadStream(entry, (error, stream) =>
      error ? reject(zipError(name, error, entry.fileName)) : resolve(stream),
    );
  });
}

const UNSAFE_PATH = /^(absolute path|invalid relative path|invalid characters in fileName): (.*)$/s;

/** Turns a yauzl or zlib error into a permanent error that names the archive and the entry. */
function zipError(name: string, error: Error, path?: string): PermanentDocumentError {
  const reason = error.message;
  const where = path ? `${name}: the entry "${path}"` : name;
  const unsafePath = UNSAFE_PATH.exec(reason);
  if (unsafePath) return unsafe(name, `unsafe entry path "${unsafePath[2]}" (${unsafePath[1]})`);
  if (/too many bytes in the stream/.test(reason)) {
    return unsafe(name, `the entry "${path}" expands to more than its declared size (${reason})`);
  }
  if (/encrypt/i.test(reason)) {
    return new PermanentDocumentError(
      TroveErrorCode.EncryptedDocument,
      `${where} is encrypted and cannot be read (${reason})`,
      error,
    );
  }
  if (/unsupported compression method/.test(reason)) {
    return new PermanentDocumentError(
      TroveErrorCode.ParseFailed,
      `${where} uses a compression method Trove cannot read (${reason}); only stored and deflate are supported`,
      error,
    );
  }
  return new PermanentDocumentError(
    TroveErrorCode.CorruptDocument,
    path ? `${where} cannot be read: ${reason}` : `${name} is not a readable zip archive: ${reason}`,
    error,
  );
}

function unsafe(name: string, detail: string): PermanentDocumentError {
  return new PermanentDocumentError(TroveErrorCode.UnsafeArchive, `${name} was refused: ${detail}`);
}

function formatBytes(bytes: number): string {
  if (bytes >= MiB) return `${(bytes / MiB).toFixed(bytes % MiB === 0 ? 0 : 1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
