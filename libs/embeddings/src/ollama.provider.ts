import { Ollama } from 'ollama';
import type { EmbeddingProvider, EmbeddingPurpose, EmbedOptions } from '@trove/domain';
import { wellFormedText } from '@trove/domain';
import { embeddingError, embeddingTimeout } from './embedding-error';
import type { ModelProfile } from './model-profiles';
import { checkVectors } from './openai-compatible.provider';

export interface OllamaOptions {
  /** e.g. http://127.0.0.1:11434 */
  host: string;
  timeoutMs: number;
}

/** Ollama's native `/api/embed` (batched `input` array), through the official client. */
export class OllamaEmbeddingProvider implements EmbeddingProvider {
  private readonly client: Ollama;

  constructor(
    private readonly profile: ModelProfile,
    private readonly options: OllamaOptions,
  ) {
    this.client = new Ollama({ host: options.host, fetch: this.fetchWith() });
  }

  get dimensions(): number {
    return this.profile.dimensions;
  }

  get modelId(): string {
    return this.profile.model;
  }

  /** fetch with the timeout and, when given, the caller's abort signal. */
  private fetchWith(signal?: AbortSignal): typeof fetch {
    return (input, init) => {
      const timeout = AbortSignal.timeout(this.options.timeoutMs);
      return fetch(input, { ...init, signal: signal ? AbortSignal.any([timeout, signal]) : timeout });
    };
  }

  async embed(texts: string[], purpose: EmbeddingPurpose, options: EmbedOptions = {}): Promise<number[][]> {
    if (texts.length === 0) return [];
    const prefix = this.profile[purpose].prefix;
    // The client has no per-request signal for embed(); a client is only configuration, so a
    // call that can be aborted gets its own.
    const client = options.signal
      ? new Ollama({ host: this.options.host, fetch: this.fetchWith(options.signal) })
      : this.client;
    try {
      const response = await client.embed({
        model: this.profile.model,
        // Well-formed text only: a lone surrogate makes some servers fail the whole request.
        input: texts.map((text) => prefix + wellFormedText(text)),
        truncate: true,
      });
      checkVectors(response.embeddings, texts.length, this.profile.dimensions);
      return response.embeddings;
    } catch (error) {
      throw toEmbeddingError(error, this.options.timeoutMs);
    }
  }

  async ping(): Promise<void> {
    await this.models();
  }

  /** The models the server has pulled, by name (`bge-m3:latest`). */
  async models(): Promise<string[]> {
    try {
      return (await this.client.list()).models.map((m) => m.name);
    } catch (error) {
      throw toEmbeddingError(error, this.options.timeoutMs);
    }
  }
}

function toEmbeddingError(error: unknown, timeoutMs: number): Error {
  if ((error as Error).name === 'AbortError') return error as Error; // the caller gave up
  const status = (error as { status_code?: number }).status_code;
  if (typeof status === 'number') return embeddingError(status, (error as Error).message, error);
  if ((error as Error).name === 'TimeoutError') return embeddingTimeout(timeoutMs, error);
  if (error instanceof TypeError) return embeddingError(undefined, (error as Error).message, error);
  return error as Error;
}
