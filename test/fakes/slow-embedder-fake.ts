import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible embedding server that never answers `POST /v1/embeddings`: it holds
 * each request and records when its client closes the connection, so a test can check that an
 * abandoned search really stops its embedding request. `GET /v1/models` answers (readiness).
 */
export class SlowEmbedder {
  /** One entry per embedding request: its inputs, and whether the client closed the connection. */
  readonly requests: { input: unknown; closed: boolean }[] = [];
  private server?: Server;
  private readonly held = new Set<ServerResponse>();

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'fake', object: 'model' }] }));
      return;
    }
    if (req.method === 'POST' && path === '/v1/embeddings') {
      const record = { input: JSON.parse(Buffer.concat(chunks).toString('utf8')).input, closed: false };
      this.requests.push(record);
      this.held.add(res);
      res.once('close', () => {
        record.closed = true;
        this.held.delete(res);
      });
      return; // never answered
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'not found' } }));
  }
}
