import { extname } from 'node:path';
import { PermanentDocumentError, TroveErrorCode } from '@trove/domain';

export const MEDIA_TYPES = {
  markdown: 'text/markdown',
  plainText: 'text/plain',
  html: 'text/html',
  pdf: 'application/pdf',
  epub: 'application/epub+zip',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  zip: 'application/zip',
} as const;

const SUPPORTED = 'supported types are PDF, EPUB, DOCX, HTML, Markdown and plain text';

/** Magic numbers of binary formats Trove does not read, so a renamed binary is named in the error. */
const UNSUPPORTED_SIGNATURES: { name: string; mediaType: string; bytes: number[] }[] = [
  { name: 'PNG image', mediaType: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47] },
  { name: 'JPEG image', mediaType: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { name: 'GIF image', mediaType: 'image/gif', bytes: [0x47, 0x49, 0x46, 0x38] },
  { name: 'gzip archive', mediaType: 'application/gzip', bytes: [0x1f, 0x8b] },
  { name: 'ELF executable', mediaType: 'application/x-executable', bytes: [0x7f, 0x45, 0x4c, 0x46] },
  {
    name: 'legacy Word/Office (OLE)',
    mediaType: 'application/x-ole-storage',
    bytes: [0xd0, 0xcf, 0x11, 0xe0],
  },
];

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];
const MARKDOWN_EXTENSIONS = new Set(['.md', '.markdown', '.mdown', '.mkd']);
const TEXT_EXTENSIONS = new Set(['', '.txt', '.text']);
const HTML_EXTENSIONS = new Set(['.html', '.htm', '.xhtml']);
/** How much of a file is inspected at upload time; the parser validates the whole file. */
const SNIFF_BYTES = 64 * 1024;

export interface DetectedType {
  mediaType: string;
}

/**
 * Decides a file's type from its content first and its name second: a PDF, EPUB or DOCX is
 * recognised whatever it is called. Throws a permanent UNSUPPORTED_MEDIA_TYPE error for other
 * binaries (named in the message), for plain `.zip` archives (imported as folder sources, not
 * documents) and for text types Trove has no parser for.
 */
export function detectMediaType(fileName: string, data: Buffer): DetectedType {
  const head = data.subarray(0, SNIFF_BYTES);
  // The PDF header may follow a little junk (allowed by readers); look in the first kilobyte.
  if (head.subarray(0, 1024).includes('%PDF-')) return { mediaType: MEDIA_TYPES.pdf };
  if (ZIP_SIGNATURE.every((b, i) => head[i] === b)) return { mediaType: zipKind(fileName, data) };
  const signature = UNSUPPORTED_SIGNATURES.find((s) => s.bytes.every((b, i) => head[i] === b));
  if (signature) {
    throw new PermanentDocumentError(
      TroveErrorCode.UnsupportedMediaType,
      `${fileName} is a ${signature.name} file (${signature.mediaType}); ${SUPPORTED}`,
    );
  }
  if (head.includes(0)) {
    throw new PermanentDocumentError(
      TroveErrorCode.UnsupportedMediaType,
      `${fileName} looks binary (it contains NUL bytes); ${SUPPORTED}`,
    );
  }
  const extension = extname(fileName).toLowerCase();
  // HTML declares its own encoding (windows-1251, GB18030...): the HTML parser decodes it.
  if (HTML_EXTENSIONS.has(extension) || looksLikeHtml(head)) return { mediaType: MEDIA_TYPES.html };
  if (!isUtf8Prefix(head, data.length > SNIFF_BYTES)) {
    throw new PermanentDocumentError(
      TroveErrorCode.UnsupportedMediaType,
      `${fileName} is not UTF-8 text; ${SUPPORTED}`,
    );
  }
  if (MARKDOWN_EXTENSIONS.has(extension)) return { mediaType: MEDIA_TYPES.markdown };
  if (TEXT_EXTENSIONS.has(extension)) return { mediaType: MEDIA_TYPES.plainText };
  throw new PermanentDocumentError(
    TroveErrorCode.UnsupportedMediaType,
    `${fileName}: the extension ${extension} is not supported; ${SUPPORTED} (.pdf, .epub, .docx, .html, .md, .txt)`,
  );
}

/** File extensions a folder source picks up (other files are skipped with a reason). */
export const SUPPORTED_EXTENSIONS = new Set([
  ...MARKDOWN_EXTENSIONS,
  ...HTML_EXTENSIONS,
  '.txt',
  '.text',
  '.pdf',
  '.epub',
  '.docx',
]);

/**
 * EPUB puts an uncompressed `mimetype` entry first; a DOCX has `word/document.xml`. Entry names
 * are stored uncompressed, so a byte search finds them without unpacking.
 */
function zipKind(fileName: string, data: Buffer): string {
  if (data.subarray(30, 58).toString('latin1') === 'mimetypeapplication/epub+zip') return MEDIA_TYPES.epub;
  if (data.includes('word/document.xml')) return MEDIA_TYPES.docx;
  if (data.includes('META-INF/container.xml') && data.includes('mimetype')) return MEDIA_TYPES.epub;
  throw new PermanentDocumentError(
    TroveErrorCode.UnsupportedMediaType,
    `${fileName} is a ZIP archive: import a zipped folder as a folder source (POST /v1/projects/<id>/archives); ${SUPPORTED}`,
  );
}

function looksLikeHtml(head: Buffer): boolean {
  const start = head
    .subarray(0, 1024)
    .toString('latin1')
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart();
  return /^<!doctype html|^<html[\s>]|^<\?xml[^>]*>\s*<!doctype html|^<\?xml[^>]*>\s*<html[\s>]/i.test(start);
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
