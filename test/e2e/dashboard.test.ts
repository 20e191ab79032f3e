import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultWorkspace, DEFAULT_IDS, NotionEmulator } from '@trove/notion-emulator';
import { buildZip } from '../../libs/parsing/src/archive/zip-fixtures.testing';
import { ensureDashboardBuild, fitsWidth, launchChromium, watchPage } from '../support/browser';
import { ROOT, uniqueName } from '../support/services';
import { ADMIN_KEY, TroveStack } from '../support/stack';
import { docsSite, StaticSite } from '../support/static-site';

/**
 * The dashboard and the playground in a real browser (Debian's Chromium), through the real api
 * and worker: what an administrator does on a first visit, page by page. Screenshots of every
 * page land in test-results/dashboard/ (look at them: a page can render and still look broken).
 */
const SHOTS = join(ROOT, 'test-results', 'dashboard');
const HANDBOOK = join(ROOT, 'samples', 'handbook-site');
const emulator = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: Infinity });
// The emulator's address is known once it listens; the stack reads its environment when it starts.
const stackEnv: Record<string, string> = {
  TROVE_FOLDER_ROOTS: join(ROOT, 'samples'),
  TROVE_NOTION_REQUESTS_PER_SECOND: '50',
  // The web source added from the dashboard reads a local site: allowed for this stack only.
  TROVE_WEB_ALLOW_PRIVATE_NETWORKS: 'true',
  TROVE_WEB_REQUESTS_PER_SECOND: '50',
};
const site = new StaticSite(docsSite('Fern'));
const stack = new TroveStack(stackEnv);
const projectName = uniqueName('Handbook');
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Anything the browser refused or failed on: CSP violations, script errors, failed requests. */
const problems: string[] = [];
/**
 * The deadline of a check that waits for the page to show something: it only bounds a hang (the
 * answer usually comes in well under a second), so a slow, shared machine cannot fail it.
 */
const EVENTUALLY = { timeout: 30_000 };

async function shot(name: string, target: Page = page): Promise<void> {
  await target.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** A segment of a segmented control (its radio input is visually hidden; the label is what one clicks). */
function segment(label: string) {
  return page.locator('label').filter({ hasText: new RegExp(`^${label}$`) });
}

/** What a GraphiQL editor shows, its no-break spaces read as spaces (it draws spaces with them). */
async function editorText(editor: Locator): Promise<string> {
  return ((await editor.textContent()) ?? '').replace(/\s/g, ' ');
}

/** Opens "Add source" on the Sources page and picks a type from its chooser. */
async function chooseSourceType(label: string): Promise<void> {
  await page.getByRole('button', { name: 'Add source', exact: true }).click();
  await page
    .getByRole('group', { name: 'Source type' })
    .getByRole('button', { name: label, exact: true })
    .click();
}

/** Whether every badge of the source cards shows its whole word (none cut to "FOL…"). */
async function cardBadgesWhole(): Promise<boolean> {
  const badges = page.getByTestId('source-card').locator('.mantine-Badge-label');
  return badges.evaluateAll(
    (labels) => labels.length > 0 && labels.every((el) => el.scrollWidth <= el.clientWidth),
  );
}

/** Offline by construction: every request goes to the api's own origin (no CDN, no font service). */
function watch(target: Page): void {
  watchPage(target, stack.url, problems);
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  await ensureDashboardBuild();
  stackEnv.TROVE_NOTION_API_URL = await emulator.start();
  await site.start();
  await stack.start();
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  page = await context.newPage();
  watch(page);
});

afterAll(async () => {
  await browser?.close();
  await stack.stop();
  await emulator.stop();
  await site.stop();
});

