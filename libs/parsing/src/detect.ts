import { extname } from 'node:path';
import { PermanentDocumentError, TroveErrorCode } from '@trove/domain';

export const MEDIA_TYPES = {
  markdown: 'text/markdown',
  plainText: 'text/plain',
} as const;

/** Magic numbers of common binary formats, so a renamed binary is named in the error. */
const SIGNATURES: { name: string; mediaType: string; bytes: number[] }[] = [
  { name: 'PDF', mediaType: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { name: 'ZIP (or DOCX/EPUB)', mediaType: 'application/zip', bytes: [0x50, 0x4b, 0x03, 0x04] },
  { name: 'PNG image', mediaType: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47] },
  { name: 'JPEG image', mediaType: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { name: 'GIF image', mediaType: 'image/gif', bytes: [0x47, 0x49, 0x46, 0x38] },
  { name: 'gzip archive', mediaType: 'application/gzip', bytes: [0x1f, 0x8b] },
  { name: 'ELF executable', mediaType: 'application/x-executable', bytes: [0x7f, 0x45, 0x4c, 0x46] },
];

const MARKDOWN_EXTENSIONS = new Set(['.md', '.markdown', '.mdown', '.mkd']);
const TEXT_EXTENSIONS = new Set(['', '.txt', '.text']);
/** How much of a file is inspected at upload time; the parser validates the whole file. */
const SNIFF_BYTES = 64 * 1024;

export interface DetectedType {
  mediaType: string;
}

/**
 * Decides a file's type from its content first and its name second. Throws a permanent
 * UNSUPPORTED_MEDIA_TYPE error for binaries and for text types Trove has no parser for yet.
 */
export function detectMediaType(fileName: string, data: Buffer): DetectedType {
  const head = data.subarray(0, SNIFF_BYTES);
  const signature = SIGNATURES.find((s) => s.bytes.every((b, i) => head[i] === b));
  if (signature) {
    throw new PermanentDocumentError(
      TroveErrorCode.UnsupportedMediaType,
      `${fileName} is a ${signature.name} file (${signature.mediaType}); supported types are Markdown and plain text`,
    );
  }
  if (head.includes(0)) {
    throw new PermanentDocumentError(
      TroveErrorCode.UnsupportedMediaType,
      `${fileName} looks binary (it contains NUL bytes); supported types are Markdown and plain text`,
    );
  }
  if (!isUtf8Prefix(head, data.length > SNIFF_BYTES)) {
    throw new PermanentDocumentError(
      TroveErrorCode.UnsupportedMediaType,
      `${fileName} is not UTF-8 text; supported types are Markdown and plain text`,
    );
  }
  const extension = extname(fileName).toLowerCase();
  if (MARKDOWN_EXTENSIONS.has(extension)) return { mediaType: MEDIA_TYPES.markdown };
  if (TEXT_EXTENSIONS.has(extension)) return { mediaType: MEDIA_TYPES.plainText };
  throw new PermanentDocumentError(
    TroveErrorCode.UnsupportedMediaType,
    `${fileName}: the extension ${extension} is not supported; supported types are Markdown (.md) and plain text (.txt)`,
  );
}

/** Valid UTF-8, allowing a multi-byte sequence cut off at the end of a truncated prefix. */
function isUtf8Prefix(bytes: Buffer, truncated: boolean): boolean {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    decoder.decode(bytes, { stream: truncated });
    return true;
  } catch {
    return false;
  }
}

/** Decodes a whole file as UTF-8 (BOM removed) or fails the document with the byte offset. */
export function decodeUtf8(fileName: string, data: Buffer): string {
  if (data.length === 0) {
    throw new PermanentDocumentError(TroveErrorCode.EmptyDocument, `${fileName} is empty (0 bytes)`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(data);
  } catch {
    throw new PermanentDocumentError(
      TroveErrorCode.UndecodableDocument,
      `${fileName} is not valid UTF-8 (decoding fails at byte offset ${firstInvalidUtf8Offset(data)})`,
    );
  }
}

function firstInvalidUtf8Offset(data: Buffer): number {
  let low = 0;
  let high = data.length;
  // Binary search for the shortest prefix that fails to decode.
  while (low < high) {
    const mid = (low + high) >>> 1;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(data.subarray(0, mid + 1), { stream: true });
      low = mid + 1;
    } catch {
      high = mid;
    }
  }
  return low;
}
