import parseRange from 'range-parser';
import type { BlobStat, ByteRange } from '@trove/domain';
import { contentSecurityPolicy } from '../core/security-headers';

/**
 * Stored originals are somebody else's files: whatever a browser renders of them may run no
 * script, load nothing from elsewhere, submit no form, navigate nowhere and be framed by no page.
 * Images of the file itself (`data:`) and inline styles keep a text or PDF view readable.
 */
export const ORIGINALS_CONTENT_SECURITY_POLICY = contentSecurityPolicy({
  sandbox: [],
  'default-src': ["'none'"],
  'img-src': ["'self'", 'data:'],
  'style-src': ["'unsafe-inline'"],
  'form-action': ["'none'"],
  'base-uri': ["'none'"],
  'frame-ancestors': ["'none'"],
});

/**
 * Types a browser shows passively: plain text, Markdown as text, JSON, PDF (citations open at
 * `#page=N`). Everything else (HTML, XHTML, SVG, XML, office files, archives) is a download:
 * served inline, a page or an image with markup could still act in the reader's browser.
 */
const INLINE_TYPES: ReadonlySet<string> = new Set([
  'text/plain',
  'text/markdown',
  'application/json',
  'application/pdf',
]);

/** The headers every response with an original carries, whatever part of it is sent. */
export function originalHeaders(mediaType: string, fileName: string): Record<string, string> {
  const type = servedType(mediaType);
  const disposition = INLINE_TYPES.has(essence(type)) ? 'inline' : 'attachment';
  return {
    'Content-Type': type,
    'Content-Disposition': `${disposition}; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    'Content-Security-Policy': ORIGINALS_CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, max-age=300',
    'Accept-Ranges': 'bytes',
  };
}

/** Text is served with its charset; the parsed-JSON form of connector items as JSON. */
export function servedType(mediaType: string): string {
  if (mediaType.startsWith('text/markdown') || mediaType.startsWith('text/plain'))
    return `${mediaType}; charset=utf-8`;
  if (mediaType.startsWith('application/vnd.trove.parsed+json')) return 'application/json; charset=utf-8';
  return mediaType;
}

/** `text/html; charset=utf-8` → `text/html`. */
function essence(type: string): string {
  return type.split(';')[0]!.trim().toLowerCase();
}

/**
 * The validator of one stored version. Strong (`If-Range` needs that): a blob's bytes never change
 * in place, a new version is written beside it and renamed over it, with a new time.
 */
export function entityTag(stat: BlobStat): string {
  return `"${stat.sizeBytes.toString(16)}-${stat.modifiedAt.getTime().toString(16)}"`;
}

/** `Last-Modified`: whole seconds, as HTTP dates have. */
export function lastModified(stat: BlobStat): string {
  return stat.modifiedAt.toUTCString();
}

/** What to send for a request's `Range` (and `If-Range`) header. */
export type RangePlan = { kind: 'whole' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

/**
 * One byte range is served as 206; several ranges, a malformed header or a unit other than bytes
 * get the whole file (a server may ignore `Range`), and a range wholly past the end gets 416.
 * An `If-Range` naming another version of the file asks for the whole new one.
 */
export function planRange(stat: BlobStat, headers: { range?: string; 'if-range'?: string }): RangePlan {
  if (!headers.range || !ifRangeMatches(headers['if-range'], stat)) return { kind: 'whole' };
  const ranges = parseRange(stat.sizeBytes, headers.range, { combine: true });
  if (ranges === -1) return { kind: 'unsatisfiable' };
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return { kind: 'whole' };
  const [range] = ranges;
  return { kind: 'partial', range: { start: range!.start, end: range!.end } };
}

/**
 * `If-Range` holds the entity tag or the `Last-Modified` date the client's part came from
 * (RFC 9110 13.1.5): either must match exactly. No header means no condition.
 */
function ifRangeMatches(ifRange: string | undefined, stat: BlobStat): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === entityTag(stat);
  const date = Date.parse(value);
  return !Number.isNaN(date) && date === Date.parse(lastModified(stat));
}
