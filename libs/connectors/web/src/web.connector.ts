import { createHash } from 'node:crypto';
import { load } from 'cheerio';
import { LRUCache } from 'lru-cache';
import {
  DOCUMENT_FORMATS,
  LIMIT_SETTINGS,
  MEDIA_TYPES,
  mediaTypeForExtension,
  PermanentDocumentError,
  SUPPORTED_EXTENSIONS,
  TroveError,
  TroveErrorCode,
  sourceItemGone,
  type DiscoverOptions,
  type DiscoveredItem,
  type Discovery,
  type FetchedItem,
  type FetchOptions,
  type SkippedItem,
  type SourceConnector,
} from '@trove/domain';
import { isSitemapBody, looksLikeSitemapUrl, parseSitemap } from './sitemap';
import { crawlScope, inScope, mayBeDocument, normalizeUrl, pageFileName } from './urls';
import { resolveWithDns, type ResolveHost } from './url-safety';
import {
  RedirectRefusedError,
  RobotsDisallowedError,
  WebHttp,
  type RequestCounter,
  type WebResponse,
} from './web-http';
import { WEB_SOURCE_TYPE, type WebSource } from './web-source';

/** The web connector's settings (the `web` block of the worker's config has this shape). */
export interface WebConnectorConfig {
  /** Sent with every request and matched against robots.txt groups. */
  userAgent: string;
  /** Per host; a slower robots.txt `Crawl-delay` wins. */
  requestsPerSecond: number;
  /** Whether loopback, private and link-local addresses may be read (off in production). */
  allowPrivateNetworks: boolean;
  maxPageBytes: number;
  maxSitemapBytes: number;
  /** Sitemaps read per discovery, sitemap indexes followed. */
  maxSitemaps: number;
  /** Per request, body included. */
  timeoutMs: number;
  /** The page limit of a source whose `maxPages` is not a positive number. */
  defaultMaxPages: number;
}

export interface WebConnectorDeps {
  /**
   * The HTTP client (tests inject one). Default: undici connecting only to addresses that pass the
   * private-network check (an injected client is not protected against DNS rebinding).
   */
  fetch?: typeof fetch;
  /** Host name resolution for the private-network check and the default client's connections; DNS by default. */
  resolve?: ResolveHost;
  /** Bytes of page bodies kept between discovery and fetch (default 64 MB). */
  bodyCacheBytes?: number;
}

/** Media types read from a site as they are served (PDF, EPUB, Office files, CSV …); images are not. */
const SERVED_AS_IS: ReadonlySet<string> = new Set(
  DOCUMENT_FORMATS.filter((format) => !format.image).map((format) => format.mediaType),
);

/** What a page read tells discovery and fetch. */
interface PageState {
  version: string;
  etag?: string;
  lastModified?: string;
  mediaType: string;
  title?: string;
  /** Links on the page (HTML only), absolute and normalised. */
  links: string[];
  /** `noindex` in a robots meta tag or X-Robots-Tag header. */
  noindex: boolean;
}

interface Page {
  url: URL;
  state: PageState;
}

/** A page that exists no more (or not for us): 4xx other than 408 and 429. */
class PageGoneError extends Error {
  constructor(
    readonly url: string,
    readonly status: number,
  ) {
    super(`${url} answered ${status}`);
    this.name = 'PageGoneError';
  }
}

/** A page no parser reads (an image, a binary download). */
class UnsupportedPageError extends PermanentDocumentError {
  constructor(url: string, contentType: string) {
    super(
      TroveErrorCode.UnsupportedMediaType,
      `${url} is ${contentType || 'of an unknown type'}, which Trove does not read`,
    );
  }
}

const CRAWL_BATCH = 4;
const PAGE_BYTES_SETTING = 'TROVE_WEB_MAX_PAGE_BYTES';
const SITEMAP_BYTES_SETTING = 'TROVE_WEB_MAX_SITEMAP_BYTES';
/** Page bodies read by discovery stay this long for the sync's fetches, so no page is downloaded twice. */
const BODY_TTL_MS = 30 * 60_000;

/**
 * A web site as a source: crawled breadth-first from a base URL (links on the same origin under
 * the base's folder) or listed by its sitemap (indexes followed). Requests are polite (robots.txt,
 * a per-host rate limit) and safe for URLs users type in (http(s) only, no private addresses at
 * any redirect hop, size and time caps). A page's version is its sitemap `lastmod`, else its
 * `ETag`, else its `Last-Modified`, else a hash of its body.
 */
