import { describe, expect, it } from 'vitest';
import { rerankSchema } from '@trove/config';
import type { LlmProvider } from '@trove/domain';
import { createReranker } from './create-reranker';
import { HttpReranker } from './http-reranker';
import { LearnedReranker } from './learned/learned-reranker';
import { LlmReranker } from './llm-reranker';

describe('createReranker', () => {
  it('builds the configured provider', () => {
    expect(createReranker(rerankSchema.parse({ provider: 'none' }))).toBeUndefined();
    expect(createReranker(rerankSchema.parse({ provider: 'learned' }))).toBeInstanceOf(LearnedReranker);
    expect(
      createReranker(rerankSchema.parse({ provider: 'http', url: 'http://127.0.0.1:8080' })),
    ).toBeInstanceOf(HttpReranker);
    const llm = { modelId: 'fake' } as LlmProvider;
    expect(createReranker(rerankSchema.parse({ provider: 'llm' }), llm)).toBeInstanceOf(LlmReranker);
  });

  it('refuses at start-up what cannot work', () => {
    expect(() => createReranker(rerankSchema.parse({ provider: 'http' }))).toThrow(/needs TROVE_RERANK_URL/);
    expect(() => createReranker(rerankSchema.parse({ provider: 'llm' }))).toThrow(/needs an LLM/);
  });
});
