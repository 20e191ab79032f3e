import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, TroveStack } from '../support/stack';

const stack = new TroveStack();
let projectId: string;

const SEARCH = `query($input: SearchInput!) { search(input: $input) { tookMs hits {
  chunkId documentId title headingPath text score bm25 { rank score } knn { rank score } } } }`;

beforeAll(() => stack.start());
afterAll(() => stack.stop());

describe('authentication and health', () => {
  it('liveness and readiness need no key; readiness reports each dependency', async () => {
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${stack.url}/readyz`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { checks: Record<string, { ok: boolean }> };
    expect(Object.keys(body.checks).sort()).toEqual(['elasticsearch', 'embedder', 'postgresql', 'temporal']);
    expect(Object.values(body.checks).every((c) => c.ok)).toBe(true);
  });

  it('rejects GraphQL and REST calls without a valid key with a stable code', async () => {
    const none = await stack.gql('{ projects { id } }', {}, {});
    expect(none.errors?.[0].extensions).toEqual({ code: 'UNAUTHENTICATED' });
    const wrong = await stack.gql('{ projects { id } }', {}, { 'X-API-Key': 'not-the-key' });
    expect(wrong.errors?.[0].message).toBe('the API key is not valid');
    const rest = await stack.upload('any', 'a.md', '# x', {});
    expect(rest.status).toBe(401);
    expect(rest.body).toEqual({ error: { code: 'UNAUTHENTICATED', message: expect.any(String) } });
  });

  it('accepts the key as a Bearer token', async () => {
    const body = await stack.gql('{ projects { id } }', {}, { Authorization: `Bearer ${ADMIN_KEY}` });
    expect(body.errors).toBeUndefined();
  });
});

describe('projects, uploads and search', () => {
  let runbookId: string;

  it('creates and reads a project', async () => {
    projectId = await stack.createProject('E2E project');
    const data = await stack.query<{ project: { name: string }; projects: { id: string }[] }>(
      'query($id: ID!) { project(id: $id) { name } projects { id } }',
      { id: projectId },
    );
    expect(data.project.name).toBe('E2E project');
    expect(data.projects.map((p) => p.id)).toContain(projectId);
  });

  it('accepts a Markdown upload with 202 and indexes it to READY', async () => {
    const upload = await stack.upload(
      projectId,
      'runbook.md',
      '# Runbook\n\n## Rollback\n\nTo roll back a release run `deployctl rollback` and confirm.\n\n## Откат\n\nЧтобы откатить релиз, выполните откат и подтвердите.\n',
    );
    expect(upload.status).toBe(202);
    expect(upload.body).toMatchObject({
      projectId,
      fileName: 'runbook.md',
      mediaType: 'text/markdown',
      status: 'PENDING',
    });
    runbookId = upload.body.id as string;
    const document = await stack.settled(runbookId);
    expect(document.status).toBe('READY');
    expect(document.chunkCount).toBe(2);
    expect(document.timings.totalMs).toBeGreaterThan(0);
    for (const stage of ['fetchMs', 'parseMs', 'chunkMs', 'embedMs', 'upsertMs']) {
      expect(document.timings[stage]).toBeGreaterThanOrEqual(0);
    }
  });

  it('keeps a UTF-8 (Cyrillic) file name intact', async () => {
    const upload = await stack.upload(
      projectId,
      'заметки.md',
      '# Заметки\n\nКороткая заметка о транзакциях.\n',
    );
    expect(upload.status).toBe(202);
    expect(upload.body.fileName).toBe('заметки.md');
    expect((await stack.settled(upload.body.id as string)).status).toBe('READY');
  });

  it('20 concurrent uploads of one name: exactly one 202, the rest 409, one document', async () => {
    const racers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        stack.upload(projectId, 'race.md', `# Race ${i}\n\nUpload ${i}.\n`),
      ),
    );
    expect(racers.filter((r) => r.status === 202)).toHaveLength(1);
    expect(racers.filter((r) => r.status === 409)).toHaveLength(19);
    const winner = racers.find((r) => r.status === 202)!.body.id as string;
    expect((await stack.settled(winner)).status).toBe('READY');
    const { documents } = await stack.query<{ documents: { nodes: { id: string; fileName: string }[] } }>(
      'query($p: ID!) { documents(projectId: $p, first: 500) { nodes { id fileName } } }',
      { p: projectId },
    );
    expect(documents.nodes.filter((d) => d.fileName === 'race.md').map((d) => d.id)).toEqual([winner]);
    // The refused uploads left no stored file behind.
    const originals = readdirSync(join(stack.blobDir, 'originals'));
    expect(originals.filter((id) => !documents.nodes.some((d) => d.id === id))).toEqual([]);
    await stack.query('mutation($id: ID!) { deleteDocument(id: $id) }', { id: winner });
  });

  it('answers 409, 404, 413, 415 and 400 with codes and readable messages', async () => {
    const duplicate = await stack.upload(projectId, 'runbook.md', '# again');
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error).toMatchObject({ code: 'DOCUMENT_NAME_CONFLICT' });

    const unknownProject = await stack.upload(randomUUID(), 'x.md', '# x');
    expect(unknownProject.status).toBe(404);
    expect(unknownProject.body.error).toMatchObject({ code: 'PROJECT_NOT_FOUND' });
    // An id that cannot be one is refused before any backend is asked.
    const malformedProject = await stack.upload('no-such-project', 'x.md', '# x');
    expect(malformedProject.status).toBe(400);
    expect(malformedProject.body.error).toMatchObject({ code: 'BAD_REQUEST' });

    const tooLarge = await stack.upload(projectId, 'big.md', 'x'.repeat(300 * 1024));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });

    const archiveInDisguise = await stack.upload(projectId, 'notes.md', Buffer.from([0x1f, 0x8b, 8, 0]));
    expect(archiveInDisguise.status).toBe(415);
    expect(archiveInDisguise.body.error).toEqual({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message:
        'notes.md is a gzip archive file (application/gzip); supported types are PDF, EPUB, DOCX, ODT, RTF, XLSX, XLS, ODS, CSV, TSV, PPTX, ODP, HTML, Markdown, plain text and images (PNG, JPEG, TIFF, WebP, GIF)',
    });

    const noFile = await fetch(`${stack.url}/v1/projects/${projectId}/documents`, {
      method: 'POST',
      headers: { 'X-API-Key': ADMIN_KEY },
    });
    expect(noFile.status).toBe(400);

    // Nothing was stored for the rejected uploads.
    const {
      documents: { nodes: documents },
    } = await stack.query<{ documents: { nodes: { fileName: string }[] } }>(
      'query($p: ID!) { documents(projectId: $p, first: 500) { nodes { fileName } } }',
      { p: projectId },
    );
    expect(documents.map((d) => d.fileName).sort()).toEqual(['runbook.md', 'заметки.md']);
  });

  it('an empty or corrupt file is accepted, then FAILED with a reason and no chunks', async () => {
    const empty = await stack.upload(projectId, 'empty.md', '');
    expect(empty.status).toBe(202);
    const failed = await stack.settled(empty.body.id as string);
    expect(failed).toMatchObject({ status: 'FAILED', chunkCount: 0, error: { code: 'EMPTY_DOCUMENT' } });

    // Invalid UTF-8 past the 64 KiB the upload inspects: caught by the parser.
    const corrupt = Buffer.concat([Buffer.alloc(70 * 1024, 'a'), Buffer.from([0xff, 0xfe, 0x00])]);
    const upload = await stack.upload(projectId, 'corrupt.md', corrupt);
    expect(upload.status).toBe(202);
    const document = await stack.settled(upload.body.id as string);
    expect(document.status).toBe('FAILED');
    expect(document.error?.message).toMatch(/corrupt\.md is not valid UTF-8/);
  });

  it('searches in HYBRID, KEYWORD and VECTOR modes with per-leg ranks', async () => {
    const input = { projectId, query: 'как откатить релиз', limit: 5 };
    const hybrid = await stack.query<{ search: { hits: Hit[] } }>(SEARCH, {
      input: { ...input, mode: 'HYBRID' },
    });
    expect(hybrid.search.hits[0]).toMatchObject({ documentId: runbookId, headingPath: ['Runbook', 'Откат'] });
    expect(hybrid.search.hits[0].bm25?.rank).toBe(1);
    expect(hybrid.search.hits[0].knn?.rank).toBe(1);

    const keyword = await stack.query<{ search: { hits: Hit[] } }>(SEARCH, {
      input: { ...input, mode: 'KEYWORD' },
    });
    expect(keyword.search.hits.every((h) => h.knn === null && h.bm25 !== null)).toBe(true);

    const vector = await stack.query<{ search: { hits: Hit[] } }>(SEARCH, {
      input: { ...input, query: 'how to revert a bad deployment', mode: 'VECTOR' },
    });
    expect(vector.search.hits.every((h) => h.bm25 === null && h.knn !== null)).toBe(true);
    expect(vector.search.hits[0].documentId).toBe(runbookId);
  });

  it('reports a bad search input as BAD_REQUEST, without internals', async () => {
    const body = await stack.gql(SEARCH, { input: { projectId, query: 'x', limit: 1000 } });
    expect(body.errors?.[0]).toMatchObject({
      message: 'limit must be between 1 and 100',
      extensions: { code: 'BAD_REQUEST' },
    });
    expect(JSON.stringify(body)).not.toMatch(/stacktrace|at .*\.ts:\d+/);
  });

  it('reindexes a document to the same chunks', async () => {
    const before = await stack.query<{ search: { hits: Hit[] } }>(SEARCH, {
      input: { projectId, query: 'rollback', limit: 10, mode: 'KEYWORD' },
    });
    const data = await stack.query<{ reindexDocument: { status: string } }>(
      'mutation($id: ID!) { reindexDocument(id: $id) { status } }',
      { id: runbookId },
    );
    expect(['PENDING', 'INDEXING', 'READY']).toContain(data.reindexDocument.status);
    const document = await stack.settled(runbookId);
    expect(document.status).toBe('READY');
    expect(document.chunkCount).toBe(2);
    const after = await stack.query<{ search: { hits: Hit[] } }>(SEARCH, {
      input: { projectId, query: 'rollback', limit: 10, mode: 'KEYWORD' },
    });
    expect(after.search.hits.map((h) => h.chunkId).sort()).toEqual(
      before.search.hits.map((h) => h.chunkId).sort(),
    );
  });

  it('deleting a document removes its chunks from search', async () => {
    expect(
      (
        await stack.query<{ deleteDocument: boolean }>('mutation($id: ID!) { deleteDocument(id: $id) }', {
          id: runbookId,
        })
      ).deleteDocument,
    ).toBe(true);
    expect(await stack.document(runbookId)).toBeNull();
    const search = await stack.query<{ search: { hits: Hit[] } }>(SEARCH, {
      input: { projectId, query: 'rollback release', limit: 10, mode: 'HYBRID' },
    });
    expect(search.search.hits.map((h) => h.documentId)).not.toContain(runbookId);
    const again = await stack.gql('mutation($id: ID!) { deleteDocument(id: $id) }', { id: runbookId });
    expect(again.errors?.[0].extensions).toEqual({ code: 'DOCUMENT_NOT_FOUND' });
  });

  it('deleting a project removes it with its documents', async () => {
    await stack.query('mutation($id: ID!) { deleteProject(id: $id, wait: true) }', { id: projectId });
    const data = await stack.query<{ project: unknown }>('query($id: ID!) { project(id: $id) { id } }', {
      id: projectId,
    });
    expect(data.project).toBeNull();
    // Its documents are gone with it: asking for them names the project as unknown.
    const documents = await stack.gql('query($id: ID!) { documents(projectId: $id) { totalCount } }', {
      id: projectId,
    });
    expect(documents.errors?.[0]?.extensions?.code).toBe('PROJECT_NOT_FOUND');
  });
});

interface Hit {
  chunkId: string;
  documentId: string;
  headingPath: string[];
  bm25: { rank: number } | null;
  knn: { rank: number } | null;
}
