import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ApiConfig } from '@trove/config';
import { AppModule } from './app.module';
import { ApiKeyGuard } from './core/api-key.guard';
import { GRAPHQL_PATH, graphqlAuthentication } from './core/graphql-authentication';
import { SubscriptionGate } from './core/graphql-subscriptions';
import { mountWebPages } from './web/web-pages';

/** Builds and starts the API on the configured host and port. Used by main.ts and the tests. */
export async function startApi(config: ApiConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    logger: ['error', 'warn', 'log'],
    // Webhook signatures are computed over the exact bytes received.
    rawBody: true,
  });
  app.enableShutdownHooks();
  app.disable('x-powered-by');
  // Dashboard and playground pages first: a browser opening /graphql is redirected to the playground.
  mountWebPages(
    app,
    config.ui ?? { playground: false, introspection: false, dashboardDir: 'apps/dashboard/dist' },
  );
  // Registered before init, so it runs before body parsing and before Apollo's own middleware;
  // `app.use` prefix-matches exactly as Apollo's mount does (case, sub-paths).
  app.use(GRAPHQL_PATH, graphqlAuthentication(app.get(ApiKeyGuard)));
  // The same key check for subscriptions, when a graphql-ws connection opens.
  app.get(SubscriptionGate).attach(app.get(ApiKeyGuard));
  await app.listen(config.api.port, config.api.host);
  return app;
}
