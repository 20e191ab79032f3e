import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog, type CatalogRepositories } from '@trove/catalog';
import { maskSecret, SecretBox } from '@trove/config';
import {
  DocumentStatus,
  newSyncRun,
  type SourceConnectors,
  sourceWithConfig,
  SourceStatus,
  SyncMode,
  type SyncRun,
} from '@trove/domain';
import { createSyncActivities, type SyncPlan } from '@trove/ingest-activities';
import { ChunkIndex, createElasticsearchClient } from '@trove/search';
import {
  createSourceConnectors,
  createSourceDefinitions,
  registeredSourceTypes,
} from '@trove/source-definitions';
import { LocalBlobStore } from '@trove/storage';
import {
  DATABASE_URL,
  dropTestData,
  ES_URL,
  schemaName,
  TEST_SECRET_KEY,
  uniqueName,
} from '../../support/services';

// A GIT source through the worker's wiring (the registry's connectors, a catalog that knows the
// registered types) and the generic sync's plan: a commit that edits, renames and deletes is
// planned as exactly those changes. Real PostgreSQL, Elasticsearch and git; no ingest.
const name = uniqueName('git-source');
const root = mkdtempSync(join(tmpdir(), `${name}-`));
const bare = join(root, 'repos', 'handbook.git');
const work = join(root, 'work');
const es = createElasticsearchClient(ES_URL);
const box = new SecretBox(TEST_SECRET_KEY);
const settings = {
  folders: { roots: [join(root, 'repos')], cacheDir: join(root, 'folder-cache') },
  secrets: box,
};
const env = { TROVE_GIT_CACHE_DIR: join(root, 'git-cache') };
let catalog: CatalogRepositories;
let connectors: SourceConnectors;
let activities: ReturnType<typeof createSyncActivities>;
let sourceId: string;

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@trove.invalid', ...args], {
    cwd: work,
    env: { PATH: process.env['PATH'], HOME: root, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    encoding: 'utf8',
  });
}

function commit(files: Record<string, string>, message: string): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(work, path, '..'), { recursive: true });
    writeFileSync(join(work, path), text);
  }
  git('add', '-A');
  git('commit', '-q', '-m', message);
  git('push', '-q', 'origin', 'HEAD:main');
}

async function plan(mode: SyncMode): Promise<{ run: SyncRun; changed: string[]; planned: SyncPlan }> {
  const source = await catalog.sources.requireSource(sourceId);
  const run = await catalog.runs.createRun(newSyncRun(source, mode));
  const planned: SyncPlan = await new MockActivityEnvironment().run(activities.planSync, { runId: run.id });
  const changed = await activities.readPlanBatch({ changedKey: planned.changedKey, offset: 0, limit: 100 });
  return { run: (await catalog.runs.getRun(run.id))!, changed, planned };
}

/** What an ingest would leave: every document READY at the version the connector lists. */
async function markAllIngested(): Promise<void> {
  const source = await catalog.sources.requireSource(sourceId);
  const listing = await connectors.for(source).discover(source, { known: new Set() });
  const versions = new Map(listing.items.map((item) => [item.externalId, item.version]));
  for (const item of await catalog.documents.sourceItems(sourceId)) {
    await catalog.lifecycle.db
      .updateTable('documents')
      .set({ status: DocumentStatus.READY, version: versions.get(item.externalId) ?? null })
      .where('id', '=', item.id)
      .execute();
  }
}

beforeAll(async () => {
  mkdirSync(work, { recursive: true });
  execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', bare]);
  git('init', '-q', '--initial-branch=main');
  git('remote', 'add', 'origin', bare);
  commit(
    { 'README.md': '# Handbook\n', 'docs/guide.md': '# Guide\n\nInstall.\n', 'notes.txt': 'notes\n' },
    'first',
  );
  catalog = openCatalog({
    url: DATABASE_URL,
    schema: schemaName(name),
    sourceTypes: registeredSourceTypes(settings, env),
  });
  await catalog.lifecycle.ensure();
  const blobs = new LocalBlobStore(join(root, 'blobs'));
  const chunkIndex = new ChunkIndex(es, name, 384);
  await chunkIndex.ensure();
  connectors = createSourceConnectors(settings, { blobs }, env);
  const { writeChecks, projects, sources, runs, documents } = catalog;
  activities = createSyncActivities({
    writeChecks,
    projects,
    sources,
    runs,
    documents,
    blobs,
    chunkIndex,
    connectors,
  });
  const project = await catalog.projects.createProject(name);
  const config = await createSourceDefinitions(settings, env).configure(
    'GIT',
    { url: bare, webhookSecret: 'a-webhook-secret-of-some-length' },
    (plain) => ({ sealed: box.encrypt(plain), hint: maskSecret(plain) }),
  );
  sourceId = randomUUID();
  const now = new Date().toISOString();
  await catalog.sources.createSource(
    sourceWithConfig(
      {
        id: sourceId,
        projectId: project.id,
        type: 'GIT',
        name: 'handbook',
        status: SourceStatus.ACTIVE,
        createdAt: now,
        updatedAt: now,
      },
      config,
    ),
  );
}, 120_000);

afterAll(async () => {
  await catalog?.lifecycle.close();
  await es.close();
  await dropTestData(name);
  rmSync(root, { recursive: true, force: true });
});

describe('a GIT source planned by the generic sync', () => {
  it('the first plan creates a document per supported file and records the synced commit', async () => {
    const { run, changed, planned } = await plan(SyncMode.FULL);
    const items = await catalog.documents.sourceItems(sourceId);
    expect(items.map((item) => item.externalId).sort()).toEqual(['README.md', 'docs/guide.md', 'notes.txt']);
    expect(new Set(changed)).toEqual(new Set(items.map((item) => item.id)));
    expect(run.progress).toMatchObject({ pagesSeen: 3, pagesDeleted: 0 });
    expect(planned.watermark).toMatch(new RegExp(` ${git('rev-parse', 'HEAD').trim()}$`));
  });

  it('after a commit that edits, renames and deletes, plans exactly those changes', async () => {
    await markAllIngested();
    const before = new Map(
      (await catalog.documents.sourceItems(sourceId)).map((item) => [item.externalId, item.id]),
    );
    git('mv', 'docs/guide.md', 'docs/manual.md');
    git('rm', '-q', 'notes.txt');
    commit({ 'README.md': '# Handbook\n\nEdited.\n' }, 'edit, rename, delete');

    const { run, changed } = await plan(SyncMode.INCREMENTAL);
    const after = new Map(
      (await catalog.documents.sourceItems(sourceId)).map((item) => [item.externalId, item.id]),
    );
    expect([...after.keys()].sort()).toEqual(['README.md', 'docs/manual.md']);
    // The rename is a new document and a removed one; the edit keeps its document.
    expect(new Set(changed)).toEqual(new Set([before.get('README.md'), after.get('docs/manual.md')]));
    expect(after.get('README.md')).toBe(before.get('README.md'));
    expect(run.progress).toMatchObject({ pagesSeen: 2, pagesDeleted: 2, pagesUnchanged: 0 });
  });
});
