import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDashboardBuild, fitsWidth, launchChromium, signIn, watchPage } from '../support/browser';
import { CONVERSATION, uploadConversation } from '../support/conversation';
import { ROOT, uniqueName } from '../support/services';
import { ADMIN_KEY, TroveStack } from '../support/stack';

/**
 * The Ask page in a real browser (Debian's Chromium), through the real api and worker, over the
 * quick start's samples and the handbook site: a question answered as it streams, its citations
 * opened, filters, a question the project cannot answer, a thread with a follow-up, a VIEWER key
 * asking, a phone's width.
 * No language model is configured, so answers are EXTRACTIVE, as in the quick start.
 * Screenshots land in test-results/dashboard-ask/.
 */
const SHOTS = join(ROOT, 'test-results', 'dashboard-ask');
const QUESTION = 'How do I roll back a release?';
const stack = new TroveStack({
  TROVE_FOLDER_ROOTS: join(ROOT, 'samples'),
  // Small chunks: the runbook becomes a chunk per paragraph or list item. A citation of an
  // uploaded Markdown file opens the file itself, one place, so quotes from several of its chunks
  // share one marker.
  TROVE_CHUNK_TARGET_TOKENS: '40',
  TROVE_CHUNK_OVERLAP_TOKENS: '0',
  TROVE_CHUNK_MIN_TOKENS: '10',
});
const problems: string[] = [];
/** Bounds a hang only: the answer usually comes in about a second. */
const EVENTUALLY = { timeout: 30_000 };
let browser: Browser;
let page: Page;
let projectId: string;
let askUrl: string;
/** A project of its own for the thread: the conversation's three pages. */
let threadsProjectId: string;

/**
 * Once armed, holds the next answer stream in the page just before its `done` event until the
 * test releases it, so the test sees what the page shows of an answer still being written,
 * whatever the network's timing. Everything before `done` (the passages, the deltas) passes
 * through as it comes.
 */
const HOLD_DONE = `(() => {
  const gate = { armed: false, held: 0, release: () => {} };
  window.__askGate = gate;
  const original = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const response = await original(input, init);
    const url = typeof input === 'string' ? input : input.url;
    if (!url.includes('/ask/stream') || !response.ok || !response.body) return response;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    let buffer = '';
    const body = new ReadableStream({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          if (buffer) controller.enqueue(encoder.encode(buffer));
          controller.close();
          return;
        }
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf('\\n\\n')) >= 0) {
          const block = buffer.slice(0, end + 2);
          buffer = buffer.slice(end + 2);
          if (gate.armed && block.startsWith('event: done')) {
            gate.armed = false;
            gate.held += 1;
            await new Promise((resolve) => (gate.release = resolve));
          }
          controller.enqueue(encoder.encode(block));
        }
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
})()`;

/** Waits for the page's transitions (the side panel sliding in) to end; spinners spin on. */
async function still(target: Page = page): Promise<void> {
  // An expression, not a function: the page's CSP forbids the eval behind waitForFunction.
  await target.evaluate(
    `Promise.all(document.getAnimations()
      .filter((a) => a.effect?.getTiming().iterations !== Infinity)
      .map((a) => a.finished.catch(() => undefined))).then(() => undefined)`,
  );
}

