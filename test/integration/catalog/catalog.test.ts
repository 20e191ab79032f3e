import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  type CatalogRepositories,
  type DocumentScope,
  migrateCatalog,
  openCatalog,
  openCatalogDb,
} from '@trove/catalog';
import type { Source } from '@trove/domain';
import { DocumentStatus, newSyncRun, SourceStatus, SyncMode } from '@trove/domain';
import { FolderFormat } from '@trove/connector-folder';
import { NOTION_SOURCE_TYPE } from '@trove/connector-notion';
import { folderSource } from '../../support/catalog-records';
import { DATABASE_URL, dropTestData, schemaName, uniqueName } from '../../support/services';

// Repositories against the real PostgreSQL, in a schema of their own.
const name = uniqueName('catalog');
let catalog: CatalogRepositories;

const open = (testName: string) => openCatalog({ url: DATABASE_URL, schema: schemaName(testName) });

const upload = (projectId: string, fileName: string) =>
  catalog.documents.createDocument({
    projectId,
    fileName,
    mediaType: 'text/markdown',
    sizeBytes: 1,
    contentHash: 'h',
    blobKey: 'originals/x/y',
  });

function newSource(projectId: string, overrides: Record<string, unknown> = {}): Promise<Source> {
  return catalog.sources.createSource(folderSource(projectId, overrides));
}

beforeAll(async () => {
  catalog = open(name);
  await catalog.lifecycle.ensure();
});
afterAll(async () => {
  await catalog.lifecycle.close();
  await dropTestData(name);
});

describe('schema and migrations', () => {
  it('api and worker starting together migrate once (advisory lock), and again is a no-op', async () => {
    const fresh = uniqueName('catalog-race');
    const catalogs = Array.from({ length: 4 }, () => open(fresh));
    try {
      const results = await Promise.all(catalogs.map((c) => c.lifecycle.ensure()));
      expect(results.flatMap((r) => r.migrations)).toEqual([
        '0001-catalog',
        '0002-item-version',
        '0003-search-filters',
        '0004-rag-config',
        '0005-index-generations',
        '0006-api-keys',
        '0007-webhook-deliveries',
        '0008-ingest-lease',
        '0009-sync-run-stage',
        '0010-source-config',
        '0011-project-settings',
        '0012-document-progress',
        '0013-answers',
        '0014-feedback',
        '0015-identity',
      ]);
      expect((await catalogs[0].lifecycle.ensure()).migrations).toEqual([]);
    } finally {
      await Promise.all(catalogs.map((c) => c.lifecycle.close()));
      await dropTestData(fresh);
    }
  });

  it("0002 keeps every item's version: Notion edit times and folder hashes end in one column", async () => {
    const fresh = uniqueName('catalog-0002');
    const schema = schemaName(fresh);
    const db = openCatalogDb({ url: DATABASE_URL, schema });
    const catalog = open(fresh);
    try {
      await sql`create schema ${sql.id(schema)}`.execute(db);
      expect(await migrateCatalog(db, schema, '0001-catalog')).toEqual(['0001-catalog']);
      const now = new Date().toISOString();
      await sql`insert into projects (id, name, name_key, created_at)
                values ('p', 'P', 'p', ${now})`.execute(db);
      await sql`insert into sources (id, project_id, type, name, status, scope, created_at, updated_at)
                values ('s', 'p', 'NOTION', 'wiki', 'ACTIVE', '{}', ${now}, ${now})`.execute(db);
      const row = (id: string, externalId: string, editedAt: string | null, version: string | null) =>
        sql`insert into documents (id, project_id, source_id, external_id, file_name, media_type, size_bytes,
              content_hash, blob_key, status, chunk_count, timings, created_at, updated_at,
              external_edited_at, external_version)
            values (${id}, 'p', 's', ${externalId}, ${externalId}, 'text/plain', 1, 'h', 'b', 'READY', 0, '{}',
              ${now}, ${now}, ${editedAt}, ${version})`.execute(db);
      await row(randomUUID(), 'page', '2026-10-01T10:00:00.000Z', null);
      await row(randomUUID(), 'file.md', null, 'sha-of-file');
      expect((await catalog.lifecycle.ensure()).migrations).toEqual([
        '0002-item-version',
        '0003-search-filters',
        '0004-rag-config',
        '0005-index-generations',
        '0006-api-keys',
        '0007-webhook-deliveries',
        '0008-ingest-lease',
        '0009-sync-run-stage',
        '0010-source-config',
        '0011-project-settings',
        '0012-document-progress',
        '0013-answers',
        '0014-feedback',
        '0015-identity',
      ]);
      const versions = Object.fromEntries(
        (await catalog.documents.sourceItems('s')).map((item) => [item.externalId, item.version]),
      );
      expect(versions).toEqual({ page: '2026-10-01T10:00:00.000Z', 'file.md': 'sha-of-file' });
    } finally {
      await catalog.lifecycle.close();
      await db.destroy();
      await dropTestData(fresh);
    }
  });
});

