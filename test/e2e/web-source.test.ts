import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TroveStack } from '../support/stack';

/**
 * A web site as a source, through the API and the real worker: the third connector goes through
 * the same generic sync as Notion and folders. A local static server plays the site (robots.txt,
 * ETags, a page that disappears); the worker may read it because private networks are allowed
 * for this stack only.
 */
const pages = new Map<string, string>();
const requests: string[] = [];
let server: Server;
let base: string;

function page(title: string, body: string, links: string[] = []): string {
  const nav = links.map((href) => `<a href="${href}">${href}</a>`).join(' ');
  return `<!doctype html><html><head><title>${title}</title></head><body><nav>${nav}</nav>${body}</body></html>`;
}

function setSite(options: { withGuide: boolean; faqAnswer: string }): void {
  pages.clear();
  pages.set('/robots.txt', 'User-agent: *\nDisallow: /docs/private/\n');
  // The index keeps linking to the guide: only the guide itself disappears (404).
  const links = ['guide.html', 'faq.html', 'private/secret.html', '/elsewhere.html'];
  pages.set(
    '/docs/',
    page('Handbook', '<h1 id="welcome">Welcome</h1><p>The handbook of the lighthouse keepers.</p>', links),
  );
  if (options.withGuide) {
    pages.set(
      '/docs/guide.html',
      page(
        'Guide',
        '<h1 id="guide">Guide</h1><h2 id="lamp-maintenance">Lamp maintenance</h2>' +
          '<p>Polish the Fresnel lens every Tuesday with a soft chamois cloth.</p>',
        ['faq.html'],
      ),
    );
  }
  pages.set(
    '/docs/faq.html',
    page('FAQ', `<h1 id="faq">FAQ</h1><h2 id="fog">Fog</h2><p>${options.faqAnswer}</p>`),
  );
  pages.set(
    '/docs/private/secret.html',
    page('Secret', '<p>The keeper hides the spare key under the mat.</p>'),
  );
  pages.set('/elsewhere.html', page('Elsewhere', '<p>Outside the base path: never read.</p>'));
}

const stack = new TroveStack({
  TROVE_WEB_ALLOW_PRIVATE_NETWORKS: 'true',
  TROVE_WEB_REQUESTS_PER_SECOND: '50',
});
let projectId: string;
let sourceId: string;

async function sync(mode: 'FULL' | 'INCREMENTAL') {
  const { syncSource } = await stack.query<{ syncSource: { id: string } }>(
    'mutation($id: ID!, $m: SyncMode!) { syncSource(id: $id, mode: $m) { id } }',
    { id: sourceId, m: mode },
  );
  return stack.runSettled(syncSource.id);
}

async function search(query: string) {
  const { search } = await stack.query<{
    search: {
      hits: { title: string; text: string; citationUrl: string | null; citation: { kind: string } | null }[];
    };
  }>('query($i: SearchInput!) { search(input: $i) { hits { title text citationUrl citation { kind } } } }', {
    i: { projectId, query, limit: 5 },
  });
  return search.hits;
}

async function sourceDocuments() {
  const { documents } = await stack.query<{
    documents: { nodes: { fileName: string; url: string | null; status: string }[] };
  }>(
    'query($p: ID!, $s: ID) { documents(projectId: $p, sourceId: $s, first: 100) { nodes { fileName url status } } }',
    {
      p: projectId,
      s: sourceId,
    },
  );
  return documents.nodes;
}

beforeAll(async () => {
  setSite({ withGuide: true, faqAnswer: 'In fog, sound the horn twice a minute.' });
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    requests.push(path);
    const body = pages.get(path);
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    const type = path.endsWith('.txt') ? 'text/plain' : 'text/html; charset=utf-8';
    res.writeHead(200, { 'content-type': type, etag }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await stack.start();
  projectId = await stack.createProject('Web');
  ({ id: sourceId } = await stack.addSource({
    projectId,
    name: 'Keepers handbook',
    type: 'WEB',
    config: { url: `${base}/docs/`, maxPages: 50 },
  }));
});

afterAll(async () => {
  await stack.stop();
  await new Promise((resolve) => server?.close(resolve));
});

describe('a web site as a source', () => {
  it('crawls the pages under the base URL, respects robots.txt, and cites page URL + heading anchor', async () => {
    const run = await sync('FULL');
    expect(run).toMatchObject({ status: 'COMPLETED', error: null });
    expect(run.progress).toMatchObject({ pagesSeen: 3, pagesIngested: 3, pagesFailed: 0 });
    expect(run.skipped.map((s) => s.id).join(' ')).toContain('/docs/private/secret.html');
    expect(requests).not.toContain('/docs/private/secret.html');
    expect(requests).not.toContain('/elsewhere.html');
    expect((await sourceDocuments()).every((d) => d.status === 'READY')).toBe(true);

    const [hit] = await search('How often is the Fresnel lens polished?');
    expect(hit.text).toContain('Fresnel lens');
    expect(hit.citation?.kind).toBe('source');
    expect(hit.citationUrl).toBe(`${base}/docs/guide.html#lamp-maintenance`);
  });

  it('re-ingests only the page that changed, and removes a page that disappeared', async () => {
    const unchanged = await sync('INCREMENTAL');
    expect(unchanged.progress).toMatchObject({ pagesSeen: 3, pagesUnchanged: 3, pagesIngested: 0 });

    setSite({
      withGuide: false,
      faqAnswer: 'In fog, light the beacon and sound the horn three times a minute.',
    });
    const changed = await sync('INCREMENTAL');
    expect(changed).toMatchObject({ status: 'COMPLETED' });
    expect(changed.progress).toMatchObject({
      pagesSeen: 2,
      pagesIngested: 1,
      pagesUnchanged: 1,
      pagesDeleted: 1,
    });
    expect((await sourceDocuments()).map((d) => d.url).sort()).toEqual([
      `${base}/docs/`,
      `${base}/docs/faq.html`,
    ]);

    const [fog] = await search('What to do in fog?');
    expect(fog.text).toContain('three times a minute');
    expect(fog.citationUrl).toBe(`${base}/docs/faq.html#fog`);
    expect((await search('Fresnel lens chamois')).some((h) => h.text.includes('Fresnel'))).toBe(false);
  });
});