export class WebConnector implements SourceConnector<WebSource> {
  readonly type = WEB_SOURCE_TYPE;
  private readonly http: WebHttp;
  /** Validators, links and titles of pages read: discovery asks "changed?" with a conditional request. */
  private readonly pages = new LRUCache<string, PageState>({ max: 50_000 });
  /** Bodies read by discovery, for fetch. */
  private readonly bodies: LRUCache<string, { version: string; data: Buffer }>;
  /** Sitemap `lastmod` by page URL: fetch reports the version discovery saw. */
  private readonly lastmods = new LRUCache<string, string>({ max: 200_000 });

  constructor(
    private readonly config: WebConnectorConfig,
    deps: WebConnectorDeps = {},
  ) {
    this.http = new WebHttp({
      userAgent: config.userAgent,
      requestsPerSecond: config.requestsPerSecond,
      allowPrivateNetworks: config.allowPrivateNetworks,
      timeoutMs: config.timeoutMs,
      fetch: deps.fetch,
      resolve: deps.resolve ?? resolveWithDns,
    });
    this.bodies = new LRUCache({
      maxSize: deps.bodyCacheBytes ?? 64 * 1024 * 1024,
      sizeCalculation: (entry) => Math.max(1, entry.data.length),
      ttl: BODY_TTL_MS,
    });
  }

  /** Every page of the site (a web site has no change feed: INCREMENTAL lists everything too). */
  async discover(source: WebSource, options: DiscoverOptions): Promise<Discovery> {
    const base = normalizeUrl(source.config.url);
    if (!base) throw badRequest(`"${source.config.url}" is not an http(s) URL`);
    const maxPages = source.config.maxPages > 0 ? source.config.maxPages : this.config.defaultMaxPages;
    const run = new DiscoveryRun(options, maxPages, this.pageLimit(options.maxItemBytes));
    const sitemapByName = looksLikeSitemapUrl(base);
    const limit = sitemapByName
      ? { maxBytes: this.config.maxSitemapBytes, maxBytesSetting: SITEMAP_BYTES_SETTING }
      : run.pageLimit;
    // A start page read before is asked "changed?"; a sitemap never is (its body is needed).
    const headers = sitemapByName ? {} : conditionalHeaders(this.pages.get(base.href));
    const first = await this.readStart(base, limit, headers, run);
    if (
      first.status !== 304 &&
      (sitemapByName || isSitemapBody(first.body, first.headers.get('content-type')))
    ) {
      await this.listSitemaps(first, run);
    } else {
      await this.crawl(first, run);
    }
    return run.result();
  }

  async fetch(source: WebSource, externalId: string, options: FetchOptions = {}): Promise<FetchedItem> {
    const url = normalizeUrl(externalId);
    if (!url) throw badRequest(`"${externalId}" is not an http(s) URL`);
    const limit = this.pageLimit(options.maxBytes);
    const lastmod = this.lastmods.get(url.href);
    const state = this.pages.get(url.href);
    const cached = this.bodies.get(url.href);
    if (state && cached && cached.version === state.version && cached.data.length <= limit.maxBytes) {
      return fetched(url, state, cached.data, lastmod);
    }
    let body: Buffer;
    let page: Page;
    try {
      const response = await this.http.get(url, { ...limit, mayRedirect: sameOrigin });
      ({ page, body } = this.pageFrom(response));
    } catch (error) {
      if (
        error instanceof PageGoneError ||
        error instanceof RobotsDisallowedError ||
        error instanceof RedirectRefusedError
      ) {
        throw sourceItemGone(error.message, error);
      }
      throw error;
    }
    return fetched(page.url, page.state, body, lastmod);
  }

  placeholder(externalId: string): { fileName: string; mediaType: string } {
    return { fileName: pageFileName(externalId), mediaType: MEDIA_TYPES.html };
  }

  /** A page's size cap: the web page limit, or the document size limit when that is lower. */
  private pageLimit(maxItemBytes?: number): { maxBytes: number; maxBytesSetting: string } {
    return maxItemBytes !== undefined && maxItemBytes < this.config.maxPageBytes
      ? { maxBytes: maxItemBytes, maxBytesSetting: LIMIT_SETTINGS.maxBytes.env }
      : { maxBytes: this.config.maxPageBytes, maxBytesSetting: PAGE_BYTES_SETTING };
  }

