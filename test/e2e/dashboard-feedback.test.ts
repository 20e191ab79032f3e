import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedbackExportLine } from '@trove/domain';
import { parseFeedbackLines, tallyFeedback } from '@trove/reranking';
import { ensureDashboardBuild, launchChromium, signIn, watchPage } from '../support/browser';
import { ROOT, uniqueName } from '../support/services';
import { ADMIN_KEY, TroveStack } from '../support/stack';

/**
 * Feedback in a real browser (Debian's Chromium) through the real api and worker: thumbs on an
 * answer and on a cited passage, a comment, what the export then holds, and the admin's Gaps
 * page, which a VIEWER key neither sees nor reaches. Screenshots land in test-results/dashboard-feedback/.
 */
const SHOTS = join(ROOT, 'test-results', 'dashboard-feedback');
const QUESTION = 'How do I roll back a release?';
const stack = new TroveStack();
const problems: string[] = [];
/** Bounds a hang only. */
const EVENTUALLY = { timeout: 30_000 };
let browser: Browser;
let page: Page;
let projectId: string;

async function ask(target: Page, question: string): Promise<void> {
  const box = target.getByRole('textbox', { name: 'Question' });
  await box.fill(question);
  await box.press('Enter');
  await target
    .locator('[data-testid="answer"][data-state="done"]', { hasText: question })
    .waitFor(EVENTUALLY);
}

/** The project's export as the admin downloads it over the API. */
async function exported(): Promise<FeedbackExportLine[]> {
  const response = await fetch(`${stack.url}/v1/projects/${projectId}/feedback.jsonl`, {
    headers: { 'X-API-Key': ADMIN_KEY },
  });
  expect(response.status).toBe(200);
  return parseFeedbackLines(await response.text(), 'export');
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  await ensureDashboardBuild();
  await stack.start();
  projectId = await stack.createProject(uniqueName('Feedback'));
  for (const name of ['deploy-runbook.md', 'search-basics.md']) {
    const upload = await stack.upload(
      projectId,
      name,
      readFileSync(join(ROOT, 'samples', 'quickstart', name)),
    );
    expect((await stack.settled(upload.body.id as string)).status).toBe('READY');
  }
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
  page = await context.newPage();
  watchPage(page, stack.url, problems);
});

afterAll(async () => {
  await browser?.close();
  await stack.stop();
});

