import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeLlmServer, type ChatCall, type RecordedLlmRequest } from './fake-llm-server.testing';

export interface FakeOpenAiServerOptions {
  /** Models listed by /v1/models; a chat request naming another gets OpenAI's 404. */
  models?: string[];
  /** When set, requests must carry `Authorization: Bearer <apiKey>` (else 401). */
  apiKey?: string;
}

/**
 * A small server following OpenAI's public API for `/v1/chat/completions` (JSON, or server-sent
 * events `data: {chat.completion.chunk}` ending with `data: [DONE]`, plus the usage-only chunk
 * with empty `choices` when `stream_options.include_usage` is set) and `/v1/models`, with
 * OpenAI's error body `{error: {message, type, param, code}}`. Scriptable through `enqueue`.
 */
export class FakeOpenAiServer extends FakeLlmServer {
  private constructor(private readonly serverOptions: FakeOpenAiServerOptions) {
    super(serverOptions.models ?? ['fake-model']);
  }

  static start(options: FakeOpenAiServerOptions = {}): Promise<FakeOpenAiServer> {
    return new FakeOpenAiServer(options).listen();
  }

  /** The base URL a client is given, `/v1` included. */
  get baseUrl(): string {
    return `${this.origin}/v1`;
  }

  protected async route(
    req: IncomingMessage,
    res: ServerResponse,
    record: RecordedLlmRequest,
  ): Promise<void> {
    const key = this.serverOptions.apiKey;
    const auth = req.headers.authorization ?? '';
    if (key !== undefined && auth !== `Bearer ${key}`) {
      // Real OpenAI masks most of the key it refuses; this fake echoes all of it, the worst case.
      const given = auth.replace(/^Bearer /, '');
      return sendError(
        res,
        401,
        `Incorrect API key provided: ${given}.`,
        'invalid_request_error',
        'invalid_api_key',
      );
    }
    if (record.method === 'GET' && record.path === '/v1/models') {
      return sendJson(res, 200, {
        object: 'list',
        data: this.models.map((id) => ({
          id,
          object: 'model',
          created: 1_700_000_000,
          owned_by: 'trove-fake',
        })),
      });
    }
    if (record.method === 'POST' && record.path === '/v1/chat/completions') return this.chat(res, record);
    return sendError(
      res,
      404,
      `Unknown request URL: ${record.method} ${record.path}.`,
      'invalid_request_error',
      'unknown_url',
    );
  }

  private async chat(res: ServerResponse, record: RecordedLlmRequest): Promise<void> {
    const body = record.body ?? {};
    const reply = this.nextReply();
    if (await this.beforeAnswer(res, record, reply)) return;
    if (reply.status && reply.status >= 400) {
      return sendError(
        res,
        reply.status,
        reply.errorMessage ?? `fake failure ${reply.status}`,
        errorType(reply.status),
        null,
      );
    }
    if (!this.models.includes(body.model)) {
      return sendError(
        res,
        404,
        `The model \`${body.model}\` does not exist or you do not have access to it.`,
        'invalid_request_error',
        'model_not_found',
      );
    }
    const call: ChatCall = {
      model: body.model,
      stream: body.stream === true,
      maxTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined,
      promptText: (body.messages ?? []).map((m: { content: string }) => m.content).join(' '),
    };
    const { pieces, finishReason } = this.pieces(reply, call);
    const usage = this.usage(reply, call, pieces);
    const wireUsage = {
      prompt_tokens: usage.promptTokens,
      completion_tokens: usage.completionTokens,
      total_tokens: usage.promptTokens + usage.completionTokens,
    };
    const id = `chatcmpl-fake${this.requests.length}`;
    const created = Math.floor(Date.now() / 1000);
    if (!call.stream) {
      if (reply.pieceDelayMs) await new Promise((r) => setTimeout(r, reply.pieceDelayMs! * pieces.length));
      return sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model: call.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: pieces.join(''), refusal: null },
            logprobs: null,
            finish_reason: finishReason,
          },
        ],
        usage: wireUsage,
      });
    }
    const chunk = (delta: object, finish: string | null, extra: object = {}) =>
      `data: ${JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model: call.model,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
        ...extra,
      })}\n\n`;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.write(chunk({ role: 'assistant', content: '' }, null));
    const complete = await this.writePieces(res, record, reply, pieces, (piece) =>
      chunk({ content: piece }, null),
    );
    if (!complete) return;
    res.write(chunk({}, finishReason));
    if (body.stream_options?.include_usage) {
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: call.model, choices: [], usage: wireUsage })}\n\n`,
      );
    }
    res.end('data: [DONE]\n\n');
  }
}

function errorType(status: number): string {
  if (status === 429) return 'rate_limit_exceeded';
  if (status >= 500) return 'server_error';
  if (status === 401) return 'invalid_request_error';
  return 'invalid_request_error';
}

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  type: string,
  code: string | null,
): void {
  sendJson(res, status, { error: { message, type, param: null, code } });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
