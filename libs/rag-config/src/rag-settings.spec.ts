import { answersSchema, chunkingSchema, llmSchema, rerankSchema, SecretBox } from '@trove/config';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { applyPatch, fusionSchema, maskedSettings, type RagSettings, resolveSettings } from './rag-settings';

const DEFAULTS: RagSettings = {
  search: fusionSchema.parse({}),
  rerank: rerankSchema.parse({}),
  llm: llmSchema.parse({}),
  answers: answersSchema.parse({}),
  chunking: chunkingSchema.parse({}),
};
const box = new SecretBox(randomBytes(32).toString('base64'));
const EMPTY = { overrides: {}, secrets: {} };

describe('resolveSettings', () => {
  it('is the environment’s settings when nothing is stored', () => {
    const { settings, overridden } = resolveSettings(DEFAULTS, EMPTY);
    expect(settings).toEqual(DEFAULTS);
    expect(overridden.size).toBe(0);
  });

  it('overlays overrides, coerced and checked by the same schemas as the environment', () => {
    const stored = applyPatch(EMPTY, { set: { search: { fusion: 'convex', convexVectorWeight: 0.7 } } });
    const { settings, overridden } = resolveSettings(DEFAULTS, stored);
    expect(settings.search).toEqual({ ...DEFAULTS.search, fusion: 'convex', convexVectorWeight: 0.7 });
    expect([...overridden]).toEqual(['search.fusion', 'search.convexVectorWeight']);
  });

  it('lists every problem, by setting name, and never a value', () => {
    const stored = applyPatch(EMPTY, {
      set: {
        search: { rrfK: 0 },
        llm: { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1' }, // no model
        chunking: { targetTokens: 100, overlapTokens: 60 },
      },
    });
    const failure = (() => {
      try {
        resolveSettings(DEFAULTS, stored);
      } catch (error) {
        return error as Error & { code: string };
      }
    })();
    expect(failure?.code).toBe('BAD_REQUEST');
    expect(failure?.message).toMatch(/search\.rrfK/);
    expect(failure?.message).toMatch(/llm\.model: TROVE_LLM_MODEL is required/);
    expect(failure?.message).toMatch(/overlapTokens must be under half/);
    expect(failure?.message).not.toContain('127.0.0.1:9');
  });

  it('checks only the sections a process uses (the worker: chunking)', () => {
    const stored = applyPatch(EMPTY, {
      set: { llm: { provider: 'ollama' }, chunking: { targetTokens: 120 } },
    });
    const { settings } = resolveSettings(DEFAULTS, stored, undefined, ['chunking']);
    expect(settings.chunking.targetTokens).toBe(120);
    expect(settings.llm).toEqual(DEFAULTS.llm);
  });
});

describe('applyPatch', () => {
  it('seals secrets apart from the other overrides; null or reset removes an override', () => {
    let stored = applyPatch(
      EMPTY,
      { set: { llm: { provider: 'openai', model: 'gpt-4o-mini', apiKey: 'sk-live-0123456789abcdef' } } },
      box,
    );
    expect(JSON.stringify(stored)).not.toContain('sk-live-0123456789abcdef');
    expect(stored.overrides.llm).toEqual({ provider: 'openai', model: 'gpt-4o-mini' });
    const { settings } = resolveSettings(DEFAULTS, stored, box);
    expect(settings.llm.apiKey).toBe('sk-live-0123456789abcdef');
    expect(maskedSettings(settings).llm.apiKey).toBe('sk-l…ef (24 chars)');

    stored = applyPatch(stored, { set: { llm: { model: null } } }, box);
    expect(stored.overrides.llm).toEqual({ provider: 'openai' });
    stored = applyPatch(stored, { reset: ['llm'] }, box);
    expect(stored).toEqual(EMPTY);
  });

  it('refuses a secret without TROVE_SECRET_KEY, unknown settings and unknown sections', () => {
    expect(() => applyPatch(EMPTY, { set: { rerank: { apiKey: 'k-0123456789abcdef' } } })).toThrow(
      /TROVE_SECRET_KEY/,
    );
    expect(() => applyPatch(EMPTY, { set: { search: { maxQueryChars: 10 } } })).toThrow(
      /search\.maxQueryChars: no such setting/,
    );
    expect(() => applyPatch(EMPTY, { reset: ['nope'] })).toThrow(/cannot reset nope/);
    expect(() => applyPatch(EMPTY, { set: { embedding: { profile: 'x' } } as never })).toThrow(
      /no settings section/,
    );
  });

  it('resets one setting and keeps the others', () => {
    let stored = applyPatch(EMPTY, { set: { answers: { topK: 4, threshold: 0.5 } } });
    stored = applyPatch(stored, { reset: ['answers.topK'] });
    expect(stored.overrides).toEqual({ answers: { threshold: 0.5 } });
  });
});
