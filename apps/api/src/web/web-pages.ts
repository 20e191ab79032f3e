import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, RequestHandler } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { UiConfig } from '@trove/config';
import { GRAPHQL_PATH } from '../core/graphql-authentication';
import { pageSecurityHeaders } from './security-headers';
import { API_PATH_PREFIXES, PLAYGROUND_PATH } from './web-routes';

/**
 * Serves the dashboard's production build at `/` (static files, and index.html for any other
 * page the browser navigates to) and GraphiQL at /playground, both with the pages' security
 * headers. Registered before Nest's routes, so it only answers what no API route owns.
 */
export function mountWebPages(app: NestExpressApplication, ui: UiConfig): void {
  const log = new Logger('WebPages');
  const built = existsSync(join(ui.dashboardDir, 'index.html'));
  if (!built) {
    log.warn(
      `no dashboard build in ${ui.dashboardDir}: run \`npm run build:dashboard\` (or \`npm run dashboard:dev\` in development)`,
    );
  }
  // A browser opening the GraphQL endpoint itself is sent to the playground (no key needed for a redirect).
  const toPlayground: RequestHandler = (request, response, next) => {
    if (
      ui.playground &&
      isPageNavigation(request) &&
      request.path === '/' &&
      !request.originalUrl.includes('?')
    ) {
      return response.redirect(302, PLAYGROUND_PATH);
    }
    next();
  };
  app.use(GRAPHQL_PATH, toPlayground);
  app.use(pagesOnly(pageSecurityHeaders));
  if (!ui.playground) {
    const switchedOff: RequestHandler = (_request, response) => {
      response
        .status(404)
        .type('text/plain')
        .send('The playground is switched off (TROVE_PLAYGROUND=false).\n');
    };
    app.use(PLAYGROUND_PATH, switchedOff);
  }
  if (built) {
    // The build ships each asset precompressed beside itself (.br, .gz: see the dashboard's
    // vite.config.ts); the best one the browser accepts is sent, with no compression per request.
    // The folder is listed once, at start: a rebuild is served after a restart.
    app.use(
      expressStaticGzip(ui.dashboardDir, {
        enableBrotli: true,
        orderPreference: ['br', 'gzip'],
        index: false,
        serveStatic: {
          index: false,
          // /playground is a page of its own (below), not a folder to redirect to.
          redirect: false,
          // Hashed file names under assets/ never change; the pages themselves are always revalidated.
          setHeaders: (response, path) => {
            response.setHeader(
              'cache-control',
              path.includes(`${join(ui.dashboardDir, 'assets')}/`)
                ? 'public, max-age=31536000, immutable'
                : 'no-cache',
            );
          },
        },
      }),
    );
  }
  const singlePageApp: RequestHandler = (request, response, next) => {
    if (!isPageNavigation(request) || isApiPath(request.path)) return next();
    const playground = request.path === PLAYGROUND_PATH || request.path === `${PLAYGROUND_PATH}/`;
    if (!built) {
      response
        .status(404)
        .type('text/plain')
        .send(
          'The dashboard is not built: run `npm run build:dashboard`, or `npm run dashboard:dev` in development.\n',
        );
      return;
    }
    response.setHeader('cache-control', 'no-cache');
    response.sendFile(join(ui.dashboardDir, playground ? 'playground/index.html' : 'index.html'));
  };
  app.use(singlePageApp);
}

/** Applies `handler` to everything but the API's own routes. */
function pagesOnly(handler: RequestHandler): RequestHandler {
  return (request, response, next) => (isApiPath(request.path) ? next() : handler(request, response, next));
}

function isApiPath(path: string): boolean {
  const lower = path.toLowerCase();
  return API_PATH_PREFIXES.some(
    (prefix) => lower === prefix || lower.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`),
  );
}

/** A browser loading a page: GET or HEAD, HTML preferred over JSON. */
function isPageNavigation(request: Request): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    request.accepts(['application/json', 'text/html']) === 'text/html'
  );
}
