import { loadConfigOrExit, workerConfigSchema } from '@trove/config';
import { createWorker } from './worker';

async function main() {
  const config = loadConfigOrExit(workerConfigSchema, 'trove-worker');
  const { worker, connection, embedder, parsers, catalog } = await createWorker(config);
  embedder.ping().catch((error: Error) => {
    // Not fatal: embedding activities retry until the server answers.
    console.warn(`[trove-worker] embedding server not reachable yet: ${error.message}`);
  });
  console.log(
    `[trove-worker] polling task queue "${config.temporal.taskQueue}" on ${config.temporal.address} ` +
      `(namespace ${config.temporal.namespace}, index prefix ${config.elasticsearch.indexPrefix})`,
  );
  try {
    await worker.run(); // returns after SIGINT/SIGTERM, once in-flight tasks are done
  } finally {
    await parsers.close();
    await connection.close();
    await catalog.close();
  }
}

main().catch((error) => {
  console.error('[trove-worker] fatal:', error instanceof Error ? error.message : error);
  process.exit(1);
});
