import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Client as ElasticsearchClient } from '@elastic/elasticsearch';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildZip } from '../../libs/parsing/src/archive/zip-fixtures.testing';
import { defaultWorkspace, DEFAULT_IDS, NotionEmulator } from '@trove/notion-emulator';
import pg from 'pg';
import { DATABASE_URL, ES_URL, expectEventually, schemaName, TEMPORAL_ADDRESS } from '../support/services';
import { addSourceMutation } from '../support/sources';
import { BLOB_CANARY_FILE, TroveStack } from '../support/stack';

/**
 * Deleting a project is one durable operation: from the first moment every write is refused, and
 * once it is gone nothing of it remains anywhere (catalog, chunk index, blob folder, unpacked
 * archive cache, Temporal schedules and workflows), even with a sync, uploads and a webhook
 * racing the deletion. Removing a source cleans up the same way.
 */
const scratch = mkdtempSync(join(tmpdir(), 'trove-deletion-e2e-'));
const cacheDir = join(scratch, 'cache');
const emulator = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: Infinity });
let stack: TroveStack;
let es: ElasticsearchClient;
let temporal: TemporalClient;

/** Markdown files, each a few hundred words, so a sync of many takes a while to index. */
function markdownFiles(prefix: string, count: number): { path: string; data: string }[] {
  return Array.from({ length: count }, (_, i) => ({
    path: `${prefix}/page-${String(i).padStart(3, '0')}.md`,
    data:
      `# ${prefix} page ${i}\n\n` +
      Array.from(
        { length: 8 },
        (_, p) =>
          `## Section ${p}\n\nParagraph ${p} of page ${i} in ${prefix}: the harbour crane ${i * 7 + p} ` +
          `lifts container ${i}-${p} while the tide table for berth ${p} shows ${i + p} metres. `.repeat(4),
      ).join('\n\n'),
  }));
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/** Records of the project (or its sources) left in the catalog tables and the chunk index. */
async function catalogHits(projectId: string, sourceIds: string[]): Promise<Record<string, number>> {
  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  const counts: Record<string, number> = {};
  try {
    const schema = schemaName(stack.name);
    const count = async (table: string, where: string) => {
      const result = await db.query(`select count(*)::int as n from "${schema}".${table} where ${where}`, [
        projectId,
        sourceIds,
      ]);
      counts[table] = result.rows[0].n as number;
    };
    await count('projects', 'id = $1 and $2::text[] is not null');
    await count('sources', 'project_id = $1 or id = any($2)');
    await count('documents', 'project_id = $1 or source_id = any($2)');
    await count('sync_runs', 'project_id = $1 or source_id = any($2)');
    await count('webhook_events', 'source_id = any($2) and $1::text is not null');
  } finally {
    await db.end();
  }
  await es.indices.refresh({ index: `${stack.name}-chunks` });
  counts.chunks = (
    await es.count({
      index: `${stack.name}-chunks`,
      query: { bool: { should: [{ term: { projectId } }] } },
    })
  ).count;
  return counts;
}

async function runningWorkflows(): Promise<string[]> {
  const ids: string[] = [];
  for await (const workflow of temporal.workflow.list({
    query: `TaskQueue="${stack.name}" AND ExecutionStatus="Running"`,
  }))
    ids.push(workflow.workflowId);
  return ids;
}

async function scheduleIds(): Promise<string[]> {
  const ids: string[] = [];
  for await (const schedule of temporal.schedule.list()) ids.push(schedule.scheduleId);
  return ids;
}

async function errorCode(query: string, variables: Record<string, unknown>): Promise<unknown> {
  const body = await stack.gql(query, variables);
  return body.errors?.[0]?.extensions?.code ?? 'NO_ERROR';
}

const SYNC = 'mutation($id: ID!) { syncSource(id: $id, mode: FULL) { id } }';
const SCHEDULE = 'mutation($s: ID!) { setSyncSchedule(sourceId: $s, intervalMinutes: 60) { id } }';
const PROJECT = 'query($id: ID!) { project(id: $id) { id name status } }';

beforeAll(async () => {
  mkdirSync(cacheDir);
  for (const file of markdownFiles('manual', 80)) {
    mkdirSync(join(scratch, 'manual'), { recursive: true });
    writeFileSync(join(scratch, file.path), file.data);
  }
  const emulatorUrl = await emulator.start();
  stack = new TroveStack({
    TROVE_NOTION_API_URL: emulatorUrl,
    TROVE_NOTION_REQUESTS_PER_SECOND: '50',
    TROVE_FOLDER_ROOTS: scratch,
    TROVE_FOLDER_CACHE_DIR: cacheDir,
    TROVE_MAX_UPLOAD_BYTES: String(8 * 1024 * 1024),
  });
  await stack.start();
  es = new ElasticsearchClient({ node: ES_URL });
  temporal = new TemporalClient({ connection: await Connection.connect({ address: TEMPORAL_ADDRESS }) });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await emulator.stop();
  await es?.close();
  await temporal?.connection.close();
});

describe('deleting a project', () => {
  it('while a folder sync, an archive sync, uploads and a webhook race it, leaves nothing behind', async () => {
    const projectId = await stack.createProject('Deletion race');

    // An uploaded document, fully indexed: chunks and an original on disk.
    const upload = await stack.upload(projectId, 'notes.md', markdownFiles('notes', 1)[0].data);
    expect(upload.status).toBe(202);
    expect((await stack.settled(upload.body.id as string)).status).toBe('READY');

    // A large server-side folder and a large archive, both syncing; the archive is unpacked to the cache.
    const folder = await stack.addSource({
      projectId,
      name: 'Manual',
      type: 'FOLDER',
      config: { path: join(scratch, 'manual'), format: 'FILES' },
    });
    const folderRun = await stack.query<{ syncSource: { id: string } }>(SYNC, { id: folder.id });
    const archive = await stack.uploadArchive(
      projectId,
      'guide.zip',
      await buildZip(markdownFiles('guide', 80)),
    );
    expect(archive.status).toBe(202);
    const archiveSourceId = archive.body.source!.id;
    await stack.query(SCHEDULE, { s: archiveSourceId });

    // A Notion source whose webhook subscription is verified.
    const notion = await stack.addSource({
      projectId,
      name: 'Wiki',
      type: 'NOTION',
      config: { token: emulator.token },
    });
    const hook = `${stack.url}/webhooks/notion/${notion.id}`;
    expect((await emulator.sendVerificationRequest(hook)).status).toBe(200);
    const sourceIds = [folder.id, archiveSourceId, notion.id];

    // Delete once both syncs are indexing pages, while they still have plenty left to do.
    await expectEventually(
      async () => {
        const runs = await Promise.all(
          [folderRun.syncSource.id, archive.body.run!.id].map((id) =>
            stack.query<{ syncRun: { status: string; progress: { pagesIngested: number } } }>(
              'query($id: ID!) { syncRun(id: $id) { status progress { pagesIngested } } }',
              { id },
            ),
          ),
        );
        for (const { syncRun } of runs) expect(syncRun.status).toBe('RUNNING');
        expect(runs.some(({ syncRun }) => syncRun.progress.pagesIngested > 0)).toBe(true);
      },
      { timeoutMs: 240_000, intervalMs: 500 },
    );
    expect(filesUnder(cacheDir).length).toBeGreaterThan(0);

    const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const racingUploads = [0, 100, 300].map(async (delay, i) => {
      await later(delay);
      return stack.upload(projectId, `race-${i}.md`, markdownFiles(`race${i}`, 1)[0].data);
    });
    const racingWebhook = later(150).then(() =>
      emulator.deliverWebhook(hook, { type: 'page.content_updated', entityId: DEFAULT_IDS.onboarding }),
    );
    const deleted = await stack.query<{ deleteProject: boolean }>(
      'mutation($id: ID!) { deleteProject(id: $id) }',
      { id: projectId },
    );
    expect(deleted.deleteProject).toBe(true);

    // The mutation answered before the clean-up ran: from now on the project shows DELETING (not
    // gone yet) and refuses every write.
    const { project } = await stack.query<{ project: { status: string } | null }>(PROJECT, { id: projectId });
    expect(project?.status).toBe('DELETING');
    const refusedUpload = await stack.upload(projectId, 'late.md', '# Late\n\nToo late.');
    expect(refusedUpload).toMatchObject({ status: 409, body: { error: { code: 'PROJECT_DELETING' } } });
    expect(await errorCode(SYNC, { id: folder.id })).toBe('PROJECT_DELETING');
    expect(await errorCode(SCHEDULE, { s: archiveSourceId })).toBe('PROJECT_DELETING');
    expect(
      await errorCode(addSourceMutation(), {
        input: {
          projectId,
          name: 'Again',
          type: 'FOLDER',
          config: { path: join(scratch, 'manual'), format: 'FILES' },
        },
      }),
    ).toBe('PROJECT_DELETING');
    const refusedArchive = await stack.uploadArchive(
      projectId,
      'again.zip',
      await buildZip(markdownFiles('x', 1)),
    );
    expect(refusedArchive.status).toBe(409);
    const lateWebhook = await emulator.deliverWebhook(hook, {
      type: 'page.content_updated',
      entityId: DEFAULT_IDS.onboarding,
    });
    expect(lateWebhook.status).toBe(401);
    // Asking again joins the running deletion.
    expect(
      (
        await stack.query<{ deleteProject: boolean }>('mutation($id: ID!) { deleteProject(id: $id) }', {
          id: projectId,
        })
      ).deleteProject,
    ).toBe(true);

    // Uploads racing the start of the deletion were either refused or are cleaned up with it.
    for (const raced of await Promise.all(racingUploads)) {
      expect([202, 409]).toContain(raced.status);
      if (raced.status === 409) expect(raced.body).toMatchObject({ error: { code: 'PROJECT_DELETING' } });
    }
    expect([200, 401]).toContain((await racingWebhook).status);

    await expectEventually(
      async () => {
        const data = await stack.query<{ project: unknown }>(PROJECT, { id: projectId });
        expect(data.project).toBeNull();
      },
      { timeoutMs: 300_000, intervalMs: 1000 },
    );
    // Whatever was still in flight has had time to (not) write.
    await later(5_000);
    expect(
      (
        await emulator.deliverWebhook(hook, {
          type: 'page.content_updated',
          entityId: DEFAULT_IDS.onboarding,
        })
      ).status,
    ).toBe(401);

    expect(await catalogHits(projectId, sourceIds)).toEqual({
      projects: 0,
      sources: 0,
      documents: 0,
      sync_runs: 0,
      webhook_events: 0,
      chunks: 0,
    });
    expect(filesUnder(stack.blobDir)).toEqual([BLOB_CANARY_FILE]);
    expect(filesUnder(cacheDir)).toEqual([]);
    expect(await runningWorkflows()).toEqual([]);
    expect((await scheduleIds()).filter((id) => sourceIds.some((s) => id.includes(s)))).toEqual([]);
    const { projects } = await stack.query<{ projects: { id: string }[] }>('{ projects { id } }');
    expect(projects.map((p) => p.id)).not.toContain(projectId);
  }, 600_000);
});

describe('removing a source', () => {
  it('removes its documents, chunks, originals, archive, unpacked cache, runs and schedule', async () => {
    const projectId = await stack.createProject('Source removal');
    const archive = await stack.uploadArchive(
      projectId,
      'small.zip',
      await buildZip(markdownFiles('small', 3)),
    );
    expect(archive.status).toBe(202);
    const sourceId = archive.body.source!.id;
    expect((await stack.runSettled(archive.body.run!.id)).status).toBe('COMPLETED');
    await stack.query(SCHEDULE, { s: sourceId });
    const {
      documents: { nodes: documents },
    } = await stack.query<{ documents: { nodes: { id: string; status: string }[] } }>(
      'query($p: ID!) { documents(projectId: $p, first: 500) { nodes { id status } } }',
      { p: projectId },
    );
    expect(documents.map((d) => d.status)).toEqual(['READY', 'READY', 'READY']);
    expect(existsSync(join(cacheDir, sourceId))).toBe(true);
    expect(filesUnder(join(stack.blobDir, 'sources', sourceId)).length).toBe(1);
    for (const d of documents) expect(filesUnder(join(stack.blobDir, 'originals', d.id)).length).toBe(1);

    const removed = await stack.query<{ removeSource: boolean }>(
      'mutation($id: ID!) { removeSource(id: $id) }',
      {
        id: sourceId,
      },
    );
    expect(removed.removeSource).toBe(true);

    expect(existsSync(join(cacheDir, sourceId))).toBe(false);
    expect(filesUnder(join(stack.blobDir, 'sources', sourceId))).toEqual([]);
    for (const d of documents) {
      expect(filesUnder(join(stack.blobDir, 'originals', d.id))).toEqual([]);
      expect(filesUnder(join(stack.blobDir, 'work', d.id))).toEqual([]);
    }
    // The project itself stays (with no documents left, as the source held them all).
    expect(await catalogHits(projectId, [sourceId])).toEqual({
      projects: 1,
      sources: 0,
      documents: 0,
      sync_runs: 0,
      webhook_events: 0,
      chunks: 0,
    });
    expect((await scheduleIds()).filter((id) => id.includes(sourceId))).toEqual([]);
  }, 300_000);
});

describe('project names', () => {
  it('refuses invisible characters and case-insensitive duplicates; a deleted project frees its name', async () => {
    expect(
      await errorCode('mutation($n: String!) { createProject(input: {name: $n}) { id } }', {
        n: 'invoice\u202Egpj.exe',
      }),
    ).toBe('BAD_REQUEST');
    // "Deletion race" was deleted above: its name is free again.
    const id = await stack.createProject('DELETION RACE');
    const { project } = await stack.query<{ project: { name: string; status: string } }>(PROJECT, { id });
    expect(project).toMatchObject({ name: 'DELETION RACE', status: 'ACTIVE' });
    expect(
      await errorCode('mutation($n: String!) { createProject(input: {name: $n}) { id } }', {
        n: ' deletion race ',
      }),
    ).toBe('PROJECT_NAME_CONFLICT');
  });
});
