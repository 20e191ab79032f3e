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
} as const;
