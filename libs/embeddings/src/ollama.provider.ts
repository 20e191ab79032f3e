import { Ollama } from 'ollama';
import type { EmbeddingProvider, EmbeddingPurpose } from '@trove/domain';
import { embeddingError } from './embedding-error';
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
    this.client = new Ollama({ host: options.host, fetch: this.fetchWithTimeout });
  }

  get dimensions(): number {
    return this.profile.dimensions;
  }

  get modelId(): string {
    return this.profile.model;
  }

  private readonly fetchWithTimeout = (input: Parameters<typeof fetch>[0], init?: RequestInit) =>
    fetch(input, { ...init, signal: AbortSignal.timeout(this.options.timeoutMs) });

  async embed(texts: string[], purpose: EmbeddingPurpose): Promise<number[][]> {
    if (texts.length === 0) return [];
    const prefix = this.profile[purpose].prefix;
    try {
      const response = await this.client.embed({
        model: this.profile.model,
        input: texts.map((text) => prefix + text),
        truncate: true,
      });
      checkVectors(response.embeddings, texts.length, this.profile.dimensions);
      return response.embeddings;
    } catch (error) {
      throw toEmbeddingError(error);
    }
  }

  async ping(): Promise<void> {
    try {
      await this.client.list();
    } catch (error) {
      throw toEmbeddingError(error);
    }
  }
}

function toEmbeddingError(error: unknown): Error {
  const status = (error as { status_code?: number }).status_code;
  if (typeof status === 'number') return embeddingError(status, (error as Error).message, error);
  if (error instanceof TypeError || (error as Error).name === 'TimeoutError') {
    return embeddingError(undefined, (error as Error).message, error);
  }
  return error as Error;
}
