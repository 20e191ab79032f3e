import {
  type LlmProvider,
  type LlmRequest,
  type LlmTokenCounter,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { defaultBackoff, RetryingLlm, type LlmCallPolicy, type LlmChunk } from './llm-call';
import { llmError } from './llm-error';
import type { LlmSettings } from './llm-settings';
import { localModelHost, type LocalModelHost } from './local-model-host';
import { type LocalModel, verifiedModelFile } from './local-models';

export interface LocalLlmOptions extends Omit<LlmSettings, 'model'> {
  /** The catalogue's model (libs/llm/src/local-model-catalogue.json). */
  model: LocalModel;
  /** The folder its file was installed in (infra/local/llm-model.sh). */
  modelDir: string;
  /** Tokens of each call's context: prompt and answer together. */
  contextTokens: number;
  threads: number;
  /** Calls generating at once. */
  parallel: number;
  /** Calls waiting their turn; one more is refused as busy. */
  queue: number;
}

/**
 * A GGUF model run in this process by llama.cpp (npm node-llama-cpp, its prebuilt CPU binary):
 * answers offline, nothing to serve or call. The model is loaded once per process, on the first
 * call (or `ping`), and shared by every provider naming the same file; calls take turns (see
 * LocalModelHost). Streaming, deadlines, cancellation and retries are the shared call policy's.
 * Honours `json` and `citedSentences` by constraining generation with a grammar.
 */
export class LocalLlm extends RetryingLlm implements LlmProvider {
  constructor(private readonly options: LocalLlmOptions) {
    super();
  }

  get modelId(): string {
    return `local:${this.options.model.name}`;
  }

  /** Loads the model (the first time in this process): resolves once it can answer. */
  async ping(): Promise<void> {
    await this.host();
  }

  async tokenCounter(): Promise<LlmTokenCounter> {
    return (await this.host()).tokenCounter;
  }

  private async host(): Promise<LocalModelHost> {
    const { model, modelDir, contextTokens, threads, parallel, queue } = this.options;
    const path = await verifiedModelFile(model, modelDir);
    return localModelHost({ path, contextTokens, threads, parallel, queue });
  }

  protected completeOnce(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmChunk> {
    return this.generate(request, signal);
  }

  protected streamOnce(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmChunk> {
    return this.generate(request, signal);
  }

  private async *generate(request: LlmRequest, signal: AbortSignal): AsyncGenerator<LlmChunk> {
    const host = await this.host();
    yield* host.generate(
      {
        messages: request.messages,
        maxTokens: request.maxTokens ?? this.options.maxTokens,
        temperature: request.temperature ?? this.options.temperature,
        json: request.json,
        citedSentences: request.citedSentences,
      },
      signal,
    );
  }

  protected policy(): LlmCallPolicy {
    return {
      timeoutMs: this.options.timeoutMs,
      idleTimeoutMs: this.options.idleTimeoutMs,
      retries: this.options.retries,
      backoffMs: this.options.backoffMs ?? defaultBackoff,
      requireFinishReason: true,
    };
  }

  protected toError(error: unknown): TroveError {
    if (error instanceof TroveError) return error;
    if ((error as Error)?.name === 'AbortError') {
      return new TroveError(TroveErrorCode.Cancelled, 'the local model call was aborted', {
        permanent: true,
      });
    }
    // A native failure mid-generation is not a fault of the request: one retry may pass.
    return llmError(500, `the local model failed: ${(error as Error)?.message ?? String(error)}`);
  }
}
