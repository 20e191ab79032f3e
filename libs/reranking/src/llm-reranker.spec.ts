import { describe, expect, it } from 'vitest';
import {
  type LlmCompletion,
  type LlmProvider,
  type LlmRequest,
  type LlmStreamEvent,
  type RerankCandidate,
  TroveErrorCode,
} from '@trove/domain';
import { LlmReranker, parseRanking } from './llm-reranker';

/** An LLM that answers from a script, one answer per call, and records the requests. */
class ScriptedLlm implements LlmProvider {
  readonly modelId = 'fake:scripted';
  requests: LlmRequest[] = [];
  constructor(private readonly answers: (string | Error)[]) {}
  complete(request: LlmRequest): Promise<LlmCompletion> {
    this.requests.push(request);
    const answer = this.answers.shift();
    if (answer === undefined) throw new Error('no scripted answer left');
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve({ text: answer });
  }
  // eslint-disable-next-line require-yield -- the fake implements the interface; this test never streams
  async *stream(): AsyncIterable<LlmStreamEvent> {
    throw new Error('not used');
  }
  ping() {
    return Promise.resolve();
  }
}

const candidates: RerankCandidate[] = ['alpha', 'beta', 'gamma'].map((text, i) => ({
  id: `c${i}`,
  text: `${text} `.repeat(100),
  title: `Title ${i}`,
  headingPath: [],
  position: 0,
  fusedScore: 1,
}));

describe('LlmReranker', () => {
  it('numbers the passages in one JSON-mode prompt and maps the ranking back to candidates', async () => {
    const llm = new ScriptedLlm(['{"ranking": [3, 1]}']);
    const reranker = new LlmReranker(llm, { timeoutMs: 1_000, maxChars: 50 });
    const results = await reranker.rerank('which is gamma?', candidates);
    expect(results).toEqual([
      { index: 2, score: 2 },
      { index: 0, score: 1 },
    ]);
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]).toMatchObject({ json: true, temperature: 0 });
    const prompt = llm.requests[0].messages[1].content;
    expect(prompt).toContain('Query: which is gamma?');
    expect(prompt).toContain('[3] Title 2: gamma');
    // Passages are truncated to maxChars.
    expect(prompt.split('\n').find((l) => l.startsWith('[1]'))!.length).toBeLessThan(70);
    expect(reranker.id).toBe('llm:fake:scripted');
  });

  it('asks once more, more strictly, after an invalid answer', async () => {
    const llm = new ScriptedLlm(['Sure! Passage 2 is best.', '{"ranking": [2, 3, 1]}']);
    const results = await new LlmReranker(llm, { timeoutMs: 1_000, maxChars: 50 }).rerank('q', candidates);
    expect(results.map((r) => r.index)).toEqual([1, 2, 0]);
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests[1].messages.at(-1)?.content).toMatch(/exactly one JSON object/);
  });

  it('fails with RERANK_FAILED after two invalid answers', async () => {
    const llm = new ScriptedLlm(['{"ranking": [4]}', '{"order": [1]}']);
    await expect(
      new LlmReranker(llm, { timeoutMs: 1_000, maxChars: 50 }).rerank('q', candidates),
    ).rejects.toMatchObject({ code: TroveErrorCode.RerankFailed, message: expect.stringContaining('twice') });
  });

  it('fails with RERANK_FAILED when the LLM call fails', async () => {
    const llm = new ScriptedLlm([new Error('connection refused')]);
    await expect(
      new LlmReranker(llm, { timeoutMs: 1_000, maxChars: 50 }).rerank('q', candidates),
    ).rejects.toMatchObject({
      code: TroveErrorCode.RerankFailed,
      message: expect.stringContaining('connection refused'),
    });
  });
});

describe('parseRanking', () => {
  it('accepts a fenced JSON answer and drops repeated numbers', () => {
    expect(parseRanking('```json\n{"ranking": [2, 2, 1]}\n```', 3)).toEqual([2, 1]);
  });
  it('says why an answer is not valid', () => {
    expect(parseRanking('nope', 3)).toEqual({ problem: 'not JSON' });
    expect(parseRanking('{"ranking": [0]}', 3)).toEqual({ problem: 'passage 0 was not shown' });
    expect(parseRanking('{"ranking": ["1"]}', 3)).toEqual({ problem: 'not {"ranking": [numbers]}' });
  });
});
