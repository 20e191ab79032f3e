import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeLlmServer, type ChatCall, type RecordedLlmRequest } from './fake-llm-server.testing';

export interface FakeOllamaServerOptions {
  /** Models listed by /api/tags (`name:tag`; a name alone means `:latest`). */
  models?: string[];
}

/**
 * A small server following Ollama's public API for `/api/chat` (streams by default: one JSON
 * object per line, `application/x-ndjson`, the last with `done: true`, `done_reason` and the
 * token counts; `stream: false` gives that last object with the whole message) and `/api/tags`,
 * with Ollama's error body `{error}`. Scriptable through `enqueue`.
 */
export class FakeOllamaServer extends FakeLlmServer {
  private constructor(options: FakeOllamaServerOptions) {
    super((options.models ?? ['fake-model:latest']).map(withTag));
  }

  static start(options: FakeOllamaServerOptions = {}): Promise<FakeOllamaServer> {
    return new FakeOllamaServer(options).listen();
  }

  /** The host a client is given. */
  get host(): string {
    return this.origin;
  }

  protected async route(
    _req: IncomingMessage,
    res: ServerResponse,
    record: RecordedLlmRequest,
  ): Promise<void> {
    if (record.method === 'GET' && record.path === '/') return sendText(res, 200, 'Ollama is running');
    if (record.method === 'GET' && record.path === '/api/tags') {
      return sendJson(res, 200, {
        models: this.models.map((name) => ({
          name,
          model: name,
          modified_at: '2026-01-01T00:00:00Z',
          size: 1_000_000,
          digest: 'sha256:0000',
          details: { format: 'gguf', family: 'fake', parameter_size: '1M', quantization_level: 'Q4_K_M' },
        })),
      });
    }
    if (record.method === 'POST' && record.path === '/api/chat') return this.chat(res, record);
    return sendText(res, 404, '404 page not found');
  }

  private async chat(res: ServerResponse, record: RecordedLlmRequest): Promise<void> {
    const body = record.body ?? {};
    const reply = this.nextReply();
    if (await this.beforeAnswer(res, record, reply)) return;
    if (reply.status && reply.status >= 400) {
      return sendJson(res, reply.status, { error: reply.errorMessage ?? `fake failure ${reply.status}` });
    }
    if (!this.models.includes(withTag(body.model ?? ''))) {
      return sendJson(res, 404, { error: `model "${body.model}" not found, try pulling it first` });
    }
    const call: ChatCall = {
      model: body.model,
      // Ollama streams unless told not to.
      stream: body.stream !== false,
      maxTokens: body.options?.num_predict ?? undefined,
      promptText: (body.messages ?? []).map((m: { content: string }) => m.content).join(' '),
    };
    const { pieces, finishReason } = this.pieces(reply, call);
    const usage = this.usage(reply, call, pieces);
    const createdAt = () => new Date().toISOString();
    const last = (content: string) => ({
      model: call.model,
      created_at: createdAt(),
      message: { role: 'assistant', content },
      done: true,
      done_reason: finishReason,
      total_duration: 1_000_000,
      load_duration: 1_000,
      prompt_eval_count: usage.promptTokens,
      prompt_eval_duration: 1_000,
      eval_count: usage.completionTokens,
      eval_duration: 1_000,
    });
    if (!call.stream) {
      if (reply.pieceDelayMs) await new Promise((r) => setTimeout(r, reply.pieceDelayMs! * pieces.length));
      return sendJson(res, 200, last(pieces.join('')));
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const line = (piece: string) =>
      `${JSON.stringify({ model: call.model, created_at: createdAt(), message: { role: 'assistant', content: piece }, done: false })}\n`;
    const complete = await this.writePieces(res, record, reply, pieces, line);
    if (!complete) return;
    res.end(`${JSON.stringify(last(''))}\n`);
  }
}

function withTag(model: string): string {
  return model.includes(':') ? model : `${model}:latest`;
}

function sendText(res: ServerResponse, status: number, text: string): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