  /** The source's own URL: any failure here is the source's, not one page's. */
  private async readStart(
    url: URL,
    limit: { maxBytes: number; maxBytesSetting: string },
    headers: Record<string, string>,
    run: DiscoveryRun,
  ): Promise<WebResponse> {
    let response: WebResponse;
    try {
      response = await this.http.get(url, { ...limit, headers, counter: run });
    } catch (error) {
      if (error instanceof TroveError) throw error; // unsafe URL, too large: permanent already
      if (error instanceof RobotsDisallowedError)
        throw badRequest(`robots.txt of ${url.host} disallows ${url.href}`);
      if (error instanceof RedirectRefusedError) throw badRequest(error.message);
      throw error;
    }
    if (isGone(response.status)) {
      throw badRequest(`${url.href} answered ${response.status}: check the web source's URL`);
    }
    if (response.status !== 304 && (response.status < 200 || response.status >= 300))
      throw transientStatus(response);
    return response;
  }

  private async crawl(first: WebResponse, run: DiscoveryRun) {
    const scope = crawlScope(first.url);
    const seen = new Set<string>([first.url.href]);
    const queue: URL[] = [];
    const visit = async (url: URL, response?: WebResponse) => {
      const page = await this.visit(url, run, response, (_from, to) => inScope(to, scope));
      if (!page) return;
      if (page.url.href !== url.href) {
        if (seen.has(page.url.href)) return; // a redirect to a page already listed
        seen.add(page.url.href);
      }
      run.found(page);
      for (const link of page.state.links) {
        const target = new URL(link);
        if (!seen.has(link) && inScope(target, scope) && mayBeDocument(target)) {
          seen.add(link);
          queue.push(target);
        }
      }
    };
    await visit(first.url, first);
    while (queue.length > 0 && !run.full()) {
      await Promise.all(queue.splice(0, Math.min(CRAWL_BATCH, run.room())).map((url) => visit(url)));
    }
    if (queue.length > 0) run.capped(queue.length);
  }

  private async listSitemaps(first: WebResponse, run: DiscoveryRun) {
    const entries = new Map<string, string | undefined>();
    const queue: { url: URL; body?: Buffer }[] = [{ url: first.url, body: first.body }];
    const read = new Set<string>([first.url.href]);
    let foreign = 0;
    let unread = 0;
    while (queue.length > 0) {
      const { url, body } = queue.shift()!;
      const isStart = url === first.url;
      const sitemap = await this.readSitemap(url, body, run);
      if (!sitemap) {
        if (isStart) throw badRequest(`${url.href} is neither a web page nor a sitemap`);
        continue;
      }
      if (sitemap.kind === 'index') {
        for (const loc of sitemap.sitemaps) {
          const child = normalizeUrl(loc, url);
          if (!child || child.origin !== url.origin) {
            foreign++;
          } else if (!read.has(child.href)) {
            if (read.size >= this.config.maxSitemaps) {
              unread++;
              continue;
            }
            read.add(child.href);
            queue.push({ url: child });
          }
        }
        continue;
      }
      for (const entry of sitemap.urls) {
        const page = normalizeUrl(entry.loc, url);
        // The sitemap protocol only lets a sitemap list pages of its own site.
        if (!page || page.origin !== url.origin) foreign++;
        else if (!entries.has(page.href)) entries.set(page.href, entry.lastmod);
      }
    }
    if (foreign > 0) run.warn(`${foreign} sitemap entries on other sites were ignored`);
    if (unread > 0) {
      run.warn(`${unread} sitemaps were not read: at most ${this.config.maxSitemaps} are read per sync`);
      run.incomplete();
    }
    const pages = [...entries].map(([href, lastmod]) => ({ url: new URL(href), lastmod }));
    const listed = pages.splice(0, run.room());
    if (pages.length > 0) run.capped(pages.length);
    for (let i = 0; i < listed.length; i += CRAWL_BATCH) {
      await Promise.all(
        listed.slice(i, i + CRAWL_BATCH).map(async ({ url, lastmod }) => {
          if (lastmod) {
            // The sitemap dates the page: no request until it changes.
            if (!(await this.http.allowed(url, run))) return run.skip(url.href, 'disallowed by robots.txt');
            this.lastmods.set(url.href, lastmod);
            return run.item({ externalId: url.href, version: lastmodVersion(lastmod) });
          }
          this.lastmods.delete(url.href);
          const page = await this.visit(url, run, undefined, sameOrigin);
          if (page) run.found(page);
        }),
      );
    }
  }

