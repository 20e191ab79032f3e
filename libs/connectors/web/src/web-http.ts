import Bottleneck from 'bottleneck';
import { LRUCache } from 'lru-cache';
import robotsParser from 'robots-parser';
import { PermanentDocumentError, TroveError, TroveErrorCode } from '@trove/domain';
import { assertSafeUrl, checkedFetch, unsafeUrlErrorIn, type ResolveHost } from './url-safety';

type Robot = ReturnType<typeof robotsParser>;

/** What the polite HTTP client needs: who we are, how fast, how far, and how to reach the net. */
export interface WebHttpOptions {
  userAgent: string;
  requestsPerSecond: number;
  allowPrivateNetworks: boolean;
  timeoutMs: number;
  /**
   * The HTTP client (tests inject one). Default: {@link checkedFetch}, which connects only to
   * addresses that pass the private-network check; an injected one must protect itself.
   */
  fetch?: typeof fetch;
  /** Host name resolution for the private-network check (and for the default client's connections). */
  resolve: ResolveHost;
}

export interface WebResponse {
  /** The URL that answered, after redirects. */
  url: URL;
  status: number;
  headers: Headers;
  /** Empty for 304 and for error statuses. */
  body: Buffer;
}

export interface RequestCounter {
  requests: number;
}

export interface GetOptions {
  maxBytes: number;
  /** The setting that raises `maxBytes`, named when a body is refused (unset: none, e.g. robots.txt's cap). */
  maxBytesSetting?: string;
  headers?: Record<string, string>;
  counter?: RequestCounter;
  /** Whether a redirect from `from` to `to` may be followed; unset: any (safe) target. */
  mayRedirect?(from: URL, to: URL): boolean;
  /** Check robots.txt before each hop (default true; false for robots.txt itself). */
  robots?: boolean;
}

/** robots.txt forbids the URL to our user agent: it is not requested. */
export class RobotsDisallowedError extends Error {
  constructor(readonly url: string) {
    super(`${url}: disallowed by robots.txt`);
    this.name = 'RobotsDisallowedError';
  }
}

/** A redirect the caller does not follow (to another site), or too many redirects. */
export class RedirectRefusedError extends Error {
  constructor(
    readonly url: string,
    message: string,
  ) {
    super(message);
    this.name = 'RedirectRefusedError';
  }
}

/**
 * A body over the size cap: refused from its `Content-Length` before it is read, or aborted
 * as soon as the bytes read pass the cap.
 */
export class PageTooLargeError extends PermanentDocumentError {
  constructor(url: string, maxBytes: number, setting?: string, declared?: number) {
    const count = (n: number) => n.toLocaleString('en-US');
    super(
      TroveErrorCode.PayloadTooLarge,
      `${url} has ${declared !== undefined ? count(declared) : `more than ${count(maxBytes)}`} bytes, over ` +
        `the limit of ${count(maxBytes)} bytes${setting ? ` (${setting} raises it)` : ''}`,
    );
    this.name = 'PageTooLargeError';
  }
}

const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** RFC 9309 lets crawlers stop reading robots.txt after 500 KiB. */
const MAX_ROBOTS_BYTES = 500 * 1024;
/** robots.txt is read again after this long (RFC 9309 allows caching up to 24 hours). */
const ROBOTS_TTL_MS = 30 * 60_000;
/** A `Crawl-delay` or `Retry-After` longer than this is capped, so one sync cannot stall for hours. */
const MAX_DELAY_MS = 60_000;
/** A 429/503 whose Retry-After is at most this long is waited out here; longer ones fail the attempt. */
const MAX_INLINE_RETRY_MS = 30_000;

/**
 * HTTP for web sources, polite and safe: one rate limiter per host (robots.txt's `Crawl-delay`
 * when slower), robots.txt obeyed, every redirect hop and every connection checked against
 * private networks, bodies capped in size while streaming, each request bounded in time,
 * `Retry-After` honoured.
 */
