import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { runScrapeHook } from './scrape-hooks';

/**
 * The one registry of this process: the api and the worker expose it at `/metrics`. Every label
 * comes from a closed set (a stage, a mode, an error code, a state, a lane) so a scrape never
 * carries an id, a key or a piece of a document, and the number of series stays bounded.
 */
export const metricsRegistry = new Registry();

let processMetrics = false;

/** Node's own metrics (CPU, memory, event-loop lag, GC) with a `trove_` prefix; once per process. */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: metricsRegistry, prefix: 'trove_' });
  // prom-client names a few gauges `…_total` (active handles, requests, resources), which
  // Prometheus's conventions keep for counters (`promtool check metrics` refuses them); the
  // totals are the sum of their by-type series anyway.
  for (const metric of metricsRegistry.getMetricsAsArray()) {
    const { name, type } = metric as unknown as { name: string; type: string };
    if (name.endsWith('_total') && type !== 'counter') metricsRegistry.removeSingleMetric(name);
  }
}

const registers = [metricsRegistry];

/** Seconds: from a millisecond (an embedding request) to ten minutes (a large PDF). */
const STAGE_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];
/** Seconds: interactive requests (search, an embedding call). */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds: an answer written by a language model takes a while. */
const ANSWER_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120];

// --- Ingest (worker) -----------------------------------------------------------------------------

/** The stages of ingest, in pipeline order; a batch runs the same stages for many documents. */
export type IngestStage = 'fetch' | 'parse' | 'chunk' | 'embed' | 'upsert' | 'finalize';
/** `document`: one document per workflow, a stage per activity; `batch`: `ingestBatch`. */
export type IngestPipeline = 'document' | 'batch';

export const ingestStageDuration = new Histogram<'stage' | 'pipeline'>({
  name: 'trove_ingest_stage_duration_seconds',
  help: 'Time spent in one ingest stage: per document (fetch, parse, chunk) or per embedding/upsert unit of work (embed, upsert, finalize); pipeline is document or batch',
  labelNames: ['stage', 'pipeline'],
  buckets: STAGE_BUCKETS,
  registers,
});

export const activityDuration = new Histogram<'activity' | 'outcome'>({
  name: 'trove_activity_duration_seconds',
  help: 'Temporal activities run by this worker, by activity type and outcome (completed, failed, cancelled)',
  labelNames: ['activity', 'outcome'],
  buckets: STAGE_BUCKETS,
  registers,
});

export const documentsIndexed = new Counter<'pipeline'>({
  name: 'trove_ingest_documents_indexed_total',
  help: 'Documents indexed (READY)',
  labelNames: ['pipeline'],
  registers,
});

export const documentsFailed = new Counter<'pipeline' | 'code'>({
  name: 'trove_ingest_documents_failed_total',
  help: 'Documents that failed for good (FAILED), by error code',
  labelNames: ['pipeline', 'code'],
  registers,
});

export const chunksIndexed = new Counter<'pipeline'>({
  name: 'trove_ingest_chunks_indexed_total',
  help: 'Chunks written to the index by documents that became READY',
  labelNames: ['pipeline'],
  registers,
});

export const chunksEmbedded = new Counter<'result'>({
  name: 'trove_ingest_chunks_embedded_total',
  help: 'Chunks given a vector: embedded by the embedding server, or reused from an identical text already indexed',
  labelNames: ['result'],
  registers,
});

export const chunksFailed = new Counter<'code'>({
  name: 'trove_ingest_chunks_failed_total',
  help: 'Chunks of documents that failed after chunking (their chunks are not indexed), by error code',
  labelNames: ['code'],
  registers,
});

// --- Temporal (worker) ---------------------------------------------------------------------------

/** Task queues of one install: control (workflows, control activities) and the two ingest lanes. */
export type Lane = 'control' | 'bulk' | 'interactive';

export const activitySlotsUsed = new Gauge<'lane'>({
  name: 'trove_worker_activity_slots_used',
  help: "Activity slots of this worker's lane busy now",
  labelNames: ['lane'],
  registers,
  collect: () => runScrapeHook('workerSlots'),
});

export const activitySlots = new Gauge<'lane'>({
  name: 'trove_worker_activity_slots',
  help: "Activity slots of this worker's lane (the configured maximum)",
  labelNames: ['lane'],
  registers,
  collect: () => runScrapeHook('workerSlots'),
});

export const parseThreads = new Gauge({
  name: 'trove_worker_parse_threads',
  help: "Parsing threads running now (stopped when idle, replaced when one's memory grew past TROVE_PARSE_RECYCLE_THREAD_MB)",
  registers,
  collect: () => runScrapeHook('parseThreads'),
});

export const parseThreadsRecycled = new Counter({
  name: 'trove_worker_parse_threads_recycled_total',
  help: 'Parsing threads replaced because their memory grew past TROVE_PARSE_RECYCLE_THREAD_MB',
  registers,
  collect: () => runScrapeHook('parseThreads'),
});

