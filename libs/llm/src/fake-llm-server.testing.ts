import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer of a fake LLM server; unset fields take the server's defaults. */
export interface FakeLlmReply {
  /** The answer; streamed as these pieces (a string is split into words, spaces kept). */
  text?: string | string[];
  /** Default 'stop', or 'length' when the request's token limit cut the pieces. */
  finishReason?: string;
  usage?: { promptTokens: number; completionTokens: number };
  /** Answer with this HTTP error status instead (the API's error body shape). */
  status?: number;
  /** The error body's message (status ≥ 400). */
  errorMessage?: string;
  /** Wait before sending the response headers. */
  delayMs?: number;
  /** Wait before each streamed piece. */
  pieceDelayMs?: number;
  /** Send the headers, then nothing, until the client goes away. */
  hang?: boolean;
  /** Stream this many pieces, then nothing more until the client goes away. */
  stallAfterPieces?: number;
  /** Destroy the connection after this many pieces (0: before any response). */
  dropAfterPieces?: number;
  /** End the response cleanly after this many pieces, without the API's closing message (a cut stream). */
  endAfterPieces?: number;
}

/** A request as the fake received it. */
export interface RecordedLlmRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body (undefined for GET). */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** The client closed the connection before the response was complete (an abort, a timeout). */
  closedEarly: boolean;
  /** Pieces of text written before the response ended or the client went away. */
  piecesSent: number;
}

/** What a subclass knows of one chat request, in the shape of its API. */
export interface ChatCall {
  model: string;
  stream: boolean;
  /** The request's limit of generated tokens, if any. */
  maxTokens?: number;
  promptText: string;
}

/**
 * The common part of the fake servers: scripted replies in order (then `defaultReply`), delays,
 * failure injection, and a record of every request. Subclasses speak one API's wire format.
 */
export abstract class FakeLlmServer {
  readonly requests: RecordedLlmRequest[] = [];
  /** Used when the script is empty. */
  defaultReply: FakeLlmReply = { text: 'Hello from the fake server.' };
  private readonly script: FakeLlmReply[] = [];
  private server?: Server;
  private port = 0;

  constructor(readonly models: string[]) {}

  /** Queues replies for the next chat requests, in order. */
  enqueue(...replies: FakeLlmReply[]): this {
    this.script.push(...replies);
    return this;
  }

  /** The chat requests received (models listings and health checks left out). */
  get chatRequests(): RecordedLlmRequest[] {
    return this.requests.filter((r) => r.method === 'POST');
  }

  protected get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async listen(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server!.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  /** Resolves once the latest request's connection closed, or rejects after `timeoutMs`. */
  async waitForClose(request: RecordedLlmRequest, timeoutMs = 2_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!request.closedEarly && Date.now() < deadline) await sleep(10);
    if (!request.closedEarly)
      throw new Error(`the client did not close ${request.path} within ${timeoutMs} ms`);
  }

  /** Routes one request; the subclass answers the API's endpoints. */
  protected abstract route(
    req: IncomingMessage,
    res: ServerResponse,
    record: RecordedLlmRequest,
  ): Promise<void>;

  /** The next scripted reply for a chat request. */
  protected nextReply(): FakeLlmReply {
    return this.script.shift() ?? this.defaultReply;
  }

  /** The pieces a reply streams, cut to the request's token limit (one piece ≈ one token). */
  protected pieces(reply: FakeLlmReply, call: ChatCall): { pieces: string[]; finishReason: string } {
    const all = Array.isArray(reply.text) ? reply.text : splitWords(reply.text ?? '');
    const cut = call.maxTokens !== undefined && all.length > call.maxTokens;
    const pieces = cut ? all.slice(0, call.maxTokens) : all;
    return { pieces, finishReason: reply.finishReason ?? (cut ? 'length' : 'stop') };
  }

  protected usage(reply: FakeLlmReply, call: ChatCall, pieces: string[]) {
    return (
      reply.usage ?? { promptTokens: splitWords(call.promptText).length, completionTokens: pieces.length }
    );
  }

  /**
   * Writes a streamed reply piece by piece with the reply's delays and failures; returns false
   * when the stream was cut (stall, drop, client gone) and must not be ended normally.
   */
  protected async writePieces(
    res: ServerResponse,
    record: RecordedLlmRequest,
    reply: FakeLlmReply,
    pieces: string[],
    encode: (piece: string) => string,
  ): Promise<boolean> {
    for (const piece of pieces) {
      if (reply.dropAfterPieces === record.piecesSent) {
        res.socket?.destroy();
        return false;
      }
      if (reply.stallAfterPieces === record.piecesSent) return false;
      if (reply.endAfterPieces === record.piecesSent) {
        res.end();
        return false;
      }
      if (reply.pieceDelayMs) await sleep(reply.pieceDelayMs);
      if (record.closedEarly) return false;
      // Waits until the piece left the process, so a drop that follows cannot swallow it.
      await new Promise<void>((resolve) => res.write(encode(piece), () => resolve()));
      record.piecesSent++;
    }
    return !record.closedEarly;
  }

  /** Applies the failures that happen before any answer; true when the request was handled. */
  protected async beforeAnswer(
    res: ServerResponse,
    record: RecordedLlmRequest,
    reply: FakeLlmReply,
  ): Promise<boolean> {
    if (reply.delayMs) await sleep(reply.delayMs);
    if (reply.dropAfterPieces === 0) {
      res.socket?.destroy();
      return true;
    }
    if (reply.hang) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      return true;
    }
    return record.closedEarly;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const record: RecordedLlmRequest = {
      method: req.method ?? 'GET',
      path: (req.url ?? '/').split('?')[0],
      headers: req.headers,
      body: undefined,
      closedEarly: false,
      piecesSent: 0,
    };
    this.requests.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.closedEarly = true;
    });
    try {
      const raw = await readBody(req);
      record.body = raw ? JSON.parse(raw) : undefined;
      await this.route(req, res, record);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: String(error) }));
    }
  }
}

/** Words with the spaces that follow them kept, so the pieces join back to the text. */
export function splitWords(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}
