import type {
  ChatHistoryItem,
  ChatWrapper,
  Llama,
  LlamaContext,
  LlamaContextSequence,
  LlamaGrammar,
  LlamaModel,
} from 'node-llama-cpp';
import { type LlmMessage, type LlmTokenCounter, TroveError, TroveErrorCode } from '@trove/domain';
import { citedSentencesGrammar } from './cited-sentences.grammar';
import type { LlmChunk } from './llm-call';
import { llmError } from './llm-error';

/** How one loaded model serves: its file, its context, its threads, how many calls at once and in line. */
export interface LocalHostOptions {
  /** The verified GGUF file. */
  path: string;
  /** Tokens of each call's context: prompt and answer together. */
  contextTokens: number;
  /** CPU threads generating. */
  threads: number;
  /** Calls generating at once (one context sequence each). */
  parallel: number;
  /** Calls waiting for a free sequence; one more is refused at once. */
  queue: number;
}

/** One call as the host runs it. */
export interface LocalGeneration {
  messages: LlmMessage[];
  maxTokens: number;
  temperature: number;
  json?: boolean;
  citedSentences?: { markers: number[]; refusal: string };
}

type NodeLlamaCpp = typeof import('node-llama-cpp');

// node-llama-cpp is an ES module with top-level await. Compiled to CommonJS (the apps run under
// @swc-node/register) `import()` becomes `require()`, which cannot load it: there the module is
// imported by a function the compiler does not see into. Under an ES module loader (vitest)
// `import()` stays as written and that function is not needed (nor allowed).
const importUncompiled = new Function('specifier', 'return import(specifier)') as (
  specifier: string,
) => Promise<NodeLlamaCpp>;

let bindings: Promise<NodeLlamaCpp> | undefined;
let llama: Promise<Llama> | undefined;

function nodeLlamaCpp(): Promise<NodeLlamaCpp> {
  bindings ??= import('node-llama-cpp').catch((error: NodeJS.ErrnoException) => {
    if (error?.code !== 'ERR_REQUIRE_ASYNC_MODULE') throw error;
    return importUncompiled('node-llama-cpp');
  });
  return bindings;
}

/**
 * llama.cpp, once per process: the prebuilt CPU binary of the npm package and nothing else —
 * never a build from source, never a download (both would reach for the network at run time).
 */
async function llamaOnce(threads: number): Promise<Llama> {
  llama ??= nodeLlamaCpp().then(({ getLlama, LlamaLogLevel }) =>
    getLlama({
      gpu: false,
      build: 'never',
      usePrebuiltBinaries: true,
      skipDownload: true,
      progressLogs: false,
      logLevel: LlamaLogLevel.error,
      maxThreads: threads,
    }),
  );
  const instance = await llama;
  instance.maxThreads = Math.max(instance.maxThreads, threads);
  return instance;
}

/**
 * One GGUF model loaded in this process with one context of `parallel` sequences, serving calls
 * in turn: at most `parallel` generate at once, at most `queue` wait, the rest are refused as
 * busy (transient: the caller may retry). Prompts are laid out by a fixed chat wrapper (ChatML),
 * never by the template embedded in the file, and passages go in as plain text, so a `<|im_end|>`
 * inside a document is text, not a control token.
 */
export class LocalModelHost {
  private readonly free: LlamaContextSequence[];
  private readonly waiting: {
    resolve: (sequence: LlamaContextSequence) => void;
    reject: (e: unknown) => void;
  }[] = [];
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();
  private active = 0;
  private retired = false;
  private closed?: Promise<void>;

  private constructor(
    private readonly lib: NodeLlamaCpp,
    private readonly engine: Llama,
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
    private readonly wrapper: ChatWrapper,
    private readonly options: LocalHostOptions,
  ) {
    this.free = Array.from({ length: options.parallel }, () => context.getSequence());
  }

