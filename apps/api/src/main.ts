// First: the instrumentations must be in place before http, pg and undici users are loaded.
import './tracing';
import { apiConfigSchema, loadConfigOrExit } from '@trove/config';
import { Logger } from 'nestjs-pino';
import { startApi } from './bootstrap';

async function main() {
  const config = loadConfigOrExit(apiConfigSchema, 'trove-api');
  const app = await startApi(config);
  const base = `http://${config.api.host}:${config.api.port}`;
  app.get(Logger).log(`listening on ${base} (GraphQL ${base}/graphql, metrics ${base}/metrics)`, 'trove-api');
}

main().catch((error) => {
  console.error('[trove-api] fatal:', error instanceof Error ? error.message : error);
  process.exit(1);
});
