import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultWorkspace, DEFAULT_IDS, NotionEmulator } from '@trove/notion-emulator';
import { expectEventually } from '../support/services';
import { TroveStack } from '../support/stack';

// Notion's servers cannot be reached from here: the real connector, workflows and API run
// against the Notion API emulator (apps/notion-emulator), which follows the public contract.
const emulator = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: Infinity });
let stack: TroveStack;
let projectId: string;
let sourceId: string;
let emulatorUrl: string;

interface Run {
  id: string;
  status: string;
  error: { code: string; message: string } | null;
  progress: Record<string, number>;
  skipped: { id: string; reason: string; title: string | null }[];
}

const RUN_FIELDS =
  'id status error { code message } skipped { id reason title } progress { pagesSeen pagesIngested pagesUnchanged pagesFailed pagesDeleted pagesSkipped apiCalls chunksEmbedded chunksReused }';

async function sync(mode: 'FULL' | 'INCREMENTAL'): Promise<Run> {
  const { syncSource } = await stack.query<{ syncSource: { id: string } }>(
    `mutation($id: ID!, $mode: SyncMode!) { syncSource(id: $id, mode: $mode) { id } }`,
    { id: sourceId, mode },
  );
  return expectEventually(
    async () => {
      const { syncRun } = await stack.query<{ syncRun: Run }>(
        `query($id: ID!) { syncRun(id: $id) { ${RUN_FIELDS} } }`,
        {
          id: syncSource.id,
        },
      );
      if (syncRun.status === 'RUNNING') throw new Error('still running');
      return syncRun;
    },
    { timeoutMs: 240_000, intervalMs: 1000 },
  );
}

async function search(query: string) {
  const { search } = await stack.query<{
    search: { hits: { documentId: string; title: string; text: string; citationUrl: string | null }[] };
  }>('query($i: SearchInput!) { search(input: $i) { hits { documentId title text citationUrl } } }', {
    i: { projectId, query, limit: 5, mode: 'HYBRID' },
  });
  return search.hits;
}

beforeAll(async () => {
  emulatorUrl = await emulator.start();
  stack = new TroveStack({ TROVE_NOTION_API_URL: emulatorUrl, TROVE_NOTION_REQUESTS_PER_SECOND: '50' });
  await stack.start();
  projectId = await stack.createProject('Notion sync');
});

afterAll(async () => {
  await stack?.stop();
  await emulator.stop();
});