  static async open(options: LocalHostOptions): Promise<LocalModelHost> {
    const lib = await nodeLlamaCpp();
    const engine = await llamaOnce(options.threads);
    let model: LlamaModel;
    try {
      model = await engine.loadModel({ modelPath: options.path, gpuLayers: 0 });
    } catch (error) {
      throw llmError(400, `could not load the local model ${options.path}: ${(error as Error).message}`);
    }
    try {
      const context = await model.createContext({
        contextSize: Math.min(options.contextTokens, model.trainContextSize),
        sequences: options.parallel,
        threads: options.threads,
        batchSize: Math.min(512, options.contextTokens),
      });
      return new LocalModelHost(lib, engine, model, context, new lib.ChatMLChatWrapper(), options);
    } catch (error) {
      await model.dispose();
      throw llmError(400, `could not make a context for the local model: ${(error as Error).message}`);
    }
  }

  /** Calls generating now, and calls waiting for their turn. */
  get load(): { generating: number; waiting: number } {
    return { generating: this.active, waiting: this.waiting.length };
  }

  /** Tokens of each call's context (the file's training context may be smaller than asked). */
  get contextTokens(): number {
    return this.context.contextSize;
  }

  /** The model's own tokenizer. */
  readonly tokenCounter: LlmTokenCounter = {
    count: (text: string) => this.model.tokenize(text, false).length,
  };

  /** One call: text as it is generated, then its finish reason and token counts. */
  async *generate(call: LocalGeneration, signal: AbortSignal): AsyncGenerator<LlmChunk> {
    const sequence = await this.acquire(signal);
    try {
      yield* this.generateOn(sequence, call, signal);
    } finally {
      this.release(sequence);
    }
  }

  private async *generateOn(
    sequence: LlamaContextSequence,
    call: LocalGeneration,
    signal: AbortSignal,
  ): AsyncGenerator<LlmChunk> {
    const history = chatHistory(call.messages);
    const promptTokens = this.wrapper
      .generateContextState({ chatHistory: history })
      .contextText.tokenize(this.model.tokenizer).length;
    if (promptTokens + call.maxTokens > this.context.contextSize) {
      // Never a silent context shift (dropping the start of the prompt): the caller budgets.
      throw llmError(
        400,
        `the prompt (${promptTokens} tokens) and the answer (up to ${call.maxTokens}) do not fit the local model's context of ${this.context.contextSize} tokens`,
      );
    }
    const grammar = await this.grammarFor(call);
    const chat = new this.lib.LlamaChat({ contextSequence: sequence, chatWrapper: this.wrapper });
    const before = sequence.tokenMeter.getState();
    const pieces = new Pieces();
    const generation = chat
      .generateResponse(history, {
        maxTokens: call.maxTokens,
        temperature: call.temperature,
        signal,
        onTextChunk: (text) => pieces.push(text),
        ...(grammar && { grammar }),
      })
      .then(
        (response) => pieces.end(response.metadata.stopReason),
        (error: unknown) => pieces.fail(error),
      );
    try {
      for await (const text of pieces) yield { text };
      const after = sequence.tokenMeter.getState();
      yield {
        finishReason: pieces.stopReason === 'maxTokens' ? 'length' : 'stop',
        usage: { promptTokens, completionTokens: after.usedOutputTokens - before.usedOutputTokens },
      };
    } finally {
      await generation;
      chat.dispose({ disposeSequence: false });
    }
  }

  private grammarFor(call: LocalGeneration): Promise<LlamaGrammar | undefined> {
    if (call.json) return this.engine.getGrammarFor('json');
    if (!call.citedSentences) return Promise.resolve(undefined);
    const { markers, refusal } = call.citedSentences;
    const grammar = citedSentencesGrammar(markers, refusal);
    // One grammar per number of passages, parsed once.
    let parsed = this.grammars.get(grammar);
    if (!parsed) {
      parsed = this.engine.createGrammar({ grammar });
      this.grammars.set(grammar, parsed);
    }
    return parsed;
  }

