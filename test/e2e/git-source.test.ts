import { execFileSync } from 'node:child_process';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncWorkflowId } from '@trove/domain';
import { GitTestServer, type TestRepository } from '@trove/connector-git/testing';
import { ensureDashboardBuild, launchChromium, signIn, watchPage } from '../support/browser';
import { cleanEnv, runTrove } from '../support/cli';
import { expectEventually, TEMPORAL_ADDRESS, uniqueName } from '../support/services';
import { ADMIN_KEY, type SyncRunView, TroveStack } from '../support/stack';

/**
 * A Git repository as a source, through the API and the real worker: a local `git http-backend`
 * (basic auth with the source's token) plays the forge. Edits, renames, deletions and a
 * force-push converge to exactly the files at the branch's head; a signed GitHub push webhook
 * starts an INCREMENTAL run by itself, a forged one is refused; the token is never shown.
 */
const TOKEN = `glpat-${randomBytes(16).toString('hex')}`;
const WEBHOOK_SECRET = `whsec-${randomBytes(16).toString('hex')}`;
const scratch = mkdtempSync(join(tmpdir(), 'trove-git-e2e-'));
const server = new GitTestServer();
const stack = new TroveStack({
  // The remote is http:// on 127.0.0.1: allowed for this stack only.
  TROVE_GIT_ALLOW_PRIVATE_NETWORKS: 'true',
  TROVE_GIT_ALLOW_INSECURE: 'true',
  TROVE_GIT_CACHE_DIR: join(scratch, 'git-cache'),
  // The webhook workflow's debounce: short, so the pushed commit's run starts soon.
  TROVE_WEBHOOK_QUIET_MS: '200',
  // Server-side repositories (a local path as the URL) are read under this root only.
  TROVE_FOLDER_ROOTS: join(scratch, 'roots'),
});
let repo: TestRepository;
let firstCommit: string;
let projectId: string;
let sourceId: string;

const FILES = {
  'README.md': '# Lighthouse handbook\n\nThe keepers write their handbook in this repository.\n',
  'docs/lamp.md':
    '# Lamp\n\n## Maintenance\n\nPolish the Fresnel lens every Tuesday with a soft chamois cloth.\n',
  'docs/fog.md': '# Fog\n\nIn fog, sound the horn twice a minute.\n',
  'docs/storms.md': '# Storms\n\nDuring a gale, close the iron shutters of the lantern gallery.\n',
  'docs/tides.md': '# Tides\n\nThe harbour gate closes two hours before low tide.\n',
};

interface DocumentNode {
  id: string;
  externalId: string;
  fileName: string;
  url: string | null;
  status: string;
  chunkCount: number;
}

interface Hit {
  documentId: string;
  text: string;
  citationUrl: string | null;
  citation: { kind: string; url: string | null } | null;
}

async function sync(mode: 'FULL' | 'INCREMENTAL', id = sourceId): Promise<SyncRunView> {
  const { syncSource } = await stack.query<{ syncSource: { id: string } }>(
    'mutation($id: ID!, $m: SyncMode!) { syncSource(id: $id, mode: $m) { id } }',
    { id, m: mode },
  );
  return stack.runSettled(syncSource.id);
}

async function search(query: string, project = projectId): Promise<Hit[]> {
  const { search } = await stack.query<{ search: { hits: Hit[] } }>(
    `query($i: SearchInput!) { search(input: $i) {
       hits { documentId text citationUrl citation { kind url } } } }`,
    { i: { projectId: project, query, mode: 'KEYWORD', limit: 10 } },
  );
  return search.hits;
}

/** The hits whose text holds `sentence` (a keyword search for it). */
async function hitsWith(sentence: string): Promise<Hit[]> {
  return (await search(sentence)).filter((hit) => hit.text.includes(sentence));
}

async function documents(): Promise<DocumentNode[]> {
  const { documents } = await stack.query<{ documents: { nodes: DocumentNode[] } }>(
    `query($p: ID!, $s: ID) { documents(projectId: $p, sourceId: $s, first: 100) {
       nodes { id externalId fileName url status chunkCount } } }`,
    { p: projectId, s: sourceId },
  );
  return documents.nodes;
}

/**
 * The source's documents by path, each READY with exactly its `chunkCount` chunks at positions
 * 0…n-1 (a re-ingest that left old chunks behind shows up here).
 */