async function shot(name: string, target: Page = page): Promise<void> {
  await still(target);
  await target.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/**
 * Asks from the page with the keyboard (Enter in the question box) and waits for the verified
 * answer: one more answer of the thread is done (the newest is shown last, above the box).
 * `asked` runs right after Enter, before the wait.
 */
async function ask(question: string, target: Page = page, asked?: () => Promise<void>): Promise<void> {
  const done = target.locator('[data-testid="answer"][data-state="done"]');
  const before = await done.count();
  const box = target.getByRole('textbox', { name: 'Question' });
  await box.fill(question);
  await box.press('Enter');
  await asked?.();
  await expect.poll(() => done.count(), EVENTUALLY).toBe(before + 1);
  await done.last().filter({ hasText: question }).waitFor(EVENTUALLY);
}

/** The newest answer: a thread reads top-down, its newest answer last, just above the question box. */
const answer = (target: Page = page) => target.getByTestId('answer').last();
/** The markers in the answer's text, in order (the list of cited places has its own). */
const textMarkers = (target: Page = page) =>
  answer(target).getByTestId('answer-text').getByTestId('citation-marker');
const markerLabels = async (target: Page = page) => (await textMarkers(target).allTextContents()).map(Number);
/** The id of the focused element, or its label when it has no id. */
const focused = () =>
  page.evaluate<string | null>(
    'document.activeElement.id || document.activeElement.getAttribute("aria-label")',
  );
/** The lines the extractive answer quotes, each without its marker (a number before its end). */
const quotedLines = async () =>
  (await answer().getByTestId('answer-text').textContent())!
    .split('\n')
    .slice(2)
    .map((line) => line.replace(/\s*\d+([.!?…:;]*)$/u, '$1'));
/** The links of every place the answer cites (the panel's link of each). */
async function citedLinks(target: Page = page): Promise<string[]> {
  const links = answer(target).getByTestId('cited-place').getByRole('link', { name: 'open' });
  return Promise.all((await links.all()).map(async (link) => (await link.getAttribute('href'))!));
}

async function pick(label: string, option: RegExp): Promise<void> {
  await page.getByLabel(label, { exact: true }).first().click();
  await page.getByRole('option', { name: option }).click();
  await page.keyboard.press('Escape');
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  await ensureDashboardBuild();
  await stack.start();
  projectId = await stack.createProject(uniqueName('Ask'));
  const uploads = await Promise.all(
    ['deploy-runbook.md', 'search-basics.md', 'interview-notes-ru.md'].map((name) =>
      stack.upload(projectId, name, readFileSync(join(ROOT, 'samples', 'quickstart', name))),
    ),
  );
  for (const upload of uploads) expect((await stack.settled(upload.body.id as string)).status).toBe('READY');
  threadsProjectId = await stack.createProject(uniqueName('Threads'));
  await uploadConversation(stack, threadsProjectId);
  const source = await stack.addSource({
    projectId,
    name: 'Handbook site',
    type: 'FOLDER',
    config: { path: join(ROOT, 'samples', 'handbook-site') },
  });
  const { syncSource } = await stack.query<{ syncSource: { id: string } }>(
    'mutation($id: ID!) { syncSource(id: $id, mode: FULL) { id } }',
    { id: source.id },
  );
  expect((await stack.runSettled(syncSource.id)).status).toBe('COMPLETED');
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await context.addInitScript(HOLD_DONE);
  page = await context.newPage();
  watchPage(page, stack.url, problems);
});

afterAll(async () => {
  await browser?.close();
  await stack.stop();
});

