import { chmodSync, cpSync, readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildZip, patchEntry } from '../../libs/parsing/src/archive/zip-fixtures.testing';
import { ocrFixture } from '@trove/ocr/testing';
import sharp from 'sharp';
import { expectEventually, SHARED_DOCUMENTS } from '../support/services';
import { addSourceMutation } from '../support/sources';
import { TroveStack } from '../support/stack';

/**
 * Files and documentation sites through the API, with the real worker: PDF and EPUB uploads with
 * page/chapter citations, broken files that fail alone, a MkDocs project folder whose citations
 * link to the built site, and zipped folders re-uploaded incrementally.
 */
const scratch = mkdtempSync(join(tmpdir(), 'trove-files-e2e-'));
const stack = new TroveStack({
  TROVE_MAX_UPLOAD_BYTES: String(8 * 1024 * 1024),
  TROVE_FOLDER_ROOTS: `${SHARED_DOCUMENTS}:${scratch}`,
  TROVE_FOLDER_CACHE_DIR: join(scratch, 'cache'),
  TROVE_PUBLIC_URL: 'http://trove.example:4000',
});
let projectId: string;

const pdf = (name: string) => readFileSync(join(SHARED_DOCUMENTS, 'pdf', name));

interface ChunkView {
  id: string;
  position: number;
  text: string;
  headingPath: string[];
  page: number | null;
  pageEnd: number | null;
  chapter: string | null;
  anchor: string | null;
  citationUrl: string | null;
  tokenCount: number;
}

const CHUNKS = `query($id: ID!) { chunks(documentId: $id) {
  id position text headingPath page pageEnd chapter anchor citationUrl tokenCount } }`;

async function chunks(documentId: string): Promise<ChunkView[]> {
  return (await stack.query<{ chunks: ChunkView[] }>(CHUNKS, { id: documentId })).chunks;
}

async function sourceDocuments(sourceId: string) {
  const {
    documents: { nodes: documents },
  } = await stack.query<{
    documents: {
      nodes: {
        id: string;
        fileName: string;
        sourceId: string | null;
        status: string;
        url: string | null;
        warnings: string[];
      }[];
    };
  }>(
    'query($p: ID!) { documents(projectId: $p, first: 500) { nodes { id fileName sourceId status url warnings } } }',
    {
      p: projectId,
    },
  );
  return documents.filter((d) => d.sourceId === sourceId);
}

beforeAll(async () => {
  await stack.start();
  projectId = await stack.createProject('Files');
});
afterAll(() => stack.stop());

