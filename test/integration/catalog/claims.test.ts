import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import { Catalog } from '@trove/catalog';
import { SourceStatus, SourceType } from '@trove/domain';
import { createElasticsearchClient } from '@trove/search';
import { dropIndices, ES_URL, uniqueName } from '../../support/services';

const prefix = uniqueName('claims');
let es: Client;
let catalog: Catalog;

const upload = (projectId: string, fileName: string, id?: string) =>
  catalog.createDocument({
    ...(id ? { id } : {}),
    projectId,
    fileName,
    mediaType: 'text/markdown',
    sizeBytes: 1,
    contentHash: 'h',
    blobKey: 'originals/x/y',
  });

beforeAll(async () => {
  es = createElasticsearchClient(ES_URL);
  catalog = new Catalog(es, prefix);
  await catalog.ensure();
});
afterAll(async () => {
  await dropIndices(prefix);
  await es.close();
});

describe('document names are claimed: random ids, one document per name', () => {
  it('concurrent uploads of one name create exactly one document', async () => {
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => upload('p1', 'same.md')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused).toHaveLength(7);
    for (const r of refused) expect(r.reason).toMatchObject({ code: 'DOCUMENT_NAME_CONFLICT' });
    await es.indices.refresh({ index: `${prefix}-documents` });
    expect((await catalog.listDocuments('p1')).map((d) => d.fileName)).toEqual(['same.md']);
  });

  it('deleting frees the name, and the next document of that name gets a new id', async () => {
    const first = await upload('p2', 'a.md');
    expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
    await expect(upload('p2', 'a.md')).rejects.toMatchObject({ code: 'DOCUMENT_NAME_CONFLICT' });
    await expect(upload('p3', 'a.md')).resolves.toBeDefined(); // names are per project
    await catalog.deleteDocument(first.id);
    const second = await upload('p2', 'a.md');
    expect(second.id).not.toBe(first.id);
  });

  it('deleting a project frees the names its documents held', async () => {
    const project = await catalog.createProject('Claims');
    await upload(project.id, 'kept.md');
    await catalog.deleteProject(project.id);
    await expect(upload(project.id, 'kept.md')).resolves.toMatchObject({ fileName: 'kept.md' });
  });

  it('a claim left by a crash (no document, old) is taken over; a fresh one is not', async () => {
    const { createHash } = await import('node:crypto');
    const writeClaim = (fileName: string, createdAt: Date) => {
      const key = `upload\u0000p4\u0000${fileName}`;
      return es.index({
        index: `${prefix}-claims`,
        id: createHash('sha256').update(key).digest('hex'),
        document: { key, documentId: 'never-written', projectId: 'p4', createdAt: createdAt.toISOString() },
        refresh: 'wait_for',
      });
    };
    await writeClaim('orphan.md', new Date(0));
    await expect(upload('p4', 'orphan.md')).resolves.toMatchObject({ fileName: 'orphan.md' });
    // A fresh claim may be an upload whose record is being written right now.
    await writeClaim('in-flight.md', new Date());
    await expect(upload('p4', 'in-flight.md')).rejects.toMatchObject({ code: 'DOCUMENT_NAME_CONFLICT' });
  });

  it('a source item gets one document however often and concurrently it is planned', async () => {
    // Source documents are only created for a live source of a live project.
    const project = await catalog.createProject(uniqueName('claims-project'));
    const now = new Date().toISOString();
    const [s1, s2] = [randomUUID(), randomUUID()];
    for (const id of [s1, s2]) {
      await catalog.createSource({
        id,
        projectId: project.id,
        type: SourceType.FOLDER,
        name: id,
        status: SourceStatus.ACTIVE,
        createdAt: now,
        updatedAt: now,
      });
    }
    const item = {
      projectId: project.id,
      sourceId: s1,
      externalId: 'docs/page.md',
      fileName: 'docs/page.md',
      mediaType: 'text/markdown',
    };
    const results = await Promise.all(Array.from({ length: 5 }, () => catalog.ensureSourceDocument(item)));
    expect(new Set(results.map((r) => r.document.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const again = await catalog.ensureSourceDocument(item);
    expect(again).toMatchObject({ created: false, document: { id: results[0].document.id } });
    // Same external id in another source is another document.
    const other = await catalog.ensureSourceDocument({ ...item, sourceId: s2 });
    expect(other.document.id).not.toBe(results[0].document.id);
    await catalog.deleteDocument(results[0].document.id);
    const recreated = await catalog.ensureSourceDocument(item);
    expect(recreated.created).toBe(true);
    expect(recreated.document.id).not.toBe(results[0].document.id);
  });

  it('documents from before claims existed keep their names taken (claims are backfilled)', async () => {
    const legacyPrefix = uniqueName('claims-legacy');
    const legacy = new Catalog(es, legacyPrefix);
    try {
      // A catalog as it was: documents, no claims index.
      await legacy.ensure();
      await es.indices.delete({ index: `${legacyPrefix}-claims` });
      await es.index({
        index: `${legacyPrefix}-documents`,
        id: 'legacy-id',
        document: {
          id: 'legacy-id',
          projectId: 'p6',
          fileName: 'old.md',
          createdAt: new Date().toISOString(),
        },
        refresh: 'wait_for',
      });
      await legacy.ensure();
      await expect(
        legacy.createDocument({
          projectId: 'p6',
          fileName: 'old.md',
          mediaType: 'text/markdown',
          sizeBytes: 1,
          contentHash: 'h',
          blobKey: 'k',
        }),
      ).rejects.toMatchObject({ code: 'DOCUMENT_NAME_CONFLICT' });
    } finally {
      await dropIndices(legacyPrefix);
    }
  });
});
