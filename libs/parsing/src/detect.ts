import { extname } from 'node:path';
import {
  DOCUMENT_FORMATS,
  HTML_EXTENSIONS,
  MARKDOWN_EXTENSIONS,
  MEDIA_TYPES,
  mediaTypeForExtension,
  PermanentDocumentError,
  SUPPORTED_EXTENSIONS,
  supportedFormatsText,
  TEXT_EXTENSIONS,
  TroveErrorCode,
} from '@trove/domain';
import { hasOleStream, isEncryptedOffice, OLE_SIGNATURE } from './office/ole';

export { MEDIA_TYPES, SUPPORTED_EXTENSIONS };

const SUPPORTED = `supported types are ${supportedFormatsText()}`;

/** Magic numbers of the images Trove reads (by OCR). */
const IMAGE_SIGNATURES: { mediaType: string; bytes: (number | undefined)[] }[] = [
  { mediaType: MEDIA_TYPES.png, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { mediaType: MEDIA_TYPES.jpeg, bytes: [0xff, 0xd8, 0xff] },
  { mediaType: MEDIA_TYPES.gif, bytes: [0x47, 0x49, 0x46, 0x38] },
  { mediaType: MEDIA_TYPES.tiff, bytes: [0x49, 0x49, 0x2a, 0x00] },
  { mediaType: MEDIA_TYPES.tiff, bytes: [0x4d, 0x4d, 0x00, 0x2a] },
  // RIFF, four bytes of size, WEBP
  {
    mediaType: MEDIA_TYPES.webp,
    bytes: [0x52, 0x49, 0x46, 0x46, undefined, undefined, undefined, undefined, 0x57, 0x45, 0x42, 0x50],
  },
];

/** Magic numbers of binary formats Trove does not read, so a renamed binary is named in the error. */
const UNSUPPORTED_SIGNATURES: { name: string; mediaType: string; bytes: number[] }[] = [
  { name: 'gzip archive', mediaType: 'application/gzip', bytes: [0x1f, 0x8b] },
  { name: 'ELF executable', mediaType: 'application/x-executable', bytes: [0x7f, 0x45, 0x4c, 0x46] },
];

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];
const RTF_SIGNATURE = Buffer.from('{\\rtf');
/** Formats stored as a zip archive: a zip named so goes to its parser, which checks its parts. */
const ZIP_FORMATS = new Set<string>([
  MEDIA_TYPES.epub,
  MEDIA_TYPES.docx,
  MEDIA_TYPES.xlsx,
  MEDIA_TYPES.pptx,
  MEDIA_TYPES.odt,
  MEDIA_TYPES.ods,
  MEDIA_TYPES.odp,
]);
/** OpenDocument's `mimetype` entry, stored first in the archive, by the parser it names. */
const ODF_MIMETYPES: Record<string, string> = {
  [MEDIA_TYPES.odt]: MEDIA_TYPES.odt,
  [MEDIA_TYPES.ods]: MEDIA_TYPES.ods,
  [MEDIA_TYPES.odp]: MEDIA_TYPES.odp,
  [`${MEDIA_TYPES.odt}-template`]: MEDIA_TYPES.odt,
  [`${MEDIA_TYPES.ods}-template`]: MEDIA_TYPES.ods,
  [`${MEDIA_TYPES.odp}-template`]: MEDIA_TYPES.odp,
  [MEDIA_TYPES.epub]: MEDIA_TYPES.epub,
};
/** The declared types, longest first (a template's type starts with its document's). */
const DECLARED_MIMETYPES = Object.keys(ODF_MIMETYPES).sort((a, b) => b.length - a.length);
/** Formats whose files may be in any encoding (UTF-16 included, NUL bytes and all): their parser detects it. */
const ANY_ENCODING = new Set<string>([MEDIA_TYPES.csv, MEDIA_TYPES.tsv]);
/** How much of a file is inspected at upload time; the parser validates the whole file. */
const SNIFF_BYTES = 64 * 1024;

export interface DetectedType {
  mediaType: string;
}

/** A file known by its first and last bytes and its size (an upload streamed to disk). */
export interface FileSample {
  head: Buffer;
  tail: Buffer;
  size: number;
}

const PDF_SIGNATURE = Buffer.from('%PDF-');
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** Readers accept a little leading whitespace before the header; not arbitrary text. */
const MAX_LEADING_WHITESPACE = 1024;