describe('PDF and EPUB uploads', () => {
  it('indexes a PDF with its outline as heading paths, pages on chunks and signed #page citations', async () => {
    const upload = await stack.upload(projectId, 'outline.pdf', pdf('pdflatex-outline.pdf'));
    expect(upload.status).toBe(202);
    const document = await stack.settled(upload.body.id as string);
    expect(document).toMatchObject({ status: 'READY' });
    const list = await chunks(document.id);
    expect(list.length).toBe(document.chunkCount);
    // The outline (Foo, Bar, Baz ...) starts on page 2; the table of contents is page 1.
    const foo = list.find((c) => c.headingPath[0] === 'Foo' && c.page === 2);
    expect(foo).toBeDefined();
    expect(list.some((c) => c.page === 4 && ['Bar', 'Baz'].includes(c.headingPath[0]))).toBe(true);
    for (const chunk of list) {
      expect(chunk.page).toBeGreaterThanOrEqual(1);
      expect(chunk.pageEnd).toBeGreaterThanOrEqual(chunk.page!);
      expect(chunk.citationUrl).toMatch(
        new RegExp(
          `^http://trove\\.example:4000/v1/documents/${document.id}/original\\?sig=[\\w-]+#page=${chunk.page}$`,
        ),
      );
    }

    // The citation opens without the API key (the signature grants this one file) ...
    const local = foo!.citationUrl!.replace('http://trove.example:4000', stack.url).split('#')[0];
    const opened = await fetch(local);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await opened.arrayBuffer()).equals(pdf('pdflatex-outline.pdf'))).toBe(true);
    // ... and a wrong or missing signature is refused.
    expect((await fetch(local.replace(/sig=[\w-]+/, 'sig=forged'))).status).toBe(401);
    expect((await fetch(local.split('?')[0])).status).toBe(401);

    const single = await stack.query<{ chunk: ChunkView }>(
      'query($id: ID!) { chunk(id: $id) { id page headingPath citationUrl } }',
      { id: foo!.id },
    );
    expect(single.chunk).toMatchObject({ id: foo!.id, page: 2, headingPath: ['Foo'] });
  });

  it('indexes an EPUB with chapters from its table of contents', async () => {
    // A whole real book, the shortest of the shared ones (about 20 chunks, a poem per chapter): the
    // parser's unit specs read every shared book, the longest (300+ chunks) included; here the
    // chapters must come through the worker and the API.
    const data = readFileSync(join(SHARED_DOCUMENTS, 'epub', 'purvis-poetry-standardebooks.epub'));
    const upload = await stack.upload(projectId, 'poetry.epub', data);
    expect(upload.status).toBe(202);
    const document = await stack.settled(upload.body.id as string, 240_000);
    expect(document.status).toBe('READY');
    const list = await chunks(document.id);
    const chapters = new Set(list.map((c) => c.chapter).filter(Boolean));
    expect(chapters.size).toBeGreaterThan(10);
    for (const chunk of list.filter((c) => c.chapter)) expect(chunk.headingPath[0]).toBeTruthy();
  }, 300_000);

  it('reads a scanned PDF page by OCR: READY, its text searchable, cited by page', async () => {
    const upload = await stack.upload(projectId, 'scanned.pdf', pdf('scanned-huckfinn-c02-22-imageonly.pdf'));
    expect(upload.status).toBe(202);
    const document = await stack.settled(upload.body.id as string, 300_000);
    expect(document).toMatchObject({ status: 'READY' });
    const list = await chunks(document.id);
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((c) => c.page === 1)).toBe(true);
    // Words of the page image itself (Huckleberry Finn, chapter 2), not of any text layer: it has none.
    expect(list.map((c) => c.text).join(' ')).toMatch(/widow.s garden/);
    type Hit = { documentId: string; page: number | null; ocr: boolean | null; ocrConfidence: number | null };
    const { search } = await stack.query<{ search: { hits: Hit[] } }>(
      'query($input: SearchInput!) { search(input: $input) { hits { documentId page ocr ocrConfidence } } }',
      { input: { projectId, query: 'scrouched down and laid still', mode: 'KEYWORD' } },
    );
    // Marked as recognised text, with its confidence, so a reader knows to check the scan.
    expect(search.hits[0]).toMatchObject({ documentId: document.id, page: 1, ocr: true });
    expect(search.hits[0].ocrConfidence).toBeGreaterThan(50);
  }, 360_000);

  it('shows how far OCR got while a multi-page scan is INDEXING, and nothing once it is READY', async () => {
    const page = ocrFixture('english').image;
    const tiff = await sharp(
      Array.from({ length: 3 }, () => page),
      { join: { animated: true } },
    )
      .tiff()
      .toBuffer();
    const upload = await stack.upload(projectId, 'three-pages.tiff', tiff);
    expect(upload.status).toBe(202);
    type Progress = { stage: string; page: number; pageCount: number | null };
    const seen: Progress[] = [];
    let last: { status: string; chunkCount: number; progress: Progress | null } | undefined;
    // Each page takes seconds to read; the document is watched until it settles.
    await expectEventually(
      async () => {
        const { document } = await stack.query<{ document: NonNullable<typeof last> }>(
          'query($id: ID!) { document(id: $id) { status chunkCount progress { stage page pageCount } } }',
          { id: upload.body.id },
        );
        last = document;
        if (document.progress) seen.push(document.progress);
        expect(['READY', 'FAILED']).toContain(document.status);
      },
      { timeoutMs: 300_000, intervalMs: 200 },
    );
    expect(last).toMatchObject({ status: 'READY', progress: null });
    expect(seen.length).toBeGreaterThan(0);
    for (const progress of seen) expect(progress).toMatchObject({ stage: 'ocr', pageCount: 3 });
    const pages = seen.map((p) => p.page);
    expect(pages).toEqual([...pages].sort((a, b) => a - b));
  }, 360_000);

  it('reads no scan in a project that switched OCR off: the image fails with NO_TEXT_LAYER, saying why', async () => {
    const offProject = await stack.createProject(`no-ocr-${Date.now()}`);
    const { updateProjectSettings } = await stack.query<{
      updateProjectSettings: { settings: { ocr: boolean } };
    }>(
      'mutation($p: ID!) { updateProjectSettings(projectId: $p, input: { ocr: false }) { settings { ocr } } }',
      { p: offProject },
    );
    expect(updateProjectSettings.settings.ocr).toBe(false);
    const upload = await stack.upload(
      offProject,
      'scanned.pdf',
      pdf('scanned-huckfinn-c02-22-imageonly.pdf'),
    );
    expect(upload.status).toBe(202);
    const document = await stack.settled(upload.body.id as string);
    expect(document).toMatchObject({ status: 'FAILED', chunkCount: 0, error: { code: 'NO_TEXT_LAYER' } });
    expect(document.error!.message).toMatch(/OCR is switched off for this project/);
    // The other projects keep their default: on.
    const { project } = await stack.query<{ project: { settings: { ocr: boolean } } }>(
      'query($id: ID!) { project(id: $id) { settings { ocr } } }',
      { id: projectId },
    );
    expect(project.settings.ocr).toBe(true);
  }, 180_000);

  it('fails broken files one by one with a clear reason, and keeps working', async () => {
    const cases: { name: string; data: Buffer; code: string; message: RegExp }[] = [
      {
        name: 'locked.pdf',
        data: pdf('encrypted-libreoffice-writer-password.pdf'),
        code: 'ENCRYPTED_DOCUMENT',
        message: /password/,
      },
      {
        name: 'disguised.md',
        data: Buffer.from('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n<<'),
        code: 'CORRUPT_DOCUMENT',
        message: /disguised\.md/,
      },
      {
        name: 'half.pdf',
        data: pdf('pdflatex-outline.pdf').subarray(0, 20_000),
        code: 'CORRUPT_DOCUMENT',
        message: /half\.pdf/,
      },
    ];
    const ids = [];
    for (const c of cases) {
      const upload = await stack.upload(projectId, c.name, c.data);
      expect(upload.status).toBe(202);
      ids.push(upload.body.id as string);
    }
    for (const [i, c] of cases.entries()) {
      const document = await stack.settled(ids[i]);
      expect(document, c.name).toMatchObject({ status: 'FAILED', chunkCount: 0, error: { code: c.code } });
      expect(document.error!.message).toMatch(c.message);
    }
    // The worker survived all of them.
    const after = await stack.upload(projectId, 'after.md', '# After\n\nThe worker still indexes files.');
    expect((await stack.settled(after.body.id as string)).status).toBe('READY');
  });
});