async function documentsByPath(): Promise<Map<string, DocumentNode>> {
  const nodes = await documents();
  for (const document of nodes) {
    expect(document.status, document.externalId).toBe('READY');
    const { chunks } = await stack.query<{ chunks: { position: number }[] }>(
      'query($d: ID!) { chunks(documentId: $d) { position } }',
      { d: document.id },
    );
    expect(document.chunkCount, document.externalId).toBeGreaterThan(0);
    expect(
      chunks.map((c) => c.position).sort((a, b) => a - b),
      document.externalId,
    ).toEqual([...Array(document.chunkCount).keys()]);
  }
  return new Map(nodes.map((d) => [d.externalId, d]));
}

/** The paths at the remote branch's head (every file of the fixtures is one Trove reads). */
function headFiles(): string[] {
  return repo.git('ls-tree', '-r', '--name-only', 'HEAD').trim().split('\n').sort();
}

async function runs(): Promise<{ id: string; mode: string; status: string }[]> {
  const { syncRuns } = await stack.query<{
    syncRuns: { nodes: { id: string; mode: string; status: string }[] };
  }>('query($s: ID!) { syncRuns(sourceId: $s, first: 100) { nodes { id mode status } } }', { s: sourceId });
  return syncRuns.nodes;
}

beforeAll(async () => {
  // The api serves the dashboard only when its build is there as it starts.
  await ensureDashboardBuild();
  await server.start();
  server.token = TOKEN;
  repo = server.repository('handbook');
  firstCommit = repo.write(FILES).commit('the handbook');
  await stack.start();
  projectId = await stack.createProject(uniqueName('Git'));
});

afterAll(async () => {
  await stack.stop();
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs git in `cwd` (a test fixture), without the user's or the system's configuration. */
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: scratch, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });
}

