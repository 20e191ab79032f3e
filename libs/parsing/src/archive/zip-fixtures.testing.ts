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
  uncompressedSize: { local: 22, central: 24 },
} as const;

export interface EntryPatch {
  /** Replacement name of the same byte length (yazl refuses `../` names, the bytes do not). */
  name?: string;
  flags?: number;
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
