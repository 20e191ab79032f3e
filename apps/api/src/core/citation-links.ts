import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ApiConfig } from '@trove/config';
import type { Citation } from '@trove/domain';
import { CONFIG } from './tokens';

const ORIGINAL_PATH = /^\/v1\/documents\/([^/?#]+)\/original(?=$|#)/;
/** An original's path with its `?sig=` (the place after `#` stays). */
const SIGNED_ORIGINAL = /^(\/v1\/documents\/[^/?#]+\/original)\?sig=[^#]*/;
/** A path on the same site (`/guide/`), not `//host` or `/\host`, which browsers read as another host. */
const SITE_PATH = /^\/(?![/\\])/;
/** `sig=<expiry, unix seconds in base 36>-<MAC>`: one parameter, so links stay short. */
const SIGNATURE = /^([0-9a-z]{1,12})-([\w-]{32})$/;

export type LinkCheck = 'valid' | 'expired' | 'invalid';

/**
 * Citations of uploaded files point at the API's copy of the original (`/v1/documents/<id>/original#page=3`,
 * `#sheet=Budget&row=2-40`).
 * Stored paths are made absolute here and signed per document with an expiry, so a citation opens
 * in a browser (which sends no API key) without revealing the key: the signature grants that one
 * file, for a limited time. Links are signed afresh each time they are served.
 */
@Injectable()
export class CitationLinks {
  private readonly base: string;
  private readonly key: Buffer;
  private readonly ttlSeconds: number;

  constructor(@Inject(CONFIG) config: ApiConfig) {
    this.base = (config.api.publicUrl ?? `http://${config.api.host}:${config.api.port}`).replace(/\/+$/, '');
    this.key = createHmac('sha256', config.api.adminApiKey).update('trove-original-links').digest();
    this.ttlSeconds = config.api.linkTtlSeconds;
  }

  /**
   * An absolute, signed link for API paths; other links (Notion, MkDocs sites) pass through when
   * they are http(s) or a site path. Anything else (`javascript:`, `data:`) is dropped: the URL
   * comes from synced content, and every client shows it as a link.
   */
  absolute(url: string | undefined, now = Date.now()): string | undefined {
    if (!url) return url;
    const match = ORIGINAL_PATH.exec(url);
    if (!match) return webLink(url);
    const hash = url.slice(match[0].length);
    return `${this.base}${match[0]}?sig=${this.signature(decodeURIComponent(match[1]), now)}${hash}`;
  }

  /**
   * The link a citation opens: the item in its source as stored, or a signed link to the API's
   * copy of an uploaded original at the page or anchor. Chunks indexed before citations were
   * structured carry only `legacyUrl`, which is made absolute (and signed) as before.
   */
  render(citation: Citation | undefined, legacyUrl?: string, now = Date.now()): string | undefined {
    if (!citation) return this.absolute(legacyUrl, now);
    if (citation.kind === 'source') return citation.url && webLink(citation.url);
    return `${this.original(citation.documentId, now)}${fragment(citation)}`;
  }

  /**
   * A served link as it may be kept (recorded answers): a link to an API original loses its
   * signature and base, so `absolute` signs it afresh whenever it is served again; other links
   * are kept as they are.
   */
  unsigned(url: string | undefined): string | undefined {
    if (!url?.startsWith(`${this.base}/`)) return url;
    const path = url.slice(this.base.length).replace(SIGNED_ORIGINAL, '$1');
    return ORIGINAL_PATH.test(path) ? path : url;
  }

  /** The link to a document's original, without a place in it. */
  original(documentId: string, now = Date.now()): string {
    return this.absolute(`/v1/documents/${encodeURIComponent(documentId)}/original`, now)!;
  }

  /** Whether `signature` grants `documentId` now; an expired link is told apart from a forged one. */
  check(documentId: string, signature: string | undefined, now = Date.now()): LinkCheck {
    const match = signature ? SIGNATURE.exec(signature) : null;
    if (!match) return 'invalid';
    const expires = parseInt(match[1], 36);
    const expected = Buffer.from(this.mac(documentId, expires));
    const given = Buffer.from(match[2]);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return expires * 1000 > now ? 'valid' : 'expired';
  }

  private signature(documentId: string, now: number): string {
    const expires = Math.floor(now / 1000) + this.ttlSeconds;
    return `${expires.toString(36)}-${this.mac(documentId, expires)}`;
  }

  private mac(documentId: string, expires: number): string {
    return createHmac('sha256', this.key)
      .update(`${documentId}\n${expires}`)
      .digest('base64url')
      .slice(0, 32);
  }
}

/**
 * Where in the original a citation opens: `#page=N` (a PDF page, a slide), `#sheet=<name>&row=A-B`
 * (a spreadsheet's rows; a CSV file's records alone, as RFC 7111 writes them: `#row=A-B`), or the
 * HTML anchor.
 */
function fragment(citation: Citation): string {
  if (citation.page) return `#page=${citation.page}`;
  const { rowStart, rowEnd } = citation;
  const rows = rowStart ? `row=${rowEnd && rowEnd !== rowStart ? `${rowStart}-${rowEnd}` : rowStart}` : '';
  if (citation.sheet) return `#sheet=${encodeURIComponent(citation.sheet)}${rows ? `&${rows}` : ''}`;
  if (rows) return `#${rows}`;
  return citation.anchor ? `#${encodeURIComponent(citation.anchor)}` : '';
}

/** `url` when it is an http(s) URL or a path on the same site; undefined for any other scheme. */
function webLink(url: string): string | undefined {
  if (SITE_PATH.test(url)) return url;
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}
