import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP proxy in front of a real service that can be told to fail: `failNext(n)` answers the
 * next n requests with 503, as an overloaded or restarting server would; `failAfter(n)` lets the
 * next n through first, then fails every request until told otherwise.
 */
export class FaultProxy {
  private server?: Server;
  private failuresLeft = 0;
  private passesLeft = 0;
  failed = 0;
  forwarded = 0;

  constructor(private readonly target: URL) {}

  failNext(count: number): void {
    this.failuresLeft = count;
    this.passesLeft = 0;
  }

  failAfter(passes: number): void {
    this.passesLeft = passes;
    this.failuresLeft = Number.MAX_SAFE_INTEGER;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      if (this.passesLeft > 0) this.passesLeft--;
      else if (this.failuresLeft > 0) {
        this.failuresLeft--;
        this.failed++;
        req.resume();
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { message: 'injected fault: service unavailable', type: 'server_error' } }),
        );
        return;
      }
      this.forwarded++;
      const upstream = request(
        {
          host: this.target.hostname,
          port: this.target.port,
          path: req.url,
          method: req.method,
          headers: req.headers,
        },
        (upstreamRes) => {
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
          upstreamRes.pipe(res);
        },
      );
      upstream.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
