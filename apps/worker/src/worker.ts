import { Client } from '@temporalio/client';
import { NativeConnection, type WorkerOptions } from '@temporalio/worker';
import { createCoreServices } from '@trove/composition';
import { documentLimitsSchema, type WorkerConfig } from '@trove/config';
import { workerRagDefaults } from '@trove/rag-config';
import {
  createDeletionActivities,
  createIndexRebuildActivities,
  createIngestBatchActivities,
  createIngestActivities,
  createSyncActivities,
  createUploadActivities,
  type IngestUnits,
  createWebhookActivities,
} from '@trove/ingest-activities';
import { createSourceConnectors, registeredSourceTypes } from '@trove/source-definitions';
import { ParseSandbox } from '@trove/parsing';
import { ChunkIndex } from '@trove/search';
import { createBlobStore } from '@trove/storage';
import { createLogger } from '@trove/logging';
import { tracingClientInterceptors } from '@trove/tracing';
import {
  collectCatalogPool,
  collectProcessMetrics,
  collectTaskQueues,
  collectParseThreads,
  collectWorkerSlots,
} from '@trove/metrics';
import type { Logger } from 'pino';
import { LaneWorkers } from './lanes';
import { taskQueueBacklog } from './telemetry';

/** Wires the libs into activities and a Temporal worker. Used by main.ts and by the tests. */
export async function createWorker(
  config: WorkerConfig,
  overrides: Partial<Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'>> & {
    connection?: NativeConnection;
    /** The process's logger (main.ts); unset: one for this worker, in the configured format. */
    logger?: Logger;
  } = {},
) {
  const logger = overrides.logger ?? createLogger('trove-worker', config.logging ?? {});
  // Built as the api builds them (@trove/composition).
  const core = createCoreServices(config, {
    sourceTypes: registeredSourceTypes(config),
    log: () => (message) => logger.warn(message),
  });
  const { es, catalog, generations } = core;
  await catalog.lifecycle.ensure();
  // The chunk index's generations (one per embedding model): the active one's model embeds.
  const active = await generations.bootstrap();
  const embedder = active.embedder;
  const chunkIndex = new ChunkIndex(es, config.elasticsearch.indexPrefix, active.generation.dimensions, {
    replicas: config.elasticsearch.replicas,
  });
  const blobs = createBlobStore(config.storage);
  // One connector per registered source type (@trove/source-definitions).
  const connectors = createSourceConnectors({ folders: config.folders, secrets: core.secrets }, { blobs });
  // One set of limits for every document, whatever its source: checked by the sync's plan, the
  // fetches and the parsers.
  const limits = config.documents ?? documentLimitsSchema.parse({});
  // Files are parsed in threads with heap and time limits: a hostile file fails only its document.
  const parsers = new ParseSandbox(config.parsing, limits);
  // The threads load their parsers while the workflow code is bundled, not during the first sync.
  const warming = parsers.warm();
  // Chunking settings changed through the API apply to documents chunked from then on.
  const ragConfig = core.ragConfig({ defaults: workerRagDefaults(config.chunking), sections: ['chunking'] });
  // Documents are chunked in the parsing threads too, by the settings current when each is chunked.
  const chunking = ragConfig.follow((settings) => settings.chunking);
  // Each activity is given the catalog ports it uses, never the whole catalog.
  const { writeChecks, projects, sources, runs, documents } = catalog;
  const ingestDeps = {
    writeChecks,
    documents,
    sources,
    blobs,
    parsers,
    chunking,
    embedder,
    chunkIndex,
    generations,
    batchSize: config.embedding.batchSize,
    connectors,
    limits,
  };
  const syncDeps = {
    writeChecks,
    projects,
    sources,
    runs,
    documents,
    blobs,
    chunkIndex,
    connectors,
    limits,
  };
  // How syncs and uploads cut their documents into units: batches of small documents, as many
  // units at once as the bulk lane runs activities (by default).
  const units: IngestUnits = {
    concurrency: config.worker.syncConcurrency ?? Math.min(64, config.worker.maxConcurrentActivities),
    ...(config.worker.batchDocuments > 1
      ? {
          batchDocuments: config.worker.batchDocuments,
          batchLimits: {
            maxDocumentChunks: config.worker.batchMaxChunks,
            maxDocumentBytes: config.worker.batchMaxBytes,
          },
        }
      : {}),
  };

  const connection =
    overrides.connection ?? (await NativeConnection.connect({ address: config.temporal.address }));
  // Deletions cancel and await the workflows of what they delete, and remove schedules.
  const temporal = new Client({
    connection,
    namespace: config.temporal.namespace,
    interceptors: tracingClientInterceptors(),
  });
  const activities = {
    ...createIngestActivities(ingestDeps),
    ...createIngestBatchActivities(ingestDeps),
    ...createSyncActivities({ ...syncDeps, units }),
    ...createUploadActivities({ documents, writeChecks, units }),
    ...createWebhookActivities(syncDeps),
    ...createDeletionActivities({
      projects,
      sources,
      documents,
      runs,
      blobs,
      chunkIndex,
      connectors,
      temporal,
      cancelGraceMs: config.deletion?.cancelGraceMs,
    }),
    ...createIndexRebuildActivities({ indexGenerations: catalog.indexGenerations, generations }),
  };
  const worker = await LaneWorkers.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    workflows: overrides.workflowBundle
      ? { workflowBundle: overrides.workflowBundle }
      : { workflowsPath: overrides.workflowsPath ?? require.resolve('@trove/workflows') },
    activities,
    workflowBundleCacheDir: config.worker.workflowBundleDir || undefined,
    log: (message) => logger.info(message),
    slots: {
      control: config.worker.controlActivities,
      bulk: config.worker.maxConcurrentActivities,
      interactive: config.worker.interactiveActivities,
    },
  });
  await warming;
  // Read when /metrics is scraped: this worker's slots, the queues' backlog, its catalog pool.
  collectProcessMetrics();
  collectWorkerSlots(() => worker.slotUsage());
  collectParseThreads(() => ({ running: parsers.threadCount, recycled: parsers.recycledThreads }));
  collectTaskQueues(taskQueueBacklog(temporal, config.temporal.namespace, config.temporal.taskQueue));
  collectCatalogPool(() => catalog.lifecycle.poolUsage());
  return { worker, connection, embedder, es, parsers, catalog, generations, ingestDeps, logger };
}
