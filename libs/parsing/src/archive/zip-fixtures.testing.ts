/** Test-only helpers that build zip archives in memory, including ones no honest tool would write. */
import { ZipFile } from 'yazl';

export interface FixtureEntry {
  path: string;
  data?: Buffer | string;
  /** Deflate the entry (default true; the EPUB `mimetype` entry is stored). */
  compress?: boolean;
  /** Unix mode including the file type bits, e.g. `0o120777` for a symlink. */
  mode?: number;
}

/** Writes the entries with yazl and returns the whole archive. */
export function buildZip(entries: FixtureEntry[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const entry of entries) {
    if (entry.path.endsWith('/')) {
      zip.addEmptyDirectory(entry.path);
      continue;
    }
    const data = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data ?? '', 'utf8');
    zip.addBuffer(data, entry.path, {
      compress: entry.compress ?? true,
      ...(entry.mode === undefined ? {} : { mode: entry.mode }),
    });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;

/** Offsets of the fields tests tamper with, in the local header and the central directory header. */
const FIELDS = {
  flags: { local: 6, central: 8 },
  compressedSize: { local: 18, central: 20 },
  uncompressedSize: { local: 22, central: 24 },
} as const;

export interface EntryPatch {
  /** Replacement name of the same byte length (yazl refuses `../` names, the bytes do not). */
  name?: string;
  flags?: number;
  compressedSize?: number;
  uncompressedSize?: number;
}

/** Rewrites the headers of the entry called `name`, in both the local header and the central directory. */
export function patchEntry(zip: Buffer, name: string, patch: EntryPatch): Buffer {
  const out = Buffer.from(zip);
  const nameBytes = Buffer.from(name, 'utf8');
  let patched = 0;
  for (let offset = 0; offset + 4 <= out.length; offset++) {
    const signature = out.readUInt32LE(offset);
    const isLocal = signature === LOCAL_HEADER;
    if (!isLocal && signature !== CENTRAL_HEADER) continue;
    const nameLength = out.readUInt16LE(offset + (isLocal ? 26 : 28));
    const nameStart = offset + (isLocal ? 30 : 46);
    if (
      nameLength !== nameBytes.length ||
      !out.subarray(nameStart, nameStart + nameLength).equals(nameBytes)
    ) {
      continue;
    }
    const at = (field: keyof typeof FIELDS) => offset + FIELDS[field][isLocal ? 'local' : 'central'];
    if (patch.flags !== undefined) out.writeUInt16LE(patch.flags, at('flags'));
    if (patch.compressedSize !== undefined) out.writeUInt32LE(patch.compressedSize, at('compressedSize'));
    if (patch.uncompressedSize !== undefined)
      out.writeUInt32LE(patch.uncompressedSize, at('uncompressedSize'));
    if (patch.name !== undefined) {
      const replacement = Buffer.from(patch.name, 'utf8');
      if (replacement.length !== nameBytes.length) throw new Error('the new name must have the same length');
      replacement.copy(out, nameStart);
    }
    patched++;
  }
  if (patched === 0) throw new Error(`no entry called ${name}`);
  return out;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;

/**
 * Repeats the central directory record of `name` `copies` times, each copy renamed by `rename`
 * (same byte length) and pointing at the same local header and compressed data: the overlapping
 * entries of a "non-recursive" zip bomb, which no honest tool writes.
 */
export function repeatCentralEntry(
  zip: Buffer,
  name: string,
  copies: number,
  rename: (copy: number) => string,
): Buffer {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || zip.readUInt32LE(eocd) !== END_OF_CENTRAL_DIRECTORY) throw new Error('no EOCD');
  const cdStart = zip.readUInt32LE(eocd + 16);
  const records: Buffer[] = [];
  let template: Buffer | undefined;
  for (let offset = cdStart; offset < eocd;) {
    const length =
      46 + zip.readUInt16LE(offset + 28) + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
    const record = zip.subarray(offset, offset + length);
    if (record.subarray(46, 46 + zip.readUInt16LE(offset + 28)).toString('utf8') === name) template = record;
    else records.push(record);
    offset += length;
  }
  if (!template) throw new Error(`no entry called ${name}`);
  for (let copy = 0; copy < copies; copy++) {
    const record = Buffer.from(template);
    const renamed = Buffer.from(rename(copy), 'utf8');
    if (renamed.length !== Buffer.byteLength(name)) throw new Error('the new name must have the same length');
    renamed.copy(record, 46);
    records.push(record);
  }
  const directory = Buffer.concat(records);
  const end = Buffer.from(zip.subarray(eocd, eocd + 22));
  end.writeUInt16LE(records.length, 8);
  end.writeUInt16LE(records.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(cdStart, 16);
  return Buffer.concat([zip.subarray(0, cdStart), directory, end]);
}

/** WordprocessingML's main namespace. */
export const WORD_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/**
 * The smallest Word package Word and mammoth accept: content types, the root relationship and
 * `documentXml` as word/document.xml (`compress: false` stores it, for documents that would
 * compress past the zip-bomb ratio), plus any `extra` entries.
 */
export function docxPackage(
  documentXml: string,
  extra: FixtureEntry[] = [],
  compress = true,
): Promise<Buffer> {
  return buildZip([
    {
      path: '[Content_Types].xml',
      data:
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
        '</Types>',
    },
    {
      path: '_rels/.rels',
      data:
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
        '</Relationships>',
    },
    { path: 'word/document.xml', data: documentXml, compress },
    ...extra,
  ]);
}
