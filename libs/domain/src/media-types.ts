/**
 * Documents a connector has already structured (Notion pages) travel as parsed JSON: a
 * `ParsedDocument`, read back by the parsed-JSON parser. Here so connectors (providers) and
 * parsing (a feature) share one definition without depending on each other.
 */
export const PARSED_JSON_MEDIA_TYPE = 'application/vnd.trove.parsed+json';

/** The media types the parsers read; connectors name what they fetch with these. */
export const MEDIA_TYPES = {
  markdown: 'text/markdown',
  plainText: 'text/plain',
  html: 'text/html',
  pdf: 'application/pdf',
  epub: 'application/epub+zip',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  odt: 'application/vnd.oasis.opendocument.text',
  rtf: 'application/rtf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odp: 'application/vnd.oasis.opendocument.presentation',
  zip: 'application/zip',
  png: 'image/png',
  jpeg: 'image/jpeg',
  tiff: 'image/tiff',
  webp: 'image/webp',
  gif: 'image/gif',
} as const;

/** Images read as documents (by OCR): each image, or each page of a TIFF, is a citation page. */
export const IMAGE_MEDIA_TYPES: readonly string[] = [
  MEDIA_TYPES.png,
  MEDIA_TYPES.jpeg,
  MEDIA_TYPES.tiff,
  MEDIA_TYPES.webp,
  MEDIA_TYPES.gif,
];

/** File name extensions by the format they name (a file's content still decides at upload). */
export const MARKDOWN_EXTENSIONS: ReadonlySet<string> = new Set(['.md', '.markdown', '.mdown', '.mkd']);
export const TEXT_EXTENSIONS: ReadonlySet<string> = new Set(['', '.txt', '.text']);
export const HTML_EXTENSIONS: ReadonlySet<string> = new Set(['.html', '.htm', '.xhtml']);

/** A kind of file Trove reads: its name in messages, its media type and the extensions that name it. */
export interface DocumentFormat {
  name: string;
  mediaType: string;
  extensions: readonly string[];
  /** An image, read by OCR (not from Git repositories, where images are mostly figures and icons). */
  image?: boolean;
}

/**
 * Every format Trove reads, in the order messages list them: the one list behind the extensions
 * folder, archive and Git sources pick up, the CLI's folder walk, the dashboard's file picker and
 * the errors naming what is supported.
 */
export const DOCUMENT_FORMATS: readonly DocumentFormat[] = [
  { name: 'PDF', mediaType: MEDIA_TYPES.pdf, extensions: ['.pdf'] },
  { name: 'EPUB', mediaType: MEDIA_TYPES.epub, extensions: ['.epub'] },
  { name: 'DOCX', mediaType: MEDIA_TYPES.docx, extensions: ['.docx'] },
  { name: 'ODT', mediaType: MEDIA_TYPES.odt, extensions: ['.odt'] },
  { name: 'RTF', mediaType: MEDIA_TYPES.rtf, extensions: ['.rtf'] },
  { name: 'XLSX', mediaType: MEDIA_TYPES.xlsx, extensions: ['.xlsx', '.xlsm'] },
  { name: 'XLS', mediaType: MEDIA_TYPES.xls, extensions: ['.xls'] },
  { name: 'ODS', mediaType: MEDIA_TYPES.ods, extensions: ['.ods'] },
  { name: 'CSV', mediaType: MEDIA_TYPES.csv, extensions: ['.csv'] },
  { name: 'TSV', mediaType: MEDIA_TYPES.tsv, extensions: ['.tsv', '.tab'] },
  { name: 'PPTX', mediaType: MEDIA_TYPES.pptx, extensions: ['.pptx'] },
  { name: 'ODP', mediaType: MEDIA_TYPES.odp, extensions: ['.odp'] },
  { name: 'HTML', mediaType: MEDIA_TYPES.html, extensions: [...HTML_EXTENSIONS] },
  { name: 'Markdown', mediaType: MEDIA_TYPES.markdown, extensions: [...MARKDOWN_EXTENSIONS] },
  { name: 'plain text', mediaType: MEDIA_TYPES.plainText, extensions: ['.txt', '.text'] },
  { name: 'PNG', mediaType: MEDIA_TYPES.png, extensions: ['.png'], image: true },
  { name: 'JPEG', mediaType: MEDIA_TYPES.jpeg, extensions: ['.jpg', '.jpeg'], image: true },
  { name: 'TIFF', mediaType: MEDIA_TYPES.tiff, extensions: ['.tif', '.tiff'], image: true },
  { name: 'WebP', mediaType: MEDIA_TYPES.webp, extensions: ['.webp'], image: true },
  { name: 'GIF', mediaType: MEDIA_TYPES.gif, extensions: ['.gif'], image: true },
];

/** Images, read by OCR (a scan, a photographed page, a whiteboard). */
export const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(
  DOCUMENT_FORMATS.filter((format) => format.image).flatMap((format) => format.extensions),
);

/** The media type a file name's extension names (`.xlsx` → XLSX), when Trove reads that format. */
export function mediaTypeForExtension(extension: string): string | undefined {
  const lower = extension.toLowerCase();
  return DOCUMENT_FORMATS.find((format) => format.extensions.includes(lower))?.mediaType;
}

/**
 * File extensions picked up when a folder is read (a folder source, a zipped folder, a Git
 * repository, the CLI's `documents add <folder>`); other files are skipped with a reason.
 */
export const SUPPORTED_EXTENSIONS: ReadonlySet<string> = new Set(
  DOCUMENT_FORMATS.flatMap((format) => format.extensions),
);

/** What an upload may be, as a file input's `accept` attribute: every extension Trove reads. */
export const UPLOAD_ACCEPT = DOCUMENT_FORMATS.flatMap((format) => format.extensions).join(',');

/** The supported formats as a sentence, for error messages and help texts. */
export function supportedFormatsText(): string {
  const documents = DOCUMENT_FORMATS.filter((format) => !format.image).map((format) => format.name);
  const images = DOCUMENT_FORMATS.filter((format) => format.image).map((format) => format.name);
  return `${documents.join(', ')} and images (${images.join(', ')})`;
}
