import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsAccess, type MetricsAccessOptions } from './metrics-access';
import { metricsRegistry } from './metrics';

/** The registry in Prometheus's text format, with its content type. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

export interface MetricsServerOptions extends MetricsAccessOptions {
  host: string;
  /** 0: any free port (tests). */
  port: number;
}

/**
 * A small HTTP server answering `GET /metrics` only (the worker has no other HTTP surface),
 * protected like the api's: the token, or (explicitly allowed) loopback clients.
 */
export async function startMetricsServer(
  options: MetricsServerOptions,
): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response
        .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' })
        .end('method not allowed\n');
      return;
    }
    const decision = metricsAccess(options, {
      authorization: request.headers.authorization,
      remoteAddress: request.socket.remoteAddress,
    });
    if (decision !== 'allowed') {
      const status = accessStatus(decision);
      response
        .writeHead(status, {
          'content-type': 'text/plain',
          ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}),
        })
        .end(accessMessage(decision));
      return;
    }
    renderMetrics().then(
      ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Scrapes must never keep a stopping worker alive.
  server.unref();
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What a refused scraper is told (the same words on the api and the worker). */
export function accessMessage(decision: Exclude<ReturnType<typeof metricsAccess>, 'allowed'>): string {
  switch (decision) {
    case 'unauthenticated':
      return 'metrics need Authorization: Bearer <TROVE_METRICS_TOKEN>\n';
    case 'forbidden':
      return 'metrics are served to loopback clients only unless TROVE_METRICS_TOKEN is set\n';
    case 'off':
      return (
        'metrics are off: set TROVE_METRICS_TOKEN (scrapers send it as a bearer token), or ' +
        'TROVE_METRICS_ALLOW_LOOPBACK=true to let loopback clients read them without one\n'
      );
  }
}

/** The status a refusal is answered with. */
export function accessStatus(decision: Exclude<ReturnType<typeof metricsAccess>, 'allowed'>): 401 | 403 {
  return decision === 'unauthenticated' ? 401 : 403;
}
