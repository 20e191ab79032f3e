/**
 * The limits every document is held to, whatever its source (an upload, a folder, a web site,
 * Notion, Git): checked as early as the source allows (a listed size, `Content-Length`, an image
 * header, a PDF's page count) and again while parsing. A document over one is skipped (found
 * before it was fetched) or fails (found while parsing), with a reason that names the limit, the
 * value measured and the setting that raises it; the sync goes on.
 */
import { PermanentDocumentError, TroveErrorCode } from './errors';

export interface DocumentLimits {
  /** Bytes of the original file (or of a source item as fetched). */
  maxBytes: number;
  /** Bytes a zip-based document (Office, OpenDocument, EPUB) expands to, all its parts together. */
  maxExpandedBytes: number;
  /** Characters of text the parser extracts. */
  maxTextChars: number;
  /** Pages of a PDF, slides of a presentation, frames of a TIFF. */
  maxPages: number;
  /** Rows of a workbook (all sheets together) or records of a CSV file. */
  maxRows: number;
  /** Pixels of an image (of each frame of a TIFF). */
  maxPixels: number;
}

/** What one source may bring in: items kept per source, bytes fetched per sync. */
export interface SourceLimits {
  /** Items of one source indexed at most; items beyond are skipped (and kept, when indexed already). */
  maxDocumentsPerSource: number;
  /** Bytes of the changed items one sync fetches, by their listed sizes; the rest wait for a later sync. */
  maxSyncBytes: number;
}

const MiB = 1024 * 1024;

/** Uploads have been capped at 50 MB; the other limits are generous for real documents. */
export const DEFAULT_DOCUMENT_LIMITS: Readonly<DocumentLimits> = Object.freeze({
  maxBytes: 50 * MiB,
  maxExpandedBytes: 512 * MiB,
  maxTextChars: 20_000_000,
  maxPages: 5_000,
  maxRows: 1_000_000,
  maxPixels: 100_000_000,
});

/** A docs repository of tens of thousands of files and a few GB passes. */
export const DEFAULT_SOURCE_LIMITS: Readonly<SourceLimits> = Object.freeze({
  maxDocumentsPerSource: 50_000,
  maxSyncBytes: 4096 * MiB,
});

type Limit = keyof DocumentLimits | keyof SourceLimits;

/** Each limit's environment variable and how its values read. */
export const LIMIT_SETTINGS: Readonly<Record<Limit, { env: string; unit: string; what: string }>> = {
  maxBytes: { env: 'TROVE_DOCUMENT_MAX_BYTES', unit: 'bytes', what: 'per document' },
  maxExpandedBytes: {
    env: 'TROVE_DOCUMENT_MAX_EXPANDED_BYTES',
    unit: 'bytes expanded',
    what: 'per document',
  },
  maxTextChars: { env: 'TROVE_DOCUMENT_MAX_TEXT_CHARS', unit: 'characters of text', what: 'per document' },
  maxPages: { env: 'TROVE_DOCUMENT_MAX_PAGES', unit: 'pages', what: 'per document' },
  maxRows: { env: 'TROVE_DOCUMENT_MAX_ROWS', unit: 'rows', what: 'per document' },
  maxPixels: { env: 'TROVE_DOCUMENT_MAX_PIXELS', unit: 'pixels', what: 'per image' },
  maxDocumentsPerSource: { env: 'TROVE_SOURCE_MAX_DOCUMENTS', unit: 'documents', what: 'per source' },
  maxSyncBytes: { env: 'TROVE_SYNC_MAX_BYTES', unit: 'bytes', what: 'per sync' },
};

/**
 * Why something is over a limit, in words: `big.txt has 125,829,039 bytes, over the limit of
 * 52,428,800 bytes per document (TROVE_DOCUMENT_MAX_BYTES raises it)`. `measured` may be a lower
 * bound (`more than`), when counting stopped at the limit.
 */
export function limitReason(
  limit: Limit,
  subject: string,
  measured: number,
  max: number,
  options: { atLeast?: boolean } = {},
): string {
  const { env, unit, what } = LIMIT_SETTINGS[limit];
  const amount = `${options.atLeast ? 'more than ' : ''}${formatCount(measured)} ${unit}`;
  return `${subject} has ${amount}, over the limit of ${formatCount(max)} ${unit} ${what} (${env} raises it)`;
}

/**
 * The failure of a document over a limit: permanent; PAYLOAD_TOO_LARGE for its bytes (found
 * before it was read), PARSE_LIMIT_EXCEEDED for anything found while reading it.
 */
export function documentOverLimit(
  limit: keyof DocumentLimits,
  subject: string,
  measured: number,
  max: number,
  options: { atLeast?: boolean } = {},
): PermanentDocumentError {
  return new PermanentDocumentError(
    limit === 'maxBytes' ? TroveErrorCode.PayloadTooLarge : TroveErrorCode.ParseLimitExceeded,
    limitReason(limit, subject, measured, max, options),
  );
}

/** Throws {@link documentOverLimit} when `measured` is over `limits[limit]`. */
export function checkDocumentLimit<L extends keyof DocumentLimits>(
  limits: Pick<DocumentLimits, L>,
  limit: L,
  subject: string,
  measured: number,
): void {
  if (measured > limits[limit]) throw documentOverLimit(limit, subject, measured, limits[limit]);
}

function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** Characters of text a parsed document holds (its blocks'). */
export function parsedTextLength(document: { blocks: readonly { text: string }[] }): number {
  let total = 0;
  for (const block of document.blocks) total += block.text.length;
  return total;
}
