import { describe, expect, it } from 'vitest';
import { searchSchema } from '@trove/config';
import { SEARCH_DEFAULTS } from '@trove/search';
import { ragSearchOptions } from './rag-search';
import { RAG_SCHEMA_DEFAULTS } from './rag-settings';

describe('ragSearchOptions', () => {
  it('builds the shipped search from the default settings: their fusion, no reranker', () => {
    const options = ragSearchOptions(searchSchema.parse({}), RAG_SCHEMA_DEFAULTS);
    expect(options).toMatchObject({ ...SEARCH_DEFAULTS, ...RAG_SCHEMA_DEFAULTS.search });
    expect(options.reranker).toBeUndefined();
    expect(options.rerankCandidates).toBe(RAG_SCHEMA_DEFAULTS.rerank.candidates);
  });

  it('builds the learned reranker when the settings name it', () => {
    const options = ragSearchOptions(searchSchema.parse({}), {
      ...RAG_SCHEMA_DEFAULTS,
      rerank: { ...RAG_SCHEMA_DEFAULTS.rerank, provider: 'learned' },
    });
    expect(options.reranker?.id).toMatch(/^learned:/);
  });

  it('lets the runtime fusion settings override the environment’s, and turns reranking off with none', () => {
    const environment = searchSchema.parse({ convexVectorWeight: '0.6', fusion: 'convex' });
    const options = ragSearchOptions(environment, {
      search: { ...RAG_SCHEMA_DEFAULTS.search, fusion: 'rrf', convexVectorWeight: 0.3 },
      rerank: { ...RAG_SCHEMA_DEFAULTS.rerank, provider: 'none', candidates: 12 },
    });
    expect(options).toMatchObject({ fusion: 'rrf', convexVectorWeight: 0.3, rerankCandidates: 12 });
    expect(options.reranker).toBeUndefined();
  });
});
