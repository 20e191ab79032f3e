// First: the instrumentations must be in place before http, pg and undici users are loaded.
import './tracing';
import { Runtime } from '@temporalio/worker';
import { loadConfigOrExit, workerConfigSchema, workerMetricsSchema } from '@trove/config';
import { createLogger } from '@trove/logging';
import { startMetricsServer } from '@trove/metrics';
import { activeTracing } from '@trove/tracing';
import { temporalLogger } from './telemetry';
import { createWorker } from './worker';

async function main() {
  const config = loadConfigOrExit(workerConfigSchema, 'trove-worker');
  const logger = createLogger('trove-worker', config.logging ?? {});
  // Before any connection: Temporal's own lines and every activity's log go through pino.
  Runtime.install({ logger: temporalLogger(logger) });
  const metricsSettings = config.workerMetrics ?? workerMetricsSchema.parse({});
  const metrics = await startMetricsServer({
    ...metricsSettings,
    token: config.metrics?.token,
    allowLoopback: config.metrics?.allowLoopback,
  }).catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      error.code === 'EADDRINUSE'
        ? `TROVE_WORKER_METRICS_PORT ${metricsSettings.port} on ${metricsSettings.host} is in use ` +
            '(another worker on this machine?): give each worker its own port, or 0 for any free one'
        : `cannot serve metrics on ${metricsSettings.host}:${metricsSettings.port}: ${error.message}`,
    );
  });
  const { worker, connection, embedder, es, parsers, catalog } = await createWorker(config, { logger });
  embedder.ping().catch((error: Error) => {
    // Not fatal: embedding activities retry until the server answers.
    logger.warn(`embedding server not reachable yet: ${error.message}`);
  });
  logger.info(
    { metricsPort: metrics.port },
    `polling task queue "${config.temporal.taskQueue}" on ${config.temporal.address} ` +
      `(namespace ${config.temporal.namespace}, index prefix ${config.elasticsearch.indexPrefix}); ` +
      `metrics on http://${metricsSettings.host}:${metrics.port}/metrics`,
  );
  try {
    await worker.run(); // returns after SIGINT/SIGTERM, once in-flight tasks are done
  } finally {
    await metrics.close();
    await parsers.close();
    await connection.close();
    await catalog.lifecycle.close();
    // Its keep-alive sockets would hold the process open after every task has stopped.
    await es.close();
    // The last spans (the shutdown's own) are exported before the process ends.
    await activeTracing()?.shutdown();
  }
}

main().catch((error) => {
  console.error('[trove-worker] fatal:', error instanceof Error ? error.message : error);
  process.exit(1);
});