export class WebHttp {
  private readonly limiters = new Map<string, Bottleneck>();
  private readonly pausedUntil = new Map<string, number>();
  private readonly robots = new LRUCache<string, Robot | 'allow-all'>({ max: 1000, ttl: ROBOTS_TTL_MS });
  private readonly robotsLoading = new Map<string, Promise<Robot | 'allow-all'>>();

  private readonly fetch: typeof fetch;

  constructor(private readonly options: WebHttpOptions) {
    this.fetch = options.fetch ?? checkedFetch(options);
  }

  /** GETs a URL, following up to 5 redirects; 3xx-free responses of any status are returned. */
  async get(start: URL, options: GetOptions): Promise<WebResponse> {
    let url = start;
    for (let hop = 0; ; hop++) {
      await assertSafeUrl(url, this.options);
      if (options.robots !== false && !(await this.allowed(url, options.counter))) {
        throw new RobotsDisallowedError(url.href);
      }
      const response = await this.request(url, options, hop === 0 ? options.headers : undefined);
      const location = response.headers.get('location');
      if (!REDIRECTS.has(response.status) || !location) return response;
      const next = new URL(location, url);
      next.hash = '';
      if (hop + 1 > MAX_REDIRECTS) {
        throw new RedirectRefusedError(start.href, `${start.href}: more than ${MAX_REDIRECTS} redirects`);
      }
      if (options.mayRedirect && !options.mayRedirect(url, next)) {
        throw new RedirectRefusedError(
          start.href,
          `${start.href} redirects outside the site, to ${next.href}`,
        );
      }
      url = next;
    }
  }

  /** Whether robots.txt lets our user agent read the URL (reads and caches the site's robots.txt). */
  async allowed(url: URL, counter?: RequestCounter): Promise<boolean> {
    const robot = await this.robotsFor(url.origin, counter);
    return robot === 'allow-all' || robot.isAllowed(url.href, this.options.userAgent) !== false;
  }

  private async robotsFor(origin: string, counter?: RequestCounter): Promise<Robot | 'allow-all'> {
    const cached = this.robots.get(origin);
    if (cached) return cached;
    // Concurrent first requests to a site wait for one robots.txt read.
    let loading = this.robotsLoading.get(origin);
    if (!loading) {
      loading = this.loadRobots(origin, counter).finally(() => this.robotsLoading.delete(origin));
      this.robotsLoading.set(origin, loading);
    }
    return loading;
  }

  private async loadRobots(origin: string, counter?: RequestCounter): Promise<Robot | 'allow-all'> {
    const robotsUrl = new URL('/robots.txt', origin);
    let robot: Robot | 'allow-all';
    try {
      const response = await this.get(robotsUrl, { maxBytes: MAX_ROBOTS_BYTES, counter, robots: false });
      if (response.status >= 200 && response.status < 300) {
        robot = robotsParser(robotsUrl.href, response.body.toString('utf8'));
      } else if (response.status >= 400 && response.status < 500 && response.status !== 429) {
        robot = 'allow-all'; // RFC 9309: an unavailable robots.txt means no restrictions
      } else {
        throw new Error(`${robotsUrl.href} answered ${response.status}; retrying later`);
      }
    } catch (error) {
      // RFC 9309 permits reading only the first 500 KiB; an oversized file is a site bug, not a ban.
      if (!(error instanceof PageTooLargeError)) throw error;
      robot = 'allow-all';
    }
    if (robot !== 'allow-all') {
      const delay = robot.getCrawlDelay(this.options.userAgent);
      if (delay) this.slowDown(new URL(origin).host, Math.min(delay * 1000, MAX_DELAY_MS));
    }
    this.robots.set(origin, robot);
    return robot;
  }

  private interval(): number {
    return Math.ceil(1000 / this.options.requestsPerSecond);
  }

  private limiter(host: string): Bottleneck {
    let limiter = this.limiters.get(host);
    if (!limiter) {
      limiter = new Bottleneck({ minTime: this.interval(), maxConcurrent: 2 });
      this.limiters.set(host, limiter);
    }
    return limiter;
  }