describe('the Ask page', () => {
  it('is in the navigation of a project, its question box focused', async () => {
    await signIn(page, stack.url, ADMIN_KEY);
    await page.goto(`${stack.url}/projects/${projectId}/documents`);
    await page.getByRole('link', { name: 'Ask' }).click();
    await page.getByRole('heading', { name: /^Ask · / }).waitFor();
    askUrl = page.url();
    expect(askUrl).toBe(`${stack.url}/projects/${projectId}/ask`);
    expect(await focused()).toBe(await page.getByRole('textbox', { name: 'Question' }).getAttribute('id'));
  });

  it('streams the answer to the quick start’s question: the text shows before it is verified', async () => {
    await page.evaluate('window.__askGate.armed = true');
    const box = page.getByRole('textbox', { name: 'Question' });
    await box.fill(QUESTION);
    await box.press('Enter');
    // The stream is held just before its `done` event: what shows now came from the deltas.
    await expect.poll(() => page.evaluate<number>('window.__askGate.held'), EVENTUALLY).toBe(1);
    const writing = page.locator('[data-testid="answer"][data-state="writing"]');
    await writing.getByTestId('answer-text').waitFor();
    expect(await writing.getByTestId('answer-text').textContent()).toMatch(/^Quoted from your documents/);
    expect(await writing.getByTestId('citation-marker').count()).toBeGreaterThan(0);
    expect(await writing.getByRole('status').textContent()).toBe('Writing…');
    expect(await answer().getByTestId('answer-mode').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Stop' }).isVisible()).toBe(true);
    await shot('streaming');

    await page.evaluate('window.__askGate.release()');
    await page.locator('[data-testid="answer"][data-state="done"]').waitFor(EVENTUALLY);
    expect(await answer().getByTestId('answer-mode').textContent()).toBe('Quotes');
    expect(await answer().textContent()).toContain('No model wrote this');
    const verification = answer().getByTestId('verification');
    expect(await verification.getAttribute('data-ok')).toBe('true');
    expect(await verification.textContent()).toMatch(
      /Citations verified.*cited sentences? (is|are) supported/,
    );
    expect(await page.getByRole('button', { name: 'Stop' }).count()).toBe(0);
    await shot('answer');
  });

  it('shows the quotes of one place under one marker, each place listed once', async () => {
    const lines = await quotedLines();
    expect(lines.length).toBeGreaterThan(1);
    const markers = await markerLabels();
    // Each quoted line ends with its marker; lines quoted from the runbook's chunks share one.
    expect(markers.length).toBe(lines.length);
    expect(new Set(markers).size).toBeLessThan(markers.length);
    const cited = await answer().getByTestId('cited-place').allTextContents();
    expect(cited).toHaveLength(new Set(markers).size);
    expect(cited.filter((place) => place.startsWith(`${markers[0]}Deploy runbook`))).toHaveLength(1);
  });

  it('opens a citation from the keyboard: the quoted sentences marked in their chunks, a link to the place', async () => {
    const lines = await quotedLines();
    const markers = await markerLabels();
    const shared = markers.find((marker, i) => markers.indexOf(marker) !== i)!;
    const quotes = lines.filter((_, i) => markers[i] === shared);
    // Markers are buttons, reached with Tab from the question box.
    await page.getByRole('textbox', { name: 'Question' }).focus();
    const label = (await textMarkers().first().getAttribute('aria-label'))!;
    for (let tabs = 0; (await focused()) !== label; tabs++) {
      expect(tabs).toBeLessThan(30);
      await page.keyboard.press('Tab');
    }
    const marker = textMarkers().nth(markers.indexOf(shared));
    await marker.focus();
    const markerLabel = (await marker.getAttribute('aria-label'))!;
    await page.keyboard.press('Enter');
    const panel = page.getByRole('dialog', { name: `[${shared}] Deploy runbook` });
    await panel.waitFor();
    // Every quote of the place, each marked in the chunk it comes from.
    expect(await panel.getByTestId('citation-chunk').count()).toBeGreaterThan(1);
    const marked = (await panel.getByTestId('quoted').allTextContents()).map((q) => q.replace(/\s+/g, ' '));
    for (const quote of quotes) expect(marked.some((m) => m.includes(quote))).toBe(true);
    const link = (await panel.getByTestId('place-link').getAttribute('href'))!;
    expect(link).toMatch(new RegExp(`^${stack.url}/v1/documents/[\\w-]+/original\\?sig=[\\w-]+$`));
    // The link opens the original without the API key, as a browser would.
    const original = await fetch(link);
    expect(original.status).toBe(200);
    expect(await original.text()).toContain('## Rolling back');
    await shot('citation');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    // The focus goes back to the marker that opened the panel (once the dialog has unmounted).
    // Polled with page.evaluate of an expression: waitForFunction evaluates a string by eval in
    // the page, which its CSP refuses (and the browser check below records).
    await expect.poll(focused, { timeout: EVENTUALLY.timeout }).toBe(markerLabel);
  });

  it('narrows the passages to a source or a document type, cited where they are: a site anchor', async () => {
    // The runbook (an upload) answers this unfiltered; the handbook site alone, once filtered.
    await page.goto(askUrl);
    await pick('Sources', /^Handbook site/);
    await ask(QUESTION);
    const links = await citedLinks();
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link).toMatch(/^https:\/\/handbook\.example\.com\/[^#]+#.+/);
    await textMarkers().first().click();
    const panel = page.getByRole('dialog');
    await panel.getByTestId('quoted').first().waitFor();
    expect(await panel.getByTestId('place-link').getAttribute('href')).toBe(links[0]);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    await page.getByLabel('Sources', { exact: true }).first().click();
    await page.getByRole('option', { name: /^Handbook site/ }).click();
    await page.keyboard.press('Escape');

    // The handbook answers this unfiltered; Markdown files (the uploads) only, never the site.
    const backups = 'How are backups verified?';
    await ask(backups);
    expect((await citedLinks()).some((link) => link.startsWith('https://handbook.example.com/'))).toBe(true);
    await pick('Document types', /^Markdown \(3\)$/);
    await ask(backups);
    for (const link of await citedLinks()) expect(link).toContain(`${stack.url}/v1/documents/`);
    await shot('filters');
  });

  it('says plainly when the project does not hold the answer', async () => {
    await ask('Who painted the Mona Lisa?');
    expect(await answer().getByTestId('answer-mode').textContent()).toBe('Insufficient context');
    expect(await answer().textContent()).toContain(
      'The knowledge base does not hold enough information to answer this question.',
    );
    expect(await textMarkers().count()).toBe(0);
    expect(await answer().getByTestId('verification').count()).toBe(0);
    await shot('insufficient-context');
  });

  it('fits a phone’s width, the citation panel too', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(askUrl);
    await ask(QUESTION);
    expect(await fitsWidth(page)).toBe(true);
    // The answer wraps in its card rather than running out of it.
    expect(
      await page.evaluate<boolean>(
        '(() => { const text = document.querySelector(\'[data-testid="answer-text"]\'); return text.scrollWidth <= text.clientWidth + 1; })()',
      ),
    ).toBe(true);
    await shot('phone-answer');
    await textMarkers().first().click();
    const panel = page.getByRole('dialog');
    await panel.getByTestId('citation-chunk').first().waitFor();
    await still();
    expect(await fitsWidth(page)).toBe(true);
    const box = (await panel.boundingBox())!;
    expect(box.width).toBeGreaterThan(380);
    await shot('phone-citation');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1366, height: 900 });
  });
});

