import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A small web site on 127.0.0.1 for web sources to read: paths to HTML (or text) bodies. */
export class StaticSite {
  private server?: Server;
  /** Paths requested so far, in order. */
  readonly requests: string[] = [];
  url = '';

  constructor(readonly pages: Map<string, string>) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://site').pathname;
      this.requests.push(path);
      const body = this.pages.get(path);
      if (body === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const type = path.endsWith('.txt') ? 'text/plain' : 'text/html; charset=utf-8';
      res.writeHead(200, { 'content-type': type }).end(body);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** An HTML page with a title, a body and links. */
export function htmlPage(title: string, body: string, links: string[] = []): string {
  const nav = links.map((href) => `<a href="${href}">${href}</a>`).join(' ');
  return `<!doctype html><html><head><title>${title}</title></head><body><nav>${nav}</nav>${body}</body></html>`;
}

/** A two-page documentation site under /docs/ about one subject (its words are easy to search for). */
export function docsSite(subject: string): Map<string, string> {
  return new Map([
    ['/robots.txt', 'User-agent: *\nAllow: /\n'],
    [
      '/docs/',
      htmlPage(`${subject} handbook`, `<h1>${subject} handbook</h1><p>Start here.</p>`, ['care.html']),
    ],
    [
      '/docs/care.html',
      htmlPage(
        `${subject} care`,
        `<h1>${subject} care</h1><h2>Watering</h2><p>Water the ${subject.toLowerCase()} every Thursday with rainwater.</p>`,
      ),
    ],
  ]);
}