  private acquire(signal: AbortSignal): Promise<LlamaContextSequence> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.retired) return Promise.reject(llmError(503, 'the local model is being replaced'));
    const sequence = this.free.pop();
    if (sequence) {
      this.active++;
      return Promise.resolve(sequence);
    }
    if (this.waiting.length >= this.options.queue) {
      return Promise.reject(
        llmError(
          429,
          `the local model is busy: ${this.options.parallel} call(s) generating and ${this.waiting.length} waiting`,
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: (s: LlamaContextSequence) => {
          signal.removeEventListener('abort', onAbort);
          this.active++;
          resolve(s);
        },
        reject,
      };
      const onAbort = () => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private release(sequence: LlamaContextSequence): void {
    this.active--;
    const next = this.waiting.shift();
    if (next) next.resolve(sequence);
    else this.free.push(sequence);
    if (this.retired && this.active === 0) void this.close();
  }

  /** Stops taking calls and frees the model once the running ones are done. */
  retire(): void {
    this.retired = true;
    for (const waiter of this.waiting.splice(0))
      waiter.reject(llmError(503, 'the local model is being replaced'));
    if (this.active === 0) void this.close();
  }

  /** Frees the context and the model (their memory is native, outside the JS heap). */
  close(): Promise<void> {
    this.closed ??= (async () => {
      this.retired = true;
      for (const waiter of this.waiting.splice(0)) {
        waiter.reject(new TroveError(TroveErrorCode.Cancelled, 'the local model was shut down'));
      }
      await this.context.dispose();
      await this.model.dispose();
    })();
    return this.closed;
  }
}

/** The messages as node-llama-cpp's chat history; the model's turn to answer comes last. */
function chatHistory(messages: LlmMessage[]): ChatHistoryItem[] {
  return messages.map((message): ChatHistoryItem => {
    switch (message.role) {
      case 'system':
        return { type: 'system', text: message.content };
      case 'user':
        return { type: 'user', text: message.content };
      case 'assistant':
        return { type: 'model', response: [message.content] };
    }
  });
}

/** Text pieces handed from node-llama-cpp's callback to an async iteration. */
class Pieces implements AsyncIterable<string> {
  private readonly buffered: string[] = [];
  private wake?: () => void;
  private finished = false;
  private failure: unknown;
  stopReason?: string;

  push(text: string): void {
    this.buffered.push(text);
    this.wake?.();
  }

  end(stopReason: string): void {
    this.stopReason = stopReason;
    this.finished = true;
    this.wake?.();
  }

  fail(error: unknown): void {
    this.failure = error ?? new Error('generation failed');
    this.finished = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    for (;;) {
      if (this.buffered.length > 0) {
        yield this.buffered.splice(0).join('');
        continue;
      }
      if (this.finished) {
        if (this.failure !== undefined) throw this.failure;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}

const hosts = new Map<string, { key: string; host: Promise<LocalModelHost> }>();

/**
 * The host of a model file, loaded once per process. The same file asked for with other options
 * (a settings change) replaces its host: the old one finishes its running calls, then is freed.
 */
export function localModelHost(options: LocalHostOptions): Promise<LocalModelHost> {
  const key = JSON.stringify(options);
  const current = hosts.get(options.path);
  if (current?.key === key) return current.host;
  if (current)
    void current.host.then(
      (h) => h.retire(),
      () => undefined,
    );
  const host = LocalModelHost.open(options);
  hosts.set(options.path, { key, host });
  // A failed load is not kept: the next call tries again (e.g. after the model was installed).
  host.catch(() => {
    if (hosts.get(options.path)?.host === host) hosts.delete(options.path);
  });
  return host;
}

/** Frees every local model of this process and llama.cpp itself (at shutdown). */
export async function releaseLocalModels(): Promise<void> {
  const all = [...hosts.values()];
  hosts.clear();
  await Promise.all(
    all.map(({ host }) =>
      host.then(
        (h) => h.close(),
        () => undefined,
      ),
    ),
  );
  const engine = llama;
  llama = undefined;
  if (engine) await (await engine.catch(() => undefined))?.dispose();
}