/**
 * Decides a file's type from its content first and its name second: a PDF, an image, RTF and the
 * zip-based formats (EPUB, DOCX, XLSX, PPTX, OpenDocument) are recognised whatever they are called;
 * CSV and TSV by their extension. Throws a permanent UNSUPPORTED_MEDIA_TYPE error for other
 * binaries (named in the message), for plain `.zip` archives (imported as folder sources, not
 * documents) and for text types Trove has no parser for.
 */
export function detectMediaType(fileName: string, data: Buffer | FileSample): DetectedType {
  const sample = Buffer.isBuffer(data) ? { head: data, tail: undefined, size: data.length } : data;
  const head = sample.head.subarray(0, SNIFF_BYTES);
  const extension = extname(fileName).toLowerCase();
  // Nothing to sniff: the parser of the named type reports the file as empty.
  if (sample.size === 0 && EMPTY_TYPE_BY_EXTENSION[extension]) {
    return { mediaType: EMPTY_TYPE_BY_EXTENSION[extension] };
  }
  if (startsWithPdfSignature(head)) return { mediaType: MEDIA_TYPES.pdf };
  const image = IMAGE_SIGNATURES.find((s) => s.bytes.every((b, i) => b === undefined || head[i] === b));
  if (image) return { mediaType: image.mediaType };
  if (ZIP_SIGNATURE.every((b, i) => head[i] === b)) {
    return { mediaType: zipKind(fileName, sample.head, sample.tail) };
  }
  if (head.subarray(0, OLE_SIGNATURE.length).equals(OLE_SIGNATURE)) {
    return { mediaType: oleKind(fileName, sample.head, sample.tail) };
  }
  if (head.subarray(0, RTF_SIGNATURE.length).equals(RTF_SIGNATURE)) return { mediaType: MEDIA_TYPES.rtf };
  const signature = UNSUPPORTED_SIGNATURES.find((s) => s.bytes.every((b, i) => head[i] === b));
  if (signature) {
    throw new PermanentDocumentError(
      TroveErrorCode.UnsupportedMediaType,
      `${fileName} is a ${signature.name} file (${signature.mediaType}); ${SUPPORTED}`,
    );
  }
  const named = mediaTypeForExtension(extension);
  if (named && ANY_ENCODING.has(named)) return { mediaType: named };
  if (head.includes(0)) {
    throw new PermanentDocumentError(
      TroveErrorCode.UnsupportedMediaType,
      `${fileName} looks binary (it contains NUL bytes); ${SUPPORTED}`,
    );
  }
  // HTML declares its own encoding (windows-1251, GB18030...): the HTML parser decodes it.
  if (HTML_EXTENSIONS.has(extension) || looksLikeHtml(head)) return { mediaType: MEDIA_TYPES.html };
  if (!isUtf8Prefix(head, sample.size > head.length)) {
    throw new PermanentDocumentError(
      TroveErrorCode.UnsupportedMediaType,
      `${fileName} is not UTF-8 text; ${SUPPORTED}`,
    );
  }
  if (MARKDOWN_EXTENSIONS.has(extension)) return { mediaType: MEDIA_TYPES.markdown };
  if (TEXT_EXTENSIONS.has(extension)) return { mediaType: MEDIA_TYPES.plainText };
  throw new PermanentDocumentError(
    TroveErrorCode.UnsupportedMediaType,
    `${fileName}: the extension ${extension} is not supported; ${SUPPORTED} (${DOCUMENT_FORMATS.map((f) => f.extensions[0]).join(', ')})`,
  );
}

const EMPTY_TYPE_BY_EXTENSION: Record<string, string> = Object.fromEntries(
  DOCUMENT_FORMATS.flatMap((format) => format.extensions.map((e) => [e, format.mediaType])),
);

/** `%PDF-` at the very start, after at most a UTF-8 BOM and some whitespace. */
function startsWithPdfSignature(head: Buffer): boolean {
  let at = head.subarray(0, UTF8_BOM.length).equals(UTF8_BOM) ? UTF8_BOM.length : 0;
  const limit = Math.min(head.length, at + MAX_LEADING_WHITESPACE);
  while (at < limit && [0x20, 0x09, 0x0a, 0x0d, 0x0c, 0x00].includes(head[at])) at++;
  return head.subarray(at, at + PDF_SIGNATURE.length).equals(PDF_SIGNATURE);
}

