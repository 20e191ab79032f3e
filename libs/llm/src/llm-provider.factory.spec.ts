import { describe, expect, it } from 'vitest';
import { llmSchema, localLlmSchema } from '@trove/config';
import { FakeOllamaServer, FakeOpenAiServer } from './testing';
import { createLlmProvider } from './llm-provider.factory';
import { LocalLlm } from './local.provider';
import { OllamaLlm } from './ollama.provider';
import { OpenAiCompatibleLlm } from './openai-compatible.provider';

describe('createLlmProvider', () => {
  it('gives no provider when none is configured', () => {
    expect(createLlmProvider(llmSchema.parse({}))).toBeUndefined();
    expect(createLlmProvider(undefined)).toBeUndefined();
  });

  it('builds an OpenAI-compatible client that sends the configured settings', async () => {
    const server = await FakeOpenAiServer.start({ models: ['gemma'], apiKey: 'sk-configured-key' });
    try {
      const llm = createLlmProvider(
        llmSchema.parse({
          provider: 'openai',
          baseUrl: server.baseUrl,
          apiKey: 'sk-configured-key',
          model: 'gemma',
          temperature: '0.3',
          maxTokens: '7',
        }),
      );
      expect(llm).toBeInstanceOf(OpenAiCompatibleLlm);
      expect(llm?.modelId).toBe('openai:gemma');
      await llm!.complete({ messages: [{ role: 'user', content: 'hi' }] });
      expect(server.chatRequests[0].body).toMatchObject({ model: 'gemma', temperature: 0.3, max_tokens: 7 });
    } finally {
      await server.close();
    }
  });

  it('builds the local provider for a catalogue model, the default one when none is named', () => {
    const local = createLlmProvider(
      llmSchema.parse({ provider: 'local' }),
      localLlmSchema.parse({ threads: 1 }),
    );
    expect(local).toBeInstanceOf(LocalLlm);
    expect(local?.modelId).toBe('local:qwen2.5-coder-1.5b');
    expect(createLlmProvider(llmSchema.parse({ provider: 'local', model: 'smollm2-135m' }))?.modelId).toBe(
      'local:smollm2-135m',
    );
    expect(() => createLlmProvider(llmSchema.parse({ provider: 'local', model: 'gpt-4o' }))).toThrow(
      /no local model "gpt-4o"/,
    );
  });

  it('builds an Ollama client for the configured host', async () => {
    const server = await FakeOllamaServer.start({ models: ['llama3.1:8b'] });
    try {
      const llm = createLlmProvider(
        llmSchema.parse({ provider: 'ollama', baseUrl: server.host, model: 'llama3.1:8b' }),
      );
      expect(llm).toBeInstanceOf(OllamaLlm);
      await llm!.ping();
      expect(server.requests.map((r) => r.path)).toEqual(['/api/tags']);
    } finally {
      await server.close();
    }
  });
});
