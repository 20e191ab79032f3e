import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ApiConfig } from '@trove/config';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { RequestAdmission } from './access/request-admission';
import { GRAPHQL_PATH, graphqlAuthentication } from './core/graphql-authentication';
import { NON_PAGE_PATHS, nonPageContentSecurityPolicy, securityHeaders } from './core/security-headers';
import { limitWebSocketMessages } from './core/websocket-limits';
import { mountWebPages } from './web/web-pages';
import { MCP_PATH, PROTECTED_RESOURCE_PATH } from './web/web-routes';
import { mcpChallenge } from './mcp/mcp-challenge';
import { publicUrlOf } from './access/people.providers';

/** Builds and starts the API on the configured host and port. Used by main.ts and the tests. */
export async function startApi(config: ApiConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    // Held until the pino logger is in place, so start-up lines come out in the same format.
    bufferLogs: true,
    // Webhook signatures are computed over the exact bytes received.
    rawBody: true,
  });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  app.disable('x-powered-by');
  app.use(securityHeaders());
  app.use(NON_PAGE_PATHS, nonPageContentSecurityPolicy());
  // Cross-origin callers only from the configured origins; none by default (no CORS headers, so
  // browsers keep other sites' pages out). Ahead of authentication: preflights carry no key.
  if (config.api.corsOrigins.length > 0) {
    app.enableCors({
      origin: config.api.corsOrigins,
      // MCP clients in a browser also send the protocol version they speak (/mcp).
      allowedHeaders: ['Content-Type', 'X-API-Key', 'Authorization', 'Mcp-Protocol-Version'],
      exposedHeaders: ['Retry-After'],
      maxAge: 600,
    });
  }
  // Dashboard and playground pages: a browser opening /graphql is redirected to the playground.
  mountWebPages(
    app,
    config.ui ?? { playground: false, introspection: false, dashboardDir: 'apps/dashboard/dist' },
  );
  // An MCP client refused at /mcp learns where to get a token (the MCP authorization specification).
  app.use(MCP_PATH, mcpChallenge(`${publicUrlOf(config)}${PROTECTED_RESOURCE_PATH}${MCP_PATH}`));
  // Registered before init, so it runs before body parsing and before Apollo's own middleware;
  // `app.use` prefix-matches exactly as Apollo's mount does (case, sub-paths).
  app.use(GRAPHQL_PATH, graphqlAuthentication(app.get(RequestAdmission)));
  await app.init();
  limitWebSocketMessages(app);
  await app.listen(config.api.port, config.api.host);
  return app;
}