  /** `Crawl-delay` only ever slows a host down below the configured rate. */
  private slowDown(host: string, minTimeMs: number) {
    if (minTimeMs > this.interval()) this.limiter(host).updateSettings({ minTime: minTimeMs });
  }

  /** One paced request; a 429/503 with a short Retry-After is waited out (the host pauses meanwhile). */
  private async request(
    url: URL,
    options: GetOptions,
    headers?: Record<string, string>,
  ): Promise<WebResponse> {
    for (let attempt = 0; ; attempt++) {
      const response = await this.limiter(url.host).schedule(async () => {
        const wait = (this.pausedUntil.get(url.host) ?? 0) - Date.now();
        if (wait > 0) await sleep(wait);
        if (options.counter) options.counter.requests++;
        return this.once(url, options, headers);
      });
      if (response.status !== 429 && response.status !== 503) return response;
      const retryAfter = retryAfterMs(response.headers.get('retry-after'));
      if (retryAfter === undefined) return response;
      this.pausedUntil.set(url.host, Date.now() + Math.min(retryAfter, MAX_DELAY_MS));
      if (attempt >= 2 || retryAfter > MAX_INLINE_RETRY_MS) {
        throw new Error(
          `${url.href} answered ${response.status}: retry after ${Math.ceil(retryAfter / 1000)} s`,
        );
      }
    }
  }

  private async once(url: URL, options: GetOptions, headers?: Record<string, string>): Promise<WebResponse> {
    const { maxBytes, maxBytesSetting } = options;
    const abort = new AbortController();
    const signal = AbortSignal.any([abort.signal, AbortSignal.timeout(this.options.timeoutMs)]);
    let response: Response;
    try {
      response = await this.fetch(url, {
        redirect: 'manual',
        signal,
        headers: {
          'user-agent': this.options.userAgent,
          accept:
            'text/html,application/xhtml+xml,application/xml;q=0.9,text/*;q=0.8,application/pdf;q=0.8,*/*;q=0.5',
          ...headers,
        },
      });
    } catch (error) {
      // The connection's own check refused the address (the name now resolves to a private one).
      throw unsafeUrlErrorIn(error) ?? transient(url, error, this.options.timeoutMs);
    }
    const base = { url, status: response.status, headers: response.headers };
    if (response.status < 200 || response.status >= 300) {
      await response.body?.cancel().catch(() => undefined);
      return { ...base, body: Buffer.alloc(0) };
    }
    const declared = Number(response.headers.get('content-length'));
    if (declared > maxBytes) {
      abort.abort();
      throw new PageTooLargeError(url.href, maxBytes, maxBytesSetting, declared);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body ?? []) {
        size += chunk.length;
        if (size > maxBytes) {
          abort.abort();
          throw new PageTooLargeError(url.href, maxBytes, maxBytesSetting);
        }
        chunks.push(Buffer.from(chunk));
      }
    } catch (error) {
      if (error instanceof PageTooLargeError) throw error;
      throw transient(url, error, this.options.timeoutMs);
    }
    return { ...base, body: Buffer.concat(chunks) };
  }
}

/**
 * A network failure or timeout: SOURCE_UNREACHABLE, not permanent, so the sync retries it and a
 * run that keeps failing records the source's code rather than an internal error.
 */
function transient(url: URL, error: unknown, timeoutMs: number): TroveError {
  const name = (error as Error).name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new TroveError(
      TroveErrorCode.SourceUnreachable,
      `${url.href}: no complete answer within ${timeoutMs} ms`,
      { cause: error },
    );
  }
  const cause = (error as { cause?: { code?: string } }).cause;
  return new TroveError(
    TroveErrorCode.SourceUnreachable,
    `${url.href}: ${cause?.code ?? (error as Error).message}`,
    {
      cause: error,
    },
  );
}

/** `Retry-After` as seconds or an HTTP date, in ms from now. */
export function retryAfterMs(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
