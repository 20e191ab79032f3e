import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TroveError, TroveErrorCode, type LlmStreamEvent } from '@trove/domain';
import { FakeOpenAiServer } from './fake-openai-server.testing';
import { OpenAiCompatibleLlm, type OpenAiCompatibleLlmOptions } from './openai-compatible.provider';

const KEY = 'sk-test-0123456789abcdefSECRET';
const ask = { messages: [{ role: 'user' as const, content: 'What is Trove?' }] };

let server: FakeOpenAiServer;
beforeEach(async () => {
  server = await FakeOpenAiServer.start({ models: ['fake-model'], apiKey: KEY });
});
afterEach(() => server.close());

function llm(options: Partial<OpenAiCompatibleLlmOptions> = {}): OpenAiCompatibleLlm {
  return new OpenAiCompatibleLlm({
    baseUrl: server.baseUrl,
    apiKey: KEY,
    model: 'fake-model',
    temperature: 0.1,
    maxTokens: 512,
    timeoutMs: 5_000,
    idleTimeoutMs: 2_000,
    retries: 2,
    backoffMs: () => 10,
    ...options,
  });
}

async function collect(events: AsyncIterable<LlmStreamEvent>): Promise<LlmStreamEvent[]> {
  const seen: LlmStreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

async function failure(work: Promise<unknown>): Promise<TroveError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TroveError);
  return error as TroveError;
}