describe('uniqueness is the database’s', () => {
  it('20 concurrent uploads of one name create exactly one document', async () => {
    const project = await catalog.projects.createProject(uniqueName('race'));
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => upload(project.id, 'same.md')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(r.reason).toMatchObject({ code: 'DOCUMENT_NAME_CONFLICT' });
    const page = await catalog.documents.pageDocuments(project.id);
    expect(page.items.map((d) => d.fileName)).toEqual(['same.md']);
    expect(page.totalCount).toBe(1);
  });

  it('deleting frees the name, names are per project, and a new document gets a new id', async () => {
    const p1 = await catalog.projects.createProject(uniqueName('a'));
    const p2 = await catalog.projects.createProject(uniqueName('b'));
    const first = await upload(p1.id, 'a.md');
    await expect(upload(p1.id, 'a.md')).rejects.toMatchObject({ code: 'DOCUMENT_NAME_CONFLICT' });
    await expect(upload(p2.id, 'a.md')).resolves.toBeDefined();
    await catalog.documents.deleteDocument(first.id);
    const second = await upload(p1.id, 'a.md');
    expect(second.id).not.toBe(first.id);
  });

  it("a project's totals count its documents and sum their chunks (the dashboard's project list)", async () => {
    const project = await catalog.projects.createProject(uniqueName('totals'));
    expect(await catalog.documents.totals(project.id)).toEqual({ documents: 0, chunks: 0 });
    const a = await upload(project.id, 'a.md');
    const b = await upload(project.id, 'b.md');
    await upload(project.id, 'c.md');
    await catalog.documents.updateDocument(a.id, { status: DocumentStatus.READY, chunkCount: 3 });
    await catalog.documents.updateDocument(b.id, { status: DocumentStatus.READY, chunkCount: 4 });
    expect(await catalog.documents.totals(project.id)).toEqual({ documents: 3, chunks: 7 });
    expect(await catalog.documents.totals(randomUUID())).toEqual({ documents: 0, chunks: 0 });
  });

  it('a document of a project that does not exist is refused, not orphaned', async () => {
    await expect(upload(randomUUID(), 'x.md')).rejects.toMatchObject({ code: 'PROJECT_NOT_FOUND' });
  });

  it('project names are unique ignoring case among active projects; deleting frees the name', async () => {
    const label = uniqueName('Name');
    const project = await catalog.projects.createProject(label);
    await expect(catalog.projects.createProject(label.toUpperCase())).rejects.toMatchObject({
      code: 'PROJECT_NAME_CONFLICT',
    });
    const racers = await Promise.allSettled(
      Array.from({ length: 10 }, () => catalog.projects.createProject(`${label}-race`)),
    );
    expect(racers.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    await catalog.projects.markProjectDeleting(project.id);
    await expect(catalog.projects.createProject(label)).resolves.toMatchObject({ name: label });
  });

  it("a project's settings change one at a time, and never while it is being deleted", async () => {
    const project = await catalog.projects.createProject(uniqueName('settings'));
    expect(project.settings).toBeUndefined();
    await expect(catalog.projects.updateProjectSettings(project.id, { ocr: false })).resolves.toMatchObject({
      settings: { ocr: false },
    });
    // An empty change keeps what is set; a later one replaces only the setting it names.
    await catalog.projects.updateProjectSettings(project.id, {});
    expect((await catalog.projects.getProject(project.id))?.settings).toEqual({ ocr: false });
    await catalog.projects.updateProjectSettings(project.id, { ocr: true });
    expect((await catalog.projects.getProject(project.id))?.settings).toEqual({ ocr: true });
    await catalog.projects.markProjectDeleting(project.id);
    await expect(catalog.projects.updateProjectSettings(project.id, { ocr: false })).rejects.toMatchObject({
      code: 'PROJECT_DELETING',
    });
    expect((await catalog.projects.getProject(project.id))?.settings).toEqual({ ocr: true });
    await expect(catalog.projects.updateProjectSettings(randomUUID(), { ocr: false })).rejects.toMatchObject({
      code: 'PROJECT_NOT_FOUND',
    });
  });

  it('a source item gets one document however often and concurrently it is planned', async () => {
    const project = await catalog.projects.createProject(uniqueName('items'));
    const s1 = await newSource(project.id);
    const s2 = await newSource(project.id);
    const item = { externalId: 'docs/page.md', fileName: 'docs/page.md', mediaType: 'text/markdown' };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => catalog.documents.ensureSourceDocuments(s1.id, [item])),
    );
    expect(new Set(results.map((r) => r.get(item.externalId))).size).toBe(1);
    const other = await catalog.documents.ensureSourceDocuments(s2.id, [item]);
    expect(other.get(item.externalId)).not.toBe(results[0].get(item.externalId));
    expect((await catalog.documents.pageDocuments(project.id)).totalCount).toBe(2);
  });
});

