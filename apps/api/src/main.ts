import { apiConfigSchema, loadConfigOrExit } from '@trove/config';
import { startApi } from './bootstrap';

async function main() {
  const config = loadConfigOrExit(apiConfigSchema, 'trove-api');
  await startApi(config);
  const base = `http://${config.api.host}:${config.api.port}`;
  console.log(`[trove-api] listening on ${base} (GraphQL ${base}/graphql)`);
}

main().catch((error) => {
  console.error('[trove-api] fatal:', error instanceof Error ? error.message : error);
  process.exit(1);
});