describe('OpenAiCompatibleLlm', () => {
  it('completes with the configured model, temperature and token limit, and reports usage', async () => {
    server.enqueue({ text: 'Trove is a knowledge base.', usage: { promptTokens: 11, completionTokens: 6 } });
    const result = await llm().complete(ask);
    expect(result).toEqual({
      text: 'Trove is a knowledge base.',
      finishReason: 'stop',
      usage: { promptTokens: 11, completionTokens: 6 },
    });
    const [request] = server.chatRequests;
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.body).toMatchObject({
      model: 'fake-model',
      messages: ask.messages,
      temperature: 0.1,
      max_tokens: 512,
    });
    expect(request.body.stream).toBe(false);
    expect(request.body.response_format).toBeUndefined();
    expect(llm().modelId).toBe('openai:fake-model');
  });

  it('takes temperature and max tokens from the call, and asks for a JSON object in JSON mode', async () => {
    server.enqueue({ text: '{"a": 1}' });
    const result = await llm().complete({ ...ask, temperature: 0.8, maxTokens: 40, json: true });
    expect(JSON.parse(result.text)).toEqual({ a: 1 });
    expect(server.chatRequests[0].body).toMatchObject({
      temperature: 0.8,
      max_tokens: 40,
      response_format: { type: 'json_object' },
    });
  });

  it('streams deltas that join to the final text, then done with finish reason and usage', async () => {
    server.enqueue({
      text: ['Trove ', 'keeps ', 'your ', 'notes.'],
      usage: { promptTokens: 9, completionTokens: 4 },
    });
    const events = await collect(llm().stream(ask));
    const deltas = events.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text);
    expect(deltas).toEqual(['Trove ', 'keeps ', 'your ', 'notes.']);
    expect(events.at(-1)).toEqual({
      type: 'done',
      text: 'Trove keeps your notes.',
      finishReason: 'stop',
      usage: { promptTokens: 9, completionTokens: 4 },
    });
    expect(events.filter((e) => e.type === 'done')).toHaveLength(1);
    expect(server.chatRequests[0].body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("reports the server's 'length' when the token limit cut the answer", async () => {
    server.enqueue({ text: 'one two three four five six seven' });
    const events = await collect(llm().stream({ ...ask, maxTokens: 3 }));
    expect(events.at(-1)).toMatchObject({ type: 'done', text: 'one two three ', finishReason: 'length' });
  });

  it('retries a 500, a 429 and a dropped connection before the first token', async () => {
    server.enqueue({ status: 500 }, { status: 429 }, { dropAfterPieces: 0 }, { text: 'finally' });
    const result = await llm({ retries: 3 }).complete(ask);
    expect(result.text).toBe('finally');
    expect(server.chatRequests).toHaveLength(4);
  });

  it('gives up after its retries with a transient LLM_FAILED', async () => {
    server.enqueue({ status: 503 }, { status: 503 }, { status: 503 }, { text: 'too late' });
    const error = await failure(collect(llm({ retries: 2 }).stream(ask)));
    expect(error.code).toBe(TroveErrorCode.LlmFailed);
    expect(error.permanent).toBe(false);
    expect(error.message).toContain('503');
    expect(server.chatRequests).toHaveLength(3);
  });

  it('does not retry a rejected key, and never shows the key', async () => {
    const wrongKey = 'sk-wrong-key-that-must-stay-secret';
    const error = await failure(llm({ apiKey: wrongKey }).complete(ask));
    expect(error.code).toBe(TroveErrorCode.LlmFailed);
    expect(error.permanent).toBe(true);
    expect(error.message).toContain('rejected the API key');
    expect(error.message).not.toContain(wrongKey);
    expect(JSON.stringify(error)).not.toContain(wrongKey);
    expect(String(error.cause ?? '')).not.toContain(wrongKey);
    expect(server.chatRequests).toHaveLength(1);
    const ping = await failure(llm({ apiKey: wrongKey }).ping());
    expect(ping.message).not.toContain(wrongKey);
  });

  it('does not retry an unknown model', async () => {
    const error = await failure(llm({ model: 'no-such-model' }).complete(ask));
    expect(error).toMatchObject({ code: TroveErrorCode.LlmFailed, permanent: true });
    expect(error.message).toContain('not found');
    expect(error.message).toContain('no-such-model');
    expect(server.chatRequests).toHaveLength(1);
  });

  it('does not retry once a token was delivered', async () => {
    server.enqueue({ text: ['a ', 'b ', 'c ', 'd'], dropAfterPieces: 2 }, { text: 'a second answer' });
    const seen: string[] = [];
    const error = await failure(
      (async () => {
        for await (const event of llm().stream(ask)) if (event.type === 'delta') seen.push(event.text);
      })(),
    );
    expect(seen).toEqual(['a ', 'b ']);
    expect(error).toMatchObject({ code: TroveErrorCode.LlmFailed, permanent: false });
    expect(server.chatRequests).toHaveLength(1);
  });

  it('fails a stream that ends without its finish reason instead of passing it off as whole', async () => {
    server.enqueue({ text: ['a ', 'b ', 'c'], endAfterPieces: 2 });
    const error = await failure(collect(llm().stream(ask)));
    expect(error.message).toContain('the stream ended before the server said the answer was complete');
    expect(server.chatRequests).toHaveLength(1);
  });

  it('aborts a request that passes the call deadline', async () => {
    server.enqueue({ hang: true });
    const error = await failure(llm({ timeoutMs: 300, idleTimeoutMs: 300 }).complete(ask));
    expect(error.code).toBe(TroveErrorCode.LlmFailed);
    expect(error.message).toContain('300 ms');
    await server.waitForClose(server.chatRequests[0]);
  });

  it('fails a stream that sends no first token, or stalls, within the idle limit', async () => {
    server.enqueue({ hang: true });
    const first = await failure(collect(llm({ idleTimeoutMs: 600, retries: 0 }).stream(ask)));
    expect(first.message).toContain('no first token within 600 ms');

    server.enqueue({ text: ['a ', 'b ', 'c'], stallAfterPieces: 1 });
    const seen: string[] = [];
    const stalled = await failure(
      (async () => {
        for await (const event of llm({ idleTimeoutMs: 600 }).stream(ask))
          if (event.type === 'delta') seen.push(event.text);
      })(),
    );
    expect(seen).toEqual(['a ']);
    expect(stalled.message).toContain('no token for 600 ms');
    await server.waitForClose(server.chatRequests[1]);
  });

  it("stops generating when the caller aborts: CANCELLED, and the server's request is closed", async () => {
    const words = Array.from({ length: 50 }, (_, i) => `w${i} `);
    server.enqueue({ text: words, pieceDelayMs: 20 });
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await failure(
      (async () => {
        for await (const event of llm().stream({ ...ask, signal: controller.signal })) {
          if (event.type === 'delta') seen.push(event.text);
          if (seen.length === 3) controller.abort();
        }
      })(),
    );
    expect(error.code).toBe(TroveErrorCode.Cancelled);
    const request = server.chatRequests[0];
    await server.waitForClose(request);
    expect(request.piecesSent).toBeLessThan(words.length);
  });

  it('refuses a call whose signal is already aborted without sending it', async () => {
    const error = await failure(llm().complete({ ...ask, signal: AbortSignal.abort() }));
    expect(error.code).toBe(TroveErrorCode.Cancelled);
    expect(server.chatRequests).toHaveLength(0);
  });

  it('closes the request when the consumer stops reading early', async () => {
    const words = Array.from({ length: 50 }, (_, i) => `w${i} `);
    server.enqueue({ text: words, pieceDelayMs: 20 });
    const seen: string[] = [];
    for await (const event of llm().stream(ask)) {
      if (event.type === 'delta') {
        seen.push(event.text);
        break;
      }
    }
    expect(seen).toEqual([words[0]]);
    const request = server.chatRequests[0];
    await server.waitForClose(request);
    // The server saw the connection go before the reply ended, not a completed response.
    expect(request.closedEarly).toBe(true);
    expect(request.piecesSent).toBeLessThan(words.length);
  });

  it('pings through /v1/models, and says when the server cannot be reached', async () => {
    await expect(llm().ping()).resolves.toBeUndefined();
    expect(server.requests.at(-1)?.path).toBe('/v1/models');
    const url = server.baseUrl;
    await server.close();
    const error = await failure(new OpenAiCompatibleLlm({ ...llmOptions(url), retries: 0 }).complete(ask));
    expect(error).toMatchObject({ code: TroveErrorCode.LlmFailed, permanent: false });
    expect(error.message).toContain('could not be reached');
    await expect(new OpenAiCompatibleLlm(llmOptions(url)).ping()).rejects.toThrow(/could not be reached/);
  });
});

function llmOptions(baseUrl: string): OpenAiCompatibleLlmOptions {
  return {
    baseUrl,
    model: 'fake-model',
    temperature: 0,
    maxTokens: 8,
    timeoutMs: 2_000,
    idleTimeoutMs: 1_000,
    retries: 1,
    backoffMs: () => 10,
  };
}