describe('a batch of documents is recorded in one go', () => {
  it('updates many documents with different changes: each gets its own, jsonb and nulls kept, the last change of one wins', async () => {
    const project = await catalog.projects.createProject(uniqueName('many'));
    const [a, b, c] = [
      await upload(project.id, 'a.md'),
      await upload(project.id, 'b.md'),
      await upload(project.id, 'c.md'),
    ];
    for (const d of [a, c])
      await catalog.documents.updateDocument(d.id, { error: { code: 'PARSE_FAILED', message: 'old' } });
    const indexedAt = '2026-01-02T03:04:05.000Z';
    await catalog.documents.updateDocuments([
      { id: a.id, changes: { status: DocumentStatus.INDEXING, error: null } },
      {
        id: a.id,
        changes: {
          status: DocumentStatus.READY,
          chunkCount: 3,
          title: 'Title with \'quotes\' and "json"',
          timings: { fetchMs: 5, totalMs: 9 },
          warnings: ['w1'],
          breadcrumb: ['Root', 'Child'],
          version: 'v2',
          sizeBytes: 123_456_789_012,
          indexedAt,
        },
      },
      {
        id: b.id,
        changes: { status: DocumentStatus.FAILED, chunkCount: 0, error: { code: 'X', message: 'bad' } },
      },
      { id: c.id, changes: { status: DocumentStatus.INDEXING, error: null } },
      { id: 'not an id', changes: { status: DocumentStatus.READY } },
      { id: randomUUID(), changes: { status: DocumentStatus.READY } },
    ]);
    const [ra, rb, rc] = await Promise.all([a, b, c].map((d) => catalog.documents.requireDocument(d.id)));
    expect(ra).toMatchObject({
      status: DocumentStatus.READY,
      chunkCount: 3,
      title: 'Title with \'quotes\' and "json"',
      timings: { fetchMs: 5, totalMs: 9 },
      warnings: ['w1'],
      breadcrumb: ['Root', 'Child'],
      version: 'v2',
      sizeBytes: 123_456_789_012,
      indexedAt,
    });
    expect(ra.error).toBeUndefined();
    expect(rb).toMatchObject({ status: DocumentStatus.FAILED, error: { code: 'X', message: 'bad' } });
    expect(rc.status).toBe(DocumentStatus.INDEXING);
    expect(rc.error).toBeUndefined();
    // Untouched fields stay.
    expect(rb.fileName).toBe('b.md');
    expect(rb.updatedAt > b.updatedAt).toBe(true);
  });
});

describe('text PostgreSQL refuses (NUL, unpaired surrogates) is made safe by the catalog, whatever writes it', () => {
  const HOSTILE = 'remote: aborting\u0000 here \uD800 and there';
  const SAFE = 'remote: aborting\uFFFD here \uFFFD and there';

  it('in text columns, jsonb columns and batch updates alike, written as U+FFFD', async () => {
    const project = await catalog.projects.createProject(uniqueName('nul'));
    const [a, b] = [await upload(project.id, 'a.md'), await upload(project.id, 'b.md')];
    await catalog.documents.updateDocument(a.id, {
      title: HOSTILE,
      warnings: [HOSTILE],
      error: { code: 'PARSE_FAILED', message: HOSTILE },
    });
    // The batch update carries its changes as one jsonb document.
    await catalog.documents.updateDocuments([
      { id: b.id, changes: { status: DocumentStatus.FAILED, error: { code: 'X', message: HOSTILE } } },
    ]);
    expect(await catalog.documents.requireDocument(a.id)).toMatchObject({
      title: SAFE,
      warnings: [SAFE],
      error: { message: SAFE },
    });
    expect((await catalog.documents.requireDocument(b.id)).error).toEqual({ code: 'X', message: SAFE });

    const run = await catalog.runs.createRun(newSyncRun(await newSource(project.id), SyncMode.FULL));
    await catalog.runs.updateRun(run.id, {
      error: { code: 'SOURCE_UNREACHABLE', message: HOSTILE },
      warnings: [HOSTILE],
    });
    expect(await catalog.runs.getRun(run.id)).toMatchObject({ error: { message: SAFE }, warnings: [SAFE] });

    const thread = await catalog.answers.createThread({ projectId: project.id, title: HOSTILE });
    expect(thread.title).toBe(SAFE);
  });
});

