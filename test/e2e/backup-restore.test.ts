import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultWorkspace, DEFAULT_IDS, NotionEmulator } from '@trove/notion-emulator';
import { cleanEnv, runTrove, type CliRun } from '../support/cli';
import { PrivateServices } from '../support/private-services';
import { LOCAL_DIR, ROOT, schemaName, uniqueName } from '../support/services';
import { ADMIN_KEY, TroveStack } from '../support/stack';

/**
 * `trove backup` of a running install with uploads, a folder source and a Notion source, and
 * `trove restore` into a fresh install (its own PostgreSQL, Elasticsearch and blob folder): the
 * same documents, chunk counts and top hits, and the next INCREMENTAL sync of each source does
 * no work. Both installs run on private services: Elasticsearch needs path.repo for snapshots.
 */
const name = uniqueName('backup');
const backupRoot = mkdtempSync(join(tmpdir(), 'trove-backups-'));
const backupDir = join(backupRoot, 'first');
const restoredBlobs = join(mkdtempSync(join(tmpdir(), 'trove-restored-')), 'blobs');
const originalBlobs = join(mkdtempSync(join(tmpdir(), 'trove-original-')), 'blobs');
const handbook = join(ROOT, 'samples', 'handbook-site');
// Both installs must share it: the Notion tokens in the catalog are encrypted with it.
const secretKey = randomBytes(32).toString('base64');
const emulator = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: Infinity });
const original = new PrivateServices({ esPathRepo: backupRoot, esQuickStart: true });
const fresh = new PrivateServices({ esPathRepo: backupRoot, esQuickStart: true });
let stack: TroveStack | undefined;
let restored: TroveStack | undefined;
let projectId: string;
const sources: Record<'folder' | 'notion', string> = { folder: '', notion: '' };
const uploads: Record<string, string> = {};
const QUERIES = [
  'how do I roll back a release',
  'escalation channel on-call contacts',
  'search basics',
  'deploy runbook',
];

const AUDIT = `query($action: String!) { auditEvents(first: 10, filter: { action: $action }) {
  nodes { action outcome code detail actor { kind name } } } }`;

interface AuditEntry {
  action: string;
  outcome: string;
  code: string | null;
  detail: Record<string, unknown>;
  actor: { kind: string; name: string };
}

/** The install's audit entries of one action, newest first. */
async function auditOf(app: TroveStack, action: string): Promise<AuditEntry[]> {
  const data = await app.query<{ auditEvents: { nodes: AuditEntry[] } }>(AUDIT, { action });
  return data.auditEvents.nodes;
}

interface Snapshot {
  documents: { id: string; fileName: string; status: string; chunkCount: number; sourceId: string | null }[];
  hits: Record<string, { documentId: string; chunkId: string }[]>;
  chunks: number;
  /** The chunk alias's indices and whether each is the write index. */
  aliases: [string, boolean | undefined][];
}

function appEnv(services: PrivateServices, blobDir: string): Record<string, string> {
  return {
    TROVE_NOTION_REQUESTS_PER_SECOND: '50',
    TROVE_FOLDER_ROOTS: handbook,
    TROVE_FOLDER_CACHE_DIR: join(blobDir, '..', 'folder-cache'),
    TROVE_SECRET_KEY: secretKey,
    TROVE_BLOB_DIR: blobDir,
    TROVE_ES_URL: services.esUrl,
    TROVE_DATABASE_URL: services.databaseUrl,
  };
}

/** `trove backup|restore` with an install's server settings, as an operator runs it beside the api. */
function trove(args: string[], services: PrivateServices, blobDir: string): Promise<CliRun> {
  return runTrove(args, {
    cwd: ROOT,
    env: cleanEnv({
      ...appEnv(services, blobDir),
      TROVE_LOCAL_DIR: LOCAL_DIR,
      TROVE_INDEX_PREFIX: name,
      TROVE_DATABASE_SCHEMA: schemaName(name),
      TROVE_ADMIN_API_KEY: ADMIN_KEY,
    }),
  });
}