/**
 * EPUB and OpenDocument put an uncompressed `mimetype` entry first; a DOCX has
 * `word/document.xml`, an XLSX `xl/workbook.xml`, a PPTX `ppt/presentation.xml`. Entry names are
 * stored uncompressed (in the local headers and again in the central directory at the end), so a
 * byte search of the start and the end finds them without unpacking. A zip whose parts are out of
 * sight (a central directory larger than the sample) goes by its extension.
 */
function zipKind(fileName: string, head: Buffer, tail?: Buffer): string {
  const has = (name: string) => head.includes(name) || (tail?.includes(name) ?? false);
  const declared = firstEntryMimetype(head) ?? storedOdfType(head);
  if (declared && ODF_MIMETYPES[declared]) return ODF_MIMETYPES[declared];
  if (has('word/document.xml')) return MEDIA_TYPES.docx;
  if (has('xl/workbook.xml') || has('xl/workbook.bin')) return MEDIA_TYPES.xlsx;
  if (has('ppt/presentation.xml')) return MEDIA_TYPES.pptx;
  if (has('META-INF/container.xml') && has('mimetype')) return MEDIA_TYPES.epub;
  const named = mediaTypeForExtension(extname(fileName));
  if (named && ZIP_FORMATS.has(named)) return named;
  throw new PermanentDocumentError(
    TroveErrorCode.UnsupportedMediaType,
    `${fileName} is a ZIP archive: import a zipped folder as a folder source (POST /v1/projects/<id>/archives); ${SUPPORTED}`,
  );
}

/**
 * The media type a stored `mimetype` entry first in the archive declares (EPUB, OpenDocument).
 * Its sizes may sit in a data descriptor after it, so the known values are matched at its start.
 */
function firstEntryMimetype(head: Buffer): string | undefined {
  if (head.length < 30 || head.subarray(30, 38).toString('latin1') !== 'mimetype') return undefined;
  const start = 38 + head.readUInt16LE(28);
  const content = head.subarray(start, start + 100).toString('latin1');
  return DECLARED_MIMETYPES.find((mimetype) => content.startsWith(mimetype));
}

/**
 * An OpenDocument package written without its `mimetype` entry first (some libraries do) names
 * its type in a stored manifest: the first OpenDocument type in the sample is the package's own.
 */
function storedOdfType(head: Buffer): string | undefined {
  if (!head.includes('content.xml')) return undefined;
  const text = head.toString('latin1');
  let first: { at: number; type: string } | undefined;
  for (const type of DECLARED_MIMETYPES) {
    const at = text.indexOf(type);
    if (at >= 0 && (first === undefined || at < first.at)) first = { at, type };
  }
  return first?.type;
}

/**
 * An OLE compound file (Compound File Binary) is a legacy Excel workbook (.xls), a legacy Word or
 * PowerPoint file, or an Office 2007+ file saved with a password (an `EncryptedPackage` inside).
 * The workbook is read; a password-protected file goes to the parser its name names, which says
 * it is protected; the others are refused here with what to do.
 */
function oleKind(fileName: string, head: Buffer, tail?: Buffer): string {
  const has = (name: string) => hasOleStream(head, name) || (tail !== undefined && hasOleStream(tail, name));
  const named = mediaTypeForExtension(extname(fileName));
  if (isEncryptedOffice(head) || (tail && isEncryptedOffice(tail))) {
    if (named && (ZIP_FORMATS.has(named) || named === MEDIA_TYPES.xls)) return named;
    throw new PermanentDocumentError(
      TroveErrorCode.EncryptedDocument,
      `${fileName} is a password-protected Office file; save it without a password and upload it again`,
    );
  }
  const word = has('WordDocument');
  if (named === MEDIA_TYPES.xls || (!word && (has('Workbook') || has('Book')))) return MEDIA_TYPES.xls;
  const legacy = has('PowerPoint Document') ? 'PowerPoint 97–2003 (.ppt)' : 'Word 97–2003 (.doc)';
  throw new PermanentDocumentError(
    TroveErrorCode.UnsupportedMediaType,
    `${fileName} is a legacy ${legacy} file (application/x-ole-storage); save it in the current format (.docx, .pptx) or as PDF; ${SUPPORTED}`,
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
export function isUtf8Prefix(bytes: Buffer, truncated: boolean): boolean {
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