describe('ingest leases: a batch and a per-document ingest never hold one document at once', () => {
  const BATCH = 'batch:sync-x/run-1/3';
  const lease = async (id: string) =>
    (
      await sql<{ holder: string | null; left_ms: number | null }>`
        select ingest_holder as holder,
               extract(epoch from ingest_lease_until - now()) * 1000 as left_ms
        from documents where id = ${id}`.execute(catalog.lifecycle.db)
    ).rows[0];

  it('claims what is free in one statement, on the database clock; the other holder gets nothing and learns who holds it', async () => {
    const project = await catalog.projects.createProject(uniqueName('lease'));
    const [a, b] = [await upload(project.id, 'a.md'), await upload(project.id, 'b.md')];
    const updatedAt = (await catalog.documents.requireDocument(a.id)).updatedAt;
    const missing = randomUUID();

    const first = await catalog.documents.claimDocuments([a.id, b.id, missing], BATCH, 60_000);
    expect(first.claimed.sort()).toEqual([a.id, b.id].sort());
    expect(first.held).toEqual([]);
    const left = Number((await lease(a.id)).left_ms);
    expect(left).toBeGreaterThan(50_000);
    expect(left).toBeLessThanOrEqual(60_000);
    // A lease is no change to the document: its last update (search filters) stays.
    expect((await catalog.documents.requireDocument(a.id)).updatedAt).toBe(updatedAt);

    const page = await catalog.documents.claimDocuments([a.id, missing], 'page', 60_000);
    expect(page.claimed).toEqual([]);
    expect(page.held).toEqual([{ id: a.id, holder: BATCH, until: expect.any(String) }]);

    // The same holder (a retried attempt) takes its own back and renews it.
    expect((await catalog.documents.claimDocuments([a.id], BATCH, 120_000)).claimed).toEqual([a.id]);
    expect(Number((await lease(a.id)).left_ms)).toBeGreaterThan(100_000);
  });

  it('releases only the holder’s own leases; a lease past its end is free to anyone', async () => {
    const project = await catalog.projects.createProject(uniqueName('lease'));
    const [a, b] = [await upload(project.id, 'a.md'), await upload(project.id, 'b.md')];
    await catalog.documents.claimDocuments([a.id], BATCH, 60_000);
    await catalog.documents.claimDocuments([b.id], 'page', 60_000);

    await catalog.documents.releaseDocuments([a.id, b.id], 'page');
    expect(await lease(a.id)).toMatchObject({ holder: BATCH });
    expect(await lease(b.id)).toEqual({ holder: null, left_ms: null });
    await catalog.documents.releaseDocuments([a.id, b.id], BATCH);
    expect(await lease(a.id)).toEqual({ holder: null, left_ms: null });

    // A batch whose worker died: its lease ran out a second ago.
    await catalog.documents.claimDocuments([a.id], BATCH, 60_000);
    await sql`update documents set ingest_lease_until = now() - interval '1 second' where id = ${a.id}`.execute(
      catalog.lifecycle.db,
    );
    expect((await catalog.documents.claimDocuments([a.id], 'page', 60_000)).claimed).toEqual([a.id]);
    expect(await lease(a.id)).toMatchObject({ holder: 'page' });
    expect((await catalog.documents.claimDocuments([a.id], BATCH, 60_000)).claimed).toEqual([]);
  });

  it('of two concurrent claims of the same documents, each document goes to exactly one', async () => {
    const project = await catalog.projects.createProject(uniqueName('lease'));
    const ids = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => (await upload(project.id, `n${i}.md`)).id),
    );
    const claims = await Promise.all(
      ['batch:one', 'batch:two', 'page'].map((holder) =>
        catalog.documents.claimDocuments(ids, holder, 60_000),
      ),
    );
    const won = claims.flatMap((c) => c.claimed);
    expect(won.sort()).toEqual([...ids].sort());
    for (const claim of claims) expect(claim.claimed.length + claim.held.length).toBe(ids.length);
  });
});

