import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TroveErrorCode } from '@trove/domain';
import {
  DEFAULT_ZIP_LIMITS,
  listZip,
  openZip,
  readZip,
  unpackZip,
  verifyZip,
  type ZipByteSource,
  type ZipLimits,
} from './safe-zip';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { buildZip, patchEntry, repeatCentralEntry } from './zip-fixtures.testing';

const MiB = 1024 * 1024;

async function refusal(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; permanent: boolean }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; message: string; permanent: boolean };
  }
  throw new Error('expected a refusal');
}

describe('safe zip reading', () => {
  it('lists entries and reads the selected regular files', async () => {
    const zip = await buildZip([
      { path: 'docs/' },
      { path: 'docs/a.md', data: '# A\n' },
      { path: 'docs/b.txt', data: 'bee', compress: false },
      { path: 'image.png', data: Buffer.alloc(64, 7) },
    ]);
    const entries = await listZip(zip);
    expect(entries.map((e) => [e.path, e.isDirectory, e.uncompressedSize])).toEqual([
      ['docs/', true, 0],
      ['docs/a.md', false, 4],
      ['docs/b.txt', false, 3],
      ['image.png', false, 64],
    ]);
    const files = await readZip(zip, { select: (path) => path.startsWith('docs/') });
    expect(files.map((f) => [f.path, f.data.toString('utf8')])).toEqual([
      ['docs/a.md', '# A\n'],
      ['docs/b.txt', 'bee'],
    ]);
    const opened = await openZip(zip);
    expect(opened.has('docs/a.md')).toBe(true);
    expect(opened.has('docs/')).toBe(false);
    await expect(opened.read('missing.txt')).rejects.toMatchObject({ code: TroveErrorCode.CorruptDocument });
  });

  it('has sane default limits', () => {
    expect(DEFAULT_ZIP_LIMITS).toEqual({
      maxEntries: 10_000,
      maxTotalBytes: 512 * MiB,
      maxEntryBytes: 100 * MiB,
      maxRatio: 200,
    });
  });

  it.each([
    ['aa/evil.txt', '../evil.txt', /unsafe entry path "\.\.\/evil\.txt"/],
    ['xx/yy/e.txt', 'xx/../e.txt', /\(invalid relative path\)/],
    ['xetc/passwd', '/etc/passwd', /unsafe entry path "\/etc\/passwd" \(absolute path\)/],
    ['c_/windows', 'C:/windows', /absolute path/],
    ['dir_evil.txt', 'dir\\evil.txt', /unsafe entry path "dir\\evil\.txt"/],
  ])('refuses the zip-slip path %s → %s', async (honest, evil, message) => {
    const zip = patchEntry(
      await buildZip([
        { path: 'ok.txt', data: 'ok' },
        { path: honest, data: 'x' },
      ]),
      honest,
      {
        name: evil,
      },
    );
    const error = await refusal(readZip(zip, { archiveName: 'upload.zip' }));
    expect(error).toMatchObject({ code: TroveErrorCode.UnsafeArchive, permanent: true });
    expect(error.message).toContain('upload.zip was refused');
    expect(error.message).toMatch(message);
  });

  it('refuses more entries than allowed, before reading them', async () => {
    const zip = await buildZip(Array.from({ length: 12 }, (_, i) => ({ path: `f${i}.txt`, data: 'x' })));
    const limits: ZipLimits = { ...DEFAULT_ZIP_LIMITS, maxEntries: 10 };
    await expect(listZip(zip, limits, 'many.zip')).rejects.toMatchObject({
      code: TroveErrorCode.UnsafeArchive,
      message: 'many.zip was refused: has 12 entries; the limit is 10',
    });
  });

  it('refuses a zip bomb by its compression ratio without inflating it', async () => {
    const zip = await buildZip([{ path: 'zeros.bin', data: Buffer.alloc(40 * MiB) }]);
    expect(zip.length).toBeLessThan(100 * 1024);
    const control = await buildZip([{ path: 'text.txt', data: 'inflate me '.repeat(1000) }]);
    // Every entry yauzl reads goes through one zlib inflater: none may be made for the bomb.
    const inflaters = vi.spyOn(zlib, 'createInflateRaw');
    try {
      const error = await refusal(readZip(zip, { archiveName: 'bomb.zip' }));
      expect(inflaters).not.toHaveBeenCalled();
      expect(error.code).toBe(TroveErrorCode.UnsafeArchive);
      expect(error.message).toMatch(
        /the entry "zeros\.bin" expands \d+ times .*the limit is 200 \(a zip bomb\?\)/,
      );
      // The spy does see inflating: an honest compressed entry is read through it.
      await readZip(control);
      expect(inflaters).toHaveBeenCalledTimes(1);
    } finally {
      inflaters.mockRestore();
    }
  });

  it('counts the bytes actually inflated: a header that lies about the size is caught while reading', async () => {
    const honest = await buildZip([{ path: 'liar.bin', data: Buffer.alloc(8 * MiB, 1) }]);
    const zip = patchEntry(honest, 'liar.bin', { uncompressedSize: 1000 });
    // The headers now pass every check (1000 bytes, tiny ratio); only inflating shows the truth.
    expect((await listZip(zip))[0].uncompressedSize).toBe(1000);
    const error = await refusal(readZip(zip, { archiveName: 'liar.zip' }));
    expect(error.code).toBe(TroveErrorCode.UnsafeArchive);
    expect(error.message).toMatch(
      /liar\.zip was refused: the entry "liar\.bin" expands to more than its declared size/,
    );
  });

  it('refuses declared sizes beyond the per-entry and total caps', async () => {
    const zip = await buildZip([
      { path: 'a.bin', data: Buffer.alloc(600 * 1024, 1) },
      { path: 'b.bin', data: Buffer.alloc(600 * 1024, 2) },
    ]);
    const perEntry = { ...DEFAULT_ZIP_LIMITS, maxEntryBytes: 512 * 1024 };
    await expect(listZip(zip, perEntry)).rejects.toThrow(
      /the entry "a\.bin" expands to 600\.0 KiB; the limit is/,
    );
    const total = { ...DEFAULT_ZIP_LIMITS, maxTotalBytes: 1024 * 1024 };
    await expect(listZip(zip, total)).rejects.toThrow(
      /expands to more than 1 MiB \(the limit\), reached at entry "b\.bin"/,
    );
  });

  it('refuses symbolic links and other non-regular entries', async () => {
    const zip = await buildZip([
      { path: 'readme.txt', data: 'hi' },
      { path: 'link', data: '/etc/passwd', mode: 0o120777 },
    ]);
    await expect(listZip(zip, DEFAULT_ZIP_LIMITS, 'links.zip')).rejects.toMatchObject({
      code: TroveErrorCode.UnsafeArchive,
      message: 'links.zip was refused: the entry "link" is a symbolic link',
    });
    const fifo = await buildZip([{ path: 'pipe', data: '', mode: 0o010644 }]);
    await expect(listZip(fifo)).rejects.toThrow(/"pipe" is not a regular file/);
  });

  it('reports truncated, corrupt and non-zip input as CORRUPT_DOCUMENT with the reason', async () => {
    const zip = await buildZip([{ path: 'a.txt', data: 'some text '.repeat(100) }]);
    const truncated = zip.subarray(0, zip.length - 30);
    const error = await refusal(readZip(truncated, { archiveName: 'cut.zip' }));
    expect(error.code).toBe(TroveErrorCode.CorruptDocument);
    expect(error.message).toMatch(/^cut\.zip is not a readable zip archive: End of central directory record/);

    await expect(readZip(Buffer.from('just some text'))).rejects.toMatchObject({
      code: TroveErrorCode.CorruptDocument,
    });
    await expect(readZip(Buffer.alloc(0))).rejects.toMatchObject({ code: TroveErrorCode.CorruptDocument });

    // Damage the deflate stream itself: the central directory is intact, inflating fails.
    const damaged = Buffer.from(zip);
    damaged.fill(0xff, 36, 44);
    const inflateError = await refusal(readZip(damaged, { archiveName: 'bad.zip' }));
    expect(inflateError.code).toBe(TroveErrorCode.CorruptDocument);
    expect(inflateError.message).toMatch(/^bad\.zip: the entry "a\.txt" cannot be read: /);
  });

  it('refuses to read encrypted entries with a clear error', async () => {
    const zip = patchEntry(await buildZip([{ path: 'secret.txt', data: 'x' }]), 'secret.txt', { flags: 0x1 });
    const [entry] = await listZip(zip);
    expect(entry.encrypted).toBe(true);
    await expect(readZip(zip, { archiveName: 'locked.zip' })).rejects.toMatchObject({
      code: TroveErrorCode.EncryptedDocument,
      message: expect.stringMatching(/locked\.zip.*"secret\.txt".*encrypted/),
    });
  });

  it('refuses duplicate paths', async () => {
    const zip = patchEntry(
      await buildZip([
        { path: 'a.txt', data: '1' },
        { path: 'b.txt', data: '2' },
      ]),
      'b.txt',
      { name: 'a.txt' },
    );
    await expect(listZip(zip)).rejects.toThrow(/contains the entry "a\.txt" twice/);
  });

  it('verifies by inflating everything without keeping it', async () => {
    const zip = await buildZip([{ path: 'a.txt', data: 'hello' }]);
    await expect(verifyZip(zip)).resolves.toHaveLength(1);
    const liar = patchEntry(
      await buildZip([{ path: 'big.bin', data: Buffer.alloc(4 * MiB, 3) }]),
      'big.bin',
      {
        uncompressedSize: 10,
      },
    );
    await expect(verifyZip(liar)).rejects.toMatchObject({ code: TroveErrorCode.UnsafeArchive });
  });

  /** 2 MiB that deflate about 100:1: under the per-entry ratio limit on its own. */
  function compressible(): Buffer {
    const data = Buffer.alloc(2 * MiB, 'a');
    const noise = randomBytes(12 * 1024);
    for (let i = 0; i < noise.length; i++) data[Math.floor((i * data.length) / noise.length)] = noise[i];
    return data;
  }

  it('refuses overlapping entries that share compressed data (the ratio of the whole archive)', async () => {
    const honest = await buildZip([{ path: 'part-00.txt', data: compressible() }]);
    const [entry] = await listZip(honest);
    expect(entry.uncompressedSize / entry.compressedSize).toBeGreaterThan(50);
    expect(entry.uncompressedSize / entry.compressedSize).toBeLessThan(200);
    // Twelve central directory entries, one copy of the data: 24 MiB from about 25 KiB.
    const bomb = repeatCentralEntry(
      honest,
      'part-00.txt',
      12,
      (i) => `part-${String(i).padStart(2, '0')}.txt`,
    );
    const error = await refusal(listZip(bomb, DEFAULT_ZIP_LIMITS, 'overlap.zip'));
    expect(error).toMatchObject({ code: TroveErrorCode.UnsafeArchive, permanent: true });
    expect(error.message).toMatch(
      /^overlap\.zip was refused: expands \d+ times .*the limit is 200 \(a zip bomb\?\)/,
    );
    await expect(readZip(bomb)).rejects.toMatchObject({ code: TroveErrorCode.UnsafeArchive });
  });

  it('refuses overlapping entries whatever their size', async () => {
    const honest = await buildZip([
      { path: 'a.txt', data: 'hello hello hello' },
      { path: 'z.txt', data: 'last' },
    ]);
    const zip = repeatCentralEntry(honest, 'a.txt', 2, (i) => ['a.txt', 'b.txt'][i]);
    expect(await refusal(listZip(zip, DEFAULT_ZIP_LIMITS, 'small.zip'))).toMatchObject({
      code: TroveErrorCode.UnsafeArchive,
      message: 'small.zip was refused: the entries "a.txt" and "b.txt" overlap (they share compressed data)',
    });
  });

  it('refuses an entry whose data runs into the central directory', async () => {
    const honest = await buildZip([{ path: 'a.txt', data: 'hello' }]);
    const zip = patchEntry(honest, 'a.txt', { compressedSize: honest.length - 40 });
    await expect(listZip(zip)).rejects.toMatchObject({
      code: TroveErrorCode.UnsafeArchive,
      message: expect.stringContaining('the data of the entry "a.txt" overlaps the central directory'),
    });
  });

  it('refuses a file that is also the folder of another entry', async () => {
    const zip = await buildZip([
      { path: 'docs', data: 'a file' },
      { path: 'docs/x.md', data: '# X' },
    ]);
    await expect(listZip(zip, DEFAULT_ZIP_LIMITS, 'site.zip')).rejects.toMatchObject({
      code: TroveErrorCode.UnsafeArchive,
      message: 'site.zip was refused: "docs" is a file and also the folder of "docs/x.md"',
    });
  });

  it('lists an archive from a file path with the same checks', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'safe-zip-'));
    try {
      const path = join(dir, 'upload.zip');
      await writeFile(path, await buildZip([{ path: 'a.md', data: '# A' }]));
      expect((await listZip(path)).map((e) => e.path)).toEqual(['a.md']);
      const bad = join(dir, 'bad.zip');
      await writeFile(
        bad,
        await buildZip([
          { path: 'docs', data: 'x' },
          { path: 'docs/x.md', data: 'y' },
        ]),
      );
      await expect(listZip(bad)).rejects.toMatchObject({ code: TroveErrorCode.UnsafeArchive });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe('streamed from a file or a byte source, to disk', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'safe-zip-unpack-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    /** The archive's bytes behind range reads, with the longest range any read asked for. */
    function rangeSource(
      zip: Buffer,
    ): ZipByteSource & { longestRead: number; reads: number; closed: number } {
      const source = {
        size: zip.length,
        longestRead: 0,
        reads: 0,
        closed: 0,
        readRange: (start: number, end: number) => {
          source.reads++;
          source.longestRead = Math.max(source.longestRead, end - start);
          return Readable.from([zip.subarray(start, end)]);
        },
        read: async (start: number, end: number) => {
          source.reads++;
          source.longestRead = Math.max(source.longestRead, end - start);
          return zip.subarray(start, end);
        },
        close: async () => {
          source.closed++;
        },
      };
      return source;
    }

    it('unpacks an archive from a file path entry by entry, folders included', async () => {
      const payload = randomBytes(3 * MiB);
      const path = join(dir, 'site.zip');
      await writeFile(
        path,
        await buildZip([
          { path: 'site/' },
          { path: 'site/empty/' },
          { path: 'site/docs/a.md', data: '# A\n' },
          { path: 'site/b.bin', data: payload },
        ]),
      );
      const out = join(dir, 'out');
      const entries = await unpackZip(path, out);
      expect(entries.map((e) => e.path)).toEqual(['site/', 'site/empty/', 'site/docs/a.md', 'site/b.bin']);
      expect(await readFile(join(out, 'site/docs/a.md'), 'utf8')).toBe('# A\n');
      expect((await readFile(join(out, 'site/b.bin'))).equals(payload)).toBe(true);
      expect(await readdir(join(out, 'site/empty'))).toEqual([]);
    });

    it('reads a byte source range by range: never the whole archive at once', async () => {
      const files = Array.from({ length: 4 }, (_, i) => ({
        path: `f${i}.bin`,
        data: randomBytes(256 * 1024),
      }));
      const zip = await buildZip(files.map((f) => ({ ...f, compress: false })));
      const source = rangeSource(zip);
      const out = join(dir, 'out');
      await unpackZip(source, out, { archiveName: 'ranges.zip' });
      for (const file of files) expect((await readFile(join(out, file.path))).equals(file.data)).toBe(true);
      expect(source.longestRead).toBeLessThanOrEqual(256 * 1024);
      const listed = rangeSource(zip);
      expect((await listZip(listed)).map((e) => e.path)).toEqual(files.map((f) => f.path));
      // Closed with the archive, also when it is not one.
      const garbage = rangeSource(Buffer.from('not a zip at all'));
      await expect(listZip(garbage)).rejects.toMatchObject({ code: TroveErrorCode.CorruptDocument });
      await vi.waitFor(() => expect([source.closed, listed.closed, garbage.closed]).toEqual([1, 1, 1]));
    });

    it('reads an archive of many small files a block at a time, not entry by entry', async () => {
      const files = Array.from({ length: 600 }, (_, i) => ({
        path: `notes/n${i}.md`,
        data: `# Note ${i}\n\n${randomBytes(600).toString('base64')}\n`,
      }));
      // Larger than one block (256 KiB), so entries and headers cross block edges.
      const zip = await buildZip(files.map((f) => ({ ...f, compress: false })));
      expect(zip.length).toBeGreaterThan(2 * 256 * 1024);
      const source = rangeSource(zip);
      const out = join(dir, 'out');
      await unpackZip(source, out, { archiveName: 'notes.zip' });
      for (const file of files) expect(await readFile(join(out, file.path), 'utf8')).toBe(file.data);
      // A few dozen reads at most (blocks plus the directory), not two per entry.
      expect(source.reads).toBeLessThan(files.length / 10);
      expect(source.longestRead).toBeLessThanOrEqual(256 * 1024);
    });

    it('catches a declared size that lies while streaming to disk, and stops inflating there', async () => {
      const honest = await buildZip([
        { path: 'a.md', data: '# A' },
        { path: 'liar.bin', data: Buffer.alloc(8 * MiB, 1) },
      ]);
      const zip = patchEntry(honest, 'liar.bin', { uncompressedSize: 1000 });
      const path = join(dir, 'liar.zip');
      await writeFile(path, zip);
      for (const [label, input] of [
        ['file', path],
        ['byte source', rangeSource(zip)],
      ] as const) {
        const out = join(dir, `out-${label}`);
        const error = await refusal(unpackZip(input, out, { archiveName: 'liar.zip' }));
        expect(error.code).toBe(TroveErrorCode.UnsafeArchive);
        expect(error.message).toMatch(
          /liar\.zip was refused: the entry "liar\.bin" expands to more than its declared size/,
        );
        // The entry before it was written; the liar was cut off near its declared size, not inflated.
        expect(await readFile(join(out, 'a.md'), 'utf8')).toBe('# A');
        expect((await stat(join(out, 'liar.bin'))).size).toBeLessThan(MiB);
      }
    });

    it('refuses the unsafe archives of the buffer API from a file path too, before writing anything', async () => {
      const slip = patchEntry(await buildZip([{ path: 'aa/evil.txt', data: 'x' }]), 'aa/evil.txt', {
        name: '../evil.txt',
      });
      const bomb = await buildZip([{ path: 'zeros.bin', data: Buffer.alloc(40 * MiB) }]);
      const conflict = await buildZip([
        { path: 'docs', data: 'x' },
        { path: 'docs/x.md', data: 'y' },
      ]);
      for (const [file, zip] of [
        ['slip.zip', slip],
        ['bomb.zip', bomb],
        ['conflict.zip', conflict],
      ] as const) {
        const path = join(dir, file);
        await writeFile(path, zip);
        const out = join(dir, `out-${file}`);
        const error = await refusal(unpackZip(path, out, { archiveName: file }));
        expect(error.code).toBe(TroveErrorCode.UnsafeArchive);
        expect(error.message).toContain(`${file} was refused`);
        await expect(stat(out)).rejects.toMatchObject({ code: 'ENOENT' });
      }
    });
  });
});
