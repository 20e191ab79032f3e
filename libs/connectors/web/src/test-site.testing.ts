import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Route {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export type Handler = Route | ((req: IncomingMessage, res: ServerResponse) => void);

export interface RecordedRequest {
  path: string;
  at: number;
  headers: IncomingMessage['headers'];
}

/** A static site on 127.0.0.1 for the web connector's specs: routes by path, every request recorded. */
export class TestSite {
  readonly routes = new Map<string, Handler>();
  readonly requests: RecordedRequest[] = [];
  private server?: Server;
  origin = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const path = req.url ?? '/';
      this.requests.push({ path, at: Date.now(), headers: req.headers });
      const handler = this.routes.get(path) ?? this.routes.get(path.split('?')[0]);
      if (!handler) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      } else if (typeof handler === 'function') {
        handler(req, res);
      } else {
        res.writeHead(handler.status ?? 200, {
          'content-type': 'text/html; charset=utf-8',
          ...handler.headers,
        });
        res.end(handler.body ?? '');
      }
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** An HTML page with a title and links. */
  page(path: string, title: string, links: string[] = [], headers: Record<string, string> = {}) {
    const body = `<!doctype html><html><head><title>${title}</title></head><body><h1 id="top">${title}</h1>${links
      .map((l) => `<a href="${l}">${l}</a>`)
      .join(' ')}</body></html>`;
    this.routes.set(path, { body, headers });
  }

  paths(): string[] {
    return this.requests.map((r) => r.path);
  }

  async stop() {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
