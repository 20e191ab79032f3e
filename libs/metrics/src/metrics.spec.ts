import { describe, expect, it } from 'vitest';
import { cachedRead, collectParseThreads, stopCollectors } from './collectors';
import { metricsRegistry as registry } from './metrics';
import { closedLabel, errorCodeLabel } from './labels';
import { metricsAccess } from './metrics-access';
import { startMetricsServer } from './metrics-server';

const TOKEN = 'a-metrics-token-of-some-length';

describe('metricsAccess', () => {
  it('with a token: the bearer token from any address, nothing else', () => {
    const token = { token: TOKEN };
    expect(metricsAccess(token, { authorization: `Bearer ${TOKEN}`, remoteAddress: '10.0.0.7' })).toBe(
      'allowed',
    );
    expect(metricsAccess(token, { authorization: `bearer ${TOKEN}`, remoteAddress: '10.0.0.7' })).toBe(
      'allowed',
    );
    expect(metricsAccess(token, { authorization: `Bearer ${TOKEN}x`, remoteAddress: '127.0.0.1' })).toBe(
      'unauthenticated',
    );
    // Loopback is no substitute for the token once one is set.
    expect(metricsAccess(token, { remoteAddress: '127.0.0.1' })).toBe('unauthenticated');
    expect(metricsAccess(token, { authorization: TOKEN, remoteAddress: '127.0.0.1' })).toBe(
      'unauthenticated',
    );
  });

  it('without a token: off for everyone, loopback too (a reverse proxy on the host is loopback)', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.0.0.7'])
      expect(metricsAccess({}, { remoteAddress: address }), address).toBe('off');
  });

  it('without a token, loopback allowed explicitly: loopback clients only', () => {
    const loopback = { allowLoopback: true };
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])
      expect(metricsAccess(loopback, { remoteAddress: address }), address).toBe('allowed');
    for (const address of ['10.0.0.7', '::ffff:10.0.0.7', '192.168.1.2', 'fe80::1', '', 'localhost'])
      expect(metricsAccess(loopback, { remoteAddress: address }), address).toBe('forbidden');
  });
});

describe('labels', () => {
  it('takes error codes from the closed set only, never a message', () => {
    expect(errorCodeLabel({ code: 'PARSE_FAILED', message: 'secret text' })).toBe('PARSE_FAILED');
    expect(errorCodeLabel({ type: 'EMBEDDING_FAILED' })).toBe('EMBEDDING_FAILED');
    expect(errorCodeLabel({ code: 'sk-live-1234' })).toBe('UNKNOWN');
    expect(errorCodeLabel(Object.assign(new Error('x'), { name: 'AbortError' }))).toBe('CANCELLED');
    expect(errorCodeLabel('boom')).toBe('UNKNOWN');
    expect(closedLabel('HYBRID', ['HYBRID', 'KEYWORD'])).toBe('HYBRID');
    expect(closedLabel('<script>', ['HYBRID', 'KEYWORD'])).toBe('OTHER');
  });
});

describe('cachedRead', () => {
  it('shares one read between concurrent scrapes and reuses it while fresh', async () => {
    let reads = 0;
    const read = cachedRead(60_000, async () => ++reads);
    expect(await Promise.all([read(), read(), read()])).toEqual([1, 1, 1]);
    expect(await read()).toBe(1);
    expect(reads).toBe(1);
  });
});

describe('startMetricsServer', () => {
  it('serves the registry at /metrics to the token holder only', async () => {
    const server = await startMetricsServer({ host: '127.0.0.1', port: 0, token: TOKEN });
    try {
      const url = `http://127.0.0.1:${server.port}`;
      const ok = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toContain('text/plain');
      expect(await ok.text()).toContain('# TYPE trove_ingest_stage_duration_seconds histogram');
      const refused = await fetch(`${url}/metrics`);
      expect(refused.status).toBe(401);
      expect(await refused.text()).not.toContain('trove_');
      expect((await fetch(`${url}/other`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('without a token answers nobody, a loopback client included, and names the settings', async () => {
    const server = await startMetricsServer({ host: '127.0.0.1', port: 0 });
    try {
      const refused = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(refused.status).toBe(403);
      const text = await refused.text();
      expect(text).toContain('TROVE_METRICS_ALLOW_LOOPBACK=true');
      expect(text).not.toContain('trove_');
    } finally {
      await server.close();
    }
  });
});

describe('collectParseThreads', () => {
  it('reports the threads running and counts replacements once each, at scrape time', async () => {
    const state = { running: 2, recycled: 0 };
    collectParseThreads(() => state);
    try {
      const scrape = async () => {
        const text = await registry.metrics();
        const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
        return [value('trove_worker_parse_threads'), value('trove_worker_parse_threads_recycled_total')];
      };
      expect(await scrape()).toEqual([2, 0]);
      Object.assign(state, { running: 1, recycled: 3 });
      expect(await scrape()).toEqual([1, 3]);
      expect(await scrape()).toEqual([1, 3]);
    } finally {
      stopCollectors(['parseThreads']);
    }
  });
});
