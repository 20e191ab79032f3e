import { gunzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';

export interface SitemapEntry {
  loc: string;
  lastmod?: string;
}

/** A parsed sitemap: page entries (`<urlset>`) or further sitemaps (`<sitemapindex>`). */
export type Sitemap = { kind: 'urlset'; urls: SitemapEntry[] } | { kind: 'index'; sitemaps: string[] };

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  // `&amp;` in URLs must decode; DOCTYPE entities expand only within the parser's default limits.
  processEntities: true,
  isArray: (name) => name === 'url' || name === 'sitemap',
});

/** Looks like a sitemap by name: `…/sitemap.xml`, `…/sitemap_index.xml.gz`, `…/pages.xml`. */
export function looksLikeSitemapUrl(url: URL): boolean {
  return /\.xml(\.gz)?$/i.test(url.pathname);
}

/** Whether a response body is a sitemap (an XML document whose root is urlset or sitemapindex). */
export function isSitemapBody(body: Buffer, contentType: string | null): boolean {
  if (isGzip(body)) return true;
  const head = body.subarray(0, 2048).toString('utf8');
  const xml = /xml/i.test(contentType ?? '') || head.trimStart().startsWith('<?xml');
  return xml && /<(\w+:)?(urlset|sitemapindex)[\s>]/.test(head);
}

/**
 * Parses a sitemap (gzip-compressed or not, decompressed to at most `maxBytes`); undefined when
 * the document is neither a urlset nor a sitemap index.
 */
export function parseSitemap(body: Buffer, maxBytes: number): Sitemap | undefined {
  const xml = isGzip(body) ? gunzipSync(body, { maxOutputLength: maxBytes }) : body;
  const doc = parser.parse(xml.toString('utf8')) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : undefined);
  const urlset = doc.urlset as { url?: Record<string, unknown>[] } | undefined;
  if (urlset !== undefined) {
    const urls = (urlset?.url ?? []).flatMap((u) => {
      const loc = text(u.loc);
      return loc ? [{ loc, lastmod: text(u.lastmod) || undefined }] : [];
    });
    return { kind: 'urlset', urls };
  }
  const index = doc.sitemapindex as { sitemap?: Record<string, unknown>[] } | undefined;
  if (index !== undefined) {
    return { kind: 'index', sitemaps: (index?.sitemap ?? []).flatMap((s) => text(s.loc) ?? []) };
  }
  return undefined;
}

function isGzip(body: Buffer): boolean {
  return body.length > 2 && body[0] === 0x1f && body[1] === 0x8b;
}
