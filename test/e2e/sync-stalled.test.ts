import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildZip } from '../../libs/parsing/src/archive/zip-fixtures.testing';
import { ensureDashboardBuild, launchChromium } from '../support/browser';
import { cleanEnv, runTrove } from '../support/cli';
import { FaultProxy } from '../support/fault-proxy';
import { EMBEDDER_URL, expectEventually, ROOT } from '../support/services';
import { ADMIN_KEY, TroveStack } from '../support/stack';

// Syncs held up on purpose show STALLED with the reason Temporal gives, and recover by themselves:
// (a) no worker polls the task queue until one is started; (b) the embedder answers 503 until it
// answers again. The threshold is 2 s here (TROVE_SYNC_STALL_SECONDS), 300 s by default.
const FILES = 12;
let stack: TroveStack;
let embedder: FaultProxy;
let projectId: string;
/** A screenshot of the stalled run lands here (look at it: a page can render and still look broken). */
const SHOTS = join(ROOT, 'test-results', 'dashboard');
let browser: Browser;
let page: Page;
/** Bounds a hang only: the dashboard shows a change within a second or two. */
const EVENTUALLY = { timeout: 60_000 };

interface RunView {
  status: string;
  stage: string | null;
  progressAt: string | null;
  pagesPerSecond: number | null;
  etaSeconds: number | null;
  progress: { pagesPlanned: number | null; pagesDone: number; pagesIngested: number };
  health: { state: string; reason: string | null; message: string | null; since: string | null };
}

async function run(id: string): Promise<RunView> {
  const { syncRun } = await stack.query<{ syncRun: RunView }>(
    `query($id: ID!) { syncRun(id: $id) { status stage progressAt pagesPerSecond etaSeconds
       progress { pagesPlanned pagesDone pagesIngested } health { state reason message since } } }`,
    { id },
  );
  return syncRun;
}

/** Waits until the run shows `state` (and returns it): the bound only stops a hang. */
function untilHealth(id: string, check: (run: RunView) => boolean, what: string): Promise<RunView> {
  return expectEventually(
    async () => {
      const seen = await run(id);
      if (!check(seen)) throw new Error(`run ${id} does not show ${what} yet: ${JSON.stringify(seen)}`);
      return seen;
    },
    { timeoutMs: 120_000, intervalMs: 500 },
  );
}

async function syncArchive(name: string): Promise<{ runId: string; sourceId: string }> {
  const files = Array.from({ length: FILES }, (_, i) => ({
    path: `notes/${name}-${i}.md`,
    data: `# ${name} note ${i}\n\nThe ${name} lighthouse ${i} blinks ${i * 7} times an hour over bay ${i % 5}.\n`,
  }));
  const archive = await stack.uploadArchive(projectId, `${name}.zip`, await buildZip(files));
  expect(archive.status).toBe(202);
  return { runId: archive.body.run!.id, sourceId: archive.body.source!.id };
}

beforeAll(async () => {
  embedder = new FaultProxy(new URL(EMBEDDER_URL));
  const embedderUrl = await embedder.start();
  stack = new TroveStack({
    TROVE_SYNC_STALL_SECONDS: '2',
    TROVE_EMBEDDING_BASE_URL: `${embedderUrl}/v1`,
    TROVE_SYNC_BATCH_DOCUMENTS: '4',
  });
  await ensureDashboardBuild();
  // No worker yet: the first test starts it.
  await stack.start({ worker: false });
  projectId = await stack.createProject('Stalled syncs');
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
  await page.goto(`${stack.url}/`);
  await page.getByLabel('API key').fill(ADMIN_KEY);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The key reaches the project: the dashboard opens on its Ask page.
  await page.getByRole('heading', { name: 'Ask · Stalled syncs' }).waitFor();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await embedder?.stop();
});

