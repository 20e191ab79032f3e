import type { RagConfigRecords, StoredRagConfig } from '@trove/catalog';
import { answersSchema, chunkingSchema, llmSchema, rerankSchema, SecretBox } from '@trove/config';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RagConfigStore } from './rag-config-store';
import { fusionSchema, type RagSettings } from './rag-settings';

const DEFAULTS: RagSettings = {
  search: fusionSchema.parse({}),
  rerank: rerankSchema.parse({}),
  llm: llmSchema.parse({}),
  answers: answersSchema.parse({}),
  chunking: chunkingSchema.parse({}),
};

/** The catalog's one row in memory, with the repository's optimistic concurrency. */
function memoryCatalog() {
  let row: StoredRagConfig = { overrides: {}, secrets: {}, version: 0 };
  let reads = 0;
  const ragConfig: RagConfigRecords = {
    get: async () => {
      reads += 1;
      return structuredClone(row);
    },
    save: async (
      expected: number,
      overrides: StoredRagConfig['overrides'],
      secrets: StoredRagConfig['secrets'],
    ) => {
      if (expected !== row.version) throw Object.assign(new Error('conflict'), { code: 'SETTINGS_CONFLICT' });
      row = { overrides, secrets, version: expected + 1, updatedAt: new Date().toISOString() };
      return structuredClone(row);
    },
  };
  return { records: ragConfig, reads: () => reads };
}

describe('RagConfigStore', () => {
  it('re-reads after its TTL, sees its own change at once, and stores nothing invalid', async () => {
    const memory = memoryCatalog();
    const store = new RagConfigStore({ records: memory.records, defaults: DEFAULTS, ttlMs: 60_000 });
    expect((await store.current()).version).toBe(0);
    await store.current();
    expect(memory.reads()).toBe(1); // cached

    const changed = await store.update({ set: { search: { rrfK: 10 } } });
    expect(changed.settings.search.rrfK).toBe(10);
    expect((await store.current()).settings.search.rrfK).toBe(10);

    await expect(store.update({ set: { search: { rrfK: -1 } } })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    const other = new RagConfigStore({ records: memory.records, defaults: DEFAULTS, ttlMs: 0 });
    expect((await other.current()).settings.search.rrfK).toBe(10);
  });

  it('keeps the environment’s settings, with a warning, when a stored key cannot be opened here', async () => {
    const memory = memoryCatalog();
    const writer = new RagConfigStore({
      records: memory.records,
      defaults: DEFAULTS,
      secrets: new SecretBox(randomBytes(32).toString('base64')),
    });
    await writer.update({ set: { llm: { provider: 'openai', model: 'm', apiKey: 'sk-0123456789abcdef' } } });
    const logged: string[] = [];
    const reader = new RagConfigStore({
      records: memory.records,
      defaults: DEFAULTS,
      ttlMs: 0,
      log: (m) => logged.push(m),
    });
    const current = await reader.current();
    expect(current.settings).toEqual(DEFAULTS);
    expect(current.warnings?.[0]).toMatch(/llm\.apiKey: stored sealed, but TROVE_SECRET_KEY is not set/);
    await reader.current();
    expect(logged).toHaveLength(1); // once per version, not per read
  });

  it('follow: builds again only when the settings change, on this process or another', async () => {
    const memory = memoryCatalog();
    const store = new RagConfigStore({ records: memory.records, defaults: DEFAULTS, ttlMs: 0 });
    const builds: number[] = [];
    const chunker = store.follow((settings) => {
      builds.push(settings.chunking.targetTokens);
      return { target: settings.chunking.targetTokens };
    });
    const first = await chunker();
    expect(await chunker()).toBe(first); // same version: the same object
    const elsewhere = new RagConfigStore({ records: memory.records, defaults: DEFAULTS });
    await elsewhere.update({ set: { chunking: { targetTokens: 300 } } });
    expect(await chunker()).toEqual({ target: 300 });
    expect(builds).toEqual([DEFAULTS.chunking.targetTokens, 300]);
  });
});
