import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildZip } from '../../libs/parsing/src/archive/zip-fixtures.testing';
import { addSourceMutation } from '../support/sources';
import { ADMIN_KEY, TroveStack } from '../support/stack';

/**
 * What an error tells a client: a stable code and a human message, never a backend's address, a
 * server path, or whether a path outside the allowed folders exists. Also: an archive the
 * worker could not unpack is refused at upload.
 */
const scratch = mkdtempSync(join(tmpdir(), 'trove-leaks-e2e-'));
const roots = join(scratch, 'roots');
const blobDir = join(scratch, 'blobs');
const cacheDir = join(scratch, 'cache');
mkdirSync(join(roots, 'docs'), { recursive: true });
writeFileSync(join(roots, 'docs', 'a.md'), '# A\n\nSome text.\n');
const stack = new TroveStack({
  TROVE_FOLDER_ROOTS: roots,
  TROVE_FOLDER_CACHE_DIR: cacheDir,
  TROVE_BLOB_DIR: blobDir,
});
let projectId: string;

beforeAll(async () => {
  await stack.start();
  projectId = await stack.createProject('Error leaks');
});
afterAll(async () => {
  await stack.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** No Elasticsearch URL, index name, stack frame or absolute path in what the client reads. */
function expectNoInternals(text: string): void {
  expect(text).not.toMatch(/https?:\/\/|9200|_doc|-projects|-documents|-sources|\bat \w|\/tmp\/|\/work\//);
}

describe('malformed ids', () => {
  it.each([
    ['project', 'query($id: ID!) { project(id: $id) { id } }', ''],
    ['project', 'query($id: ID!) { project(id: $id) { id } }', '../_search'],
    ['document', 'query($id: ID!) { document(id: $id) { id } }', ' '],
    ['chunk', 'query($id: ID!) { chunk(id: $id) { id } }', ''],
    ['syncRun', 'query($id: ID!) { syncRun(id: $id) { id } }', 'x'.repeat(600)],
    ['deleteProject', 'mutation($id: ID!) { deleteProject(id: $id) }', ''],
    ['sources', 'query($id: ID!) { sources(projectId: $id) { id } }', '%2F'],
  ])('%s(%j…) is a BAD_REQUEST, not a backend error', async (_name, query, id) => {
    const body = await stack.gql(query, { id });
    expect(body.errors?.[0]).toMatchObject({
      extensions: { code: 'BAD_REQUEST' },
      message: expect.stringMatching(/is not a valid id/),
    });
    expectNoInternals(JSON.stringify(body));
  });

  it('an id of the right shape that names nothing is not found', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const project = await stack.gql('query($id: ID!) { project(id: $id) { id } }', { id });
    expect(project).toEqual({ data: { project: null } });
    const removed = await stack.gql('mutation($id: ID!) { removeSource(id: $id) }', { id });
    expect(removed.errors?.[0].extensions).toMatchObject({ code: 'SOURCE_NOT_FOUND' });
  });

  it('ids inside inputs and REST path parameters are checked too', async () => {
    const search = await stack.gql('query($input: SearchInput!) { search(input: $input) { tookMs } }', {
      input: { projectId: '', query: 'x', mode: 'KEYWORD' },
    });
    expect(search.errors?.[0].extensions).toMatchObject({ code: 'PROJECT_NOT_FOUND' });
    expectNoInternals(JSON.stringify(search));
    const upload = await stack.upload('not-a-project', 'a.md', '# A');
    expect(upload.status).toBe(400);
    expectNoInternals(JSON.stringify(upload.body));
    const original = await fetch(`${stack.url}/v1/documents/not-an-id/original`, {
      headers: { 'X-API-Key': ADMIN_KEY },
    });
    expect(original.status).toBe(400);
    expectNoInternals(await original.text());
  });
});

describe('folder sources', () => {
  const addFolder = (path: string) =>
    stack.gql(addSourceMutation(), { input: { projectId, name: 'probe', type: 'FOLDER', config: { path } } });

  it('answers the same whether a path outside the roots exists or not', async () => {
    const answers = await Promise.all(
      ['/etc/passwd', '/etc/no-such-file', '/root', '/no/such/dir', join(roots, 'missing')].map(
        async (path) => {
          const body = await addFolder(path);
          return {
            code: body.errors?.[0].extensions?.code,
            message: body.errors?.[0].message.replace(path, '<path>'),
          };
        },
      ),
    );
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual({
      code: 'BAD_REQUEST',
      message:
        'invalid FOLDER source configuration: config.path: <path> is not an existing file or folder inside the folders sources may read (TROVE_FOLDER_ROOTS)',
    });
  });

  it('a sync that fails on an unexpected error records INTERNAL and a generic message, no server path', async () => {
    const upload = await stack.uploadArchive(
      projectId,
      'site.zip',
      await buildZip([{ path: 'a.md', data: '# A\n\nText.\n' }]),
    );
    expect(upload.status).toBe(202);
    const first = await stack.runSettled(upload.body.run!.id);
    expect(first.status).toBe('COMPLETED');
    // The stored archive and its unpacked copy vanish (a disk replaced, a volume not mounted): the
    // next sync fails reading the blob with a file-system error that names a server path.
    rmSync(join(blobDir, 'sources'), { recursive: true, force: true });
    for (const entry of readdirSync(cacheDir))
      rmSync(join(cacheDir, entry), { recursive: true, force: true });
    const { syncSource } = await stack.query<{ syncSource: { id: string } }>(
      'mutation($id: ID!) { syncSource(id: $id) { id } }',
      { id: upload.body.source!.id },
    );
    const run = await stack.runSettled(syncSource.id);
    expect(run.status).toBe('FAILED');
    expect(run.error).toEqual({
      code: 'INTERNAL',
      message: 'an internal error occurred; the worker log has the details',
    });
  }, 180_000);
});

describe('archives the worker could not unpack', () => {
  it('a zip holding both a file "docs" and "docs/x.md" is refused at upload, before the 202', async () => {
    const zip = await buildZip([
      { path: 'docs', data: 'a file' },
      { path: 'docs/x.md', data: '# X\n' },
    ]);
    const upload = await stack.uploadArchive(projectId, 'conflict.zip', zip);
    expect(upload.status).toBe(400);
    expect(upload.body).toEqual({
      error: {
        code: 'UNSAFE_ARCHIVE',
        message: 'conflict.zip was refused: "docs" is a file and also the folder of "docs/x.md"',
      },
    });
  });
});
