import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiConfig } from '@trove/config';
import { mountWebPages } from './web-pages';

@Module({})
class EmptyModule {}

const ASSET = 'console.log(1)';

function fakeBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'trove-dashboard-'));
  mkdirSync(join(dir, 'assets'));
  mkdirSync(join(dir, 'playground'));
  writeFileSync(join(dir, 'index.html'), '<html>dashboard</html>');
  writeFileSync(join(dir, 'playground', 'index.html'), '<html>playground</html>');
  writeFileSync(join(dir, 'assets', 'app-1234.js'), 'console.log(1)');
  // Precompressed beside the original, as the build writes them.
  writeFileSync(join(dir, 'assets', 'app-1234.js.br'), brotliCompressSync(ASSET));
  writeFileSync(join(dir, 'assets', 'app-1234.js.gz'), gzipSync(ASSET));
  return dir;
}

async function serve(ui: UiConfig) {
  const app = await NestFactory.create<NestExpressApplication>(EmptyModule, { logger: false });
  mountWebPages(app, ui);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  const get = (path: string, accept = 'text/html', encoding = 'identity') =>
    fetch(`http://127.0.0.1:${port}${path}`, {
      headers: { accept, 'accept-encoding': encoding },
      redirect: 'manual',
    });
  /** The raw bytes as sent (fetch would decode them), through node:http. */
  const raw = (path: string, encoding: string) =>
    new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path, headers: { 'accept-encoding': encoding } }, (response) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(parts) }));
      })
        .on('error', reject)
        .end();
    });
  return { app, get, raw };
}

describe('dashboard and playground pages', () => {
  let on: Awaited<ReturnType<typeof serve>>;
  let off: Awaited<ReturnType<typeof serve>>;
  let unbuilt: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    const dir = fakeBuild();
    on = await serve({ playground: true, introspection: true, dashboardDir: dir });
    off = await serve({ playground: false, introspection: false, dashboardDir: dir });
    unbuilt = await serve({ playground: true, introspection: true, dashboardDir: join(dir, 'missing') });
  });
  afterAll(async () => {
    await Promise.all([on.app.close(), off.app.close(), unbuilt.app.close()]);
  });

  it('serves the dashboard at / and at any deep link, with a CSP that allows no inline script', async () => {
    for (const path of ['/', '/projects/abc/documents']) {
      const page = await on.get(path);
      expect(page.status, path).toBe(200);
      expect(await page.text()).toBe('<html>dashboard</html>');
      const csp = page.headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const asset = await on.get('/assets/app-1234.js', '*/*');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('sends an asset brotli- or gzip-compressed, as the browser accepts, and cached for good', async () => {
    const br = await on.raw('/assets/app-1234.js', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.body).toString()).toBe(ASSET);
    const gz = await on.raw('/assets/app-1234.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await on.raw('/assets/app-1234.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(ASSET);
  });

  it('never answers an API path with a page', async () => {
    for (const path of ['/v1/projects/x/documents', '/healthz', '/webhooks/notion/x']) {
      const answer = await on.get(path);
      expect(answer.status, path).toBe(404);
      expect(await answer.text()).not.toContain('dashboard');
      expect(answer.headers.get('content-security-policy')).toBeNull();
    }
  });

  it('serves the playground at /playground and sends a browser opening /graphql there', async () => {
    const page = await on.get('/playground');
    expect(page.status).toBe(200);
    expect(await page.text()).toBe('<html>playground</html>');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const redirect = await on.get('/graphql');
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('/playground');
  });

  it('TROVE_PLAYGROUND=false: no playground page and no redirect', async () => {
    expect((await off.get('/playground')).status).toBe(404);
    expect((await off.get('/playground/index.html')).status).toBe(404);
    expect((await off.get('/graphql')).status).toBe(404);
    expect((await off.get('/')).status).toBe(200);
  });

  it('says how to build the dashboard when there is no build', async () => {
    const page = await unbuilt.get('/');
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('npm run build:dashboard');
  });

  it('forbids framing every page outright (X-Frame-Options: DENY, not SAMEORIGIN)', async () => {
    for (const [server, path] of [
      [on, '/'],
      [on, '/projects/abc/documents'],
      [on, '/playground'],
      [off, '/playground'],
      [unbuilt, '/'],
    ] as const) {
      const page = await server.get(path);
      expect(page.status, path).toBeLessThan(500);
      expect(page.headers.get('x-frame-options'), path).toBe('DENY');
    }
  });
});
