import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TroveError, TroveErrorCode } from '@trove/domain';
import { TestSite } from './test-site.testing';
import { UnsafeUrlError, type ResolveHost } from './url-safety';
import { WebConnector, type WebConnectorConfig, type WebConnectorDeps } from './web.connector';
import { WEB_SOURCE_TYPE, type WebSource } from './web-source';

const config: WebConnectorConfig = {
  userAgent: 'TroveBot/0.1 (+https://github.com/trove)',
  requestsPerSecond: 500,
  allowPrivateNetworks: true,
  maxPageBytes: 1024 * 1024,
  maxSitemapBytes: 1024 * 1024,
  maxSitemaps: 10,
  timeoutMs: 5_000,
  defaultMaxPages: 1000,
};

const source = (url: string, maxPages = 100): WebSource =>
  ({
    id: 'src-1',
    projectId: 'p-1',
    type: WEB_SOURCE_TYPE,
    config: { url, maxPages },
  }) as unknown as WebSource;

const known = new Set<string>();
let site: TestSite;

beforeEach(async () => {
  site = await new TestSite().start();
});
afterEach(async () => {
  await site.stop();
});

const sitePort = () => new URL(site.origin).port;

const connector = (overrides: Partial<WebConnectorConfig> = {}, deps?: WebConnectorDeps) =>
  new WebConnector({ ...config, ...overrides }, deps);

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

