/** Query parameters that only track a visit: the same page with or without them is one page. */
const TRACKING =
  /^(utm_[a-z_]+|gclid|dclid|fbclid|msclkid|yclid|mc_cid|mc_eid|_ga|_gl|_hsenc|_hsmi|ref_src)$/i;

/** Links to files no parser reads: never requested. */
const NOT_DOCUMENTS =
  /\.(png|jpe?g|gif|webp|svg|ico|bmp|tiff?|css|js|mjs|json|map|woff2?|ttf|eot|otf|mp[34]|m4a|webm|ogg|wav|avi|mov|zip|gz|tgz|bz2|xz|7z|rar|tar|exe|dmg|iso|apk|bin)$/i;

/**
 * The canonical form of a page URL, used as its external id: no fragment, no tracking
 * parameters, the remaining parameters sorted, default ports and `..` segments gone (the URL
 * parser does those). Returns undefined for anything but http(s).
 */
export function normalizeUrl(input: string, base?: string | URL): URL | undefined {
  let url: URL;
  try {
    url = new URL(input.trim(), base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  const params = [...url.searchParams].filter(([key]) => !TRACKING.test(key));
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  url.search = params.length ? new URLSearchParams(params).toString() : '';
  return url;
}

/** The part of a site a crawl stays in: the base URL's origin and folder. */
export interface CrawlScope {
  origin: string;
  /** The base page's path itself (`/docs`) and the folder under it (`/docs/`). */
  path: string;
  folder: string;
}

/** `/docs` and `/docs/` scope to `/docs/…`; `/docs/intro.html` to `/docs/…` (its folder). */
export function crawlScope(base: URL): CrawlScope {
  const path = base.pathname;
  const last = path.slice(path.lastIndexOf('/') + 1);
  const folder = path.endsWith('/')
    ? path
    : last.includes('.')
      ? path.slice(0, path.lastIndexOf('/') + 1)
      : `${path}/`;
  return { origin: base.origin, path, folder };
}

export function inScope(url: URL, scope: CrawlScope): boolean {
  return (
    url.origin === scope.origin && (url.pathname === scope.path || url.pathname.startsWith(scope.folder))
  );
}

/** A link worth requesting: not an image, script, stylesheet, archive or media file. */
export function mayBeDocument(url: URL): boolean {
  return !NOT_DOCUMENTS.test(url.pathname);
}

/** A page's file name: the last path segment, or the host for a site's root. */
export function pageFileName(url: string): string {
  try {
    const parsed = new URL(url);
    const segments = parsed.pathname.split('/').filter(Boolean);
    const last = segments.at(-1);
    return last ? decodeURIComponent(last) : parsed.hostname;
  } catch {
    return url;
  }
}