describe('a sync that looks stuck', () => {
  it('with no worker polling its task queue: STALLED, NO_WORKER; a worker starts and it recovers and completes', async () => {
    const { runId } = await syncArchive('idle');
    const stalled = await untilHealth(runId, (r) => r.health.state === 'STALLED', 'STALLED');
    expect(stalled).toMatchObject({ status: 'RUNNING', stage: 'PLANNING' });
    expect(stalled.health.reason).toBe('NO_WORKER');
    expect(stalled.health.message).toContain(`no worker is polling task queue ${stack.name}`);
    expect(stalled.health.since).toBe(stalled.progressAt);

    // The dashboard shows the badge and the reason on the running sync.
    await page.goto(`${stack.url}/projects/${projectId}/sources`);
    const progress = page.getByTestId('sync-progress');
    await progress.getByTestId('sync-stalled').waitFor(EVENTUALLY);
    expect(await progress.getByTestId('sync-status').textContent()).toBe('RUNNING');
    expect(await progress.getByTestId('sync-stalled').textContent()).toBe('STALLED');
    expect(await progress.getByTestId('sync-stall-reason').textContent()).toContain(
      `no worker is polling task queue ${stack.name}`,
    );
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'sync-stalled.png'), fullPage: true });

    stack.startWorker();
    const done = await untilHealth(runId, (r) => r.status !== 'RUNNING', 'its end');
    expect(done).toMatchObject({
      status: 'COMPLETED',
      stage: 'FINISHING',
      health: { state: 'OK' },
      progress: { pagesPlanned: FILES, pagesDone: FILES, pagesIngested: FILES },
    });
    // It moved again by itself: the stored status never left RUNNING until the end.
    expect(Date.parse(done.progressAt!)).toBeGreaterThan(Date.parse(stalled.health.since!));
    // The page follows it (subscription) to COMPLETED, and the badge is gone.
    await expect
      .poll(() => progress.getByTestId('sync-status').textContent(), { ...EVENTUALLY, interval: 500 })
      .toBe('COMPLETED');
    expect(await progress.getByTestId('sync-stalled').count()).toBe(0);
  }, 300_000);

  it('with the embedder answering 503: STALLED, ACTIVITY_RETRYING with its error; the embedder answers and it recovers', async () => {
    embedder.failNext(Number.MAX_SAFE_INTEGER);
    const { runId, sourceId } = await syncArchive('unembedded');
    const stalled = await untilHealth(
      runId,
      (r) => r.health.state === 'STALLED' && r.health.reason === 'ACTIVITY_RETRYING',
      'STALLED with a retrying activity',
    );
    expect(stalled).toMatchObject({
      status: 'RUNNING',
      stage: 'INGESTING',
      progress: { pagesPlanned: FILES },
    });
    expect(stalled.health.message).toMatch(/activity ingestBatch is retrying \(attempt \d+\)/);
    expect(stalled.health.message).toContain('the embedding server answered 503');
    expect(embedder.failed).toBeGreaterThan(0);
    // The dashboard: the stage, the pages done of those planned with the rate, and the reason.
    await page.goto(`${stack.url}/projects/${projectId}/sources`);
    await page.getByTestId('source-card').filter({ hasText: 'unembedded.zip' }).click();
    const progress = page.getByTestId('sync-progress');
    await progress.getByTestId('sync-stalled').waitFor(EVENTUALLY);
    expect(await progress.getByTestId('sync-stage').textContent()).toBe('INGESTING');
    expect(await progress.getByTestId('sync-pace').textContent()).toMatch(
      new RegExp(`^0 / ${FILES} pages · 0 pages/s \\(last minute\\)$`),
    );
    expect(await progress.getByTestId('sync-stall-reason').textContent()).toContain(
      'the embedding server answered 503',
    );
    await page.screenshot({ path: join(SHOTS, 'sync-stalled-retrying.png'), fullPage: true });
    // Its card says STALLED (not the source's ACTIVE), with the cause and the pages done of those planned.
    const card = page.getByTestId('source-card').filter({ hasText: 'unembedded.zip' });
    await expect.poll(() => card.getByTestId('source-state').textContent(), EVENTUALLY).toBe('STALLED');
    expect(await card.getByTestId('source-progress').textContent()).toBe(`0 / ${FILES} pages`);
    expect(await card.getByTestId('source-reason').textContent()).toContain(
      'the embedding server answered 503',
    );
    // The CLI's list of runs says it too.
    const cli = await runTrove(['sources', 'runs', sourceId], {
      cwd: tmpdir(),
      env: cleanEnv({ TROVE_API_URL: stack.url, TROVE_API_KEY: ADMIN_KEY, TROVE_PROJECT: projectId }),
    });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/RUNNING \(STALLED \(ACTIVITY_RETRYING: activity ingestBatch is retrying/);

    embedder.failNext(0);
    const done = await untilHealth(runId, (r) => r.status !== 'RUNNING', 'its end');
    expect(done).toMatchObject({
      status: 'COMPLETED',
      health: { state: 'OK' },
      progress: { pagesDone: FILES, pagesIngested: FILES },
    });
  }, 300_000);

  it('a sync held by a failing embedder is cancelled from the dashboard: CANCELLED, what it ingested stays, the next sync does the rest; REBUILD re-embeds', async () => {
    // The first embedding request goes through (one batch of pages), then every one fails.
    embedder.failAfter(1);
    const { runId, sourceId } = await syncArchive('cancelled');
    await untilHealth(runId, (r) => r.progress.pagesIngested > 0, 'a batch ingested');

    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${stack.url}/projects/${projectId}/sources`);
    await page.getByTestId('source-card').filter({ hasText: 'cancelled.zip' }).click();
    const progress = page.getByTestId('sync-progress');
    await progress.getByTestId('sync-cancel').waitFor(EVENTUALLY);
    // What each mode does is said, and Rebuild is offered apart from Full sync.
    expect(await page.getByTestId('sync-modes-help').textContent()).toContain(
      'Full sync re-reads every item and re-ingests only those whose content changed',
    );
    expect(await page.getByRole('button', { name: 'Rebuild' }).isDisabled()).toBe(true); // a run is running
    page.once('dialog', (dialog) => void dialog.accept());
    await progress.getByTestId('sync-cancel').click();
    await expect
      .poll(() => progress.getByTestId('sync-status').textContent(), { ...EVENTUALLY, interval: 500 })
      .toBe('CANCELLED');
    expect(await progress.textContent()).toContain('cancelled by');
    await page.screenshot({ path: join(SHOTS, 'sync-cancelled.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Rebuild' }).scrollIntoViewIfNeeded();
    expect(await page.getByRole('button', { name: 'Rebuild' }).isVisible()).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'sync-cancelled-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 860 });

    const cancelled = await untilHealth(runId, (r) => r.status !== 'RUNNING', 'its end');
    expect(cancelled.status).toBe('CANCELLED');
    const kept = cancelled.progress.pagesIngested;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(FILES);
    // An ended run cannot be cancelled again: the CLI says so.
    const cli = await runTrove(['sources', 'cancel', runId], {
      cwd: tmpdir(),
      env: cleanEnv({ TROVE_API_URL: stack.url, TROVE_API_KEY: ADMIN_KEY, TROVE_PROJECT: projectId }),
    });
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toContain('the sync run already ended (CANCELLED)');

    embedder.failNext(0);
    const next = await syncAndWait(sourceId, 'INCREMENTAL');
    expect(next).toMatchObject({ status: 'COMPLETED' });
    // The pages the cancelled run ingested are unchanged; only the rest is ingested.
    expect(next.progress.pagesUnchanged).toBe(kept);
    expect(next.progress.pagesIngested).toBe(FILES - kept);
    await expectNoDuplicates(sourceId);

    // REBUILD with nothing changed: every page ingested and every chunk embedded again.
    const rebuilt = await syncAndWait(sourceId, 'REBUILD');
    expect(rebuilt).toMatchObject({ status: 'COMPLETED' });
    expect(rebuilt.progress.pagesIngested).toBe(FILES);
    expect(rebuilt.progress.pagesUnchanged).toBe(0);
    expect(rebuilt.progress.chunksEmbedded).toBeGreaterThan(0);
    expect(rebuilt.progress.chunksReused).toBe(0);
    await expectNoDuplicates(sourceId);
  }, 300_000);
});

interface EndedRun {
  status: string;
  progress: { pagesIngested: number; pagesUnchanged: number; chunksEmbedded: number; chunksReused: number };
}

async function syncAndWait(sourceId: string, mode: string): Promise<EndedRun> {
  const { syncSource } = await stack.query<{ syncSource: { id: string } }>(
    'mutation($id: ID!, $mode: SyncMode!) { syncSource(id: $id, mode: $mode) { id } }',
    { id: sourceId, mode },
  );
  return expectEventually(
    async () => {
      const { syncRun } = await stack.query<{ syncRun: EndedRun }>(
        `query($id: ID!) { syncRun(id: $id) { status progress { pagesIngested pagesUnchanged chunksEmbedded chunksReused } } }`,
        { id: syncSource.id },
      );
      if (syncRun.status === 'RUNNING') throw new Error('still running');
      return syncRun;
    },
    { timeoutMs: 120_000, intervalMs: 500 },
  );
}

/** Each note of the source is one READY document whose chunks are indexed once each. */
async function expectNoDuplicates(sourceId: string): Promise<void> {
  const { documents } = await stack.query<{
    documents: { nodes: { id: string; sourceId: string | null; status: string; chunkCount: number }[] };
  }>('query($p: ID!) { documents(projectId: $p, first: 500) { nodes { id sourceId status chunkCount } } }', {
    p: projectId,
  });
  const mine = documents.nodes.filter((d) => d.sourceId === sourceId);
  expect(mine).toHaveLength(FILES);
  expect(mine.every((d) => d.status === 'READY')).toBe(true);
  for (const document of mine) {
    const { chunks } = await stack.query<{ chunks: { id: string }[] }>(
      'query($id: ID!) { chunks(documentId: $id) { id } }',
      { id: document.id },
    );
    // The index holds the document's chunks once each: none left over from an earlier ingest.
    expect(chunks.length).toBe(document.chunkCount);
    expect(document.chunkCount).toBeGreaterThan(0);
  }
}
