import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ApiConfig } from '@trove/config';
import { AppModule } from './app.module';

/** Builds and starts the API on the configured host and port. Used by main.ts and the tests. */
export async function startApi(config: ApiConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    logger: ['error', 'warn', 'log'],
    // Webhook signatures are computed over the exact bytes received.
    rawBody: true,
  });
  app.enableShutdownHooks();
  await app.listen(config.api.port, config.api.host);
  return app;
}