describe('feedback on the Ask page', () => {
  it('records a down vote with a comment on the answer and a vote on a cited passage, both in the export', async () => {
    await signIn(page, stack.url, ADMIN_KEY);
    await page.goto(`${stack.url}/projects/${projectId}/ask`);
    await ask(page, QUESTION);

    const answerFeedback = page.getByTestId('answer-feedback');
    await answerFeedback.getByRole('button', { name: 'Bad answer' }).click();
    await answerFeedback.getByTestId('feedback-recorded').waitFor(EVENTUALLY);
    expect(
      await answerFeedback.getByRole('button', { name: 'Bad answer' }).getAttribute('aria-pressed'),
    ).toBe('true');
    await answerFeedback
      .getByRole('textbox', { name: 'Why, about the answer (optional)' })
      .fill('Misses the database step');
    await answerFeedback.getByRole('button', { name: 'Send' }).click();
    await answerFeedback.getByText('Recorded, with your comment.').waitFor(EVENTUALLY);

    await page.getByTestId('answer-text').getByTestId('citation-marker').first().click();
    const panel = page.getByRole('dialog');
    const chunk = panel.getByTestId('citation-chunk').first();
    await chunk.getByRole('button', { name: 'Helpful passage', exact: true }).click();
    await chunk.locator('[data-testid="passage-feedback"][data-vote="UP"]').waitFor(EVENTUALLY);
    await page.screenshot({ path: join(SHOTS, 'passage-vote.png'), fullPage: true });
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    // The thread reopened: its turn shows the vote as recorded.
    expect(page.url()).toMatch(/\?thread=thr_/);
    await page.reload();
    await page.locator('[data-testid="answer-feedback"][data-vote="DOWN"]').waitFor(EVENTUALLY);

    const lines = await exported();
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          target: 'answer',
          vote: -1,
          comment: 'Misses the database step',
          question: QUESTION,
        }),
        expect.objectContaining({
          target: 'passage',
          vote: 1,
          question: QUESTION,
          chunkId: expect.any(String),
        }),
      ]),
    );
    const passage = lines.find((line) => line.target === 'passage')!;
    expect(passage.hits.map((hit) => hit.chunkId)).toContain(passage.chunkId);
    // The reranker's trainer takes the vote: features as it computes them, one question to learn from.
    const { questions, tally } = tallyFeedback(lines);
    expect(tally).toMatchObject({ passageVotes: 1, answerVotes: 1, otherFeatures: 0, questions: 1 });
    expect(questions[0].votes).toEqual(new Map([[passage.chunkId, 1]]));
  });

  it('lists the down-voted question on the admin’s Gaps page, whose download is the export', async () => {
    await page.getByRole('link', { name: 'Gaps' }).click();
    const gap = page.getByTestId('gap').filter({ hasText: QUESTION });
    await gap.waitFor(EVENTUALLY);
    expect(await gap.textContent()).toContain('Misses the database step');
    // Who asked: here the bootstrap key (people and keys by name).
    expect(await gap.getByTestId('gap-asked-by').textContent()).toBe('Asked by admin key');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-feedback').click(),
    ]);
    const text = readFileSync((await download.path())!, 'utf8');
    expect(
      parseFeedbackLines(text, 'download')
        .map((line) => line.id)
        .sort(),
    ).toEqual((await exported()).map((line) => line.id).sort());
    await page.screenshot({ path: join(SHOTS, 'gaps.png'), fullPage: true });
  });
});

describe('a VIEWER key', () => {
  it('asks and votes, but has no Gaps page, and the API refuses it the gaps and the export', async () => {
    const { createApiKey } = await stack.query<{ createApiKey: { secret: string } }>(
      'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret apiKey { id } } }',
      { input: { name: 'Feedback viewer', role: 'VIEWER', projectIds: [projectId] } },
    );
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const viewer = await context.newPage();
    watchPage(viewer, stack.url, problems);
    await signIn(viewer, stack.url, createApiKey.secret);
    await viewer.goto(`${stack.url}/projects/${projectId}/ask`);
    await viewer.getByRole('link', { name: 'Ask' }).waitFor();
    expect(await viewer.getByRole('link', { name: 'Gaps' }).count()).toBe(0);
    await ask(viewer, 'When do releases go out?');
    const answerFeedback = viewer.getByTestId('answer-feedback');
    await answerFeedback.getByRole('button', { name: 'Good answer' }).click();
    await answerFeedback.getByTestId('feedback-recorded').waitFor(EVENTUALLY);
    expect(await exported()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ question: 'When do releases go out?', target: 'answer', vote: 1 }),
      ]),
    );

    await viewer.goto(`${stack.url}/projects/${projectId}/gaps`);
    await viewer.getByText('Content gaps are shown to ADMIN keys.').waitFor(EVENTUALLY);
    expect(await viewer.getByTestId('gaps-table').count()).toBe(0);
    const gaps = await stack.gql(
      'query($p: ID!) { contentGaps(projectId: $p) { totalCount } }',
      { p: projectId },
      { 'X-API-Key': createApiKey.secret },
    );
    expect(gaps.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const download = await fetch(`${stack.url}/v1/projects/${projectId}/feedback.jsonl`, {
      headers: { 'X-API-Key': createApiKey.secret },
    });
    expect(download.status).toBe(403);
    await viewer.screenshot({ path: join(SHOTS, 'viewer-no-gaps.png'), fullPage: true });
    await context.close();
  });
});

describe('the browser', () => {
  it('met no CSP violation, script error, failed request or request to another origin', () => {
    expect(problems, problems.join(' | ')).toEqual([]);
  });
});