async function state(app: TroveStack): Promise<Snapshot> {
  const { documents } = await app.query<{ documents: { nodes: Snapshot['documents'] } }>(
    'query($p: ID!) { documents(projectId: $p, first: 500) { nodes { id fileName status chunkCount sourceId } } }',
    { p: projectId },
  );
  const hits: Snapshot['hits'] = {};
  for (const query of QUERIES) {
    const { search } = await app.query<{ search: { hits: { documentId: string; chunkId: string }[] } }>(
      'query($i: SearchInput!) { search(input: $i) { hits { documentId chunkId } } }',
      { i: { projectId, query, limit: 5, mode: 'HYBRID' } },
    );
    hits[query] = search.hits;
  }
  const sorted = [...documents.nodes].sort((a, b) => a.id.localeCompare(b.id));
  const es = new Client({ node: app.services.esUrl });
  const alias = await es.indices.getAlias({ name: `${name}-chunks` });
  await es.close();
  return {
    documents: sorted,
    hits,
    chunks: sorted.reduce((sum, d) => sum + d.chunkCount, 0),
    aliases: Object.entries(alias).map(([index, { aliases }]) => [
      index,
      aliases?.[`${name}-chunks`]?.is_write_index,
    ]),
  };
}

async function sync(app: TroveStack, sourceId: string, mode: 'FULL' | 'INCREMENTAL') {
  const { syncSource } = await app.query<{ syncSource: { id: string } }>(
    'mutation($id: ID!, $mode: SyncMode!) { syncSource(id: $id, mode: $mode) { id } }',
    { id: sourceId, mode },
  );
  return app.runSettled(syncSource.id);
}

