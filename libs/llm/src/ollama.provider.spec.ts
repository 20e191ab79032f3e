import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TroveError, TroveErrorCode, type LlmStreamEvent } from '@trove/domain';
import { FakeOllamaServer } from './fake-ollama-server.testing';
import { OllamaLlm, type OllamaLlmOptions } from './ollama.provider';

const ask = { messages: [{ role: 'user' as const, content: 'What is Trove?' }] };

let server: FakeOllamaServer;
beforeEach(async () => {
  server = await FakeOllamaServer.start({ models: ['llama3.1:8b', 'qwen2.5'] });
});
afterEach(() => server.close());

function llm(options: Partial<OllamaLlmOptions> = {}): OllamaLlm {
  return new OllamaLlm({
    host: server.host,
    model: 'llama3.1:8b',
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

describe('OllamaLlm', () => {
  it('completes without streaming, with temperature and num_predict as options, and reports usage', async () => {
    server.enqueue({ text: 'Trove is a knowledge base.', usage: { promptTokens: 12, completionTokens: 6 } });
    const result = await llm().complete(ask);
    expect(result).toEqual({
      text: 'Trove is a knowledge base.',
      finishReason: 'stop',
      usage: { promptTokens: 12, completionTokens: 6 },
    });
    expect(server.chatRequests[0].body).toMatchObject({
      model: 'llama3.1:8b',
      messages: ask.messages,
      stream: false,
      options: { temperature: 0.1, num_predict: 512 },
    });
    expect(server.chatRequests[0].body.format).toBeUndefined();
    expect(llm().modelId).toBe('ollama:llama3.1:8b');
  });

  it("asks for JSON with format 'json' and takes the call's limits", async () => {
    server.enqueue({ text: '{"ok": true}' });
    const result = await llm().complete({ ...ask, json: true, temperature: 0, maxTokens: 20 });
    expect(JSON.parse(result.text)).toEqual({ ok: true });
    expect(server.chatRequests[0].body).toMatchObject({
      format: 'json',
      options: { temperature: 0, num_predict: 20 },
    });
  });

  it('streams NDJSON deltas that join to the final text, then done with reason and counts', async () => {
    server.enqueue({ text: ['Trove ', 'keeps ', 'notes.'], usage: { promptTokens: 5, completionTokens: 3 } });
    const events = await collect(llm().stream(ask));
    expect(events.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text)).toEqual([
      'Trove ',
      'keeps ',
      'notes.',
    ]);
    expect(events.at(-1)).toEqual({
      type: 'done',
      text: 'Trove keeps notes.',
      finishReason: 'stop',
      usage: { promptTokens: 5, completionTokens: 3 },
    });
    expect(server.chatRequests[0].body.stream).toBe(true);
  });

  it("reports 'length' when num_predict cut the answer", async () => {
    server.enqueue({ text: 'one two three four' });
    const events = await collect(llm().stream({ ...ask, maxTokens: 2 }));
    expect(events.at(-1)).toMatchObject({ text: 'one two ', finishReason: 'length' });
  });

  it('retries a 500 and a dropped connection, not an unknown model', async () => {
    server.enqueue(
      { status: 500, errorMessage: 'llama runner process has terminated' },
      { dropAfterPieces: 0 },
    );
    expect((await llm().complete(ask)).text).toBe('Hello from the fake server.');
    expect(server.chatRequests).toHaveLength(3);

    const error = await failure(llm({ model: 'mistral' }).complete(ask));
    expect(error).toMatchObject({ code: TroveErrorCode.LlmFailed, permanent: true });
    expect(error.message).toContain('model "mistral" not found');
    expect(server.chatRequests).toHaveLength(4);
  });

  it('does not retry once a token was delivered', async () => {
    server.enqueue({ text: ['a ', 'b ', 'c'], dropAfterPieces: 1 });
    const seen: string[] = [];
    const error = await failure(
      (async () => {
        for await (const event of llm().stream(ask)) if (event.type === 'delta') seen.push(event.text);
      })(),
    );
    expect(seen).toEqual(['a ']);
    expect(error.code).toBe(TroveErrorCode.LlmFailed);
    expect(server.chatRequests).toHaveLength(1);
  });

  it('times out a stalled stream and a hanging call, closing the request', async () => {
    server.enqueue({ text: ['a ', 'b'], stallAfterPieces: 1 });
    const stalled = await failure(collect(llm({ idleTimeoutMs: 600 }).stream(ask)));
    expect(stalled.message).toContain('no token for 600 ms');
    await server.waitForClose(server.chatRequests[0]);

    server.enqueue({ hang: true });
    const hung = await failure(llm({ timeoutMs: 300, idleTimeoutMs: 300 }).complete(ask));
    expect(hung.message).toContain('300 ms');
    await server.waitForClose(server.chatRequests[1]);
  });

  it('stops generating when the caller aborts', async () => {
    const words = Array.from({ length: 50 }, (_, i) => `w${i} `);
    server.enqueue({ text: words, pieceDelayMs: 20 });
    const controller = new AbortController();
    let deltas = 0;
    const error = await failure(
      (async () => {
        for await (const event of llm().stream({ ...ask, signal: controller.signal })) {
          if (event.type === 'delta' && ++deltas === 2) controller.abort();
        }
      })(),
    );
    expect(error.code).toBe(TroveErrorCode.Cancelled);
    await server.waitForClose(server.chatRequests[0]);
    expect(server.chatRequests[0].piecesSent).toBeLessThan(words.length);
  });

  it('sends a configured key as a bearer token and keeps it out of errors', async () => {
    const key = 'ollama-proxy-secret-1234';
    server.enqueue({ status: 401, errorMessage: `unauthorized: bad token ${key}` });
    const error = await failure(llm({ apiKey: key }).complete(ask));
    expect(server.chatRequests[0].headers.authorization).toBe(`Bearer ${key}`);
    expect(error.permanent).toBe(true);
    expect(error.message).not.toContain(key);
  });

  it('pings through /api/tags', async () => {
    await expect(llm().ping()).resolves.toBeUndefined();
    expect(server.requests.at(-1)?.path).toBe('/api/tags');
    const host = server.host;
    await server.close();
    await expect(new OllamaLlm({ ...llmOptions(), host }).ping()).rejects.toThrow(/could not be reached/);
  });
});

function llmOptions(): Omit<OllamaLlmOptions, 'host'> {
  return { model: 'm', temperature: 0, maxTokens: 8, timeoutMs: 2_000, idleTimeoutMs: 1_000, retries: 0 };
}