describe('a thread on the Ask page', () => {
  const threadItems = () => page.getByTestId('thread-list').first().getByTestId('thread-item');

  it('continues a thread: the follow-up is searched for as the rewritten question and cites the page only that finds', async () => {
    await page.goto(`${stack.url}/projects/${threadsProjectId}/ask`);
    await ask(CONVERSATION.first);
    expect(await answer().getByTestId('standalone-question').count()).toBe(0);
    // Asked the moment the answer is done, before the router has moved the page to the thread's
    // URL (a transition, which a slowed CPU holds back as a loaded machine does): the follow-up
    // still goes on in the thread on screen, not into a second one.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 20 });
    await ask(CONVERSATION.followUp, page, async () => {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    });
    await cdp.detach();
    // The first question started a thread: the page is now that thread's.
    await page.waitForURL(/\?thread=thr_/);
    expect(await answer().getByTestId('standalone-question').textContent()).toBe(
      `Searched for: ${CONVERSATION.standalone}`,
    );
    const cited = await answer().getByTestId('cited-place').allTextContents();
    expect(cited[0]).toContain(CONVERSATION.parking.title);
    // Both turns, oldest first, as a conversation reads; the question box under the newest.
    expect(await page.getByTestId('answer').count()).toBe(2);
    expect(await page.getByTestId('answer').first().textContent()).toContain(CONVERSATION.first);
    const [older, newer, box] = await Promise.all([
      page.getByTestId('answer').first().boundingBox(),
      page.getByTestId('answer').last().boundingBox(),
      page.getByRole('form', { name: 'Ask a question' }).boundingBox(),
    ]);
    expect(older!.y).toBeLessThan(newer!.y);
    expect(box!.y).toBeGreaterThan(newer!.y + newer!.height - 1);
    // The thread listed once, with both questions.
    await threadItems().filter({ hasText: '2 questions' }).waitFor(EVENTUALLY);
    expect(await threadItems().count()).toBe(1);
    expect(await threadItems().textContent()).toContain(CONVERSATION.first);
    await shot('thread');
  });

  it('reads the thread back from its record after a reload, and opens a recorded citation', async () => {
    await page.reload();
    await page.locator('[data-testid="answer"][data-state="done"]').nth(1).waitFor(EVENTUALLY);
    expect(await answer().getByTestId('standalone-question').textContent()).toBe(
      `Searched for: ${CONVERSATION.standalone}`,
    );
    expect(await page.getByTestId('answer').first().textContent()).toContain(CONVERSATION.first);
    await textMarkers().first().click();
    const panel = page.getByRole('dialog', { name: `[1] ${CONVERSATION.parking.title}` });
    expect(await panel.getByTestId('quote').textContent()).toContain('/parking-nsk');
    expect(await panel.getByTestId('place-link').getAttribute('href')).toMatch(/\/original\?sig=/);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
  });

  it('renames and deletes the thread from the list; a new thread starts empty', async () => {
    await page
      .getByRole('button', { name: /^Actions of thread / })
      .first()
      .click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename thread' });
    await rename.getByRole('textbox', { name: 'Title' }).fill('Parking per office');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await threadItems().filter({ hasText: 'Parking per office' }).waitFor(EVENTUALLY);

    await page.getByRole('button', { name: 'Actions of thread Parking per office' }).first().click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete thread' })
      .getByRole('button', { name: 'Delete thread' })
      .click();
    await page.getByText('No threads yet').first().waitFor(EVENTUALLY);
    // The page leaves the deleted thread (React Router applies the navigation as a transition).
    await expect.poll(() => page.getByTestId('answer').count(), EVENTUALLY).toBe(0);
    expect(page.url()).not.toContain('thread=');
  });

  it('lists the threads in a drawer at a phone’s width', async () => {
    await ask(CONVERSATION.first);
    await page.waitForURL(/\?thread=thr_/);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'New thread' }).first().waitFor({ state: 'hidden' });
    await still();
    expect(await fitsWidth(page)).toBe(true);
    await page.getByRole('button', { name: 'Threads' }).click();
    const drawer = page.getByRole('dialog', { name: 'Threads' });
    await drawer.getByTestId('thread-item').first().waitFor();
    await still();
    expect(await fitsWidth(page)).toBe(true);
    await shot('phone-threads');
    await drawer.getByRole('button', { name: 'New thread' }).click();
    await drawer.waitFor({ state: 'hidden' });
    expect(page.url()).not.toContain('thread=');
    await page.setViewportSize({ width: 1366, height: 900 });
  });
});

describe('a VIEWER key', () => {
  it('asks and opens a citation', async () => {
    const { createApiKey } = await stack.query<{ createApiKey: { secret: string } }>(
      'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret } }',
      { input: { name: 'Ask viewer', role: 'VIEWER', projectIds: [projectId] } },
    );
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const viewer = await context.newPage();
    watchPage(viewer, stack.url, problems);
    await signIn(viewer, stack.url, createApiKey.secret);
    expect(await viewer.getByTestId('caller-role').textContent()).toBe('VIEWER');
    await viewer.goto(askUrl);
    await ask(QUESTION, viewer);
    expect(await answer(viewer).getByTestId('answer-mode').textContent()).toBe('Quotes');
    expect((await markerLabels(viewer)).length).toBeGreaterThan(0);
    await textMarkers(viewer).first().click();
    await viewer.getByRole('dialog').getByTestId('quoted').first().waitFor();
    await shot('viewer', viewer);
    await context.close();
  });
});

describe('the browser', () => {
  it('met no CSP violation, script error, failed request or request to another origin', () => {
    expect(problems, problems.join(' | ')).toEqual([]);
  });
});
