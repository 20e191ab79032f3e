import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { SourceStatus, type BlobReader, type BlobStore } from '@trove/domain';
import { ZipFile } from 'yazl';
import { FolderConnector } from './folder.connector';
import { FOLDER_SOURCE_TYPE, FolderFormat, type FolderSource } from './folder-source';

const SOURCE_ID = 'source-1';

function buildZip(files: { path: string; data: string | Buffer; compress?: boolean }[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const file of files)
    zip.addBuffer(Buffer.from(file.data), file.path, { compress: file.compress ?? true });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

function archiveSource(hash: string): FolderSource {
  return {
    id: SOURCE_ID,
    projectId: 'p1',
    type: FOLDER_SOURCE_TYPE,
    name: 'site',
    status: SourceStatus.ACTIVE,
    config: {
      format: FolderFormat.FILES,
      archiveBlobKey: `sources/${SOURCE_ID}/archive.zip`,
      archiveHash: hash,
      archiveFileName: 'site.zip',
    },
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
  };
}

/**
 * The archive behind range reads only, as the connector reads it; a whole read fails. With
 * `beforeRangesFail`, every streamed range (an entry larger than a block) fails, the store having
 * dropped the connection, after that function ran.
 */
class RangeBlobs implements Pick<BlobStore, 'openReader'> {
  longestRead = 0;
  closed = 0;

  constructor(
    private readonly data: Buffer,
    private readonly beforeRangesFail?: () => void,
  ) {}

  async openReader(): Promise<BlobReader> {
    return {
      size: this.data.length,
      readRange: (start, end) => {
        this.longestRead = Math.max(this.longestRead, end - start);
        if (this.beforeRangesFail) {
          this.beforeRangesFail();
          const error = Object.assign(new Error('ECONNRESET: the blob store dropped the connection'), {
            code: 'ECONNRESET',
          });
          return new Readable({ read: () => undefined }).destroy(error);
        }
        return Readable.from([this.data.subarray(start, end)]);
      },
      read: async (start, end) => this.data.subarray(start, end),
      close: async () => {
        this.closed++;
      },
    };
  }

  async get(): Promise<Buffer> {
    throw new Error('the archive was read whole into memory');
  }
}

function blobsHolding(data: Buffer): RangeBlobs {
  return new RangeBlobs(data);
}

describe('FolderConnector unpacking an uploaded archive', () => {
  let cacheDir: string;
  beforeEach(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'folder-cache-'));
  });
  afterEach(async () => {
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('leaves no .tmp staging folder behind when an unpack fails, however often it is retried', async () => {
    // The second entry is streamed from the store (larger than a block), and that read fails
    // halfway through the unpack, once the first entry is on disk.
    const zip = await buildZip([
      { path: 'a.md', data: '# A' },
      { path: 'b.md', data: `# B\n\n${'word '.repeat(400_000)}`, compress: false },
    ]);
    const staged: string[][] = [];
    const blobs = new RangeBlobs(zip, () => staged.push(readdirSync(join(cacheDir, SOURCE_ID))));
    const folders = new FolderConnector({ roots: [], cacheDir }, blobs);
    for (let attempt = 0; attempt < 3; attempt++) {
      await expect(folders.list(archiveSource('a'.repeat(64)))).rejects.toThrow(/ECONNRESET/);
    }
    // Each attempt had its staging folder when it failed, and none is left.
    expect(staged.map((names) => names.filter((n) => n.endsWith('.tmp')).length)).toEqual([1, 1, 1]);
    expect(await readdir(join(cacheDir, SOURCE_ID))).toEqual([]);
  });

  it('unpacks by streaming the archive from the blob store range by range, never reading it whole', async () => {
    const payload = randomBytes(2 * 1024 * 1024);
    const zip = await buildZip([
      { path: 'site/a.md', data: '# A' },
      { path: 'site/data.bin', data: payload, compress: false },
      { path: 'site/b.md', data: '# B' },
    ]);
    const blobs = blobsHolding(zip);
    const folders = new FolderConnector({ roots: [], cacheDir }, blobs);
    const listing = await folders.list(archiveSource('c'.repeat(64)));
    expect(listing.items.map((i) => i.externalId)).toEqual(['a.md', 'b.md']);
    expect(listing.warnings).toEqual(['1 files of unsupported types were ignored']);
    const unpacked = join(cacheDir, SOURCE_ID, 'c'.repeat(16), 'site');
    expect((await readFile(join(unpacked, 'data.bin'))).equals(payload)).toBe(true);
    // The largest read is the stored entry's own bytes, not the archive; the file was closed.
    expect(blobs.longestRead).toBeLessThanOrEqual(payload.length);
    await vi.waitFor(() => expect(blobs.closed).toBe(1));
  });

  it('lists scans and photos of a zipped folder as documents, to be read by OCR; their media type by content', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
    const zip = await buildZip([
      { path: 'shelf/contract-p1.PNG', data: png },
      { path: 'shelf/whiteboard.jpeg', data: jpeg },
      { path: 'shelf/notes.md', data: '# Notes' },
      { path: 'shelf/tool.exe', data: 'MZ' },
    ]);
    const folders = new FolderConnector({ roots: [], cacheDir }, blobsHolding(zip));
    const source = archiveSource('e'.repeat(64));
    const listing = await folders.list(source);
    expect(listing.items.map((i) => i.externalId)).toEqual([
      'contract-p1.PNG',
      'notes.md',
      'whiteboard.jpeg',
    ]);
    expect(listing.warnings).toEqual(['1 files of unsupported types were ignored']);
    expect((await folders.fetch(source, 'whiteboard.jpeg')).mediaType).toBe('image/jpeg');
  });

  it('the listing right after an unpack takes the versions hashed on the way to disk; later listings read the files', async () => {
    const files = { 'a.md': '# A\n\nalpha', 'sub/b.md': '# B\n\nbeta', 'empty.md': '' };
    const zip = await buildZip(Object.entries(files).map(([path, data]) => ({ path: `site/${path}`, data })));
    const folders = new FolderConnector({ roots: [], cacheDir }, blobsHolding(zip));
    const source = archiveSource('d'.repeat(64));
    const version = (data: string) => createHash('sha256').update(data).update('\u0000').digest('hex');
    // An unpack for a fetch keeps the versions for the listing that follows; the file changes meanwhile.
    await folders.fetch(source, 'a.md');
    await writeFile(join(cacheDir, SOURCE_ID, 'd'.repeat(16), 'site', 'a.md'), '# A\n\nchanged');
    const first = await folders.list(source);
    expect(Object.fromEntries(first.items.map((i) => [i.externalId, i.version]))).toEqual(
      Object.fromEntries(Object.entries(files).map(([path, data]) => [path, version(data)])),
    );
    // Taken once: the next listing reads the files back.
    const second = await folders.list(source);
    expect(second.items.find((i) => i.externalId === 'a.md')!.version).toBe(version('# A\n\nchanged'));
    expect(second.items.find((i) => i.externalId === 'sub/b.md')!.version).toBe(version(files['sub/b.md']));
  });

  it('sweeps stale .tmp folders of the source (left by a dead worker) at the start of an unpack', async () => {
    const base = join(cacheDir, SOURCE_ID);
    const stale = join(base, `${'0'.repeat(16)}.dead.tmp`);
    const fresh = join(base, `${'1'.repeat(16)}.running.tmp`);
    await mkdir(join(stale, 'docs'), { recursive: true });
    await mkdir(fresh, { recursive: true });
    const hourAgo = new Date(Date.now() - 60 * 60_000);
    await utimes(stale, hourAgo, hourAgo);

    const zip = await buildZip([{ path: 'a.md', data: '# A' }]);
    const folders = new FolderConnector({ roots: [], cacheDir }, blobsHolding(zip));
    const listing = await folders.list(archiveSource('b'.repeat(64)));
    expect(listing.items.map((i) => i.externalId)).toEqual(['a.md']);
    // The young one may be another activity's unpack in progress: it stays.
    expect((await readdir(base)).sort()).toEqual([`${'1'.repeat(16)}.running.tmp`, 'b'.repeat(16)]);
  });
});

