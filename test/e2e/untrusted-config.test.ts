import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildZip } from '../../libs/parsing/src/archive/zip-fixtures.testing';
import { TEST_SECRET_KEY } from '../support/services';
import { ADMIN_KEY, TroveStack, type ArchiveUploadView, type SyncRunView } from '../support/stack';

/**
 * A MkDocs site uploaded by an EDITOR is untrusted content: its mkdocs.yml cannot read the
 * server's environment (`!ENV`) or put a `javascript:` link into the citations everyone is served.
 */
const scratch = mkdtempSync(join(tmpdir(), 'trove-untrusted-config-e2e-'));
const stack = new TroveStack({ TROVE_FOLDER_CACHE_DIR: join(scratch, 'cache') });
const SECRETS = [ADMIN_KEY, TEST_SECRET_KEY];
let projectId: string;
let editorKey: string;
let viewerKey: string;

async function createKey(name: string, role: 'EDITOR' | 'VIEWER'): Promise<string> {
  const { createApiKey } = await stack.query<{ createApiKey: { secret: string } }>(
    'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret } }',
    { input: { name, role, projectIds: [projectId] } },
  );
  return createApiKey.secret;
}

async function uploadAs(key: string, fileName: string, zip: Buffer): Promise<ArchiveUploadView> {
  const form = new FormData();
  form.append('file', new Blob([zip]), fileName);
  const response = await fetch(`${stack.url}/v1/projects/${projectId}/archives`, {
    method: 'POST',
    headers: { 'X-API-Key': key },
    body: form,
  });
  expect(response.status).toBe(202);
  return (await response.json()) as ArchiveUploadView;
}

/** What a VIEWER of the project reads about a run: its status, error and warnings. */
async function runSeenBy(key: string, runId: string): Promise<SyncRunView> {
  const body = await stack.gql<{ syncRun: SyncRunView }>(
    'query($id: ID!) { syncRun(id: $id) { id status error { code message } warnings } }',
    { id: runId },
    { 'X-API-Key': key },
  );
  expect(body.errors).toBeUndefined();
  return body.data!.syncRun;
}

interface DocumentWithChunks {
  fileName: string;
  status: string;
  url: string | null;
  warnings: string[];
  error: { code: string; message: string } | null;
  chunks: { text: string; citationUrl: string | null }[];
}

async function sourceDocuments(sourceId: string): Promise<DocumentWithChunks[]> {
  const { documents } = await stack.query<{
    documents: { nodes: { id: string; sourceId: string | null }[] };
  }>('query($p: ID!) { documents(projectId: $p, first: 100) { nodes { id sourceId } } }', { p: projectId });
  return Promise.all(
    documents.nodes
      .filter((d) => d.sourceId === sourceId)
      .map(async ({ id }) => {
        const data = await stack.query<{
          document: Omit<DocumentWithChunks, 'chunks'>;
          chunks: DocumentWithChunks['chunks'];
        }>(
          `query($id: ID!) { document(id: $id) { fileName status url warnings error { code message } }
             chunks(documentId: $id) { text citationUrl } }`,
          { id },
        );
        return { ...data.document, chunks: data.chunks };
      }),
  );
}

async function searchHits(query: string) {
  const { search } = await stack.query<{
    search: { hits: { title: string; text: string; citationUrl: string | null }[] };
  }>('query($input: SearchInput!) { search(input: $input) { hits { title text citationUrl } } }', {
    input: { projectId, query, limit: 10 },
  });
  return search.hits;
}

function logs(): string {
  return ['api', 'worker'].map((app) => readFileSync(join(stack.logDir, `${app}.log`), 'utf8')).join('\n');
}

beforeAll(async () => {
  await stack.start();
  projectId = await stack.createProject('Untrusted config');
  editorKey = await createKey('untrusted config editor', 'EDITOR');
  viewerKey = await createKey('untrusted config viewer', 'VIEWER');
});
afterAll(() => stack.stop());

describe("an EDITOR's mkdocs.yml", () => {
  it("with !ENV reads none of the server's secrets: the run completes on the defaults and says so", async () => {
    const zip = await buildZip([
      {
        path: 'site/mkdocs.yml',
        data: [
          'site_name: !ENV TROVE_SECRET_KEY',
          'docs_dir: !ENV [TROVE_ADMIN_API_KEY, docs]',
          'nav:',
          '  - Home: index.md',
          '  - !ENV [TROVE_ADMIN_API_KEY, guide.md]',
        ].join('\n'),
      },
      {
        path: 'site/docs/index.md',
        data: '# Probe home\n\nThe zanzibar probe page of the untrusted site.\n',
      },
      { path: 'site/docs/guide.md', data: '# Probe guide\n\nHow the zanzibar probe is installed.\n' },
    ]);
    const upload = await uploadAs(editorKey, 'probe.zip', zip);
    const run = await stack.runSettled(upload.run!.id);
    for (const secret of SECRETS) expect(run.error?.message ?? '').not.toContain(secret);
    expect(run.status).toBe('COMPLETED');
    expect(run.error).toBeNull();
    expect(run.progress).toMatchObject({ pagesSeen: 2, pagesIngested: 2, pagesFailed: 0 });

    const seen = await runSeenBy(viewerKey, run.id);
    expect(seen.warnings).toEqual(
      expect.arrayContaining([
        'mkdocs.yml: site_name uses !ENV, which is not resolved in synced content; left empty',
        'mkdocs.yml: docs_dir uses !ENV, which is not resolved in synced content; used its default',
        'mkdocs.yml: nav uses !ENV, which is not resolved in synced content; used its default',
      ]),
    );

    const documents = await sourceDocuments(upload.source!.id);
    expect(documents.map((d) => [d.fileName, d.status]).sort()).toEqual([
      ['guide.md', 'READY'],
      ['index.md', 'READY'],
    ]);
    const hits = await searchHits('zanzibar probe');
    expect(hits.length).toBeGreaterThan(0);

    const everything = JSON.stringify([run, seen, documents, hits]);
    for (const secret of SECRETS) {
      expect(everything).not.toContain(secret);
      expect(logs()).not.toContain(secret);
    }
  });

  it('with site_url javascript:… gives its pages no such link: search hits cite http(s) or site paths only', async () => {
    const zip = await buildZip([
      {
        path: 'site/mkdocs.yml',
        data: 'site_name: Links\nsite_url: "javascript://docs/%0aalert(document.domain)//"\n',
      },
      { path: 'site/docs/index.md', data: '# Quokka links\n\nThe quokka page cites its site.\n' },
      { path: 'site/docs/more.md', data: '# More quokka\n\n## Setup\n\nQuokka setup steps.\n' },
    ]);
    const upload = await uploadAs(editorKey, 'links.zip', zip);
    const run = await stack.runSettled(upload.run!.id);
    expect(run.status).toBe('COMPLETED');

    const documents = await sourceDocuments(upload.source!.id);
    const cited = documents.flatMap((d) => d.chunks.map((c) => c.citationUrl));
    expect(cited.length).toBeGreaterThan(0);
    const hits = await searchHits('quokka setup');
    expect(hits.length).toBeGreaterThan(0);
    for (const url of [...cited, ...hits.map((h) => h.citationUrl)]) {
      expect(url).toMatch(/^(https?:\/\/|\/(?![/\\]))/);
      expect(url).not.toMatch(/javascript/i);
    }
    expect(documents.map((d) => d.url).sort()).toEqual(['/', '/more/']);
    expect(run.warnings).toContain('mkdocs.yml: site_url is not an http(s) URL; ignored');
  });
});
