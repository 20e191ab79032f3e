/*
 * FOR BENCHMARKS ONLY. A stub OpenAI-compatible embedding server whose vectors carry no meaning:
 * each text gets a deterministic unit-norm vector derived from its hash, at once, so a benchmark
 * measures the pipeline's own ceiling separately from a model's speed. Search quality with it is
 * meaningless (similar texts do not get similar vectors); never point a real index at it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidRequestError, MAX_BATCH, parseEmbeddingsRequest } from './embeddings-request';
import { estimateTokens, stubVector } from './vectors';

export interface EmbedderStubOptions {
  /** Length of every vector; must match the embedding profile Trove runs with (384 for e5-small). */
  dimensions: number;
  /** The model `GET /v1/models` lists and embeddings echo when a request names none. */
  model: string;
  /** Waits this long before answering each embeddings request (default 0: at once). */
  delayMs?: number;
  /** Most texts per request (default OpenAI's 2048). */
  maxBatch?: number;
  /** Bodies above this many bytes are refused with 413 (default {@link MAX_BODY_BYTES}). */
  maxBodyBytes?: number;
}

/** The default body limit: 2048 texts of ~30 KB each. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * The stub server: `POST /v1/embeddings` ({@link stubVector} per text, `usage.prompt_tokens` from
 * {@link estimateTokens}), `GET /v1/models` (the OpenAI-compatible provider's ping) and `GET /health`
 * (the local services' health check). Node built-ins only.
 */
export class EmbedderStub {
  /** What the stub has served since it started. */
  readonly stats = { requests: 0, texts: 0, rejected: 0 };
  private server?: Server;

  constructor(private readonly options: EmbedderStubOptions) {
    if (!Number.isInteger(options.dimensions) || options.dimensions < 1) {
      throw new Error(`dimensions must be a positive integer, got ${options.dimensions}`);
    }
  }

  /** Listens on `port` (0: any free port) and returns the OpenAI base URL, e.g. `http://127.0.0.1:8090/v1`. */
  async start(port = 0, host = '127.0.0.1'): Promise<string> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) sendError(res, 500, (error as Error).message, null, null, 'server_error');
        else res.destroy();
      });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address() as AddressInfo;
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${shown}:${address.port}/v1`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req, this.options.maxBodyBytes ?? MAX_BODY_BYTES);
    const path = (req.url ?? '/').split('?')[0];
    const route = ROUTES.get(path);
    if (!route) return sendError(res, 404, `Invalid URL (${req.method} ${path})`, null, 'unknown_url');
    if (req.method !== route) {
      res.setHeader('allow', route);
      return sendError(res, 405, `${req.method} is not allowed on ${path}; use ${route}`, null);
    }
    if (path === '/health') return send(res, 200, { status: 'ok' });
    if (path === '/v1/models') {
      return send(res, 200, {
        object: 'list',
        data: [{ id: this.options.model, object: 'model', created: 0, owned_by: 'trove-embedder-stub' }],
      });
    }
    await this.embeddings(body, res);
  }

  private async embeddings(body: Buffer | undefined, res: ServerResponse): Promise<void> {
    this.stats.requests++;
    if (!body) {
      this.stats.rejected++;
      const limit = this.options.maxBodyBytes ?? MAX_BODY_BYTES;
      return sendError(res, 413, `the request body exceeds ${limit} bytes`, null);
    }
    let request;
    try {
      request = parseEmbeddingsRequest(parseJson(body), {
        dimensions: this.options.dimensions,
        maxBatch: this.options.maxBatch ?? MAX_BATCH,
      });
    } catch (error) {
      if (!(error instanceof InvalidRequestError)) throw error;
      this.stats.rejected++;
      return sendError(res, 400, error.message, error.param);
    }
    if (this.options.delayMs) await sleep(this.options.delayMs);
    let tokens = 0;
    const data = request.input.map((text, index) => {
      tokens += estimateTokens(text);
      const vector = stubVector(text, this.options.dimensions);
      const embedding =
        request.encodingFormat === 'base64'
          ? Buffer.from(new Float32Array(vector).buffer).toString('base64')
          : vector;
      return { object: 'embedding', index, embedding };
    });
    this.stats.texts += data.length;
    send(res, 200, {
      object: 'list',
      data,
      model: request.model ?? this.options.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }
}

/** Path → the one method it answers. */
const ROUTES = new Map([
  ['/v1/embeddings', 'POST'],
  ['/v1/models', 'GET'],
  ['/health', 'GET'],
]);

/** The whole body, or undefined when it exceeds `limit` bytes (then it is read to the end and dropped). */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= limit) chunks.push(chunk as Buffer);
  }
  return size <= limit ? Buffer.concat(chunks) : undefined;
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new InvalidRequestError(`the request body is not valid JSON: ${(error as Error).message}`, null);
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** OpenAI's error shape: `{ error: { message, type, param, code } }`. */
function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  param: string | null,
  code: string | null = null,
  type = 'invalid_request_error',
): void {
  send(res, status, { error: { message, type, param, code } });
}
