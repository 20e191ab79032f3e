import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake Ollama server following the documented REST contract of the endpoints Trove uses:
 * `POST /api/embed` (`input` string or array, `truncate`), `GET /api/tags`, `GET /api/version`.
 * Errors are `{"error": "..."}` with Ollama's status codes (404 for an unknown model, 400 for bad input).
 * Ollama's binary cannot be installed on this machine; embeddings here are deterministic hashes, not a
 * model: the fake checks our client's contract, not retrieval quality.
 */
export class FakeOllama {
  readonly requests: { path: string; body: Record<string, unknown> }[] = [];
  /** When set, `/api/embed` requests are held unanswered; each records whether its client left. */
  holdEmbeddings = false;
  readonly held: { closed: boolean }[] = [];
  private server?: Server;

  constructor(private readonly models: Record<string, number>) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      if (this.holdEmbeddings && req.url?.startsWith('/api/embed')) {
        const record = { closed: false };
        this.held.push(record);
        res.once('close', () => (record.closed = true));
        return;
      }
      void this.handle(req).then(
        ({ status, body }) => {
          res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
          res.end(JSON.stringify(body));
        },
        (error: Error) => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: error.message }));
        },
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/api/version') return { status: 200, body: { version: '0.12.6' } };
    if (req.method === 'GET' && path === '/api/tags') {
      return {
        status: 200,
        body: { models: Object.keys(this.models).map((name) => ({ name, model: name })) },
      };
    }
    if (req.method === 'POST' && path === '/api/embed') {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw);
      } catch {
        return { status: 400, body: { error: 'invalid character in JSON body' } };
      }
      this.requests.push({ path, body });
      const model = String(body.model ?? '');
      const dims = this.models[model];
      if (!dims) return { status: 404, body: { error: `model "${model}" not found, try pulling it first` } };
      const input = body.input;
      const texts = typeof input === 'string' ? [input] : input;
      if (!Array.isArray(texts) || !texts.every((t) => typeof t === 'string')) {
        return { status: 400, body: { error: 'invalid input type' } };
      }
      return {
        status: 200,
        body: {
          model,
          embeddings: texts.map((t) => hashVector(t, dims)),
          total_duration: 1_000_000,
          load_duration: 1_000,
          prompt_eval_count: texts.reduce((n, t) => n + t.split(/\s+/).length, 0),
        },
      };
    }
    return { status: 404, body: { error: '404 page not found' } };
  }
}

function hashVector(text: string, dims: number): number[] {
  const out: number[] = [];
  for (let i = 0; out.length < dims; i++) {
    const digest = createHash('sha256').update(`${i}:${text}`).digest();
    for (let j = 0; j + 4 <= digest.length && out.length < dims; j += 4)
      out.push(digest.readInt32LE(j) / 2 ** 31);
  }
  const norm = Math.hypot(...out);
  return out.map((v) => v / norm);
}
