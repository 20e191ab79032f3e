import { Ollama, type ChatResponse } from 'ollama';
import type { LlmProvider, LlmRequest, LlmUsage, TroveError } from '@trove/domain';
import { defaultBackoff, RetryingLlm, type LlmCallPolicy, type LlmChunk } from './llm-call';
import { llmError, scrubSecret } from './llm-error';
import type { LlmSettings } from './llm-settings';

export interface OllamaLlmOptions extends LlmSettings {
  /** e.g. http://127.0.0.1:11434 */
  host: string;
  /** Sent as a bearer token, for an Ollama behind an authenticating proxy or a hosted one. */
  apiKey?: string;
}

/** Ollama's native `/api/chat` (NDJSON streaming), through the official client. */
export class OllamaLlm extends RetryingLlm implements LlmProvider {
  constructor(private readonly options: OllamaLlmOptions) {
    super();
  }

  get modelId(): string {
    return `ollama:${this.options.model}`;
  }

  async ping(): Promise<void> {
    try {
      await this.client(AbortSignal.timeout(Math.min(this.options.timeoutMs, 10_000))).list();
    } catch (error) {
      throw this.toError(error);
    }
  }

  /**
   * The client has no per-request signal for non-streamed calls, and its streams abort only
   * through their own handle; a client is only configuration, so each attempt gets one whose
   * fetch carries the attempt's signal.
   */
  private client(signal: AbortSignal): Ollama {
    return new Ollama({
      host: this.options.host,
      headers: this.options.apiKey ? { Authorization: `Bearer ${this.options.apiKey}` } : undefined,
      fetch: (input, init) => fetch(input, { ...init, signal }),
    });
  }

  protected async *completeOnce(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmChunk> {
    const response = await this.client(signal).chat({ ...this.params(request), stream: false });
    yield { text: response.message?.content ?? '', ...ending(response) };
  }

  protected async *streamOnce(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmChunk> {
    const stream = await this.client(signal).chat({ ...this.params(request), stream: true });
    for await (const part of stream) {
      yield { text: part.message?.content || undefined, ...(part.done ? ending(part) : {}) };
    }
  }

  private params(request: LlmRequest) {
    return {
      model: this.options.model,
      messages: request.messages,
      ...(request.json ? { format: 'json' } : {}),
      options: {
        temperature: request.temperature ?? this.options.temperature,
        num_predict: request.maxTokens ?? this.options.maxTokens,
      },
    };
  }

  /** An HTTP status or a broken connection as LLM_FAILED; the key never in the message. */
  protected toError(error: unknown): TroveError {
    const status = (error as { status_code?: number }).status_code;
    const cause = ((error as Error)?.cause as Error | undefined)?.message;
    const message = (error as Error)?.message ?? String(error);
    return llmError(
      typeof status === 'number' ? status : undefined,
      scrubSecret(cause ? `${message} (${cause})` : message, this.options.apiKey),
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
}

function ending(response: ChatResponse): { finishReason?: string; usage?: LlmUsage } {
  const usage: LlmUsage = {
    promptTokens: response.prompt_eval_count,
    completionTokens: response.eval_count,
  };
  return { finishReason: response.done_reason || undefined, usage };
}