describe('WebConnector.discover: crawling', () => {
  it('finds the pages linked under the base path, breadth-first, and nothing else', async () => {
    const o = () => site.origin;
    site.page('/docs/', 'Docs', [
      'a.html',
      'a.html#install',
      '/docs/a.html?utm_source=newsletter',
      'b/',
      '/other/x.html',
      'https://elsewhere.example/docs/',
      'logo.png',
      'mailto:someone@example.com',
    ]);
    site.page('/docs/a.html', 'A', ['c.html', '../other/y.html']);
    site.page('/docs/b/', 'B', ['/docs/']);
    site.page('/docs/c.html', 'C');
    site.page('/other/x.html', 'Outside');

    const progress: number[] = [];
    const discovery = await connector().discover(source(`${o()}/docs/`), {
      known,
      onProgress: (p) => progress.push(p.seen),
    });

    expect(discovery.items.map((i) => [i.externalId, i.title])).toEqual([
      [`${o()}/docs/`, 'Docs'],
      [`${o()}/docs/a.html`, 'A'],
      [`${o()}/docs/b/`, 'B'],
      [`${o()}/docs/c.html`, 'C'],
    ]);
    expect(discovery.complete).toBe(true);
    expect(discovery.warnings).toEqual([]);
    // robots.txt (404: allow all) and the four pages; never outside the base, never the image.
    expect(site.paths().sort()).toEqual([
      '/docs/',
      '/docs/a.html',
      '/docs/b/',
      '/docs/c.html',
      '/robots.txt',
    ]);
    expect(discovery.requests).toBe(5);
    expect(progress.at(-1)).toBe(4);
    expect(new Set(site.requests.map((r) => r.headers['user-agent']))).toEqual(new Set([config.userAgent]));
  });

  it('stops at maxPages with complete: false and a warning, so pages beyond the cap are not deleted', async () => {
    site.page('/', 'Home', ['/1', '/2', '/3', '/4', '/5']);
    for (const n of [1, 2, 3, 4, 5]) site.page(`/${n}`, `Page ${n}`);

    const discovery = await connector().discover(source(`${site.origin}/`, 3), { known });

    expect(discovery.items).toHaveLength(3);
    expect(discovery.complete).toBe(false);
    expect(discovery.warnings.join()).toMatch(/stopped at maxPages \(3\)/);
  });

  it('records pages refused by robots.txt as skipped and never requests them', async () => {
    site.routes.set('/robots.txt', {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: OtherBot\nDisallow: /\n\nUser-agent: TroveBot\nDisallow: /docs/private/\n',
    });
    site.page('/docs/', 'Docs', ['private/secret.html', 'public.html']);
    site.page('/docs/public.html', 'Public');
    site.page('/docs/private/secret.html', 'Secret');

    const discovery = await connector().discover(source(`${site.origin}/docs/`), { known });

    expect(discovery.items.map((i) => i.externalId)).toEqual([
      `${site.origin}/docs/`,
      `${site.origin}/docs/public.html`,
    ]);
    expect(discovery.skipped).toEqual([
      { id: `${site.origin}/docs/private/secret.html`, reason: 'disallowed by robots.txt' },
    ]);
    expect(site.paths()).not.toContain('/docs/private/secret.html');
    expect(discovery.complete).toBe(true);
  });

  it('skips pages that are gone and reports transient failures as an incomplete listing', async () => {
    site.page('/', 'Home', ['/gone', '/forbidden', '/broken']);
    site.routes.set('/forbidden', { status: 403, body: 'no' });
    site.routes.set('/broken', { status: 500, body: 'oops' });

    const discovery = await connector().discover(source(`${site.origin}/`), { known });

    expect(discovery.items.map((i) => i.externalId)).toEqual([`${site.origin}/`]);
    expect(discovery.skipped).toEqual([
      { id: `${site.origin}/gone`, reason: 'answered 404' },
      { id: `${site.origin}/forbidden`, reason: 'answered 403' },
    ]);
    expect(discovery.complete).toBe(false);
    expect(discovery.warnings.join()).toMatch(/\/broken could not be read now/);
  });

  it('refuses a base URL that answers 4xx, permanently, with a clear message', async () => {
    const error = await failure(connector().discover(source(`${site.origin}/missing/`), { known }));
    expect(error).toBeInstanceOf(TroveError);
    expect((error as TroveError).code).toBe(TroveErrorCode.BadRequest);
    expect((error as TroveError).permanent).toBe(true);
    expect(error.message).toMatch(/answered 404: check the web source's URL/);
  });

  it('spaces requests to a host by the configured rate', async () => {
    site.page('/', 'Home', ['/1', '/2', '/3', '/4']);
    for (const n of [1, 2, 3, 4]) site.page(`/${n}`, `Page ${n}`);

    await connector({ requestsPerSecond: 5 }).discover(source(`${site.origin}/`), { known });

    const times = site.requests.map((r) => r.at);
    expect(times).toHaveLength(6); // robots.txt and five pages: five gaps of 200 ms
    expect(times.at(-1)! - times[0]).toBeGreaterThanOrEqual(800);
  });

  it('honours a robots.txt Crawl-delay slower than the configured rate', async () => {
    site.routes.set('/robots.txt', {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nCrawl-delay: 0.3\n',
    });
    site.page('/', 'Home', ['/1', '/2']);
    site.page('/1', 'One');
    site.page('/2', 'Two');

    await connector({ requestsPerSecond: 100 }).discover(source(`${site.origin}/`), { known });

    const times = site.requests.map((r) => r.at);
    expect(times).toHaveLength(4);
    expect(times.at(-1)! - times[1]).toBeGreaterThanOrEqual(500); // three pages after robots.txt: ≥ 2 × 300 ms
  });
});

describe('WebConnector.discover: sitemaps', () => {
  it('lists a sitemap index’s sitemaps (gzip too), using lastmod as the version without requesting the page', async () => {
    const o = site.origin;
    site.routes.set('/sitemap.xml', {
      headers: { 'content-type': 'application/xml' },
      body: `<?xml version="1.0" encoding="UTF-8"?>
        <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <sitemap><loc>${o}/sitemap-pages.xml</loc></sitemap>
          <sitemap><loc>${o}/sitemap-more.xml.gz</loc></sitemap>
        </sitemapindex>`,
    });
    site.routes.set('/sitemap-pages.xml', {
      headers: { 'content-type': 'text/xml' },
      body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>${o}/dated</loc><lastmod>2026-01-02</lastmod></url>
          <url><loc>${o}/undated?utm_medium=x</loc></url>
          <url><loc>https://elsewhere.example/page</loc></url>
        </urlset>`,
    });
    site.routes.set('/sitemap-more.xml.gz', {
      headers: { 'content-type': 'application/gzip' },
      body: gzipSync(`<urlset><url><loc>${o}/more</loc></url></urlset>`),
    });
    site.page('/undated', 'Undated', [], { etag: '"u1"' });
    site.page('/more', 'More');
    site.page('/dated', 'Dated');

    const web = connector();
    const discovery = await web.discover(source(`${o}/sitemap.xml`), { known });

    expect(discovery.items.map((i) => [i.externalId, i.version.replace(/[0-9a-f]{64}/, 'HASH')])).toEqual([
      [`${o}/dated`, 'lastmod:2026-01-02'],
      [`${o}/undated`, 'etag:"u1"'],
      [`${o}/more`, 'sha256:HASH'],
    ]);
    expect(discovery.complete).toBe(true);
    expect(discovery.warnings).toEqual(['1 sitemap entries on other sites were ignored']);
    expect(site.paths()).not.toContain('/dated');
    // fetch reports the version discovery gave, so an unchanged page is not ingested again.
    expect((await web.fetch(source(`${o}/sitemap.xml`), `${o}/dated`)).version).toBe('lastmod:2026-01-02');
  });

  it('recognises a sitemap by its content when the URL does not say so', async () => {
    site.routes.set('/pages', {
      headers: { 'content-type': 'application/xml' },
      body: `<?xml version="1.0"?><urlset><url><loc>${site.origin}/a</loc><lastmod>2025-05-05</lastmod></url></urlset>`,
    });
    const discovery = await connector().discover(source(`${site.origin}/pages`), { known });
    expect(discovery.items).toEqual([{ externalId: `${site.origin}/a`, version: 'lastmod:2025-05-05' }]);
  });
});

describe('WebConnector versions', () => {
  it('are stable across discoveries of unchanged pages (conditional requests) and change with the page', async () => {
    const o = site.origin;
    let etag = '"v1"';
    let text = 'first';
    site.routes.set('/', (req, res) => {
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304).end();
      res
        .writeHead(200, { 'content-type': 'text/html', etag })
        .end(`<a href="/lm">lm</a><a href="/plain">p</a>${text}`);
    });
    site.routes.set('/lm', (req, res) => {
      const lastModified = 'Tue, 01 Sep 2026 10:00:00 GMT';
      if (req.headers['if-modified-since'] === lastModified) return void res.writeHead(304).end();
      res.writeHead(200, { 'content-type': 'text/html', 'last-modified': lastModified }).end('<p>dated</p>');
    });
    site.routes.set('/plain', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(text));

    const web = connector();
    const versions = async () =>
      Object.fromEntries(
        (await web.discover(source(`${o}/`), { known })).items.map((i) => [i.externalId, i.version]),
      );

    const first = await versions();
    expect(first[`${o}/`]).toBe('etag:"v1"');
    expect(first[`${o}/lm`]).toBe('last-modified:Tue, 01 Sep 2026 10:00:00 GMT');
    expect(first[`${o}/plain`]).toMatch(/^sha256:[0-9a-f]{64}$/);

    expect(await versions()).toEqual(first);
    const conditional = site.requests.filter(
      (r) => r.headers['if-none-match'] || r.headers['if-modified-since'],
    );
    expect(conditional.map((r) => r.path).sort()).toEqual(['/', '/lm']);

    etag = '"v2"';
    text = 'second';
    const third = await versions();
    expect(third[`${o}/`]).toBe('etag:"v2"');
    expect(third[`${o}/plain`]).not.toBe(first[`${o}/plain`]);
    expect(third[`${o}/lm`]).toBe(first[`${o}/lm`]);
  });
});

describe('WebConnector.fetch', () => {
  it('returns the bytes, media type, title and the version discovery saw, without downloading the page again', async () => {
    site.page('/docs/guide.html', 'Guide', [], { etag: '"g1"' });
    const web = connector();
    const s = source(`${site.origin}/docs/guide.html`);
    const [item] = (await web.discover(s, { known })).items;
    const before = site.requests.length;

    const page = await web.fetch(s, item.externalId);

    expect(site.requests.length).toBe(before);
    expect(page).toMatchObject({
      mediaType: 'text/html',
      version: item.version,
      title: 'Guide',
      url: `${site.origin}/docs/guide.html`,
    });
    expect(page.data.toString()).toContain('<h1 id="top">Guide</h1>');
    expect(web.placeholder(item.externalId)).toEqual({ fileName: 'guide.html', mediaType: 'text/html' });
    expect(web.placeholder(`${site.origin}/`)).toEqual({ fileName: '127.0.0.1', mediaType: 'text/html' });
  });

  it('passes Markdown, PDF and HTML through with their media types and refuses images', async () => {
    site.routes.set('/notes.md', {
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: '# Notes',
    });
    site.routes.set('/paper', { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4 …' });
    const web = connector();
    expect((await web.fetch(source(site.origin), `${site.origin}/notes.md`)).mediaType).toBe('text/markdown');
    expect((await web.fetch(source(site.origin), `${site.origin}/paper`)).mediaType).toBe('application/pdf');
    site.routes.set('/page.htm', {
      headers: { 'content-type': 'application/octet-stream' },
      body: '<p>hi</p>',
    });
    expect((await web.fetch(source(site.origin), `${site.origin}/page.htm`)).mediaType).toBe('text/html');
    site.routes.set('/picture', { headers: { 'content-type': 'image/png' }, body: 'PNG' });
    const error = await failure(web.fetch(source(site.origin), `${site.origin}/picture`));
    expect((error as TroveError).code).toBe(TroveErrorCode.UnsupportedMediaType);
    expect((error as TroveError).permanent).toBe(true);
  });

  it('reports 404, 410, 401 and 403 as SOURCE_ITEM_GONE (permanent)', async () => {
    site.routes.set('/410', { status: 410 });
    site.routes.set('/401', { status: 401 });
    site.routes.set('/403', { status: 403 });
    for (const path of ['/404', '/410', '/401', '/403']) {
      const error = await failure(connector().fetch(source(site.origin), `${site.origin}${path}`));
      expect(error).toBeInstanceOf(TroveError);
      expect((error as TroveError).code).toBe(TroveErrorCode.SourceItemGone);
      expect((error as TroveError).permanent).toBe(true);
    }
  });

  it('reports 500 as a transient failure (a plain Error, retried)', async () => {
    site.routes.set('/broken', { status: 500 });
    const error = await failure(connector().fetch(source(site.origin), `${site.origin}/broken`));
    expect(error).not.toBeInstanceOf(TroveError);
    expect(error.message).toMatch(/answered 500/);
  });

  it('gives up on a page that does not answer in time, as a transient failure', async () => {
    site.routes.set('/slow', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial'); // and never ends
    });
    const error = await failure(
      connector({ timeoutMs: 300 }).fetch(source(site.origin), `${site.origin}/slow`),
    );
    expect(error).toBeInstanceOf(TroveError);
    expect((error as TroveError).code).toBe(TroveErrorCode.SourceUnreachable);
    expect((error as TroveError).permanent).toBe(false);
    expect(error.message).toMatch(/no complete answer within 300 ms/);
  });

  it('waits out a short Retry-After on 429 and then reads the page', async () => {
    let calls = 0;
    site.routes.set('/busy', (_req, res) => {
      if (calls++ === 0) return void res.writeHead(429, { 'retry-after': '1' }).end();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    const started = Date.now();
    const page = await connector().fetch(source(site.origin), `${site.origin}/busy`);
    expect(page.data.toString()).toBe('ok');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('refuses a page over the size cap, aborting the download', async () => {
    site.routes.set('/huge', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }); // chunked: no Content-Length to refuse early
      for (let i = 0; i < 20; i++) res.write('x'.repeat(1000));
      res.end();
    });
    const error = await failure(
      connector({ maxPageBytes: 5000 }).fetch(source(site.origin), `${site.origin}/huge`),
    );
    expect((error as TroveError).code).toBe(TroveErrorCode.PayloadTooLarge);
    expect((error as TroveError).permanent).toBe(true);
    expect(error.message).toBe(
      `${site.origin}/huge has more than 5,000 bytes, over the limit of 5,000 bytes (TROVE_WEB_MAX_PAGE_BYTES raises it)`,
    );
  });

  it('holds pages to the document size limit when it is lower: refused from Content-Length, skipped by discovery', async () => {
    site.page('/docs/', 'Docs', ['big.html']);
    site.routes.set('/docs/big.html', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': '3000' });
      res.end('x'.repeat(3000));
    });
    const web = connector();
    const listing = await web.discover(source(`${site.origin}/docs/`), { known, maxItemBytes: 2000 });
    expect(listing.items.map((i) => i.externalId)).toEqual([`${site.origin}/docs/`]);
    expect(listing.skipped).toEqual([
      {
        id: `${site.origin}/docs/big.html`,
        reason: `${site.origin}/docs/big.html has 3,000 bytes, over the limit of 2,000 bytes (TROVE_DOCUMENT_MAX_BYTES raises it)`,
      },
    ]);
    const error = await failure(
      web.fetch(source(site.origin), `${site.origin}/docs/big.html`, { maxBytes: 2000 }),
    );
    expect(error).toMatchObject({ code: TroveErrorCode.PayloadTooLarge, permanent: true });
  });
});

describe('WebConnector safety', () => {
  it('refuses a private address unless private networks are allowed', async () => {
    site.page('/', 'Home');
    const error = await failure(
      connector({ allowPrivateNetworks: false }).discover(source(`${site.origin}/`), { known }),
    );
    expect(error).toBeInstanceOf(TroveError);
    expect((error as TroveError).code).toBe(TroveErrorCode.BadRequest);
    expect((error as TroveError).permanent).toBe(true);
    expect(error.message).toMatch(
      /resolves to 127\.0\.0\.1, a private, loopback, link-local or reserved address/,
    );
    expect(site.requests).toEqual([]);
  });

  it('refuses a redirect to a private host, checking every hop', async () => {
    // site.test "resolves" to a public address; the injected fetch delivers it to the local server.
    const requested: string[] = [];
    const deps: WebConnectorDeps = {
      resolve: async (host) => (host === 'site.test' ? ['93.184.216.34'] : ['127.0.0.1']),
      fetch: async (input, init) => {
        const url = new URL(String(input));
        requested.push(url.href);
        if (url.hostname === 'site.test') url.host = new URL(site.origin).host;
        return fetch(url, init);
      },
    };
    site.routes.set('/metadata', {
      status: 302,
      headers: { location: 'http://169.254.169.254/latest/meta-data/' },
    });
    site.routes.set('/local', { status: 301, headers: { location: 'http://localhost:9200/' } });
    const web = connector({ allowPrivateNetworks: false }, deps);

    // A source's own URL may redirect anywhere public (http → https, a new domain): each hop is checked.
    for (const [path, address] of [
      ['/metadata', '169.254.169.254'],
      ['/local', '127.0.0.1'],
    ]) {
      const error = await failure(web.discover(source(`http://site.test${path}`), { known }));
      expect((error as TroveError).code).toBe(TroveErrorCode.BadRequest);
      expect((error as TroveError).permanent).toBe(true);
      expect(error.message).toContain(`resolves to ${address}`);
    }
    // A page redirecting off its site is not followed at all: it is gone for the source.
    const error = await failure(web.fetch(source('http://site.test/'), 'http://site.test/metadata'));
    expect((error as TroveError).code).toBe(TroveErrorCode.SourceItemGone);
    expect(requested.filter((u) => !u.startsWith('http://site.test/'))).toEqual([]);
    expect(requested).toContain('http://site.test/metadata');
  });

  it('connects only to an address that passed the check, so DNS rebinding reaches nothing', async () => {
    site.page('/', 'Home');
    let calls = 0;
    // Public to the two checks (the page, then its robots.txt), loopback to the connection after them.
    const rebinding: ResolveHost = async () => (++calls <= 2 ? ['93.184.216.34'] : ['127.0.0.1']);
    const web = connector({ allowPrivateNetworks: false }, { resolve: rebinding });

    const error = await failure(web.discover(source(`http://localhost:${sitePort()}/`), { known }));
    expect(error).toBeInstanceOf(UnsafeUrlError);
    expect((error as TroveError).code).toBe(TroveErrorCode.BadRequest);
    expect((error as TroveError).permanent).toBe(true);
    expect(error.message).toMatch(/^localhost resolved to 127\.0\.0\.1 when connecting/);
    expect(calls).toBe(3);
    expect(site.requests).toEqual([]);
  });

  it('connects through the same resolution when private networks are allowed', async () => {
    site.page('/', 'Home', ['a.html']);
    site.page('/a.html', 'A');
    const resolved: string[] = [];
    const resolve: ResolveHost = async (host) => {
      resolved.push(host);
      return host === 'docs.trove.test' ? ['127.0.0.1'] : [];
    };
    const origin = `http://docs.trove.test:${sitePort()}`;

    const result = await connector({ allowPrivateNetworks: true }, { resolve }).discover(
      source(`${origin}/`),
      { known },
    );
    expect(result.items.map((i) => i.externalId).sort()).toEqual([`${origin}/`, `${origin}/a.html`]);
    expect(resolved).toContain('docs.trove.test');
    expect(new Set(site.requests.map((r) => r.headers.host))).toEqual(
      new Set([`docs.trove.test:${sitePort()}`]),
    );
  });

  it('refuses schemes other than http and https', async () => {
    const error = await failure(connector().discover(source('file:///etc/passwd'), { known }));
    expect((error as TroveError).code).toBe(TroveErrorCode.BadRequest);
  });
});