async function originalBytes(app: TroveStack, documentId: string): Promise<Buffer> {
  const response = await fetch(`${app.url}/v1/documents/${documentId}/original`, {
    headers: { 'X-API-Key': ADMIN_KEY },
  });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

let before: Snapshot;
let emulatorUrl: string;

beforeAll(async () => {
  // Elasticsearch runs as its own user when the tests run as root: it must reach the backups.
  chmodSync(backupRoot, 0o755);
  emulatorUrl = await emulator.start();
  await Promise.all([
    original.start('elasticsearch', 'postgresql'),
    fresh.start('elasticsearch', 'postgresql'),
  ]);
  stack = new TroveStack(
    { ...appEnv(original, originalBlobs), TROVE_NOTION_API_URL: emulatorUrl },
    { esUrl: original.esUrl, databaseUrl: original.databaseUrl },
    name,
  );
  await stack.start();
  projectId = await stack.createProject('Backed up');
}, 600_000);

afterAll(async () => {
  await stack?.stop().catch(() => undefined);
  await restored?.stop();
  await emulator.stop();
  await Promise.all([original.cleanup(), fresh.cleanup()]);
  for (const dir of [backupRoot, join(restoredBlobs, '..'), join(originalBlobs, '..')])
    rmSync(dir, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('an install gets uploads, a folder source and a Notion source', async () => {
    const app = stack!;
    for (const file of readdirSync(join(ROOT, 'samples', 'quickstart'))) {
      const upload = await app.upload(
        projectId,
        file,
        readFileSync(join(ROOT, 'samples', 'quickstart', file)),
      );
      expect(upload.status).toBe(202);
      uploads[file] = upload.body.id as string;
      expect((await app.settled(uploads[file])).status).toBe('READY');
    }
    sources.folder = (
      await app.addSource({ projectId, name: 'Handbook', type: 'FOLDER', config: { path: handbook } })
    ).id;
    sources.notion = (
      await app.addSource({
        projectId,
        name: 'Wiki',
        type: 'NOTION',
        config: { token: emulator.token, rootPageIds: [DEFAULT_IDS.onboarding] },
      })
    ).id;
    for (const sourceId of Object.values(sources)) {
      const run = await sync(app, sourceId, 'FULL');
      expect(run).toMatchObject({ status: 'COMPLETED', progress: { pagesFailed: 0 } });
      expect(run.progress.pagesIngested).toBeGreaterThan(0);
    }
    before = await state(app);
    expect(before.documents.every((d) => d.status === 'READY')).toBe(true);
    expect(new Set(before.documents.map((d) => d.sourceId))).toEqual(
      new Set([null, sources.folder, sources.notion]),
    );
    expect(Object.values(before.hits).every((hits) => hits.length > 0)).toBe(true);
    expect(before.aliases).toEqual([[expect.stringMatching(new RegExp(`^${name}-chunks-v\\d`)), true]]);
  }, 900_000);

  it('the running install is backed up, secrets left out', async () => {
    const backup = await trove(['backup', backupDir, '--json'], original, originalBlobs);
    expect(backup.stderr).toMatch(/elasticsearch: snapshot SUCCESS/);
    expect(backup.code, backup.stderr).toBe(0);
    const manifest = JSON.parse(backup.stdout);
    expect(manifest.catalog.counts).toMatchObject({
      documents: before.documents.length,
      chunks: before.chunks,
      sources: 2,
    });
    expect(manifest.elasticsearch.aliases).toEqual([
      expect.objectContaining({ alias: `${name}-chunks`, isWriteIndex: true }),
    ]);
    expect(
      manifest.elasticsearch.indices.reduce((n: number, i: { documents: number }) => n + i.documents, 0),
    ).toBe(before.chunks);
    // Secrets stay out of the backup: the settings file names none of their values.
    const config = readFileSync(join(backupDir, 'config.env'), 'utf8');
    expect(config).toContain(`TROVE_INDEX_PREFIX=${name}`);
    expect(config).not.toContain(secretKey);
    expect(config).not.toContain(ADMIN_KEY);
    expect(manifest.config.omitted).toEqual(
      expect.arrayContaining(['TROVE_SECRET_KEY', 'TROVE_ADMIN_API_KEY']),
    );

    // A backup never lands on another one.
    const again = await trove(['backup', backupDir], original, originalBlobs);
    expect(again).toMatchObject({ code: 2 });
    expect(again.stderr).toMatch(/is not empty.*BACKUP_BAD_FOLDER/s);

    // Both are in the install's audit log, by the operator's account (they run beside the api).
    const [refused, done] = await auditOf(stack!, 'backup');
    expect(done).toMatchObject({
      outcome: 'SUCCESS',
      code: null,
      actor: { kind: 'SYSTEM', name: expect.stringMatching(/^trove backup, run by \S+@\S+$/) },
      detail: { folder: backupDir, documents: before.documents.length },
    });
    expect(refused).toMatchObject({
      outcome: 'FAILURE',
      code: 'BACKUP_BAD_FOLDER',
      detail: { folder: backupDir, reason: expect.stringContaining('is not empty') },
    });
  });

  it('refuses to back up a busy install unless --allow-running, which says so', async () => {
    const app = stack!;
    // With the worker down, an upload stays PENDING: the install is busy.
    await app.killWorker();
    const upload = await app.upload(
      projectId,
      'late.md',
      Buffer.from('# Late\n\nA note uploaded while the worker was down.\n'),
    );
    expect(upload.status).toBe(202);
    const refused = await trove(['backup', join(backupRoot, 'busy')], original, originalBlobs);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /the install is busy \(.*PENDING.*\): wait until it is idle, or pass --allow-running.*BACKUP_INSTALL_BUSY/s,
    );
    const allowed = await trove(
      ['backup', join(backupRoot, 'busy-allowed'), '--allow-running', '--json'],
      original,
      originalBlobs,
    );
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stderr).toMatch(/warning: backing up while busy \(.*PENDING/);
    expect(JSON.parse(allowed.stdout).catalog.counts.documents).toBe(before.documents.length + 1);
    // The worker back: the late upload is ingested, so no workflow of this install is left waiting
    // for the restored install's worker on the same task queue.
    app.startWorker();
    expect((await app.settled(upload.body.id as string)).status).toBe('READY');
  });

  it('a partial backup is refused with a clear error', async () => {
    const partial = join(backupRoot, 'partial');
    cpSync(backupDir, partial, { recursive: true });
    rmSync(join(partial, 'manifest.json'));
    const run = await trove(['restore', partial], fresh, restoredBlobs);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/holds no manifest\.json: not a backup, or one that did not finish/);
  });

  it('restores into a fresh install with the same documents, chunks and top hits', async () => {
    // The original install goes away: its worker would otherwise poll the same task queue.
    await stack!.stop();
    stack = undefined;
    const run = await trove(['restore', backupDir], fresh, restoredBlobs);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/elasticsearch: restoring indices: 1\/1 primary shards started/);
    expect(existsSync(join(restoredBlobs, 'originals'))).toBe(true);
    // The alias is restored itself (the api would otherwise re-create it at start, hiding its loss).
    const es = new Client({ node: fresh.esUrl });
    const aliases = await es.indices.getAlias({ name: `${name}-chunks` }, { ignore: [404] });
    await es.close();
    expect(
      Object.entries(aliases).map(([index, { aliases: a }]) => [
        index,
        a?.[`${name}-chunks`]?.is_write_index,
      ]),
    ).toEqual(before.aliases);

    restored = new TroveStack(
      { ...appEnv(fresh, restoredBlobs), TROVE_NOTION_API_URL: emulatorUrl },
      { esUrl: fresh.esUrl, databaseUrl: fresh.databaseUrl },
      name,
    );
    await restored.start();
    const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8'));
    expect(await auditOf(restored, 'restore')).toEqual([
      expect.objectContaining({
        outcome: 'SUCCESS',
        actor: expect.objectContaining({ name: expect.stringMatching(/^trove restore, run by /) }),
        detail: expect.objectContaining({ folder: backupDir, backupCreatedAt: manifest.createdAt }),
      }),
    ]);
    const after = await state(restored);
    expect(after.documents).toEqual(before.documents);
    expect(after.chunks).toBe(before.chunks);
    expect(after.hits).toEqual(before.hits);
    expect(after.aliases).toEqual(before.aliases);
    for (const file of Object.keys(uploads)) {
      expect(await originalBytes(restored, uploads[file])).toEqual(
        readFileSync(join(ROOT, 'samples', 'quickstart', file)),
      );
    }
  });

  it('the next INCREMENTAL sync of each source does no work', async () => {
    for (const sourceId of Object.values(sources)) {
      const run = await sync(restored!, sourceId, 'INCREMENTAL');
      expect(run).toMatchObject({
        status: 'COMPLETED',
        progress: { pagesIngested: 0, pagesDeleted: 0, pagesFailed: 0, chunksEmbedded: 0 },
      });
    }
    expect((await state(restored!)).documents).toEqual(before.documents);
  });

  it('refuses to restore over a non-empty install unless --force', async () => {
    const run = await trove(['restore', backupDir], fresh, restoredBlobs);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/the target install is not empty .*RESTORE_TARGET_NOT_EMPTY/s);

    // With --force (the install's apps stopped first, its data left), the restore replaces it.
    await restored!.stop({ keepData: true });
    restored = undefined;
    const forced = await trove(['restore', backupDir, '--force'], fresh, restoredBlobs);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toMatch(/--force: removing /);
    restored = new TroveStack(
      { ...appEnv(fresh, restoredBlobs), TROVE_NOTION_API_URL: emulatorUrl },
      { esUrl: fresh.esUrl, databaseUrl: fresh.databaseUrl },
      name,
    );
    await restored.start();
    const again = await state(restored);
    expect(again.documents).toEqual(before.documents);
    expect(again.chunks).toBe(before.chunks);
    expect(again.hits).toEqual(before.hits);
  });
});
