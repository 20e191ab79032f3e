import OpenAI, { APIConnectionError, APIError } from 'openai';
import type { LlmProvider, LlmRequest, LlmUsage, TroveError } from '@trove/domain';
import { defaultBackoff, RetryingLlm, type LlmCallPolicy, type LlmChunk } from './llm-call';
import { llmError, scrubSecret } from './llm-error';
import type { LlmSettings } from './llm-settings';

export interface OpenAiCompatibleLlmOptions extends LlmSettings {
  /** Up to and including `/v1`, e.g. https://api.openai.com/v1 or http://127.0.0.1:8091/v1. */
  baseUrl: string;
  apiKey?: string;
}

/**
 * Any server speaking OpenAI's `/v1/chat/completions` (OpenAI, llama.cpp's llama-server, vLLM,
 * LM Studio, LiteLLM, Ollama's /v1…), through the official client.
 */
export class OpenAiCompatibleLlm extends RetryingLlm implements LlmProvider {
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiCompatibleLlmOptions) {
    super();
    // Retries are ours (only before the first token); the client's own would retry mid-call.
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      apiKey: options.apiKey ?? 'not-needed',
      timeout: options.timeoutMs,
      maxRetries: 0,
    });
  }

  get modelId(): string {
    return `openai:${this.options.model}`;
  }

  async ping(): Promise<void> {
    try {
      await this.client.models.list({ timeout: Math.min(this.options.timeoutMs, 10_000) });
    } catch (error) {
      throw this.toError(error);
    }
  }

  protected async *completeOnce(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmChunk> {
    const response = await this.client.chat.completions.create(
      { ...this.params(request), stream: false },
      { signal },
    );
    const choice = response.choices[0];
    yield {
      text: choice?.message?.content ?? '',
      finishReason: choice?.finish_reason ?? undefined,
      usage: toUsage(response.usage),
    };
  }

  protected async *streamOnce(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmChunk> {
    const stream = await this.client.chat.completions.create(
      { ...this.params(request), stream: true, stream_options: { include_usage: true } },
      { signal },
    );
    for await (const chunk of stream) {
      // The usage-only chunk that ends a stream has no choices (some servers send null).
      const choice = chunk.choices?.[0];
      yield {
        text: choice?.delta?.content ?? undefined,
        finishReason: choice?.finish_reason ?? undefined,
        usage: toUsage(chunk.usage),
      };
    }
  }

  private params(request: LlmRequest): Omit<OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, 'stream'> {
    return {
      model: this.options.model,
      messages: request.messages,
      temperature: request.temperature ?? this.options.temperature,
      // `max_tokens`, not `max_completion_tokens`: every OpenAI-compatible server reads it.
      max_tokens: request.maxTokens ?? this.options.maxTokens,
      ...(request.json ? { response_format: { type: 'json_object' as const } } : {}),
    };
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

  /** An HTTP status or a broken connection as LLM_FAILED; the key never in the message. */
  protected toError(error: unknown): TroveError {
    const scrub = (message: string) => scrubSecret(message, this.options.apiKey);
    if (error instanceof APIConnectionError) {
      const cause = (error.cause as Error | undefined)?.message;
      return llmError(undefined, scrub(cause ? `${error.message} (${cause})` : error.message));
    }
    if (error instanceof APIError) return llmError(error.status, scrub(error.message));
    return llmError(undefined, scrub((error as Error)?.message ?? String(error)));
  }
}

function toUsage(usage: OpenAI.CompletionUsage | null | undefined): LlmUsage | undefined {
  if (!usage) return undefined;
  return { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens };
}