  /** A child sitemap's failure loses its pages for this run only: the listing is then incomplete. */
  private async readSitemap(url: URL, body: Buffer | undefined, run: DiscoveryRun) {
    const isStart = body !== undefined;
    try {
      if (!body) {
        const response = await this.http.get(url, {
          maxBytes: this.config.maxSitemapBytes,
          maxBytesSetting: SITEMAP_BYTES_SETTING,
          counter: run,
        });
        if (response.status < 200 || response.status >= 300) {
          throw new Error(`${url.href} answered ${response.status}`);
        }
        body = response.body;
      }
      return parseSitemap(body, this.config.maxSitemapBytes);
    } catch (error) {
      if (isStart) {
        if (error instanceof TroveError) throw error;
        throw badRequest(`${url.href} is not a readable sitemap: ${(error as Error).message}`);
      }
      run.warn(`sitemap ${url.href} was not read: ${(error as Error).message}`);
      run.incomplete();
      return undefined;
    }
  }

  /**
   * Reads one page for discovery (conditionally when it was read before); a page that cannot be
   * read is recorded as skipped (for good) or failed (for now) and yields undefined.
   */
  private async visit(
    url: URL,
    run: DiscoveryRun,
    response: WebResponse | undefined,
    mayRedirect: (from: URL, to: URL) => boolean,
  ): Promise<Page | undefined> {
    try {
      const known = this.pages.get(url.href);
      response ??= await this.http.get(url, {
        ...run.pageLimit,
        counter: run,
        headers: conditionalHeaders(known),
        mayRedirect,
      });
      if (response.status === 304) {
        const final = normalizeUrl(response.url.href) ?? response.url;
        const state = this.pages.get(final.href) ?? known;
        if (state) return this.indexable(final, state, run);
        response = await this.http.get(url, {
          ...run.pageLimit,
          counter: run,
          mayRedirect,
        });
      }
      const { page, body } = this.pageFrom(response);
      this.bodies.set(page.url.href, { version: page.state.version, data: body });
      return this.indexable(page.url, page.state, run);
    } catch (error) {
      if (error instanceof RobotsDisallowedError) run.skip(url.href, 'disallowed by robots.txt');
      else if (error instanceof PageGoneError) run.skip(url.href, `answered ${error.status}`);
      else if (error instanceof RedirectRefusedError || (error instanceof TroveError && error.permanent))
        run.skip(url.href, error.message);
      else run.failed(url.href, (error as Error).message);
      return undefined;
    }
  }

  private indexable(url: URL, state: PageState, run: DiscoveryRun): Page | undefined {
    if (!state.noindex) return { url, state };
    run.skip(url.href, 'the page asks not to be indexed (robots noindex)');
    return { url, state }; // its links are still followed, unless it says nofollow
  }

  /** A page from a final (non-redirect) response; throws for statuses that are not content. */
  private pageFrom(response: WebResponse): { page: Page; body: Buffer } {
    const url = normalizeUrl(response.url.href) ?? response.url;
    if (isGone(response.status)) throw new PageGoneError(url.href, response.status);
    if (response.status < 200 || response.status >= 300) throw transientStatus(response);
    const contentType = response.headers.get('content-type') ?? '';
    const mediaType = mediaTypeOf(contentType, url, response.body);
    if (!mediaType) throw new UnsupportedPageError(url.href, contentType);
    const etag = response.headers.get('etag') ?? undefined;
    const lastModified = response.headers.get('last-modified') ?? undefined;
    const version = etag
      ? `etag:${etag}`
      : lastModified
        ? `last-modified:${lastModified}`
        : `sha256:${createHash('sha256').update(response.body).digest('hex')}`;
    const state: PageState = {
      version,
      etag,
      lastModified,
      mediaType,
      links: [],
      noindex: /noindex/i.test(response.headers.get('x-robots-tag') ?? ''),
    };
    if (mediaType === MEDIA_TYPES.html) Object.assign(state, readHtml(response.body, url, state.noindex));
    this.pages.set(url.href, state);
    return { page: { url, state }, body: response.body };
  }
}

/** Title, links and robots meta of an HTML page. */
function readHtml(body: Buffer, url: URL, noindex: boolean): Pick<PageState, 'title' | 'links' | 'noindex'> {
  const $ = load(body.toString('utf8'));
  const robots = ($('meta[name="robots" i]').attr('content') ?? '').toLowerCase();
  const title = $('title').first().text().trim() || undefined;
  if (robots.includes('nofollow') || robots.includes('none')) {
    return { title, links: [], noindex: noindex || robots.includes('noindex') || robots.includes('none') };
  }
  const base = normalizeUrl($('base[href]').attr('href') ?? '', url) ?? url;
  const links = new Set<string>();
  $('a[href]').each((_, a) => {
    const link = normalizeUrl($(a).attr('href') ?? '', base);
    if (link) links.add(link.href);
  });
  return { title, links: [...links], noindex: noindex || robots.includes('noindex') };
}