describe('MkDocs project folder', () => {
  let sourceId: string;
  /**
   * The shared MkDocs site with its seven longest pages but one (the configuration page the test
   * reads) left out by its own `exclude_docs`: 9,900 of the 39,400 words of its docs stay, and
   * every feature the test checks with them (the nav from mkdocs.yml and from literate-nav README
   * files, site URLs, heading anchors, an excluded page, a `:::` warning), at a quarter of the
   * embedding.
   */
  const site = join(scratch, 'mkdocs');

  beforeAll(() => {
    cpSync(join(SHARED_DOCUMENTS, 'mkdocs'), site, { recursive: true });
    const config = join(site, 'mkdocs.yml');
    chmodSync(config, 0o644);
    const yaml = readFileSync(config, 'utf8');
    if (!yaml.includes('exclude_docs: |\n  *.py\n')) throw new Error('the shared mkdocs.yml changed');
    writeFileSync(
      config,
      yaml.replace(
        'exclude_docs: |\n  *.py\n',
        'exclude_docs: |\n  *.py\n' +
          [
            'about/release-notes.md',
            'dev-guide/themes.md',
            'dev-guide/plugins.md',
            'user-guide/writing-your-docs.md',
            'user-guide/deploying-your-docs.md',
            'user-guide/customizing-your-theme.md',
            'user-guide/choosing-your-theme.md',
          ]
            .map((page) => `  /${page}\n`)
            .join(''),
      ),
    );
  });

  it('ingests the pages in nav order with site URLs and heading anchors as citations', async () => {
    const added = await stack.addSource<{ id: string; config: { format: string; path: string } }>(
      { projectId, name: 'MkDocs docs', type: 'FOLDER', config: { path: site } },
      'id config',
    );
    sourceId = added.id;
    expect(added.config.format).toBe('AUTO');
    const { syncSource } = await stack.query<{ syncSource: { id: string } }>(
      'mutation($id: ID!) { syncSource(id: $id, mode: FULL) { id } }',
      { id: sourceId },
    );
    const run = await stack.runSettled(syncSource.id, 600_000);
    expect(run.status).toBe('COMPLETED');
    const documents = await sourceDocuments(sourceId);
    expect(documents.length).toBe(run.progress.pagesSeen);
    expect(run.progress.pagesIngested).toBe(documents.length);
    expect(documents.every((d) => d.status === 'READY')).toBe(true);
    const files = documents.map((d) => d.fileName);
    expect(files).toContain('about/license.md');
    expect(files).not.toContain('about/release-notes.md');
    expect(files).not.toContain('dev-guide/themes.md');
    expect(files).toEqual(
      expect.arrayContaining(['user-guide/installation.md', 'dev-guide/translations.md']),
    );

    const configuration = documents.find((d) => d.fileName === 'user-guide/configuration.md')!;
    expect(configuration.url).toBe('https://www.mkdocs.org/user-guide/configuration/');
    const siteUrl = (await chunks(configuration.id)).find((c) => c.headingPath.at(-1) === 'site_url');
    expect(siteUrl?.citationUrl).toBe('https://www.mkdocs.org/user-guide/configuration/#site_url');

    const api = documents.find((d) => d.fileName === 'dev-guide/api.md')!;
    expect(api.warnings.join('\n')).toMatch(/:::/);

    const { search } = await stack.query<{ search: { hits: { citationUrl: string }[] } }>(
      'query($input: SearchInput!) { search(input: $input) { hits { citationUrl } } }',
      { input: { projectId, query: 'how do I set the canonical site URL', limit: 5 } },
    );
    expect(
      search.hits.some((h) => h.citationUrl.startsWith('https://www.mkdocs.org/user-guide/configuration/')),
    ).toBe(true);
  });

  it('re-syncing an unchanged folder ingests nothing', async () => {
    const { syncSource } = await stack.query<{ syncSource: { id: string } }>(
      'mutation($id: ID!) { syncSource(id: $id) { id } }',
      { id: sourceId },
    );
    const run = await stack.runSettled(syncSource.id);
    expect(run).toMatchObject({ status: 'COMPLETED', progress: { pagesIngested: 0, pagesDeleted: 0 } });
    expect(run.progress.pagesUnchanged).toBe(run.progress.pagesSeen);
  });

  it('refuses folders outside TROVE_FOLDER_ROOTS', async () => {
    const body = await stack.gql(addSourceMutation(), {
      input: { projectId, name: 'etc', type: 'FOLDER', config: { path: '/etc' } },
    });
    expect(body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_REQUEST' } });
    expect(body.errors?.[0].message).toMatch(
      /not an existing file or folder inside the folders sources may read/,
    );
  });
});

describe('zipped folders and combined Markdown', () => {
  const page = (title: string, body: string) => `# ${title}\n\n${body}\n`;

  it('imports a zip, then re-imports only what changed and removes deleted files', async () => {
    const v1 = await buildZip([
      {
        path: 'handbook/guide/intro.md',
        data: page('Intro', 'Welcome to the handbook. It explains the release train.'),
      },
      {
        path: 'handbook/guide/deploy.md',
        data: page('Deploy', 'Deploy with the release train every Tuesday morning.'),
      },
      {
        path: 'handbook/old.md',
        data: page('Old', 'This page is going away soon, it describes the legacy flow.'),
      },
      // Skipped: not a type Trove reads (images are read, by OCR).
      { path: 'handbook/theme.css', data: 'body { color: #333; }' },
    ]);
    const first = await stack.uploadArchive(projectId, 'handbook.zip', v1);
    expect(first.status).toBe(202);
    const sourceId = first.body.source!.id;
    const run1 = await stack.runSettled(first.body.run!.id);
    expect(run1).toMatchObject({ status: 'COMPLETED', progress: { pagesSeen: 3, pagesIngested: 3 } });
    expect((await sourceDocuments(sourceId)).map((d) => d.fileName).sort()).toEqual([
      'guide/deploy.md',
      'guide/intro.md',
      'old.md',
    ]);

    const v2 = await buildZip([
      {
        path: 'handbook/guide/intro.md',
        data: page('Intro', 'Welcome to the handbook. It explains the release train.'),
      },
      {
        path: 'handbook/guide/deploy.md',
        data: page('Deploy', 'Deploy with the release train every Wednesday evening.'),
      },
    ]);
    const second = await stack.uploadArchive(projectId, 'handbook.zip', v2, { sourceId });
    expect(second.status).toBe(202);
    const run2 = await stack.runSettled(second.body.run!.id);
    expect(run2).toMatchObject({
      status: 'COMPLETED',
      progress: { pagesSeen: 2, pagesIngested: 1, pagesUnchanged: 1, pagesDeleted: 1 },
    });
    const documents = await sourceDocuments(sourceId);
    expect(documents.map((d) => d.fileName).sort()).toEqual(['guide/deploy.md', 'guide/intro.md']);
    const deploy = documents.find((d) => d.fileName === 'guide/deploy.md')!;
    expect((await chunks(deploy.id)).map((c) => c.text).join(' ')).toContain('Wednesday');
  });

  it('refuses unsafe archives before storing anything', async () => {
    const slip = patchEntry(await buildZip([{ path: 'aa/evil.md', data: '# evil' }]), 'aa/evil.md', {
      name: '../evil.md',
    });
    const refused = await stack.uploadArchive(projectId, 'slip.zip', slip);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'UNSAFE_ARCHIVE',
      message: expect.stringContaining('../evil.md'),
    });
    const nothing = await stack.uploadArchive(
      projectId,
      'assets.zip',
      await buildZip([{ path: 'a.css', data: 'x' }]),
    );
    expect(nothing.status).toBe(415);
  });

  it('splits one combined Markdown file into a document per top-level section', async () => {
    const file = join(scratch, 'combined.md');
    writeFileSync(
      file,
      [
        page('Chapter One', 'The first chapter talks about apples.'),
        page('Chapter Two', 'The second one is about pears.'),
      ].join('\n'),
    );
    const { id: sourceId } = await stack.addSource({
      projectId,
      name: 'Combined',
      type: 'FOLDER',
      config: { path: file },
    });
    const { syncSource } = await stack.query<{ syncSource: { id: string } }>(
      'mutation($id: ID!) { syncSource(id: $id) { id } }',
      { id: sourceId },
    );
    expect((await stack.runSettled(syncSource.id)).status).toBe('COMPLETED');
    const documents = await expectEventually(async () => {
      const list = await sourceDocuments(sourceId);
      if (list.length !== 2) throw new Error(`${list.length} documents`);
      return list;
    });
    expect(documents.map((d) => d.fileName).sort()).toEqual([
      'combined.md#chapter-one',
      'combined.md#chapter-two',
    ]);
  });
});
