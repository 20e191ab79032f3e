import type { LlmMessage, LlmProvider, RerankCandidate, Reranker, RerankResult } from '@trove/domain';
import { TroveError, TroveErrorCode } from '@trove/domain';
import { z } from 'zod';
import { truncatePassage } from './truncate';

export interface LlmRerankerOptions {
  timeoutMs: number;
  /** Each passage is cut to this many characters: the prompt grows with every candidate. */
  maxChars: number;
}

/** The model's answer: passage numbers (1-based, as shown in the prompt), most relevant first. */
const rankingSchema = z.object({ ranking: z.array(z.number().int()).min(1) });

const SYSTEM = `You rank passages by how well they answer a search query.
Answer with a JSON object only: {"ranking": [n, ...]} listing passage numbers, most relevant first.`;

const STRICTER = `Your previous answer was not valid. Reply with exactly one JSON object and nothing else,
of the form {"ranking": [2, 1, 3]}: every number is a passage number shown above, each at most once.`;

/**
 * Listwise reranking through the configured LLM: the passages are numbered in one prompt and the
 * model returns their order as JSON. An answer that is not valid JSON in that shape, or names a
 * passage that was not shown, is asked for once more with a stricter instruction, then
 * RERANK_FAILED. Passages the model leaves out are not returned (search keeps them after the ranked ones).
 */
export class LlmReranker implements Reranker {
  readonly id: string;

  constructor(
    private readonly llm: LlmProvider,
    private readonly options: LlmRerankerOptions,
  ) {
    this.id = `llm:${llm.modelId}`;
  }

  async rerank(
    query: string,
    candidates: RerankCandidate[],
    options: { signal?: AbortSignal } = {},
  ): Promise<RerankResult[]> {
    if (candidates.length === 0) return [];
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const messages: LlmMessage[] = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: this.prompt(query, candidates) },
    ];
    let problem = '';
    for (const attempt of [1, 2]) {
      let text: string;
      try {
        ({ text } = await this.llm.complete({ messages, json: true, temperature: 0, signal }));
      } catch (error) {
        const why = timeout.aborted
          ? `did not answer within ${this.options.timeoutMs} ms`
          : (error as Error).message;
        throw new TroveError(TroveErrorCode.RerankFailed, `the LLM reranker ${this.id} failed: ${why}`, {
          cause: error,
        });
      }
      const ranking = parseRanking(text, candidates.length);
      if (Array.isArray(ranking)) {
        return ranking.map((n, position) => ({ index: n - 1, score: ranking.length - position }));
      }
      problem = ranking.problem;
      if (attempt === 1) {
        messages.push({ role: 'assistant', content: text }, { role: 'user', content: STRICTER });
      }
    }
    throw new TroveError(
      TroveErrorCode.RerankFailed,
      `the LLM reranker ${this.id} answered no valid ranking twice (${problem})`,
    );
  }

  private prompt(query: string, candidates: RerankCandidate[]): string {
    const passages = candidates.map((c, i) => {
      const heading = [c.title, ...c.headingPath].filter(Boolean).join(' › ');
      const text = truncatePassage(c.text.replace(/\s+/g, ' ').trim(), this.options.maxChars);
      return `[${i + 1}] ${heading ? `${heading}: ` : ''}${text}`;
    });
    return `Query: ${query}\n\nPassages:\n${passages.join('\n')}\n\nRank the passages 1 to ${candidates.length} by relevance to the query.`;
  }
}

/** The passage numbers of a valid answer, duplicates dropped; or why the answer is not valid. */
export function parseRanking(text: string, count: number): number[] | { problem: string } {
  // Some models wrap JSON in a code fence even in JSON mode.
  const body = text.trim().replace(/^```(?:json)?\s*|\s*```$/g, '');
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return { problem: 'not JSON' };
  }
  const parsed = rankingSchema.safeParse(raw);
  if (!parsed.success) return { problem: 'not {"ranking": [numbers]}' };
  const unknown = parsed.data.ranking.find((n) => n < 1 || n > count);
  if (unknown !== undefined) return { problem: `passage ${unknown} was not shown` };
  return [...new Set(parsed.data.ranking)];
}
