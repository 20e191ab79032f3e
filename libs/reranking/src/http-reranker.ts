import type { RerankCandidate, Reranker, RerankResult } from '@trove/domain';
import { TroveError, TroveErrorCode } from '@trove/domain';
import { z } from 'zod';
import { truncatePassage } from './truncate';

export interface HttpRerankerOptions {
  /** Base URL of the server; `{baseUrl}/rerank` is called. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when set; never logged or put in error messages. */
  apiKey?: string;
  /** Sent as `model` when set (Cohere and Jina need it; TEI and llama.cpp serve one model). */
  model?: string;
  timeoutMs: number;
  /** Each passage is cut to this many characters before it is sent. */
  maxChars: number;
  /** Title and heading path are prepended to the passage (rerank models read them as context). */
  includeTitle?: boolean;
  /** For tests: the fetch implementation. */
  fetch?: typeof fetch;
}

/** The common `/rerank` response (Cohere, Jina, TEI with `--json`, llama.cpp `--reranking`). */
const rerankResponseSchema = z.object({
  results: z.array(
    z.object({
      index: z.number().int().min(0),
      relevance_score: z.number().finite(),
    }),
  ),
});

/**
 * A rerank model behind HTTP in the common shape: POST `{model?, query, documents, top_n}` to
 * `{baseUrl}/rerank`, answered by `{results: [{index, relevance_score}]}`. A failure, a timeout
 * or an answer outside that contract is RERANK_FAILED; search then keeps the fused order.
 */
export class HttpReranker implements Reranker {
  readonly id: string;
  private readonly url: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: HttpRerankerOptions) {
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/rerank`;
    this.id = `http:${options.model ?? new URL(options.baseUrl).host}`;
    this.fetch = options.fetch ?? fetch;
  }

  async rerank(
    query: string,
    candidates: RerankCandidate[],
    options: { signal?: AbortSignal } = {},
  ): Promise<RerankResult[]> {
    if (candidates.length === 0) return [];
    const { model, apiKey, timeoutMs, maxChars, includeTitle = true } = this.options;
    const documents = candidates.map((c) => {
      const context = includeTitle ? [c.title, ...c.headingPath].filter(Boolean).join(' › ') : '';
      return truncatePassage(context ? `${context}\n${c.text}` : c.text, maxChars);
    });
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let body: unknown;
    try {
      const response = await this.fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
        },
        body: JSON.stringify({ ...(model ? { model } : {}), query, documents, top_n: documents.length }),
        signal,
      });
      if (!response.ok) {
        const detail = (await response.text().catch(() => '')).slice(0, 200);
        throw this.failure(`answered HTTP ${response.status}${detail ? `: ${detail}` : ''}`);
      }
      body = await response.json();
    } catch (error) {
      if (error instanceof TroveError) throw error;
      if (timeout.aborted) throw this.failure(`did not answer within ${timeoutMs} ms`, error);
      throw this.failure(`could not be reached (${(error as Error).message})`, error);
    }
    const parsed = rerankResponseSchema.safeParse(body);
    if (!parsed.success) {
      throw this.failure(`answered outside the /rerank contract: ${parsed.error.issues[0]?.message}`);
    }
    const seen = new Set<number>();
    for (const { index } of parsed.data.results) {
      if (index >= candidates.length) {
        throw this.failure(`answered index ${index} for ${candidates.length} documents`);
      }
      if (seen.has(index)) throw this.failure(`answered index ${index} twice`);
      seen.add(index);
    }
    return parsed.data.results
      .map((r) => ({ index: r.index, score: r.relevance_score }))
      .sort((a, b) => b.score - a.score || a.index - b.index);
  }

  private failure(what: string, cause?: unknown): TroveError {
    return new TroveError(TroveErrorCode.RerankFailed, `the rerank server ${this.url} ${what}`, { cause });
  }
}
