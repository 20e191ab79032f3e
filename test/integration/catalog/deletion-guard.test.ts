import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog, type CatalogRepositories } from '@trove/catalog';
import type { Source } from '@trove/domain';
import { folderSource } from '../../support/catalog-records';
import { DATABASE_URL, dropTestData, expectEventually, schemaName, uniqueName } from '../../support/services';

// The catalog's deletion guard against the real PostgreSQL. Removing a source (or deleting a
// project) marks it, then lists what to delete; a sync creating the source's documents at that
// very moment must either be refused by the mark or be in the listing, never left behind. The
// races are staged with connections of their own holding transactions open, and waited out on
// PostgreSQL's lock table (pg_blocking_pids), not on time.
const name = uniqueName('deletion-guard');
const item = { externalId: 'docs/page.md', fileName: 'docs/page.md', mediaType: 'text/markdown' };
let catalog: CatalogRepositories;
let connections: pg.Client[] = [];

beforeAll(async () => {
  catalog = openCatalog({ url: DATABASE_URL, schema: schemaName(name) });
  await catalog.lifecycle.ensure();
});
afterEach(async () => {
  // Ending a session rolls back what a failed test left open.
  await Promise.all(connections.map((c) => c.end()));
  connections = [];
});
afterAll(async () => {
  await catalog.lifecycle.close();
  await dropTestData(name);
});

/** A session of its own in the test's schema (another process's transaction), with its backend pid. */
async function session(): Promise<{ client: pg.Client; pid: number }> {
  const client = new pg.Client({
    connectionString: DATABASE_URL,
    options: `-c search_path=${schemaName(name)}`,
  });
  await client.connect();
  connections.push(client);
  const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  return { client, pid: rows[0].pid };
}

/** Whether some session waits for a lock `pid` holds. */
async function blocks(pid: number): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pg_stat_activity where ${pid} = any(pg_blocking_pids(pid))`.execute(
    catalog.lifecycle.db,
  );
  return rows[0].n > 0;
}

/** Whether the session `pid` waits for a lock another holds. */
async function waits(pid: number): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select cardinality(pg_blocking_pids(${pid}))::int as n`.execute(
    catalog.lifecycle.db,
  );
  return rows[0].n > 0;
}

/** Resolves once `settled()` is true or `waiting()` answers true. */
function eitherOf(settled: () => boolean, waiting: () => Promise<boolean>): Promise<void> {
  return expectEventually(
    async () => {
      if (!settled() && !(await waiting())) throw new Error('neither settled nor waiting yet');
    },
    { timeoutMs: 30_000, intervalMs: 20 },
  );
}

/** The promise with a flag that turns true when it settles. */
function tracked<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let done = false;
  const watched = promise.finally(() => (done = true));
  watched.catch(() => undefined);
  return { promise: watched, settled: () => done };
}

async function newSource(): Promise<Source> {
  const project = await catalog.projects.createProject(uniqueName('race'));
  return catalog.sources.createSource(folderSource(project.id));
}

async function documentsOf(sourceId: string): Promise<string[]> {
  return (await catalog.documents.documentIds({ sourceId })).sort();
}

describe('creating source documents while the source is being removed', () => {
  it('a sync past its check when the removal marks the source is in the removal’s listing', async () => {
    const source = await newSource();
    // Another session holds the documents table: the sync's insert waits there, after its checks.
    const tableHolder = await session();
    await tableHolder.client.query('begin');
    await tableHolder.client.query('lock table documents in share mode');
    const sync = tracked(catalog.documents.ensureSourceDocuments(source.id, [item]));
    await eitherOf(sync.settled, () => blocks(tableHolder.pid));
    expect(sync.settled()).toBe(false);

    // The removal marks the source, then lists its documents as soon as the mark is committed.
    const removal = await session();
    const listing = tracked(
      (async () => {
        await removal.client.query(`update sources set status = 'REMOVING' where id = $1`, [source.id]);
        const { rows } = await removal.client.query<{ id: string }>(
          'select id from documents where source_id = $1 order by id',
          [source.id],
        );
        return rows.map((row) => row.id);
      })(),
    );
    // Either it has listed already, or its mark waits for the sync, which holds the source.
    await eitherOf(listing.settled, () => waits(removal.pid));

    await tableHolder.client.query('commit');
    const [created] = await Promise.allSettled([sync.promise]);
    const listed = await listing.promise;
    const left = await documentsOf(source.id);
    // Every record the sync left is one the removal saw, so it deletes its chunks and files too.
    expect(left.filter((id) => !listed.includes(id))).toEqual([]);
    // The sync locked the source before the mark: it created the record, and the removal lists it.
    expect(created.status).toBe('fulfilled');
    expect(listed).toHaveLength(1);
  });

  it.each([
    {
      mark: 'its removal’s mark',
      update: `update sources set status = 'REMOVING' where id = $1`,
      row: (source: Source) => source.id,
      code: 'SOURCE_NOT_FOUND',
    },
    {
      mark: 'its project’s deletion mark',
      update: `update projects set status = 'DELETING' where id = $1`,
      row: (source: Source) => source.projectId,
      code: 'PROJECT_DELETING',
    },
  ])('a sync starting while $mark is not yet committed waits for it, then creates nothing', async (race) => {
    const source = await newSource();
    const deletion = await session();
    await deletion.client.query('begin');
    await deletion.client.query(race.update, [race.row(source)]);
    const sync = tracked(catalog.documents.ensureSourceDocuments(source.id, [item]));
    await eitherOf(sync.settled, () => blocks(deletion.pid));
    await deletion.client.query('commit');

    await expect(sync.promise).rejects.toMatchObject({ code: race.code, permanent: true });
    expect(await documentsOf(source.id)).toEqual([]);
  });

  it('a removal already marked refuses at once, and an active source still gets its records', async () => {
    const removed = await newSource();
    await catalog.sources.markSourceRemoving(removed.id);
    await expect(catalog.documents.ensureSourceDocuments(removed.id, [item])).rejects.toMatchObject({
      code: 'SOURCE_NOT_FOUND',
    });
    await expect(catalog.documents.ensureSourceDocuments(randomUUID(), [item])).rejects.toMatchObject({
      code: 'SOURCE_NOT_FOUND',
    });
    const active = await newSource();
    const ids = await catalog.documents.ensureSourceDocuments(active.id, [item]);
    expect(await documentsOf(active.id)).toEqual([ids.get(item.externalId)]);
  });
});