describe('a Git repository as a source', () => {
  it('FULL sync: every Markdown file is a document, searchable, cited to its original', async () => {
    const { addSource } = await stack.query<{
      addSource: { id: string; type: string; config: Record<string, unknown> };
    }>('mutation($i: AddSourceInput!) { addSource(input: $i) { id type config } }', {
      i: {
        projectId,
        type: 'GIT',
        name: 'Keepers handbook',
        config: { url: repo.httpUrl, token: TOKEN, webhookSecret: WEBHOOK_SECRET },
      },
    });
    sourceId = addSource.id;
    expect(addSource).toMatchObject({ type: 'GIT', config: { url: repo.httpUrl, exclude: [] } });

    const run = await sync('FULL');
    expect(run).toMatchObject({ status: 'COMPLETED', error: null });
    expect(run.progress).toMatchObject({ pagesSeen: 5, pagesIngested: 5, pagesFailed: 0 });
    const docs = await documentsByPath();
    expect([...docs.keys()].sort()).toEqual(headFiles());
    expect(docs.get('docs/lamp.md')?.fileName).toBe('docs/lamp.md');

    const [hit, ...others] = await hitsWith('Polish the Fresnel lens every Tuesday');
    expect(others).toEqual([]);
    expect(hit.documentId).toBe(docs.get('docs/lamp.md')!.id);
    // 127.0.0.1 is no forge the connector knows (and none is configured): no file view to link
    // to, so the document and the citation open the API's signed copy of the file (a Markdown
    // original has no anchors: the citation has none).
    expect(docs.get('docs/lamp.md')!.url).toMatch(
      new RegExp(`^${stack.url}/v1/documents/${hit.documentId}/original\\?sig=`),
    );
    expect(hit.citation).toMatchObject({ kind: 'original' });
    expect(hit.citationUrl).toMatch(
      new RegExp(`^${stack.url}/v1/documents/${hit.documentId}/original\\?sig=[0-9a-z]+-[\\w-]+$`),
    );
    const original = await fetch(hit.citationUrl!);
    expect(original.status).toBe(200);
    expect(await original.text()).toBe(FILES['docs/lamp.md']);
  });

  it('INCREMENTAL after an edit, a rename and a deletion: exactly those documents change', async () => {
    repo.write({
      'docs/fog.md': '# Fog\n\nIn fog, light the beacon and sound the horn three times a minute.\n',
    });
    mkdirSync(join(repo.work, 'docs', 'weather'));
    renameSync(join(repo.work, 'docs', 'storms.md'), join(repo.work, 'docs', 'weather', 'storms.md'));
    rmSync(join(repo.work, 'docs', 'tides.md'));
    repo.commit('fog: three times; storms under weather/; no tides');
    const before = await documentsByPath();

    const run = await sync('INCREMENTAL');
    expect(run).toMatchObject({ status: 'COMPLETED', error: null });
    expect(run.progress).toMatchObject({
      pagesSeen: 4,
      pagesIngested: 2,
      pagesUnchanged: 2,
      pagesDeleted: 2,
      pagesFailed: 0,
    });
    const after = await documentsByPath();
    expect([...after.keys()].sort()).toEqual([
      'README.md',
      'docs/fog.md',
      'docs/lamp.md',
      'docs/weather/storms.md',
    ]);
    expect([...after.keys()].sort()).toEqual(headFiles());
    // The edited file is the same document; the renamed one is a new document at its new path.
    expect(after.get('docs/fog.md')!.id).toBe(before.get('docs/fog.md')!.id);
    expect(after.get('docs/lamp.md')!.id).toBe(before.get('docs/lamp.md')!.id);
    expect(after.get('docs/weather/storms.md')!.id).not.toBe(before.get('docs/storms.md')!.id);

    const fog = await hitsWith('sound the horn three times a minute');
    expect(fog.map((h) => h.documentId)).toEqual([after.get('docs/fog.md')!.id]);
    expect(await hitsWith('sound the horn twice a minute')).toEqual([]);
    const storms = await hitsWith('close the iron shutters of the lantern gallery');
    expect(storms.map((h) => h.documentId)).toEqual([after.get('docs/weather/storms.md')!.id]);
    expect(await hitsWith('harbour gate closes two hours before low tide')).toEqual([]);
  });

  it('a force-pushed history converges to exactly the files at the new head', async () => {
    repo.git('reset', '-q', '--hard', firstCommit);
    repo.write({ 'docs/relief.md': '# Relief\n\nThe relief keeper arrives by boat on the first Monday.\n' });
    repo.commit('rewritten: the handbook plus the relief');

    const run = await sync('INCREMENTAL');
    expect(run).toMatchObject({ status: 'COMPLETED', error: null });
    // Back: fog's first text, storms at its first path, tides; new: relief; gone: weather/storms.
    expect(run.progress).toMatchObject({
      pagesSeen: 6,
      pagesIngested: 4,
      pagesUnchanged: 2,
      pagesDeleted: 1,
      pagesFailed: 0,
    });
    const docs = await documentsByPath();
    expect([...docs.keys()].sort()).toEqual([
      'README.md',
      'docs/fog.md',
      'docs/lamp.md',
      'docs/relief.md',
      'docs/storms.md',
      'docs/tides.md',
    ]);
    expect([...docs.keys()].sort()).toEqual(headFiles());
    expect((await hitsWith('sound the horn twice a minute')).map((h) => h.documentId)).toEqual([
      docs.get('docs/fog.md')!.id,
    ]);
    expect(await hitsWith('sound the horn three times a minute')).toEqual([]);
    expect((await hitsWith('The relief keeper arrives by boat')).length).toBe(1);
    expect((await hitsWith('harbour gate closes two hours before low tide')).length).toBe(1);
    expect((await hitsWith('close the iron shutters of the lantern gallery')).length).toBe(1);
  });

  it('a signed GitHub push webhook starts an INCREMENTAL run by itself; a forged one is refused', async () => {
    const head = repo
      .write({ 'docs/beacon.md': '# Beacon\n\nWind the clockwork of the beacon at dusk.\n' })
      .commit('the beacon');
    const body = JSON.stringify({
      ref: 'refs/heads/main',
      before: firstCommit,
      after: head,
      repository: { full_name: 'keepers/handbook', default_branch: 'main' },
    });
    const deliver = (secret: string) =>
      fetch(`${stack.url}/webhooks/${sourceId}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'push',
          'x-github-delivery': randomUUID(),
          'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
        },
        body,
      });
    const webhook = async () => {
      const { sources } = await stack.query<{
        sources: {
          id: string;
          webhook: { rejectedDeliveries: number; lastEventType: string | null } | null;
        }[];
      }>('query($p: ID!) { sources(projectId: $p) { id webhook { rejectedDeliveries lastEventType } } }', {
        p: projectId,
      });
      return sources.find((s) => s.id === sourceId)!.webhook!;
    };
    const runsBefore = (await runs()).length;

    const forged = await deliver(`${WEBHOOK_SECRET}-not`);
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    // The refusal is counted in the background; once it is, nothing else came of the delivery.
    await expectEventually(async () => expect((await webhook()).rejectedDeliveries).toBe(1));
    expect((await webhook()).lastEventType).toBeNull();
    expect(await runs()).toHaveLength(runsBefore);

    const signed = await deliver(WEBHOOK_SECRET);
    expect(signed.status).toBe(200);
    expect(await signed.json()).toEqual({ status: 'accepted' });
    const started = await expectEventually(
      async () => {
        const all = await runs();
        if (all.length === runsBefore) throw new Error('no run has started yet');
        return all;
      },
      { timeoutMs: 60_000 },
    );
    expect(started).toHaveLength(runsBefore + 1);
    expect(started[0].mode).toBe('INCREMENTAL');
    const run = await stack.runSettled(started[0].id);
    expect(run).toMatchObject({ status: 'COMPLETED', error: null });
    expect(run.progress).toMatchObject({
      pagesSeen: 7,
      pagesIngested: 1,
      pagesUnchanged: 6,
      pagesDeleted: 0,
    });
    expect((await webhook()).lastEventType).toBe('push');

    const docs = await documentsByPath();
    expect([...docs.keys()].sort()).toEqual(headFiles());
    expect((await hitsWith('Wind the clockwork of the beacon at dusk')).map((h) => h.documentId)).toEqual([
      docs.get('docs/beacon.md')!.id,
    ]);
    expect(await runs()).toHaveLength(runsBefore + 1);
  });

  it('never returns the token or the webhook secret, and never logs them', async () => {
    // A wrong token: the forge refuses it, the run fails with a clear error that does not echo it.
    const wrongToken = `glpat-${randomBytes(16).toString('hex')}`;
    const { addSource: wrong } = await stack.query<{ addSource: { id: string } }>(
      'mutation($i: AddSourceInput!) { addSource(input: $i) { id } }',
      {
        i: { projectId, type: 'GIT', name: 'Wrong token', config: { url: repo.httpUrl, token: wrongToken } },
      },
    );
    const refused = await sync('FULL', wrong.id);
    expect(refused.status).toBe('FAILED');
    expect(refused.error).toMatchObject({
      code: 'SOURCE_UNAUTHORIZED',
      message: expect.stringMatching(/^the Git remote refused Trove's credentials \(token\)/),
    });
    expect(JSON.stringify(refused)).not.toContain(wrongToken);

    const { sources } = await stack.query<{
      sources: { id: string; config: Record<string, unknown>; secrets: { field: string; hint: string }[] }[];
    }>('query($p: ID!) { sources(projectId: $p) { id config tokenHint secrets { field hint } } }', {
      p: projectId,
    });
    const source = sources.find((s) => s.id === sourceId)!;
    expect(source.secrets.map((s) => s.field).sort()).toEqual(['token', 'webhookSecret']);
    for (const secret of source.secrets) expect(secret.hint).toMatch(/….*\(\d+ chars\)$/);
    expect(source.config).not.toHaveProperty('token');
    expect(source.config).not.toHaveProperty('webhookSecret');
    const shown = JSON.stringify(sources);
    expect(shown).not.toContain(TOKEN);
    expect(shown).not.toContain(WEBHOOK_SECRET);
    expect(shown).not.toContain(wrongToken);

    const logs = readdirSync(stack.logDir);
    expect(logs).toEqual(expect.arrayContaining(['api.log', 'worker.log']));
    for (const log of logs) {
      const text = readFileSync(join(stack.logDir, log), 'utf8');
      expect(text.length, log).toBeGreaterThan(0);
      expect(text.includes(TOKEN), `the token in ${log}`).toBe(false);
      expect(text.includes(WEBHOOK_SECRET), `the webhook secret in ${log}`).toBe(false);
      expect(text.includes(wrongToken), `the wrong token in ${log}`).toBe(false);
    }
  });

  it('trove sources add git (token from an environment variable, forge named) and sources sync --wait', async () => {
    const project = uniqueName('Git CLI');
    const env = cleanEnv({
      TROVE_API_URL: stack.url,
      TROVE_API_KEY: ADMIN_KEY,
      TROVE_PROJECT: project,
      GIT_TOKEN: TOKEN,
    });
    const trove = (...args: string[]) => runTrove(args, { cwd: scratch, env });
    const created = await trove('projects', 'create', project, '--json');
    expect(created.code, created.stderr).toBe(0);
    const cliProjectId = (JSON.parse(created.stdout) as { id: string }).id;

    const added = await trove(
      'sources',
      'add',
      'git',
      '--name',
      'Handbook mirror',
      '--url',
      repo.httpUrl,
      '--token-env',
      'GIT_TOKEN',
      '--forge',
      'github',
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^Added Git repository source Handbook mirror \S+ \(token .+\)/);
    expect(added.stdout + added.stderr).not.toContain(TOKEN);

    const synced = await trove('sources', 'sync', 'Handbook mirror', '--mode', 'FULL', '--wait', '--json');
    expect(synced.code, synced.stderr).toBe(0);
    const run = JSON.parse(synced.stdout) as SyncRunView;
    expect(run.status).toBe('COMPLETED');
    expect(run.progress).toMatchObject({ pagesSeen: headFiles().length, pagesIngested: headFiles().length });

    // A named forge: the citation is the forge's file view at the synced commit (https, the
    // remote's host and port), at the heading.
    const head = repo.git('rev-parse', 'HEAD').trim();
    const host = new URL(repo.httpUrl).host;
    const [hit] = (await search('Polish the Fresnel lens every Tuesday', cliProjectId)).filter((h) =>
      h.text.includes('Fresnel'),
    );
    expect(hit.citation?.kind).toBe('source');
    expect(hit.citationUrl).toBe(`https://${host}/handbook/blob/${head}/docs/lamp.md#maintenance`);
  });
});

describe('a Git repository from the dashboard and MCP (their forms and tools come from its definition)', () => {
  it('the dashboard adds it from the generated form and follows its FULL sync to COMPLETED', async () => {
    const project = await stack.createProject(uniqueName('Git dashboard'));
    const browser = await launchChromium();
    try {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
      const problems: string[] = [];
      watchPage(page, stack.url, problems);
      await signIn(page, stack.url, ADMIN_KEY);
      await page.goto(`${stack.url}/projects/${project}/sources`);
      await page.getByRole('button', { name: 'Add source', exact: true }).click();
      await page
        .getByRole('group', { name: 'Source type' })
        .getByRole('button', { name: 'Git repository', exact: true })
        .click();
      const form = page.getByRole('form', { name: 'Add a Git repository source' });
      await form.getByLabel(/^Name/).fill('Lighthouse handbook');
      await form.getByLabel(/^URL/).fill(repo.httpUrl);
      // The token is optional (public remotes need none): it waits under Advanced.
      await form.getByRole('button', { name: /^Advanced/ }).click();
      await form.getByLabel(/^Token/).fill(TOKEN);
      await form.getByRole('button', { name: 'Add source' }).click();
      await page.getByRole('heading', { name: 'Lighthouse handbook' }).waitFor();
      const card = await page
        .getByTestId('source-card')
        .filter({ hasText: 'Lighthouse handbook' })
        .textContent();
      // The card's summary and the webhook panel come from Git's definition: no Notion instructions.
      expect(card).toContain('GIT');
      expect(card).toContain(repo.httpUrl);
      const webhook = page.getByTestId('webhook-panel');
      expect(await webhook.getByTestId('webhook-instructions').textContent()).toContain('push webhook');
      expect(await webhook.textContent()).toContain('webhookSecret');
      expect(await webhook.textContent()).not.toMatch(/notion|verification token/i);
      await page.getByRole('button', { name: 'Full sync' }).click();
      await expect
        .poll(() => page.getByTestId('sync-status').textContent(), { timeout: 180_000, interval: 500 })
        .toBe('COMPLETED');
      expect(Number(await page.getByTestId('progress-ingested').textContent())).toBe(headFiles().length);
      expect(await page.content()).not.toContain(TOKEN);
      expect(problems, problems.join(' | ')).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('MCP add_source adds it, sync_source starts a run and get_sync_run follows it to COMPLETED', async () => {
    const project = uniqueName('Git MCP');
    await stack.createProject(project);
    const client = new Client({ name: 'trove-git-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), {
        requestInit: { headers: { 'X-API-Key': ADMIN_KEY } },
      }),
    );
    const ok = async <T>(name: string, args: Record<string, unknown>): Promise<T & { text: string }> => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
      expect(result.isError, text).toBeFalsy();
      return { ...(result.structuredContent as T), text };
    };
    try {
      const types = await ok<{
        types: { type: string; fields: { name: string; secret: boolean }[]; webhookSetup: unknown }[];
      }>('list_source_types', {});
      const git = types.types.find((info) => info.type === 'GIT')!;
      expect(git.fields).toContainEqual(expect.objectContaining({ name: 'token', secret: true }));
      expect(git.webhookSetup).toMatchObject({ path: '/webhooks/{sourceId}', verificationHandshake: false });
      expect(types.text).toContain('webhook at /webhooks/{sourceId}: Add a push webhook');
      const added = await ok<{ id: string; type: string }>('add_source', {
        type: 'git',
        name: 'Handbook by MCP',
        config: { url: repo.httpUrl, token: TOKEN },
        project,
      });
      expect(added.type).toBe('GIT');
      expect(added.text).not.toContain(TOKEN);
      const started = await ok<{ runId: string }>('sync_source', { source: added.id, mode: 'FULL' });
      await expectEventually(
        async () => {
          const run = await ok<{ status: string; progress: { pagesIngested: number } }>('get_sync_run', {
            run_id: started.runId,
          });
          expect(run.status).toBe('COMPLETED');
          expect(run.progress.pagesIngested).toBe(headFiles().length);
        },
        { timeoutMs: 180_000 },
      );
    } finally {
      await client.close();
    }
  });
});

describe('a repository whose fetch makes git print a NUL byte on stderr', () => {
  it("ends FAILED with a readable error, git's stderr once and bounded, within three attempts", async () => {
    // A partial clone inside the roots whose promisor remote (holding its blobs) is outside them:
    // the lazy fetch is refused on the serving side, and git's stderr then carries a NUL byte.
    const outside = join(scratch, 'outside');
    mkdirSync(outside, { recursive: true });
    git(outside, 'init', '-q', '-b', 'main');
    for (const [path, content] of Object.entries(FILES)) {
      mkdirSync(join(outside, path, '..'), { recursive: true });
      writeFileSync(join(outside, path), content);
    }
    git(outside, 'add', '.');
    git(outside, '-c', 'user.name=Keeper', '-c', 'user.email=keeper@example.com', 'commit', '-qm', 'blobs');
    git(outside, 'config', 'uploadpack.allowFilter', 'true');
    const partial = join(scratch, 'roots', 'partial');
    mkdirSync(join(scratch, 'roots'), { recursive: true });
    git(scratch, 'clone', '-q', '--filter=blob:none', '--no-checkout', `file://${outside}`, partial);

    const project = await stack.createProject(uniqueName('Git NUL'));
    const { addSource } = await stack.query<{ addSource: { id: string } }>(
      'mutation($i: AddSourceInput!) { addSource(input: $i) { id } }',
      { i: { projectId: project, type: 'GIT', name: 'Partial clone', config: { url: partial } } },
    );
    const run = await sync('FULL', addSource.id);
    expect(run.status).toBe('FAILED');
    const message = run.error!.message;
    // Readable: no NUL (nor its replacement), no control characters; git's words, once.
    // eslint-disable-next-line no-control-regex -- control characters are what must not be there
    expect(message).not.toMatch(/[\u0000-\u0008\u000B-\u001F\uFFFD]/);
    expect(message).toMatch(/^the repository is a partial clone .*: git fetch failed \(128\): /);
    expect(message.split('could not fetch').length - 1).toBe(1);
    expect(message.length).toBeLessThanOrEqual(1200);

    // No activity of the sync was attempted more than three times (before: failSync, refused by
    // PostgreSQL for the NUL, was retried forever and the run stayed RUNNING).
    const connection = await Connection.connect({ address: TEMPORAL_ADDRESS });
    try {
      const temporal = new TemporalClient({ connection });
      const { events } = await temporal.workflow.getHandle(syncWorkflowId(addSource.id)).fetchHistory();
      const attempts = events!.map((e) => e.activityTaskStartedEventAttributes?.attempt ?? 0);
      expect(Math.max(...attempts)).toBeGreaterThanOrEqual(1);
      expect(Math.max(...attempts)).toBeLessThanOrEqual(3);
    } finally {
      await connection.close();
    }
  });
});