describe('FolderConnector and the document size limit', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folder-limits-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('lists sizes, gives a file over the limit a version from its size and time without reading it, and refuses to fetch it', async () => {
    const root = join(dir, 'docs');
    await mkdir(root, { recursive: true });
    await writeFile(join(root, 'small.md'), '# Small\n');
    await writeFile(join(root, 'big.txt'), 'x'.repeat(5_000));
    const folders = new FolderConnector(
      { roots: [dir], cacheDir: join(dir, 'cache') },
      blobsHolding(Buffer.alloc(0)),
    );
    const source: FolderSource = {
      ...archiveSource('f'.repeat(64)),
      config: { format: FolderFormat.FILES, path: root },
    };
    const listing = await folders.discover(source, { known: new Set(), maxItemBytes: 1_000 });
    const items = Object.fromEntries(listing.items.map((i) => [i.externalId, i]));
    expect(items['small.md']).toMatchObject({
      sizeBytes: 8,
      version: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(items['big.txt']).toMatchObject({
      sizeBytes: 5_000,
      version: expect.stringMatching(/^unread:5000:/),
    });
    await expect(folders.fetch(source, 'big.txt', { maxBytes: 1_000 })).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      permanent: true,
      message:
        'big.txt has 5,000 bytes, over the limit of 1,000 bytes per document (TROVE_DOCUMENT_MAX_BYTES raises it)',
    });
    expect((await folders.fetch(source, 'big.txt', { maxBytes: 10_000 })).data.length).toBe(5_000);
  });
});