describe('search filters resolve to document ids (issue 11)', () => {
  it('by source, id and last-update range; a foreign source is SOURCE_NOT_FOUND', async () => {
    const project = await catalog.projects.createProject(uniqueName('scope'));
    const other = await catalog.projects.createProject(uniqueName('scope-other'));
    const source = await newSource(project.id);
    const foreign = await newSource(other.id);
    const ids = await catalog.documents.ensureSourceDocuments(source.id, [
      { externalId: 'old.md', fileName: 'old.md', mediaType: 'text/markdown' },
      { externalId: 'new.md', fileName: 'new.md', mediaType: 'text/markdown' },
    ]);
    const uploaded = await upload(project.id, 'upload.md');
    await catalog.lifecycle.db
      .updateTable('documents')
      .set({ updated_at: '2026-01-10T00:00:00.000Z' })
      .where('id', '=', ids.get('old.md')!)
      .execute();
    await catalog.lifecycle.db
      .updateTable('documents')
      .set({ updated_at: '2026-03-10T00:00:00.000Z' })
      .where('id', 'in', [ids.get('new.md')!, uploaded.id])
      .execute();
    const scope = (filter: DocumentScope) =>
      catalog.documents.searchScope(project.id, filter, 100).then((found) => found.sort());

    expect(await scope({ sourceIds: [source.id] })).toEqual([ids.get('old.md'), ids.get('new.md')].sort());
    expect(await scope({ updatedFrom: '2026-02-01T00:00:00.000Z' })).toEqual(
      [ids.get('new.md'), uploaded.id].sort(),
    );
    expect(await scope({ updatedTo: '2026-02-01T00:00:00.000Z' })).toEqual([ids.get('old.md')]);
    expect(await scope({ sourceIds: [source.id], updatedFrom: '2026-02-01T00:00:00.000Z' })).toEqual([
      ids.get('new.md'),
    ]);
    expect(await scope({ sourceIds: [source.id], documentIds: [uploaded.id] })).toEqual([]);
    expect(await scope({ updatedFrom: '2027-01-01T00:00:00.000Z' })).toEqual([]);
    // At most max + 1 ids, so the caller can tell "too many" apart.
    expect(
      await catalog.documents.searchScope(project.id, { updatedFrom: '2000-01-01T00:00:00.000Z' }, 1),
    ).toHaveLength(2);

    await expect(scope({ sourceIds: [foreign.id] })).rejects.toMatchObject({ code: 'SOURCE_NOT_FOUND' });
    await expect(scope({ sourceIds: [randomUUID()] })).rejects.toMatchObject({ code: 'SOURCE_NOT_FOUND' });
  });

  it('by media type, whose counts per project list the types there are, most documents first', async () => {
    const project = await catalog.projects.createProject(uniqueName('types'));
    const other = await catalog.projects.createProject(uniqueName('types-other'));
    const source = await newSource(project.id);
    const ids = await catalog.documents.ensureSourceDocuments(source.id, [
      { externalId: 'a.pdf', fileName: 'a.pdf', mediaType: 'application/pdf' },
      { externalId: 'b.html', fileName: 'b.html', mediaType: 'text/html' },
      { externalId: 'c.html', fileName: 'c.html', mediaType: 'text/html' },
    ]);
    const uploaded = await Promise.all(['x.md', 'y.md', 'z.md'].map((name) => upload(project.id, name)));
    await upload(other.id, 'elsewhere.md');
    const scope = (mediaTypes: string[], sourceIds?: string[]) =>
      catalog.documents.searchScope(project.id, { mediaTypes, sourceIds }, 100).then((found) => found.sort());

    expect(await scope(['text/html'])).toEqual([ids.get('b.html'), ids.get('c.html')].sort());
    expect(await scope(['text/markdown', 'application/pdf'])).toEqual(
      [ids.get('a.pdf'), ...uploaded.map((d) => d.id)].sort(),
    );
    expect(await scope(['text/markdown'], [source.id])).toEqual([]);
    expect(await scope([])).toEqual([]);
    expect(await catalog.documents.mediaTypeCounts(project.id)).toEqual([
      { mediaType: 'text/markdown', documents: 3 },
      { mediaType: 'text/html', documents: 2 },
      { mediaType: 'application/pdf', documents: 1 },
    ]);
  });
});

describe('where search hits come from', () => {
  it("names each document's file and source, only for the project's own documents, in one read", async () => {
    const project = await catalog.projects.createProject(uniqueName('origins'));
    const other = await catalog.projects.createProject(uniqueName('origins-other'));
    const source = await newSource(project.id, { name: 'Engineering wiki' });
    const foreignSource = await newSource(other.id, { name: 'Someone else' });
    const ids = await catalog.documents.ensureSourceDocuments(source.id, [
      { externalId: 'ops/rollback.md', fileName: 'ops/rollback.md', mediaType: 'text/markdown' },
    ]);
    const foreign = await catalog.documents.ensureSourceDocuments(foreignSource.id, [
      { externalId: 'secret.md', fileName: 'secret.md', mediaType: 'text/markdown' },
    ]);
    const uploaded = await upload(project.id, 'notes.md');
    const asked = [
      ids.get('ops/rollback.md')!,
      uploaded.id,
      foreign.get('secret.md')!,
      randomUUID(),
      'not-an-id',
    ];

    const origins = await catalog.documents.documentOrigins(project.id, [...asked, uploaded.id]);
    expect(origins.sort((a, b) => a.fileName.localeCompare(b.fileName))).toEqual([
      { documentId: uploaded.id, fileName: 'notes.md' },
      {
        documentId: ids.get('ops/rollback.md'),
        fileName: 'ops/rollback.md',
        source: { id: source.id, name: 'Engineering wiki', type: 'FOLDER' },
      },
    ]);
    expect(await catalog.documents.documentOrigins(project.id, [])).toEqual([]);
  });
});

