import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ApiConfig } from '@trove/config';
import { CONFIG } from './tokens';

const ORIGINAL_PATH = /^\/v1\/documents\/([^/?#]+)\/original(?=$|#)/;

/**
 * Citations of uploaded files point at the API's copy of the original (`/v1/documents/<id>/original#page=3`).
 * Stored paths are made absolute here and signed per document, so a citation opens in a browser
 * (which sends no API key) without revealing the key: the signature grants that one file only.
 */
@Injectable()
export class CitationLinks {
  private readonly base: string;
  private readonly key: Buffer;

  constructor(@Inject(CONFIG) config: ApiConfig) {
    this.base = (config.api.publicUrl ?? `http://${config.api.host}:${config.api.port}`).replace(/\/+$/, '');
    this.key = createHmac('sha256', config.api.adminApiKey).update('trove-original-links').digest();
  }

  /** An absolute, signed link for API paths; other links (Notion, MkDocs sites) pass through. */
  absolute(url: string | undefined): string | undefined {
    if (!url) return url;
    const match = ORIGINAL_PATH.exec(url);
    if (!match) return url;
    const hash = url.slice(match[0].length);
    return `${this.base}${match[0]}?sig=${this.sign(decodeURIComponent(match[1]))}${hash}`;
  }

  /** The link to a document's original, without a place in it. */
  original(documentId: string): string {
    return this.absolute(`/v1/documents/${encodeURIComponent(documentId)}/original`)!;
  }

  verify(documentId: string, signature: string | undefined): boolean {
    if (!signature) return false;
    const expected = Buffer.from(this.sign(documentId));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private sign(documentId: string): string {
    return createHmac('sha256', this.key).update(documentId).digest('base64url').slice(0, 32);
  }
}
