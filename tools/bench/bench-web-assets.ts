/**
 * What a browser downloads to open the dashboard and the playground, and how long until each page
 * shows, served as before (the files as they are, as the api served them without compression)
 * and as now (the api, without a worker: the build's brotli/gzip copies). Both serve the same
 * build, and each page is loaded in Debian's Chromium with an empty cache, rounds interleaved,
 * on loopback and on a 10 Mbit/s link with 40 ms of latency (Chromium's throttling).
 * A repeat visit in the same browser shows what the immutable caching of hashed assets leaves.
 * Run: npm run bench:web-assets (BENCH_WEB_ROUNDS to change the rounds).
 */
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { RequestHandler } from 'express';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ensureDashboardBuild, launchChromium, ROOT, TroveStack } from '@trove/test-support';
import { sizeDefault, writeBenchmarkSections } from '@trove/tools-support';

const ROUNDS = Number(
  process.env.BENCH_WEB_ROUNDS ?? sizeDefault('npm run bench:web-assets', 'BENCH_WEB_ROUNDS'),
);
const DIST = join(ROOT, 'apps', 'dashboard', 'dist');

@Module({})
class EmptyModule {}

/** The pages, and what shows once each is usable. */
const PAGES = [
  {
    name: 'dashboard (sign-in page)',
    path: '/',
    ready: (page: Page) => page.getByLabel('API key').waitFor(),
  },
  {
    name: 'playground',
    path: '/playground',
    ready: (page: Page) => page.locator('.graphiql-container .monaco-editor').first().waitFor(),
  },
];
const LINKS = [
  { name: 'loopback', conditions: undefined },
  {
    name: '10 Mbit/s, 40 ms',
    conditions: { offline: false, latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 10e6 / 8 },
  },
];

/** The api's old way: the build's files as they are (Nest's useStaticAssets), index.html for the pages. */
async function servedAsBefore(): Promise<{ url: string; close: () => Promise<void> }> {
  const app = await NestFactory.create<NestExpressApplication>(EmptyModule, { logger: false });
  app.useStaticAssets(DIST, { index: false, redirect: false });
  // The two pages; anything else (the pages' API calls: there is no API here) is a 404.
  const pages: RequestHandler = (request, response) => {
    if (request.path === '/') return response.sendFile(join(DIST, 'index.html'));
    if (request.path === '/playground') return response.sendFile(join(DIST, 'playground', 'index.html'));
    response.status(404).json({ error: { code: 'NOT_FOUND' } });
  };
  app.use(pages);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

/** The api's way now: the api itself (its web pages, without a worker), serving the same build. */
async function servedAsNow(): Promise<{ url: string; close: () => Promise<void> }> {
  const stack = new TroveStack();
  await stack.start({ worker: false });
  return { url: stack.url, close: () => stack.stop() };
}

interface Load {
  bytes: number;
  ms: number;
  repeatBytes: number;
}

/** One cold load (bytes over the wire, time until the page is usable), then a repeat visit. */
async function load(
  browser: Browser,
  url: string,
  page: (typeof PAGES)[number],
  link: (typeof LINKS)[number],
): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  await cdp.send('Network.enable');
  if (link.conditions) await cdp.send('Network.emulateNetworkConditions', link.conditions);
  let bytes = 0;
  cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => {
    bytes += event.encodedDataLength;
  });
  const started = performance.now();
  await tab.goto(`${url}${page.path}`, { waitUntil: 'load' });
  await page.ready(tab);
  const ms = performance.now() - started;
  await tab.waitForLoadState('networkidle');
  const cold = bytes;
  bytes = 0;
  const again = await context.newPage();
  const cdpAgain = await context.newCDPSession(again);
  await cdpAgain.send('Network.enable');
  cdpAgain.on('Network.loadingFinished', (event: { encodedDataLength: number }) => {
    bytes += event.encodedDataLength;
  });
  await again.goto(`${url}${page.path}`, { waitUntil: 'load' });
  await page.ready(again);
  await again.waitForLoadState('networkidle');
  const repeatBytes = bytes;
  await context.close();
  return { bytes: cold, ms, repeatBytes };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const kb = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en')} KB`;
const ms = (value: number) => `${Math.round(value).toLocaleString('en')} ms`;

async function main() {
  await ensureDashboardBuild();
  const servers = { before: await servedAsBefore(), now: await servedAsNow() };
  const browser = await launchChromium();
  const load1 = loadavg()[0]!;
  const results = new Map<string, Load[]>();
  try {
    for (const page of PAGES) {
      for (const link of LINKS) {
        // One warm-up each (the browser's own start-up), then the two servers interleaved.
        for (const server of Object.values(servers)) await load(browser, server.url, page, link);
        for (let round = 0; round < ROUNDS; round += 1) {
          for (const [name, server] of Object.entries(servers)) {
            const key = `${page.name}|${link.name}|${name}`;
            results.set(key, [...(results.get(key) ?? []), await load(browser, server.url, page, link)]);
          }
        }
      }
    }
  } finally {
    await browser.close();
    await servers.before.close();
    await servers.now.close();
  }
  const rows: string[] = [];
  for (const page of PAGES) {
    for (const link of LINKS) {
      const [before, now] = ['before', 'now'].map((name) =>
        results.get(`${page.name}|${link.name}|${name}`)!,
      );
      const bytes = (loads: Load[]) => median(loads.map((l) => l.bytes));
      const time = (loads: Load[]) => median(loads.map((l) => l.ms));
      rows.push(
        `| ${page.name} | ${link.name} | ${kb(bytes(before!))} | ${kb(bytes(now!))} | ${ms(time(before!))} | ${ms(time(now!))} | ${kb(median(now!.map((l) => l.repeatBytes)))} |`,
      );
    }
  }
  const section = [
    '## Dashboard and playground: bytes transferred and load time, uncompressed vs precompressed',
    '',
    "Each page of the same build (`apps/dashboard/dist`) loaded in Debian's Chromium at 1366×900 with an",
    "empty cache, from two servers: **before**, the files as they are (Nest's useStaticAssets, as the api",
    "served them without compression; the pages' API calls answered 404), and **now**, the api itself",
    '(no worker) sending the brotli (or gzip) copy',
    'the build writes beside each asset. Bytes: everything the page loaded over the wire (headers',
    'included) until the network was idle; time: from navigation until the page is usable (the sign-in',
    "form; the playground's editor). Medians of",
    `${ROUNDS} rounds, interleaved after a warm-up; 1-minute load average at the start ${load1.toFixed(1)} (the`,
    'machine is shared). "Repeat visit": a second load in the same browser, now, with the hashed assets',
    'cached as immutable: only the page itself is fetched again.',
    '',
    '| page | link | bytes before | bytes now | time before | time now | repeat visit, bytes now |',
    '| ---- | ---- | ------------ | --------- | ----------- | -------- | ----------------------- |',
    ...rows,
  ].join('\n');
  console.log(section);
  if (process.env.BENCH_NO_WRITE) return;
  writeBenchmarkSections(
    [
      ...(process.env.BENCH_WEB_ROUNDS ? [`BENCH_WEB_ROUNDS=${process.env.BENCH_WEB_ROUNDS}`] : []),
      'npm run bench:web-assets',
    ].join(' '),
    section,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