describe('Notion source sync (emulated Notion API)', () => {
  it('adds a source without ever returning the token', async () => {
    const added = await stack.addSource<{
      id: string;
      status: string;
      config: Record<string, unknown>;
      secrets: { field: string; hint: string }[];
    }>(
      {
        projectId,
        name: 'Team wiki',
        type: 'NOTION',
        config: {
          token: emulator.token,
          // A root given as a Notion URL, with the id's dashes removed, as users paste it.
          rootPageIds: [`https://www.notion.so/Onboarding-${DEFAULT_IDS.onboarding.replace(/-/g, '')}`],
        },
      },
      'id status config secrets { field hint }',
    );
    sourceId = added.id;
    expect(added.status).toBe('ACTIVE');
    expect(added.config).toEqual({
      everything: false,
      rootPageIds: [DEFAULT_IDS.onboarding],
      rootDatabaseIds: [],
    });
    expect(added.secrets).toEqual([
      { field: 'token', hint: expect.stringMatching(/^ntn_…\w\w \(\d+ chars\)$/) },
    ]);
    const { sources } = await stack.query<{ sources: unknown[] }>(
      'query($p: ID!) { sources(projectId: $p) { id config summary tokenHint secrets { field hint } } }',
      {
        p: projectId,
      },
    );
    expect(JSON.stringify(sources)).not.toContain(emulator.token);
  });

  it('FULL sync ingests the subtree, follows a synced block, skips the unshared link, and links hits to blocks', async () => {
    const run = await sync('FULL');
    expect(run.status).toBe('COMPLETED');
    expect(run.progress.pagesSeen).toBeGreaterThan(5);
    expect(run.progress.pagesIngested).toBe(run.progress.pagesSeen);
    expect(run.progress.pagesFailed).toBe(0);
    expect(run.skipped.map((s) => s.id)).toContain(DEFAULT_IDS.unsharedPage);

    const {
      documents: { nodes: documents },
    } = await stack.query<{ documents: { nodes: { status: string }[] } }>(
      'query($p: ID!) { documents(projectId: $p, first: 500) { nodes { status } } }',
      { p: projectId },
    );
    expect(documents.length).toBe(run.progress.pagesSeen);
    expect(documents.every((d) => d.status === 'READY')).toBe(true);

    // "Who to call" lives in a synced block whose original is on another page.
    const hits = await search('escalation channel on-call contacts');
    const onCall = hits.find((h) => h.title === 'On-call basics');
    expect(onCall).toBeDefined();
    expect(onCall!.citationUrl).toMatch(
      new RegExp(`^https://www\\.notion\\.so/${DEFAULT_IDS.onCallBasics.replace(/-/g, '')}#[0-9a-f]{32}$`),
    );
  });

  it('INCREMENTAL with nothing changed costs a handful of API calls and ingests nothing', async () => {
    const run = await sync('INCREMENTAL');
    expect(run.status).toBe('COMPLETED');
    expect(run.progress.pagesIngested).toBe(0);
    expect(run.progress.apiCalls).toBeLessThanOrEqual(3);
  });

  it('INCREMENTAL after one edit re-ingests exactly that page', async () => {
    const snapshot = await stack.query<{ search: { hits: { text: string }[] } }>(
      'query($i: SearchInput!) { search(input: $i) { hits { text } } }',
      { i: { projectId, query: 'Rotations, escalation and handover', limit: 1, mode: 'KEYWORD' } },
    );
    expect(snapshot.search.hits[0].text).toContain('Rotations');
    const blockId = await firstParagraphBlock(DEFAULT_IDS.onCallBasics);
    emulator.editBlockText(
      blockId,
      'Rotations change every Monday at 10:00 Moscow time; handover happens in #oncall-handover.',
    );
    const run = await sync('INCREMENTAL');
    expect(run.status).toBe('COMPLETED');
    expect(run.progress.pagesIngested).toBe(1);
    // Only the edited paragraph's chunk changed: the page's other chunks keep their vectors.
    expect(run.progress.chunksEmbedded).toBeGreaterThanOrEqual(1);
    expect(run.progress.chunksEmbedded).toBeLessThanOrEqual(2);
    const hits = await search('handover every Monday Moscow time');
    expect(hits[0].text).toContain('every Monday at 10:00');
  });

  it('FULL sync removes a trashed page and every page reachable only through it', async () => {
    emulator.trashPage(DEFAULT_IDS.onCallBasics);
    const run = await sync('FULL');
    expect(run.status).toBe('COMPLETED');
    expect(run.progress.pagesDeleted).toBeGreaterThanOrEqual(1);
    const {
      documents: { nodes: documents },
    } = await stack.query<{ documents: { nodes: { fileName: string }[] } }>(
      'query($p: ID!) { documents(projectId: $p, first: 500) { nodes { fileName } } }',
      { p: projectId },
    );
    // What remains is exactly what is still reachable from the root.
    expect(documents.length).toBe(run.progress.pagesSeen);
    expect(documents.map((d) => d.fileName)).not.toContain(`notion:${DEFAULT_IDS.onCallBasics}`);
    expect((await search('Rotations change every Monday')).map((h) => h.title)).not.toContain(
      'On-call basics',
    );
  });

  it('FULL sync names a page it can no longer read by the title it was synced with', async () => {
    const {
      documents: { nodes: documents },
    } = await stack.query<{ documents: { nodes: { externalId: string | null; title: string }[] } }>(
      'query($p: ID!) { documents(projectId: $p, first: 500) { nodes { externalId title } } }',
      { p: projectId },
    );
    // Onboarding's last child page: the tests below trash its first ones.
    const title = 'Security basics';
    const page = documents.find((d) => d.title === title)!;
    expect(page?.externalId).toBeTruthy();
    emulator.unsharePage(page.externalId!);
    const run = await sync('FULL');
    expect(run.status).toBe('COMPLETED');
    expect(run.skipped).toContainEqual(expect.objectContaining({ id: page.externalId, title }));
    // A page never read has no title to show: its id stays the name.
    expect(run.skipped.find((s) => s.id === DEFAULT_IDS.unsharedPage)?.title).toBeNull();
  });

  it('webhooks: stores the verification token, rejects bad signatures, applies signed events', async () => {
    const hook = `${stack.url}/webhooks/notion/${sourceId}`;
    const verification = await emulator.sendVerificationRequest(hook);
    expect(verification.status).toBe(200);
    const { webhookVerificationToken } = await stack.query<{ webhookVerificationToken: string }>(
      'query($s: ID!) { webhookVerificationToken(sourceId: $s) }',
      { s: sourceId },
    );
    expect(webhookVerificationToken).toBe(verification.verificationToken);
    // A second, unsigned "verification" must not replace the token (it would let anyone sign events).
    expect(
      (
        await fetch(hook, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"verification_token":"x"}',
        })
      ).status,
    ).toBe(401);

    const event = { type: 'page.content_updated', entityId: DEFAULT_IDS.onboarding };
    expect((await emulator.deliverWebhook(hook, event, { signature: 'invalid' })).status).toBe(401);
    expect((await emulator.deliverWebhook(hook, event, { signature: 'missing' })).status).toBe(401);

    const blockId = await firstParagraphBlock(DEFAULT_IDS.onboarding);
    emulator.editBlockText(blockId, 'Welcome aboard: your buddy meets you on day one at the Lisbon office.');
    const started = Date.now();
    // Delivered twice, as Notion may: harmless.
    expect((await emulator.deliverWebhook(hook, event)).status).toBe(200);
    expect((await emulator.deliverWebhook(hook, event)).status).toBe(200);
    const hit = await expectEventually(
      async () => {
        const [first] = await search('buddy meets you on day one Lisbon office');
        if (!first?.text.includes('Lisbon')) throw new Error('not searchable yet');
        return first;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    console.log(`webhook → searchable in ${Date.now() - started} ms`);
    expect(hit.citationUrl).toContain(DEFAULT_IDS.onboarding.replace(/-/g, ''));
    const onboarding = await stack.query<{
      documents: { nodes: { fileName: string; chunkCount: number }[] };
    }>('query($p: ID!) { documents(projectId: $p, first: 500) { nodes { fileName chunkCount } } }', {
      p: projectId,
    });
    const record = onboarding.documents.nodes.find((d) => d.fileName === `notion:${DEFAULT_IDS.onboarding}`)!;
    const chunks = await search('Welcome aboard buddy');
    expect(chunks.filter((h) => h.text.includes('Lisbon')).length).toBe(1);
    expect(record.chunkCount).toBeGreaterThan(0);

    // page.deleted removes the page's document.
    const before = onboarding.documents.nodes.length;
    const leaf = await firstChildPage(DEFAULT_IDS.onboarding);
    emulator.trashPage(leaf);
    expect((await emulator.deliverWebhook(hook, { type: 'page.deleted', entityId: leaf })).status).toBe(200);
    await expectEventually(
      async () => {
        const {
          documents: { nodes: documents },
        } = await stack.query<{ documents: { nodes: { fileName: string }[] } }>(
          'query($p: ID!) { documents(projectId: $p, first: 500) { nodes { fileName } } }',
          { p: projectId },
        );
        if (documents.some((d) => d.fileName === `notion:${leaf}`)) throw new Error('still there');
        expect(documents.length).toBe(before - 1);
      },
      { timeoutMs: 60_000 },
    );
  });

  it('a Temporal Schedule runs periodic INCREMENTAL syncs', async () => {
    const set = await stack.query<{ setSyncSchedule: { syncIntervalMinutes: number } }>(
      'mutation($s: ID!) { setSyncSchedule(sourceId: $s, intervalMinutes: 60) { syncIntervalMinutes } }',
      { s: sourceId },
    );
    expect(set.setSyncSchedule.syncIntervalMinutes).toBe(60);
    // A page trashed without any webhook: the scheduled run's deletion check finds it.
    const leaf = await firstChildPage(DEFAULT_IDS.onboarding);
    emulator.trashPage(leaf);
    const runsBefore = (
      await stack.query<{ syncRuns: { totalCount: number } }>(
        'query($s: ID!) { syncRuns(sourceId: $s) { totalCount } }',
        { s: sourceId },
      )
    ).syncRuns.totalCount;
    await stack.query('mutation($s: ID!) { triggerSyncSchedule(sourceId: $s) }', { s: sourceId });
    const latest = await expectEventually(
      async () => {
        const {
          syncRuns: { nodes: syncRuns },
        } = await stack.query<{
          syncRuns: { nodes: { mode: string; status: string; progress: { pagesDeleted: number } }[] };
        }>('query($s: ID!) { syncRuns(sourceId: $s) { nodes { mode status progress { pagesDeleted } } } }', {
          s: sourceId,
        });
        if (syncRuns.length <= runsBefore || syncRuns[0].status === 'RUNNING')
          throw new Error('no new finished run yet');
        return syncRuns[0];
      },
      { timeoutMs: 60_000 },
    );
    expect(latest).toEqual({ mode: 'INCREMENTAL', status: 'COMPLETED', progress: { pagesDeleted: 1 } });
    const off = await stack.query<{ setSyncSchedule: { syncIntervalMinutes: number | null } }>(
      'mutation($s: ID!) { setSyncSchedule(sourceId: $s, intervalMinutes: 0) { syncIntervalMinutes } }',
      { s: sourceId },
    );
    expect(off.setSyncSchedule.syncIntervalMinutes).toBeNull();
  });

  it('a revoked token fails the run clearly and marks the source as needing a new token', async () => {
    emulator.revokeToken();
    const run = await sync('FULL');
    expect(run.status).toBe('FAILED');
    expect(run.error?.code).toBe('SOURCE_UNAUTHORIZED');
    const { sources } = await stack.query<{ sources: { status: string }[] }>(
      'query($p: ID!) { sources(projectId: $p) { status } }',
      {
        p: projectId,
      },
    );
    expect(sources[0].status).toBe('NEEDS_TOKEN');
  });
});

/** The id of the first paragraph block of a page, read straight from the emulator's API. */
async function firstParagraphBlock(pageId: string): Promise<string> {
  const response = await fetch(`${emulatorUrl}/v1/blocks/${pageId}/children`, {
    headers: { Authorization: `Bearer ${emulator.token}`, 'Notion-Version': '2025-09-03' },
  });
  const body = (await response.json()) as { results: { id: string; type: string }[] };
  return body.results.find((b) => b.type === 'paragraph')!.id;
}

/** The first child page of a page, read straight from the emulator's API. */
async function firstChildPage(pageId: string): Promise<string> {
  const response = await fetch(`${emulatorUrl}/v1/blocks/${pageId}/children`, {
    headers: { Authorization: `Bearer ${emulator.token}`, 'Notion-Version': '2025-09-03' },
  });
  const body = (await response.json()) as { results: { id: string; type: string }[] };
  return body.results.find((b) => b.type === 'child_page')!.id;
}