export const taskQueueBacklog = new Gauge<'lane' | 'kind'>({
  name: 'trove_task_queue_backlog',
  help: "Tasks waiting in the lane's task queue (Temporal's approximate backlog count); the same for every worker of an install: aggregate with max",
  labelNames: ['lane', 'kind'],
  registers,
  collect: () => runScrapeHook('taskQueues'),
});

export const taskQueueBacklogAge = new Gauge<'lane' | 'kind'>({
  name: 'trove_task_queue_backlog_age_seconds',
  help: "Age of the oldest task waiting in the lane's task queue",
  labelNames: ['lane', 'kind'],
  registers,
  collect: () => runScrapeHook('taskQueues'),
});

// --- Sync runs and the catalog (api) ------------------------------------------------------------

export const syncRuns = new Gauge<'state'>({
  name: 'trove_sync_runs',
  help: 'Sync runs in the catalog by state (RUNNING, COMPLETED, FAILED)',
  labelNames: ['state'],
  registers,
  collect: () => runScrapeHook('syncRuns'),
});

export const oldestRunningSyncAge = new Gauge({
  name: 'trove_sync_run_oldest_running_age_seconds',
  help: 'Age of the oldest sync run still RUNNING; 0 when none runs',
  registers,
  collect: () => runScrapeHook('syncRuns'),
});

export const catalogPool = new Gauge<'state'>({
  name: 'trove_catalog_pool_connections',
  help: "This process's PostgreSQL pool: connections open (total), idle, and requests waiting for one (waiting)",
  labelNames: ['state'],
  registers,
  collect: () => runScrapeHook('catalogPool'),
});

export const catalogPoolMax = new Gauge({
  name: 'trove_catalog_pool_max_connections',
  help: "This process's PostgreSQL pool size (TROVE_DATABASE_POOL_SIZE)",
  registers,
  collect: () => runScrapeHook('catalogPool'),
});

// --- Requests (api) ----------------------------------------------------------------------------

export const searchDuration = new Histogram<'mode' | 'outcome'>({
  name: 'trove_search_duration_seconds',
  help: 'Searches, by mode (HYBRID, KEYWORD, VECTOR) and outcome (ok, or the error code)',
  labelNames: ['mode', 'outcome'],
  buckets: REQUEST_BUCKETS,
  registers,
});

export const askDuration = new Histogram<'mode' | 'transport' | 'outcome'>({
  name: 'trove_ask_duration_seconds',
  help: 'Questions answered, by the answer mode asked for (AUTO, LLM, EXTRACTIVE, TOP_1), transport (graphql, stream) and outcome',
  labelNames: ['mode', 'transport', 'outcome'],
  buckets: ANSWER_BUCKETS,
  registers,
});

export const webhookDeliveries = new Counter<'source_type' | 'outcome' | 'code'>({
  name: 'trove_webhook_deliveries_total',
  help: 'Webhook deliveries, accepted or refused (code: why, e.g. UNAUTHENTICATED, RATE_LIMITED)',
  labelNames: ['source_type', 'outcome', 'code'],
  registers,
});

/** Which budget refused: an API key's requests, failed keys per address, webhook refusals. */
export type RateLimiter = 'api_key' | 'failed_key' | 'webhook';

export const rateLimitRefusals = new Counter<'limiter'>({
  name: 'trove_rate_limit_refusals_total',
  help: 'Requests refused with 429 RATE_LIMITED, by the budget that refused them',
  labelNames: ['limiter'],
  registers,
});

// --- Providers (api and worker) -----------------------------------------------------------------

export const embedderDuration = new Histogram<'purpose' | 'outcome'>({
  name: 'trove_embedder_request_duration_seconds',
  help: 'Calls to the embedding server, by purpose (passage, query) and outcome (ok, or the error code)',
  labelNames: ['purpose', 'outcome'],
  buckets: REQUEST_BUCKETS,
  registers,
});

export const embedderWait = new Histogram<'priority'>({
  name: 'trove_embedder_queue_wait_seconds',
  help:
    'Time a request waited in this process before being sent to the embedding server, by priority ' +
    '(interactive: queries and webhook edits; bulk: imports)',
  labelNames: ['priority'],
  buckets: REQUEST_BUCKETS,
  registers,
});

export const embedderInFlightLimit = new Gauge({
  name: 'trove_embedder_in_flight_limit',
  help:
    'Requests this process sends to the embedding server at once (TROVE_EMBEDDING_MAX_IN_FLIGHT, ' +
    'or the limit found by trying when it is unset)',
  registers,
});

export const embedderErrors = new Counter<'purpose' | 'code'>({
  name: 'trove_embedder_errors_total',
  help: 'Failed calls to the embedding server, by error code',
  labelNames: ['purpose', 'code'],
  registers,
});

export const llmDuration = new Histogram<'operation' | 'outcome'>({
  name: 'trove_llm_request_duration_seconds',
  help: 'Calls to the language model (operation complete or stream, retries included), by outcome',
  labelNames: ['operation', 'outcome'],
  buckets: ANSWER_BUCKETS,
  registers,
});

export const llmErrors = new Counter<'operation' | 'code'>({
  name: 'trove_llm_errors_total',
  help: 'Failed calls to the language model, by error code',
  labelNames: ['operation', 'code'],
  registers,
});
