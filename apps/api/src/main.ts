import { ConfigError, loadConfig, apiConfigSchema } from '@trove/config';
import { startApi } from './bootstrap';

async function main() {
  let config;
  try {
    config = loadConfig(apiConfigSchema);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`[trove-api] ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  await startApi(config);
  const base = `http://${config.api.host}:${config.api.port}`;
  console.log(`[trove-api] listening on ${base} (GraphQL ${base}/graphql)`);
}

main().catch((error) => {
  console.error('[trove-api] fatal:', error instanceof Error ? error.message : error);
  process.exit(1);
});