/** The parser's media type for a response, or undefined when no parser reads it. */
function mediaTypeOf(contentType: string, url: URL, body: Buffer): string | undefined {
  const type = contentType.split(';')[0].trim().toLowerCase();
  switch (type) {
    case 'text/html':
    case 'application/xhtml+xml':
      return MEDIA_TYPES.html;
    case 'text/markdown':
    case 'text/x-markdown':
      return MEDIA_TYPES.markdown;
    case 'text/plain':
      return /\.(md|markdown)$/i.test(url.pathname) ? MEDIA_TYPES.markdown : MEDIA_TYPES.plainText;
    case '':
    case 'application/octet-stream': {
      if (body.subarray(0, 5).toString('latin1') === '%PDF-') return MEDIA_TYPES.pdf;
      // For responses without a useful Content-Type: the type the URL's extension names.
      const extension = /\.[a-z]+$/i.exec(url.pathname)?.[0]?.toLowerCase();
      return extension && SUPPORTED_EXTENSIONS.has(extension) ? mediaTypeForExtension(extension) : undefined;
    }
    default:
      return SERVED_AS_IS.has(type) ? type : undefined;
  }
}

function fetched(url: URL, state: PageState, data: Buffer, lastmod?: string): FetchedItem {
  return {
    data,
    mediaType: state.mediaType,
    version: lastmod ? lastmodVersion(lastmod) : state.version,
    title: state.title,
    url: url.href,
  };
}

/** Validators of a page read before: an unchanged page then answers 304 with no body. */
function conditionalHeaders(known: PageState | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (known?.etag) headers['if-none-match'] = known.etag;
  if (known?.lastModified) headers['if-modified-since'] = known.lastModified;
  return headers;
}

function lastmodVersion(lastmod: string) {
  return `lastmod:${lastmod}`;
}

/** Statuses that say the page is not there for us; 408 and 429 are "not now", not "not there". */
function isGone(status: number) {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

function transientStatus(response: WebResponse): Error {
  return new Error(`${response.url.href} answered ${response.status}`);
}

function sameOrigin(from: URL, to: URL) {
  return from.origin === to.origin;
}

function badRequest(message: string) {
  return new TroveError(TroveErrorCode.BadRequest, message, { permanent: true });
}

/** One discovery's findings and request count. */
class DiscoveryRun implements RequestCounter {
  requests = 0;
  private readonly items = new Map<string, DiscoveredItem>();
  private readonly skipped: SkippedItem[] = [];
  private readonly warnings: string[] = [];
  private failures = 0;
  private complete = true;

  constructor(
    private readonly options: DiscoverOptions,
    private readonly maxPages: number,
    /** Each page's size cap, and the setting that raises it. */
    readonly pageLimit: { maxBytes: number; maxBytesSetting: string },
  ) {}

  found(page: Page) {
    if (page.state.noindex) return;
    this.item({ externalId: page.url.href, version: page.state.version, title: page.state.title });
  }

  item(item: DiscoveredItem) {
    this.items.set(item.externalId, item);
    this.options.onProgress?.({ seen: this.items.size, requests: this.requests });
  }

  skip(id: string, reason: string) {
    this.skipped.push({ id, reason });
  }

  /** A transient failure: the page may still exist, so the listing cannot prove deletions. */
  failed(id: string, reason: string) {
    this.failures++;
    this.complete = false;
    if (this.failures <= 5)
      this.warn(`${id} could not be read now (${reason}); it is kept until a later sync`);
  }

  warn(message: string) {
    this.warnings.push(message);
  }

  incomplete() {
    this.complete = false;
  }

  /** Pages listed or refused so far count against maxPages (a site of broken links ends too). */
  room() {
    return Math.max(0, this.maxPages - this.items.size - this.skipped.length - this.failures);
  }

  full() {
    return this.room() === 0;
  }

  capped(left: number) {
    this.complete = false;
    this.warn(
      `stopped at maxPages (${this.maxPages}) with ${left} more pages found; pages beyond the limit are kept, not deleted`,
    );
  }

  result(): Discovery {
    if (this.failures > 5) this.warn(`${this.failures - 5} more pages could not be read now`);
    return {
      items: [...this.items.values()],
      skipped: this.skipped,
      warnings: this.warnings,
      complete: this.complete,
      requests: this.requests,
    };
  }
}