describe('no fixed caps: bulk planning and keyset paging', () => {
  it('12,000 items of one source are created in bulk, listed whole and paged by cursor', async () => {
    const project = await catalog.projects.createProject(uniqueName('bulk'));
    const source = await newSource(project.id);
    const items = Array.from({ length: 12_000 }, (_, i) => ({
      externalId: `f/${String(i).padStart(5, '0')}.md`,
      fileName: `f/${String(i).padStart(5, '0')}.md`,
      mediaType: 'text/markdown',
    }));
    const ids = await catalog.documents.ensureSourceDocuments(source.id, items);
    expect(ids.size).toBe(12_000);
    // Re-planning returns the same ids and creates nothing.
    const again = await catalog.documents.ensureSourceDocuments(source.id, items.slice(0, 3_000));
    for (const [externalId, id] of again) expect(ids.get(externalId)).toBe(id);

    const known = await catalog.documents.sourceItems(source.id);
    expect(known).toHaveLength(12_000);
    expect(new Set(known.map((k) => k.id)).size).toBe(12_000);
    expect((await catalog.documents.documentIds({ sourceId: source.id })).length).toBe(12_000);

    const seen = new Set<string>();
    let after: string | undefined;
    let pages = 0;
    do {
      const page = await catalog.documents.pageDocuments(
        project.id,
        { sourceId: source.id },
        { first: 500, after },
      );
      expect(page.totalCount).toBe(12_000);
      for (const d of page.items) seen.add(d.id);
      after = page.hasNextPage ? page.endCursor : undefined;
      pages++;
    } while (after);
    expect(pages).toBe(24);
    expect(seen.size).toBe(12_000);
  });

  it('filters by status and source, and refuses a forged cursor or an oversized page', async () => {
    const project = await catalog.projects.createProject(uniqueName('filters'));
    const source = await newSource(project.id);
    for (let i = 0; i < 5; i++) await upload(project.id, `u${i}.md`);
    const ids = await catalog.documents.ensureSourceDocuments(source.id, [
      { externalId: 'x', fileName: 'x', mediaType: 'text/plain' },
      { externalId: 'y', fileName: 'y', mediaType: 'text/plain' },
    ]);
    await catalog.documents.updateDocument(ids.get('x')!, { status: DocumentStatus.READY, chunkCount: 3 });
    expect((await catalog.documents.pageDocuments(project.id)).totalCount).toBe(7);
    const ready = await catalog.documents.pageDocuments(project.id, { status: DocumentStatus.READY });
    expect(ready.items.map((d) => [d.externalId, d.chunkCount])).toEqual([['x', 3]]);
    expect((await catalog.documents.pageDocuments(project.id, { sourceId: source.id })).totalCount).toBe(2);
    const first = await catalog.documents.pageDocuments(project.id, {}, { first: 3 });
    const second = await catalog.documents.pageDocuments(
      project.id,
      {},
      { first: 3, after: first.endCursor },
    );
    expect(first.hasNextPage).toBe(true);
    expect(second.items.map((d) => d.id)).not.toContain(first.items[0].id);
    await expect(
      catalog.documents.pageDocuments(project.id, {}, { after: 'bm90IGEgY3Vyc29y' }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(catalog.documents.pageDocuments(project.id, {}, { first: 501 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('sync runs page newest first and keep their progress', async () => {
    const project = await catalog.projects.createProject(uniqueName('runs'));
    const source = await newSource(project.id);
    const runs = [];
    for (let i = 0; i < 5; i++) {
      const run = newSyncRun(source, SyncMode.FULL);
      run.startedAt = new Date(Date.now() + i * 1000).toISOString();
      runs.push(await catalog.runs.createRun(run));
    }
    await catalog.runs.updateRun(runs[4].id, {
      progress: { ...runs[4].progress, pagesSeen: 42 },
      skipped: [{ id: 'p', reason: 'unshared' }],
      warnings: ['nav entry missing'],
    });
    const page = await catalog.runs.pageRuns(source.id, { first: 2 });
    expect(page.items.map((r) => r.id)).toEqual([runs[4].id, runs[3].id]);
    expect(page.items[0]).toMatchObject({
      progress: { pagesSeen: 42 },
      skipped: [{ id: 'p', reason: 'unshared' }],
      warnings: ['nav entry missing'],
    });
    const rest = await catalog.runs.pageRuns(source.id, { first: 10, after: page.endCursor });
    expect(rest.items.map((r) => r.id)).toEqual([runs[2].id, runs[1].id, runs[0].id]);
    expect(rest.totalCount).toBe(5);
  });

  it('a listing reads each source’s newest run and document count in one query each', async () => {
    const project = await catalog.projects.createProject(uniqueName('overview'));
    const [synced, idle] = [await newSource(project.id), await newSource(project.id)];
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const run = newSyncRun(synced, SyncMode.INCREMENTAL);
      run.startedAt = new Date(Date.now() + i * 1000).toISOString();
      runs.push(await catalog.runs.createRun(run));
    }
    await catalog.documents.ensureSourceDocuments(synced.id, [
      { externalId: 'a', fileName: 'a', mediaType: 'text/plain' },
      { externalId: 'b', fileName: 'b', mediaType: 'text/plain' },
    ]);
    await upload(project.id, 'not-of-a-source.md');
    const latest = await catalog.runs.latestRuns([synced.id, idle.id, 'not-an-id']);
    expect([...latest.keys()]).toEqual([synced.id]);
    expect(latest.get(synced.id)!.id).toBe(runs[2].id);
    const counts = await catalog.documents.countBySource([synced.id, idle.id]);
    expect(Object.fromEntries(counts)).toEqual({ [synced.id]: 2 });
    expect((await catalog.runs.latestRuns([])).size).toBe(0);
  });
});

describe('cascades and webhook event ids', () => {
  it('keeps the last accepted webhook event and counts refused deliveries without losing any', async () => {
    const project = await catalog.projects.createProject(uniqueName('deliveries'));
    const source = await newSource(project.id, {
      type: NOTION_SOURCE_TYPE,
      config: { token: { sealed: 's', hint: 'h' }, everything: true, rootPageIds: [], rootDatabaseIds: [] },
    });
    expect((await catalog.sources.getSource(source.id))?.webhookDeliveries).toEqual({ rejected: 0 });
    // Concurrent refusals, as a flood of forged deliveries would make: each one counts.
    await Promise.all(Array.from({ length: 20 }, () => catalog.webhookDeliveries.rejected(source.id)));
    const at = new Date('2026-01-02T03:04:05.000Z');
    await catalog.webhookDeliveries.accepted(source.id, 'page.content_updated', at);
    expect((await catalog.sources.getSource(source.id))?.webhookDeliveries).toEqual({
      rejected: 20,
      lastEventAt: at.toISOString(),
      lastEventType: 'page.content_updated',
    });
    // An id that is no source (or no id at all) changes nothing and does not fail.
    await catalog.webhookDeliveries.rejected(randomUUID());
    await catalog.webhookDeliveries.rejected('not-an-id');
  });

  it('deleting a source or project removes everything it owns', async () => {
    const project = await catalog.projects.createProject(uniqueName('cascade'));
    const source = await newSource(project.id);
    await catalog.documents.ensureSourceDocuments(source.id, [
      { externalId: 'a', fileName: 'a', mediaType: 'x' },
    ]);
    await catalog.runs.createRun(newSyncRun(source, SyncMode.FULL));
    expect(await catalog.webhookEvents.record(source.id, 'evt-1')).toBe(true);
    expect(await catalog.webhookEvents.record(source.id, 'evt-1')).toBe(false);
    await upload(project.id, 'kept.md');

    await catalog.sources.deleteSource(source.id);
    expect(await catalog.documents.sourceItems(source.id)).toEqual([]);
    expect(await catalog.runs.runIds({ sourceId: source.id })).toEqual([]);
    await expect(catalog.webhookEvents.record(source.id, 'evt-1')).rejects.toMatchObject({
      code: 'SOURCE_NOT_FOUND',
    });
    expect((await catalog.documents.pageDocuments(project.id)).totalCount).toBe(1);

    await catalog.projects.deleteProject(project.id);
    const left = await sql<{
      n: string;
    }>`select count(*) as n from documents where project_id = ${project.id}`.execute(catalog.lifecycle.db);
    expect(Number(left.rows[0].n)).toBe(0);
  });

  it('source changes keep the configuration unless given and clear fields given as null', async () => {
    const project = await catalog.projects.createProject(uniqueName('source'));
    const source = await newSource(project.id, { watermark: '2026-01-01T00:00:00.000Z' });
    await catalog.sources.updateSource(source.id, { watermark: null, name: 'renamed' });
    const read = await catalog.sources.requireSource(source.id);
    expect(read).toMatchObject({ name: 'renamed', config: { path: '/srv/docs' } });
    expect(read.watermark).toBeUndefined();
  });

  it('a source being removed stays REMOVING when a sync ends (ACTIVE, NEEDS_TOKEN) or its scope changes', async () => {
    const project = await catalog.projects.createProject(uniqueName('removing'));
    const source = await newSource(project.id);
    await catalog.sources.markSourceRemoving(source.id);
    await catalog.sources.updateSource(source.id, {
      status: SourceStatus.ACTIVE,
      lastSyncAt: new Date().toISOString(),
    });
    await catalog.sources.updateSource(source.id, {
      status: SourceStatus.NEEDS_TOKEN,
      config: { format: FolderFormat.FILES, path: '/srv/other' },
    });
    expect((await catalog.sources.requireSource(source.id)).status).toBe(SourceStatus.REMOVING);
    const other = await newSource(project.id);
    await catalog.sources.updateSource(other.id, { status: SourceStatus.NEEDS_TOKEN });
    expect((await catalog.sources.requireSource(other.id)).status).toBe(SourceStatus.NEEDS_TOKEN);
  });
});

describe('index generations', () => {
  const generation = (indexName: string) => ({
    indexName,
    embedding: {
      provider: 'openai' as const,
      baseUrl: 'http://127.0.0.1:8089/v1',
      profile: 'p',
      batchSize: 16,
      timeoutMs: 1000,
    },
    modelId: `model-of-${indexName}`,
    dimensions: 3,
  });

  it('bootstraps one ACTIVE generation however many processes race, allows one BUILDING, swaps atomically', async () => {
    const repo = catalog.indexGenerations;
    const [a, b] = await Promise.all([
      repo.bootstrap(generation('g1')),
      repo.bootstrap(generation('g1-other')),
    ]);
    expect(a.id).toBe(b.id);
    expect((await repo.live()).map((g) => g.status)).toEqual(['ACTIVE']);

    const building = await repo.startBuilding({ ...generation('g2'), apiKeySealed: 'sealed' });
    expect(building).toMatchObject({ status: 'BUILDING', hasApiKey: true, apiKeySealed: 'sealed' });
    await expect(repo.startBuilding(generation('g3'))).rejects.toMatchObject({
      code: 'INDEX_REBUILD_IN_PROGRESS',
    });

    await repo.setProgress(building.id, { chunksTotal: 10, chunksCopied: 4 });
    expect((await repo.get(building.id))?.progress).toEqual({ chunksTotal: 10, chunksCopied: 4 });

    const retired = await repo.activate(building.id);
    expect(retired?.id).toBe(a.id);
    const live = await repo.live();
    expect(live.map((g) => [g.indexName, g.status])).toEqual([['g2', 'ACTIVE']]);
    expect((await repo.get(a.id))?.status).toBe('RETIRED');
    // Activating twice (a retried activity) fails rather than retiring the new one.
    await expect(repo.activate(building.id)).rejects.toThrow(/not BUILDING/);
    expect((await repo.live()).map((g) => g.indexName)).toEqual(['g2']);

    const cancelled = await repo.startBuilding(generation('g4'));
    expect(await repo.finish(cancelled.id, 'CANCELLED' as never, 'cancelled')).toBe(true);
    expect(await repo.finish(cancelled.id, 'FAILED' as never, 'late')).toBe(false);
    expect((await repo.recent(2)).map((g) => [g.indexName, g.status])).toEqual([
      ['g4', 'CANCELLED'],
      ['g2', 'ACTIVE'],
    ]);
  });
});

describe('RAG settings', () => {
  it('saves with optimistic concurrency: a save from a stale read is refused', async () => {
    const repo = catalog.ragConfig;
    expect(await repo.get()).toEqual({ overrides: {}, secrets: {}, version: 0 });
    const first = await repo.save(0, { search: { fusion: 'convex' } }, { 'llm.apiKey': 'sealed' });
    expect(first.version).toBe(1);
    expect(await repo.get()).toMatchObject({
      overrides: { search: { fusion: 'convex' } },
      secrets: { 'llm.apiKey': 'sealed' },
      version: 1,
    });
    await expect(repo.save(0, {}, {})).rejects.toMatchObject({ code: 'SETTINGS_CONFLICT' });
    await expect(repo.save(5, {}, {})).rejects.toMatchObject({ code: 'SETTINGS_CONFLICT' });
    expect((await repo.save(1, {}, {})).version).toBe(2);
    expect(await repo.get()).toMatchObject({ overrides: {}, secrets: {}, version: 2 });
  });
});
