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
/** Images, read by OCR (a scan, a photographed page, a whiteboard). */
export const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set([
  '.png',
  '.jpg',
  '.jpeg',
  '.tif',
  '.tiff',
  '.webp',
  '.gif',
]);

/**
 * File extensions picked up when a folder is read (a folder source, a zipped folder, the CLI's
 * `documents add <folder>`); other files are skipped with a reason.
 */
export const SUPPORTED_EXTENSIONS: ReadonlySet<string> = new Set([
  ...MARKDOWN_EXTENSIONS,
  ...HTML_EXTENSIONS,
  '.txt',
  '.text',
  '.pdf',
  '.epub',
  '.docx',
  ...IMAGE_EXTENSIONS,
]);

const MEDIA_TYPE_LABELS: Readonly<Record<string, string>> = {
  [MEDIA_TYPES.markdown]: 'Markdown',
  [MEDIA_TYPES.plainText]: 'Plain text',
  [MEDIA_TYPES.html]: 'HTML',
  [MEDIA_TYPES.pdf]: 'PDF',
  [MEDIA_TYPES.epub]: 'EPUB',
  [MEDIA_TYPES.docx]: 'Word (DOCX)',
  [MEDIA_TYPES.zip]: 'ZIP archive',
  [MEDIA_TYPES.png]: 'PNG image',
  [MEDIA_TYPES.jpeg]: 'JPEG image',
  [MEDIA_TYPES.tiff]: 'TIFF image',
  [MEDIA_TYPES.webp]: 'WebP image',
  [MEDIA_TYPES.gif]: 'GIF image',
  [PARSED_JSON_MEDIA_TYPE]: 'Pages (Notion, MkDocs)',
};

/** What a person calls a document of this media type ("PDF", "Markdown"); the type itself when unknown. */
export function mediaTypeLabel(mediaType: string): string {
  return MEDIA_TYPE_LABELS[mediaType] ?? mediaType;
}