/** Opens a graphql-ws subscription from Node and returns how it ended. */
function subscription(query: string, connectionParams: Record<string, string>) {
  const client = createClient({
    url: `${stack.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
  });
  return new Promise<{ data: unknown[]; error?: unknown }>((resolve) => {
    const data: unknown[] = [];
    client.subscribe(
      { query },
      {
        next: (result) => data.push(result),
        error: (error) => resolve({ data, error }),
        complete: () => resolve({ data }),
      },
    );
  }).finally(() => client.dispose());
}

describe('live updates (graphql-ws subscriptions)', () => {
  const missingRun =
    'subscription { syncRunUpdates(id: "00000000-0000-4000-8000-000000000000") { id status } }';

  it('refuse a connection without a valid key before any operation (4403)', async () => {
    for (const params of [{}, { 'X-API-Key': 'not-the-key-0000000000' }] as Record<string, string>[]) {
      const { data, error } = await subscription(missingRun, params);
      expect(data).toEqual([]);
      expect((error as { code?: number }).code).toBe(4403);
    }
  });

  it('answer a key holder, with the API error for a run that does not exist', async () => {
    const { data, error } = await subscription(missingRun, { 'X-API-Key': ADMIN_KEY });
    // The connection was accepted (no close code); the operation itself answers NOT_FOUND.
    expect((error as { code?: number } | undefined)?.code).toBeUndefined();
    expect(JSON.stringify({ data, error })).toContain('SYNC_RUN_NOT_FOUND');
  });
});

describe('the dashboard, in a browser', () => {
  let projectUrl: string;

  it('refuses a wrong key with the API message, then signs in with the admin key', async () => {
    await page.goto(`${stack.url}/`);
    await page.getByLabel('API key').fill('not-the-key-0000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), EVENTUALLY)
      .toContain('the API key is not valid');
    await shot('sign-in');
    await page.getByLabel('API key').fill(ADMIN_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    expect(await page.evaluate<string | null>('sessionStorage.getItem("trove.apiKey")')).toBe(ADMIN_KEY);
  });

  it('creates a project, listed with its document and chunk counts', async () => {
    await page.getByText('No projects yet').first().waitFor();
    await page.getByLabel('New project').fill(projectName);
    await page.getByRole('button', { name: 'Create project' }).click();
    const row = page.getByRole('row', { name: new RegExp(projectName) });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/ACTIVE\s*00/);
    // A name already taken: the API's own message, not a stack.
    await page.getByLabel('New project').fill(projectName.toUpperCase());
    await page.getByRole('button', { name: 'Create project' }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), EVENTUALLY).toMatch(/already/i);
    await shot('projects');
    await row.getByRole('link', { name: projectName }).click();
    await page.getByRole('heading', { name: `Documents · ${projectName}` }).waitFor();
    projectUrl = page.url().replace(/\/documents$/, '');
  });

  it('uploads two dropped files with progress, and follows them until READY', async () => {
    await page.getByText('No documents yet').waitFor();
    const files = [
      {
        name: 'release-process.md',
        text: '# Releases\n\n## Rolling back\n\nTo roll back a release, redeploy the previous tag with `deploy --tag`. Rollbacks need no approval.\n',
      },
      {
        name: 'onboarding.md',
        text: '# Onboarding\n\n## First week\n\nNew engineers pair with a buddy and ship a small change in their first week.\n',
      },
    ];
    // A real drop event carrying real File objects, as a file manager's drag would.
    const dataTransfer = await page.evaluateHandle(`(() => {
      const transfer = new DataTransfer();
      for (const file of ${JSON.stringify(files)})
        transfer.items.add(new File([file.text], file.name, { type: 'text/markdown' }));
      return transfer;
    })()`);
    await page.getByTestId('upload-zone').dispatchEvent('drop', { dataTransfer });
    await expect.poll(() => page.getByTestId('upload-row').count(), EVENTUALLY).toBe(2);
    await expect
      .poll(async () => (await page.getByTestId('upload-row').allTextContents()).join(' | '), EVENTUALLY)
      .toMatch(/done.*\|.*done/);
    await expect
      .poll(async () => page.getByTestId('document-status').allTextContents(), {
        timeout: 120_000,
        interval: 1000,
      })
      .toEqual(['READY', 'READY']);
    const rows = await page.getByTestId('document-row').allTextContents();
    expect(rows.join('\n')).toContain('release-process.md');
    expect(rows.join('\n')).toMatch(/READY\s*1/);
    expect(rows.join('\n')).toContain('upload');
    // Every stage's time, as the worker recorded it.
    expect(await page.getByTestId('document-timings').first().textContent()).toMatch(
      /total \d.*fetch \d.*parse \d.*chunk \d.*embed \d.*upsert \d/,
    );
    await shot('documents');
  });

  it('filters documents by status', async () => {
    await segment('FAILED').click();
    await page.getByText('No FAILED documents').waitFor();
    await segment('READY').click();
    await expect.poll(() => page.getByTestId('document-row').count(), EVENTUALLY).toBe(2);
  });

  it('shows a document’s chunks in order with heading path, tokens and citation link', async () => {
    // Markdown documents are titled by their first heading.
    await page.getByRole('link', { name: 'Releases' }).click();
    await page.getByTestId('chunk').first().waitFor();
    const chunk = await page.getByTestId('chunk').first().textContent();
    expect(chunk).toContain('#0');
    expect(chunk).toContain('Releases');
    expect(chunk).toMatch(/\d+ tokens/);
    expect(chunk).toContain('anchor: #');
    const citation = await page.getByTestId('chunk').first().getByRole('link', { name: 'citation link' });
    expect(await citation.getAttribute('href')).toMatch(/\/v1\/documents\/.+\/original\?sig=/);
    await shot('chunks');
  });

  it('searches and opens the explain view of a hit', async () => {
    await page.goto(`${projectUrl}/search`);
    await page.getByLabel('Query').fill('how do I roll back a release');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const first = page.getByTestId('search-hit').first();
    await first.waitFor();
    expect(await first.textContent()).toContain('Rolling back');
    // Where it comes from, by name: an uploaded file, its name on hover.
    expect(await first.getByTestId('hit-origin').textContent()).toBe('Uploads › Releases');
    expect(await first.getByTestId('hit-origin').getAttribute('title')).toBe('release-process.md');
    // One visible order, the rank: no score beside it that the list is not sorted by.
    expect(await first.textContent()).not.toMatch(/\d\.\d{3}/);
    // The query's words are marked in the passage; the link is named, not a signed URL.
    const marked = (await first.getByTestId('hit-text').locator('mark').allTextContents()).map((m) =>
      m.toLowerCase(),
    );
    expect(marked).toEqual(expect.arrayContaining(['roll', 'release']));
    expect(await first.textContent()).not.toContain('sig=');
    expect(await first.getByRole('link', { name: 'Open in Releases' }).getAttribute('href')).toMatch(/sig=/);
    await first.getByRole('button', { name: 'Explain' }).click();
    const explain = first.getByTestId('explain');
    await explain.waitFor();
    // In words first; the legs' ranks and scores behind a toggle.
    expect(await explain.getByTestId('explain-words').textContent()).toMatch(
      /^It matched your words \(1st by keywords\) and matched your meaning \(\d+(st|nd|rd|th) by meaning\)\./,
    );
    expect(await explain.textContent()).not.toContain('Fused score');
    await explain.getByRole('button', { name: 'Show raw scores' }).click();
    const text = await explain.textContent();
    expect(text).toMatch(/BM25 rank \/ score#1 \/ /);
    expect(text).toMatch(/kNN rank \/ score#\d+ \/ /);
    expect(text).toContain('Fused score');
    expect(text).toContain('Rerank score');
    expect(text).toContain('Releases › Rolling back');
    await shot('search');
    // Keyword mode: the kNN leg did not run.
    await segment('KEYWORD').click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect
      .poll(async () => (await page.getByTestId('search-hit').first().textContent()) ?? '', EVENTUALLY)
      .toContain('Rolling back');
  });

  it('re-indexes a document and deletes another (after confirming)', async () => {
    await page.goto(`${projectUrl}/documents`);
    const row = (name: string) => page.getByTestId('document-row').filter({ hasText: name });
    const indexedAt = async (fileName: string) => {
      const { documents } = await stack.query<{
        documents: { nodes: { fileName: string; indexedAt: string | null }[] };
      }>('query($p: ID!) { documents(projectId: $p, first: 50) { nodes { fileName indexedAt } } }', {
        p: projectUrl.split('/').at(-1),
      });
      return documents.nodes.find((d) => d.fileName === fileName)?.indexedAt;
    };
    const indexedBefore = await indexedAt('release-process.md');
    expect(indexedBefore).toBeTruthy();
    await row('release-process.md').getByRole('button', { name: 'Re-index' }).click();
    // The re-index is known by its result (indexed again), not by catching the row between two
    // states: a small file can be READY again before the page refreshes.
    await expect
      .poll(() => indexedAt('release-process.md'), { timeout: 120_000, interval: 500 })
      .not.toBe(indexedBefore);
    await expect
      .poll(() => row('release-process.md').getByTestId('document-status').textContent(), {
        timeout: 120_000,
        interval: 500,
      })
      .toBe('READY');
    page.once('dialog', (dialog) => void dialog.accept());
    await row('onboarding.md').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByTestId('document-row').count(), EVENTUALLY).toBe(1);
  });

  it('adds a folder source, syncs it and shows the progress moving to COMPLETED', async () => {
    await page.goto(`${projectUrl}/sources`);
    await page.getByText('No sources yet').waitFor();
    // No form until "Add source": then a chooser of the API's types, then the chosen type's form.
    expect(await page.getByRole('form').count()).toBe(0);
    await chooseSourceType('Folder');
    const form = page.getByRole('form', { name: 'Add a Folder source' });
    await form.getByLabel('Name').fill('Handbook site');
    // The path is explained in words; the server setting's name is a secondary hint.
    const path = form.getByRole('textbox', { name: 'Path' });
    const pathHelp = page.locator(`[id="${(await path.getAttribute('aria-describedby'))!.split(' ')[0]}"]`);
    expect(await pathHelp.textContent()).toContain('inside the folders this server may read');
    expect(await pathHelp.getByTestId('setting-hint').textContent()).toBe(
      'server setting: TROVE_FOLDER_ROOTS',
    );
    await path.fill(HANDBOOK);
    // The optional fields wait under Advanced.
    expect(await form.getByLabel('Format').count()).toBe(0);
    await form.getByRole('button', { name: /^Advanced/ }).click();
    expect(await form.getByLabel('Format').inputValue()).toBe('AUTO');
    await form.getByRole('button', { name: 'Add source' }).click();
    await page.getByTestId('source-card').waitFor();
    await page.getByText('Never synced', { exact: true }).waitFor();
    // The progress arrives over the graphql-ws subscription, not by polling.
    const frames: string[] = [];
    page.on('websocket', (socket) =>
      socket.on('framereceived', (frame) => frames.push(String(frame.payload))),
    );
    await page.getByRole('button', { name: 'Full sync' }).click();
    const statuses = new Set<string>();
    const ingested: number[] = [];
    await expect
      .poll(
        async () => {
          const status =
            (await page
              .getByTestId('sync-status')
              .textContent()
              .catch(() => null)) ?? '';
          statuses.add(status);
          ingested.push(
            Number(
              await page
                .getByTestId('progress-ingested')
                .textContent()
                .catch(() => '0'),
            ),
          );
          // The first moment of the run, and again once pages have come in while it still runs.
          const now = ingested.at(-1)!;
          if (status === 'RUNNING' && (!statuses.has('shot') || (now > 0 && !statuses.has('shot-moving')))) {
            statuses.add(now > 0 ? 'shot-moving' : 'shot');
            await shot('sources-running');
          }
          return status;
        },
        { timeout: 180_000, interval: 300 },
      )
      .toBe('COMPLETED');
    expect(statuses).toContain('RUNNING');
    expect(ingested.at(-1)).toBeGreaterThan(0);
    const updates = frames.filter((f) => f.includes('"type":"next"') && f.includes('syncRunUpdates'));
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.at(-1)).toContain('"status":"COMPLETED"');
    expect(await page.getByRole('table', { name: 'Sync runs' }).textContent()).toContain('FULL');
    // The card: the last run's outcome, the source's documents and its last success.
    const card = page.getByTestId('source-card').filter({ hasText: 'Handbook site' });
    await expect.poll(() => card.getByTestId('source-state').textContent(), EVENTUALLY).toBe('ACTIVE');
    expect(await card.getByTestId('source-facts').textContent()).toMatch(
      /^\d+ documents · last success (?!never)\S/,
    );
    await shot('sources');
  });

  it('adds a Notion source (the emulator), syncs it and shows its webhook panel', async () => {
    await chooseSourceType('Notion workspace');
    const form = page.getByRole('form', { name: 'Add a Notion workspace source' });
    await form.getByLabel('Name').fill('Team wiki');
    // A secret field is a password input.
    expect(await form.getByLabel('Token').getAttribute('type')).toBe('password');
    await form.getByLabel('Token').fill(emulator.token);
    await form.getByRole('button', { name: /^Advanced/ }).click();
    await form
      .getByLabel('Root page IDs')
      .fill(`https://www.notion.so/Onboarding-${DEFAULT_IDS.onboarding.replace(/-/g, '')}`);
    await form.getByRole('button', { name: 'Add source' }).click();
    await expect.poll(() => page.getByTestId('source-card').count(), EVENTUALLY).toBe(2);
    await page.getByRole('heading', { name: 'Team wiki' }).waitFor();
    expect(await page.getByTestId('source-card').filter({ hasText: 'Team wiki' }).textContent()).toMatch(
      /NOTION.*Notion roots [0-9a-f-]{36} ·/,
    );
    await page.getByRole('button', { name: 'Sync (incremental)' }).click();
    await expect
      .poll(() => page.getByTestId('sync-status').textContent(), { timeout: 180_000, interval: 500 })
      .toBe('COMPLETED');
    expect(Number(await page.getByTestId('progress-ingested').textContent())).toBeGreaterThan(0);
    // The webhook panel says what Notion's definition says an operator sets up, at the generic path.
    const panel = page.getByTestId('webhook-panel');
    const webhook = await panel.getByText(`${stack.url}/webhooks/`).textContent();
    expect(webhook).toMatch(new RegExp(`^${stack.url}/webhooks/[0-9a-f-]{36}$`));
    expect(await panel.getByTestId('webhook-instructions').textContent()).toContain(
      'Create a Notion webhook subscription',
    );
    expect(await panel.getByTestId('webhook-steps').getByRole('listitem').count()).toBe(3);
    await page.getByText('not received yet').waitFor();
    await shot('sources-notion');
  });

  it('uploads a zipped folder as a source, whose first sync starts at once', async () => {
    const zip = await buildZip([
      {
        path: 'guide/index.md',
        data: '# Guide\n\n## Install\n\nRun the installer and restart the service.\n',
      },
      { path: 'guide/faq.md', data: '# FAQ\n\n## Licence\n\nThe code is Apache-2.0 licensed.\n' },
    ]);
    await chooseSourceType('Upload a .zip');
    const form = page.getByTestId('add-source');
    await form.getByLabel('Name').fill('Guide archive');
    await form
      .locator('input[type=file]')
      .setInputFiles({ name: 'guide.zip', mimeType: 'application/zip', buffer: zip });
    await form.getByRole('button', { name: 'Upload and sync' }).click();
    await page.getByRole('heading', { name: 'Guide archive' }).waitFor();
    expect(
      await page.getByTestId('source-card').filter({ hasText: 'Guide archive' }).textContent(),
    ).toContain('guide.zip');
    await expect
      .poll(() => page.getByTestId('sync-status').textContent(), { timeout: 180_000, interval: 500 })
      .toBe('COMPLETED');
    expect(Number(await page.getByTestId('progress-ingested').textContent())).toBe(2);
  });

  it('adds a web source from its generated form (a refused field shown beside it), syncs it, edits it', async () => {
    await page.goto(`${projectUrl}/sources`);
    await chooseSourceType('Web site');
    const form = page.getByRole('form', { name: 'Add a Web site source' });
    await form.getByLabel('Name').fill('Fern site');
    const url = form.getByLabel('URL');
    await url.fill('not a web address');
    await form.getByRole('button', { name: /^Advanced/ }).click();
    await form.getByLabel('Max pages').fill('10');
    await form.getByRole('button', { name: 'Add source' }).click();
    // The API's problem with the field, beside the field.
    await expect.poll(() => url.getAttribute('aria-invalid'), EVENTUALLY).toBe('true');
    const describedBy = (await url.getAttribute('aria-describedby')) ?? '';
    const fieldError = page.locator(`[id="${describedBy.split(' ').find((id) => id.endsWith('-error'))}"]`);
    expect((await fieldError.textContent())!.length).toBeGreaterThan(3);
    expect(await form.getByLabel('Max pages').getAttribute('aria-invalid')).not.toBe('true');
    await shot('sources-web-invalid');

    await url.fill(`${site.url}/docs/`);
    await form.getByRole('button', { name: 'Add source' }).click();
    await page.getByRole('heading', { name: 'Fern site' }).waitFor();
    expect(await page.getByTestId('source-card').filter({ hasText: 'Fern site' }).textContent()).toContain(
      `WEB`,
    );
    await page.getByRole('button', { name: 'Full sync' }).click();
    await expect
      .poll(() => page.getByTestId('sync-status').textContent(), { timeout: 180_000, interval: 500 })
      .toBe('COMPLETED');
    expect(Number(await page.getByTestId('progress-ingested').textContent())).toBe(2);

    // Its settings: the same form, filled with what is stored.
    await page.getByRole('button', { name: 'Edit settings' }).click();
    const settings = page.getByRole('form', { name: 'Source settings' });
    expect(await settings.getByLabel('URL').inputValue()).toBe(`${site.url}/docs/`);
    await settings.getByLabel('Max pages').fill('5');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.waitFor({ state: 'detached' });
    const { sources } = await stack.query<{ sources: { name: string; config: { maxPages: number } }[] }>(
      'query($p: ID!) { sources(projectId: $p) { name config } }',
      { p: projectUrl.split('/').at(-1) },
    );
    expect(sources.find((s) => s.name === 'Fern site')!.config.maxPages).toBe(5);
    await shot('sources-web');
  });

  it('keeps a secret left blank in the settings, and shows its hint', async () => {
    const hint = async (name: string) => {
      const { sources } = await stack.query<{ sources: { name: string; secrets: { hint: string }[] }[] }>(
        'query($p: ID!) { sources(projectId: $p) { name secrets { field hint } } }',
        { p: projectUrl.split('/').at(-1) },
      );
      return sources.find((source) => source.name === name)?.secrets[0]?.hint;
    };
    const before = await hint('Team wiki');
    expect(before).toBeTruthy();
    await page.getByTestId('source-card').filter({ hasText: 'Team wiki' }).click();
    await page.getByRole('heading', { name: 'Team wiki' }).waitFor();
    for (const [from, to] of [
      ['Team wiki', 'Team wiki renamed'],
      ['Team wiki renamed', 'Team wiki'],
    ]) {
      await page.getByRole('button', { name: 'Edit settings' }).click();
      const settings = page.getByRole('form', { name: 'Source settings' });
      const token = settings.getByLabel('Token');
      expect(await token.inputValue()).toBe('');
      expect(await token.getAttribute('placeholder')).toBe(`unchanged (${before})`);
      expect(await settings.getByLabel('Name').inputValue()).toBe(from);
      await settings.getByLabel('Name').fill(to);
      await settings.getByRole('button', { name: 'Save settings' }).click();
      await page.getByRole('heading', { name: to, exact: true }).waitFor();
      // The stored token was kept: its hint is the same.
      expect(await hint(to)).toBe(before);
    }
  });

  it('leads with the sources; "Add source" offers the types, and the Git form asks first for the repository only', async () => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`${projectUrl}/sources`);
    const first = page.getByTestId('source-card').first();
    await first.waitFor();
    // The list comes first, above the fold, with no form in front of it.
    expect((await first.boundingBox())!.y).toBeLessThan(900);
    expect(await page.getByRole('form').count()).toBe(0);
    await page.getByRole('button', { name: 'Add source', exact: true }).click();
    const chooser = page.getByRole('group', { name: 'Source type' });
    const { sourceTypes } = await stack.query<{ sourceTypes: { label: string }[] }>(
      '{ sourceTypes { label } }',
    );
    for (const { label } of sourceTypes)
      expect(await chooser.getByRole('button', { name: label, exact: true }).count(), label).toBe(1);
    await chooser.getByRole('button', { name: 'Git repository', exact: true }).click();
    const form = page.getByRole('form', { name: 'Add a Git repository source' });
    // The name and the repository; the ten optional settings wait under Advanced.
    expect(await form.locator('input, textarea, select').count()).toBe(2);
    expect(await form.getByLabel('Branch').count()).toBe(0);
    const advanced = form.getByRole('button', { name: /^Advanced/ });
    expect(await advanced.textContent()).toMatch(/^Advanced \(\d+ settings\)$/);
    await advanced.click();
    await form.getByLabel('Branch').waitFor();
    expect(
      await form.getByTestId('advanced-settings').locator('input, textarea, select').count(),
    ).toBeGreaterThan(5);
    await shot('sources-add-git');
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByRole('form').count()).toBe(0);
  });

  it('shows on its card that a source’s last sync failed, the reason and what to do, at both widths', async () => {
    const project = projectUrl.split('/').at(-1)!;
    const { addSource } = await stack.query<{ addSource: { id: string } }>(
      'mutation($input: AddSourceInput!) { addSource(input: $input) { id } }',
      {
        input: {
          projectId: project,
          type: 'NOTION',
          name: 'Revoked wiki of the platform team',
          config: { token: 'secret_not-the-emulators-token' },
        },
      },
    );
    const { syncSource } = await stack.query<{ syncSource: { id: string } }>(
      'mutation($id: ID!) { syncSource(id: $id) { id } }',
      { id: addSource.id },
    );
    expect((await stack.runSettled(syncSource.id)).status).toBe('FAILED');
    for (const [width, height] of [
      [1366, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`${projectUrl}/sources`);
      const card = page.getByTestId('source-card').filter({ hasText: 'Revoked wiki of the platform team' });
      // FAILING in red, not the source's record status in green.
      await expect.poll(() => card.getByTestId('source-state').textContent(), EVENTUALLY).toBe('FAILING');
      expect(await card.getByTestId('source-reason').textContent()).toMatch(/\S/);
      expect(await card.getByTestId('source-hint').textContent()).toMatch(/set a new token/i);
      expect(await card.getByTestId('source-facts').textContent()).toBe('0 documents · last success never');
      expect(await cardBadgesWhole(), `badges at ${width}px`).toBe(true);
      expect(await fitsWidth(page)).toBe(true);
      await shot(width < 500 ? 'phone-sources-failing' : 'sources-failing');
    }
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  let viewerSecret: string;
  let viewerPage: Page;

  it('creates a VIEWER key of the project on the API keys page, its secret shown once', async () => {
    await page.goto(`${stack.url}/projects`);
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByText('No API keys yet').waitFor();
    await page.getByLabel('Key name').fill('Read-only reviewer');
    // VIEWER is the role chosen by default; the key reaches the one project picked.
    expect(await page.getByRole('combobox', { name: 'Role' }).inputValue()).toBe('Viewer');
    // The input comes first; its dropdown's list carries the same label.
    await page.getByLabel('Projects', { exact: true }).first().click();
    await page.getByRole('option', { name: projectName }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'API key created' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('you will not see it again');
    viewerSecret = (await dialog.getByTestId('api-key-secret').textContent())!.trim();
    expect(viewerSecret).toMatch(/^trove_[0-9a-f]{32}_\S+$/);
    expect(await dialog.getByRole('button', { name: 'Copy key' }).isVisible()).toBe(true);
    await shot('api-key-created');
    await dialog.getByRole('button', { name: 'I have stored it' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Once closed, the secret is nowhere on the page; the list shows only its prefix.
    expect(await page.content()).not.toContain(viewerSecret);
    const row = page.getByTestId('api-key-row').filter({ hasText: 'Read-only reviewer' });
    await row.waitFor();
    const text = (await row.textContent())!;
    expect(text).toContain('VIEWER');
    expect(text).toContain(projectName);
    expect(text).toContain('never');
    expect(text).toContain('ACTIVE');
    expect(text).toContain(viewerSecret.slice(0, 14));
    await shot('api-keys');
  });

  it('signed in with the VIEWER key, shows no upload, sync, schedule or keys page — and search works', async () => {
    // Notion verifies the Team wiki's webhook and sends an event; someone sends a forged delivery.
    const { sources } = await stack.query<{ sources: { id: string; name: string }[] }>(
      'query($p: ID!) { sources(projectId: $p) { id name } }',
      { p: projectUrl.split('/').at(-1) },
    );
    const hook = `${stack.url}/webhooks/notion/${sources.find((s) => s.name === 'Team wiki')!.id}`;
    const { verificationToken } = await emulator.sendVerificationRequest(hook);
    const event = { type: 'page.content_updated', entityId: DEFAULT_IDS.onboarding };
    expect((await emulator.deliverWebhook(hook, event, { verificationToken })).status).toBe(200);
    const forged = await fetch(hook, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-notion-signature': `sha256=${'0'.repeat(64)}` },
      body: JSON.stringify({ id: 'forged', type: 'page.deleted', timestamp: new Date().toISOString() }),
    });
    expect(forged.status).toBe(401);

    const viewerContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    viewerPage = await viewerContext.newPage();
    watch(viewerPage);
    const v = viewerPage;
    await v.goto(`${stack.url}/`);
    await v.getByLabel('API key').fill(viewerSecret);
    await v.getByRole('button', { name: 'Sign in' }).click();
    // A new key lands on Ask in the project it reaches.
    await v.getByRole('heading', { name: `Ask · ${projectName}` }).waitFor();
    await v.goto(`${stack.url}/projects`);
    await v.getByRole('row', { name: new RegExp(projectName) }).waitFor();
    expect(await v.getByTestId('caller-role').textContent()).toBe('VIEWER');
    expect(await v.getByRole('button', { name: 'Create project' }).count()).toBe(0);
    expect(await v.getByLabel('New project').count()).toBe(0);
    expect(await v.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await v.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    await shot('viewer-projects', v);

    const project = projectUrl.replace(stack.url, '');
    await v.goto(`${stack.url}${project}/documents`);
    await v.getByTestId('document-row').first().waitFor();
    expect(await v.getByTestId('upload-zone').count()).toBe(0);
    expect(await v.getByRole('button', { name: 'Re-index' }).count()).toBe(0);
    expect(await v.getByRole('button', { name: 'Delete' }).count()).toBe(0);

    await v.goto(`${stack.url}${project}/sources`);
    await v.getByTestId('source-card').first().waitFor();
    await v.getByTestId('sync-progress').waitFor();
    for (const name of ['Full sync', 'Sync (incremental)', 'Remove', 'Save schedule', 'Add source']) {
      expect(await v.getByRole('button', { name }).count(), name).toBe(0);
    }
    expect(await v.getByRole('tab', { name: 'Add Notion' }).count()).toBe(0);
    // The Notion source's webhook panel: what arrived, but not the verification token (WRITE).
    await v.getByTestId('source-card').filter({ hasText: 'Team wiki' }).click();
    const webhook = v.getByTestId('webhook-panel');
    await webhook.waitFor();
    await expect.poll(() => webhook.getByTestId('webhook-rejected').textContent(), EVENTUALLY).toBe('1');
    expect(await webhook.textContent()).toContain('page.content_updated');
    expect(await webhook.getByTestId('webhook-last-event').textContent()).not.toBe('none yet');
    expect(await webhook.textContent()).not.toContain('Verification token');
    expect(await webhook.getByRole('button', { name: 'Accept a new subscription' }).count()).toBe(0);
    await shot('viewer-sources', v);

    await v.goto(`${stack.url}${project}/search`);
    await v.getByLabel('Query').fill('how do I roll back a release');
    await v.getByRole('button', { name: 'Search', exact: true }).click();
    await v.getByTestId('search-hit').first().waitFor();
    expect(await v.getByTestId('search-hit').first().textContent()).toContain('Rolling back');

    // A page the key may not use says so (the API refuses it anyway).
    await v.goto(`${stack.url}/api-keys`);
    await v.getByText('API keys are managed with an ADMIN key.').waitFor();
    expect(await v.getByRole('heading', { name: 'API keys' }).count()).toBe(0);
  });

  it('revokes the key after confirming; the viewer’s tab is signed out', async () => {
    const row = page.getByTestId('api-key-row').filter({ hasText: 'Read-only reviewer' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke API key' });
    await dialog.waitFor();
    await shot('revoke-api-key');
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => row.textContent(), EVENTUALLY).toContain('REVOKED');
    expect(await row.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
    await viewerPage.goto(`${stack.url}/projects`);
    await viewerPage.getByText('The API no longer accepts this key; sign in again.').waitFor();
    await viewerPage.context().close();
  });

  it('fits a phone’s width on every page', async () => {
    const single = await stack.createProject(uniqueName('One document'));
    expect((await stack.upload(single, 'note.md', '# Note\n\nOne short note.\n')).status).toBe(202);
    await page.setViewportSize({ width: 390, height: 844 });
    const project = projectUrl.replace(stack.url, '');
    for (const [name, path, heading] of [
      ['projects', '/projects', 'Projects'],
      ['api-keys', '/api-keys', 'API keys'],
      ['documents', `${project}/documents`, `Documents · ${projectName}`],
      ['search', `${project}/search`, `Search · ${projectName}`],
      ['ask', `${project}/ask`, `Ask · ${projectName}`],
      ['sources', `${project}/sources`, `Sources · ${projectName}`],
    ]) {
      await page.goto(`${stack.url}${path}`);
      await page.getByRole('heading', { name: heading }).waitFor();
      await page.waitForLoadState('networkidle');
      await shot(`phone-${name}`);
      expect(await fitsWidth(page), name).toBe(true);
      if (name === 'projects') {
        // A project of one document says so in the singular, the others in the plural.
        expect(await page.getByText(/^1 document · \d+ chunks?$/).count(), 'one document').toBe(1);
        expect(await page.getByText(/^\d+ documents · \d+ chunks?$/).count()).toBeGreaterThan(0);
      }
      if (name === 'sources') {
        // Each card's type and state badges whole, beside a long name too, and its documents counted in words.
        expect(await cardBadgesWhole(), 'source badges').toBe(true);
        for (const facts of await page.getByTestId('source-facts').allTextContents())
          expect(facts).toMatch(/^(1 document|\d+ documents) · last success/);
        // A source's run history as one card per run, not a table scrolled sideways.
        await page.getByTestId('source-card').filter({ hasText: 'Handbook site' }).first().click();
        await page.getByTestId('sync-run-card').first().waitFor(EVENTUALLY);
        expect(await page.getByTestId('sync-run-card').first().textContent()).toMatch(
          /\d+ ingested · \d+ unchanged/,
        );
        expect(await page.getByRole('table', { name: 'Sync runs' }).isVisible()).toBe(false);
        expect(await fitsWidth(page), 'sources with a run history').toBe(true);
        await shot('phone-sources-runs');
      }
      if (name === 'ask') {
        // The Threads button keeps its whole label beside a long title.
        const label = page.getByRole('button', { name: 'Threads' }).locator('.mantine-Button-label');
        expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      }
    }
    // The navigation folds into a menu.
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Search' }).click();
    await page.getByRole('heading', { name: `Search · ${projectName}` }).waitFor();
    // A hit of a source names the source and the document, whole, within the phone's width.
    await page.getByLabel('Query').fill('when do database backups run');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const backups = page
      .getByTestId('search-hit')
      .filter({ hasText: 'Database backups run every night' })
      .first();
    await backups.waitFor(EVENTUALLY);
    const origin = backups.getByTestId('hit-origin');
    expect(await origin.textContent()).toBe('Handbook site › Backups');
    expect(
      await origin.evaluate(
        (el) => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1,
      ),
    ).toBe(true);
    expect(await fitsWidth(page)).toBe(true);
    await shot('phone-search-hits');
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  it('opens the playground working: key sent with introspection, never shown, examples of the current project', async () => {
    await page.setViewportSize({ width: 1366, height: 900 });
    // Same tab: the dashboard's sign-in (session storage) is the playground's credential.
    const sent: { key?: string; body: string }[] = [];
    const record = (request: Request) => {
      if (request.url() === `${stack.url}/graphql` && request.method() === 'POST')
        sent.push({ key: request.headers()['x-api-key'], body: request.postData() ?? '' });
    };
    page.on('request', record);
    await page.goto(`${stack.url}/playground`);
    await page.locator('.graphiql-container').waitFor();
    await page.getByText(`GraphQL playground · ${projectName}`).waitFor(EVENTUALLY);
    // The schema is fetched with the key: the docs show its root types, and no error.
    await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
    await page
      .locator('.graphiql-doc-explorer')
      .getByText('Query', { exact: true })
      .first()
      .waitFor(EVENTUALLY);
    expect(await page.locator('.graphiql-doc-explorer').textContent()).not.toContain('Error fetching schema');
    const introspection = sent.filter((r) => r.body.includes('IntrospectionQuery'));
    expect(introspection.length).toBeGreaterThan(0);
    expect(introspection.every((r) => r.key === ADMIN_KEY)).toBe(true);
    // The key is in no pane: the Headers pane says it is sent, without it.
    await page.getByRole('button', { name: 'Headers' }).click();
    // The pane's editor fills in after the click: wait for its text, not for a fixed moment.
    await expect
      .poll(() => editorText(page.locator('.graphiql-editor-tool')), EVENTUALLY)
      .toContain('added to every request');
    expect(await page.locator('.graphiql-container').textContent()).not.toContain(ADMIN_KEY);
    // Nothing was written on opening: the playground only read.
    expect(sent.filter((r) => /\bmutation\b/.test(r.body))).toEqual([]);
    // The first tab is the Search example of this project, run as it is.
    await page.getByRole('button', { name: 'Variables' }).click();
    await page.locator('.graphiql-execute-button').click();
    await expect.poll(() => editorText(page.locator('.result-window')), EVENTUALLY).toContain('Rolling back');
    expect(await editorText(page.locator('.result-window'))).not.toContain('"errors"');
    page.off('request', record);
    // It ran with this project's id, filled in by the playground, and the key.
    const searched = sent.find((r) => r.body.includes('query Search'))!;
    expect(JSON.parse(searched.body).variables).toEqual({ projectId: projectUrl.split('/').at(-1) });
    expect(searched.key).toBe(ADMIN_KEY);
    await shot('playground');
  });

  it('stacks the playground’s result under the editor at a phone’s width', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.locator('.graphiql-container').waitFor();
    // The result editor draws only the lines in view: what came back is read from the response.
    const answered = page.waitForResponse(
      (response) =>
        response.url().endsWith('/graphql') && !!response.request().postData()?.includes('query Search'),
    );
    await page.locator('.graphiql-execute-button').click();
    expect(await (await answered).text()).toContain('Rolling back');
    await page.locator('.result-window').getByText('"search"').waitFor(EVENTUALLY);
    const [result, editor] = await Promise.all([
      page.locator('.graphiql-response').boundingBox(),
      page.locator('.graphiql-editors').boundingBox(),
    ]);
    // Side by side it was a few characters wide; stacked it takes the width under the editors.
    expect(result!.width).toBeGreaterThan(250);
    expect(result!.y).toBeGreaterThanOrEqual(editor!.y + editor!.height - 1);
    expect(await fitsWidth(page)).toBe(true);
    await shot('phone-playground');
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  it('takes a key typed into the playground of a tab that never signed in, and keeps it out of sight', async () => {
    const other = await context.newPage();
    watch(other);
    await other.goto(`${stack.url}/playground`);
    await other.locator('.graphiql-container').waitFor();
    await other.getByText('Not signed in: paste an API key').waitFor(EVENTUALLY);
    await other.getByLabel('API key').fill(ADMIN_KEY);
    await other.getByRole('button', { name: 'Use key' }).click();
    await other.getByText('API key in use').waitFor(EVENTUALLY);
    await other.getByText(`GraphQL playground · ${projectName}`).waitFor(EVENTUALLY);
    expect(await other.getByLabel('API key').inputValue()).toBe('');
    expect(await other.locator('.graphiql-container').textContent()).not.toContain(ADMIN_KEY);
    await other.close();
  });

  it('deletes a project only once its name is typed', async () => {
    await page.goto(`${stack.url}/projects`);
    const scratch = uniqueName('Scratch');
    await page.getByLabel('New project').fill(scratch);
    await page.getByRole('button', { name: 'Create project' }).click();
    const row = page.getByRole('row', { name: new RegExp(scratch) });
    await row.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete project' });
    const confirm = dialog.getByRole('button', { name: 'Delete project' });
    await dialog.getByLabel('Project name').fill(scratch.toUpperCase());
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Project name').fill(scratch);
    await shot('delete-project');
    await confirm.click();
    await expect.poll(() => row.count(), { timeout: 60_000, interval: 500 }).toBe(0);
    expect(await page.getByRole('row', { name: new RegExp(projectName) }).count()).toBe(1);
  });

  it('signs out, forgetting the key', async () => {
    await page.goto(`${stack.url}/projects`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Trove' }).waitFor();
    expect(await page.evaluate<string | null>('sessionStorage.getItem("trove.apiKey")')).toBeNull();
  });

  it('lands a returning person on Ask in their last project; icons in the navigation, admin pages under Settings', async () => {
    for (const [width, height] of [
      [1366, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`${stack.url}/`);
      if (await page.getByRole('button', { name: 'Sign out' }).isVisible()) {
        await page.getByRole('button', { name: 'Sign out' }).click();
      }
      await page.getByLabel('API key').fill(ADMIN_KEY);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: `Ask · ${projectName}` }).waitFor(EVENTUALLY);
      expect(page.url()).toBe(`${projectUrl}/ask`);
      if (width < 500) await page.getByRole('button', { name: 'Menu' }).click();
      const navigation = page.getByRole('navigation');
      const links = await navigation.getByRole('link').allTextContents();
      expect(links.slice(0, 4)).toEqual(['Ask', 'Search', 'Documents', 'Sources']);
      for (const name of ['Ask', 'Search', 'Documents', 'Sources', 'API keys']) {
        expect(await navigation.getByRole('link', { name }).locator('svg').count(), name).toBe(1);
      }
      const settings = page.getByRole('group', { name: 'Settings' });
      for (const name of ['Projects', 'Gaps', 'Access', 'People and groups', 'API keys', 'Audit log']) {
        expect(await settings.getByRole('link', { name }).count(), name).toBe(1);
      }
      await shot(width < 500 ? 'phone-navigation' : 'navigation');
    }
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  it('signs a tab out when the API stops accepting its key (revoked, expired, changed)', async () => {
    await page.evaluate('sessionStorage.setItem("trove.apiKey", "a-key-the-api-no-longer-knows")');
    await page.reload();
    await page.getByText('The API no longer accepts this key; sign in again.').waitFor();
    expect(await page.evaluate<string | null>('sessionStorage.getItem("trove.apiKey")')).toBeNull();
  });

  it('met no CSP violation, script error, failed request or request to another origin on any page', () => {
    // Wrong keys are refused with 401 on purpose (sign-in, the signed-out tab); nothing else may fail.
    const unexpected = problems.filter((p) => !/401 \(Unauthorized\)/.test(p));
    // The problems in the message: the CI log's summary shows an error's message, not its diff.
    expect(unexpected, unexpected.join(' | ')).toEqual([]);
  });
});

describe('in production (NODE_ENV=production)', () => {
  const production = new TroveStack({ NODE_ENV: 'production' });
  beforeAll(() => production.start());
  afterAll(() => production.stop());

  it('serves the dashboard, but neither the playground nor introspection unless switched on', async () => {
    const dashboard = await fetch(`${production.url}/`, { headers: { accept: 'text/html' } });
    expect(dashboard.status).toBe(200);
    expect(dashboard.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await fetch(`${production.url}/playground`, { headers: { accept: 'text/html' } })).status).toBe(
      404,
    );
    const graphqlPage = await fetch(`${production.url}/graphql`, {
      headers: { accept: 'text/html' },
      redirect: 'manual',
    });
    expect(graphqlPage.status).toBe(401);
    const introspection = await production.gql('{ __schema { queryType { name } } }');
    expect(introspection.data).toBeUndefined();
    expect(introspection.errors?.[0]?.message).toMatch(/introspection/i);
    // Ordinary operations are unaffected.
    expect((await production.query<{ projects: unknown[] }>('{ projects { id } }')).projects).toEqual([]);
  });
});
