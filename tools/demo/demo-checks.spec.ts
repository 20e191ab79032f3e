import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PageInput, type Workspace } from '@trove/notion-emulator';
import { describe, expect, it } from 'vitest';
import {
  askProblems,
  mkdocsPages,
  notionSubtree,
  rankProblems,
  sampleDocumentProblems,
  searchProblems,
  syncProblems,
} from './demo-checks';

describe('the quick start demo checks', () => {
  it('a sample that FAILED, or never became a document, is a failed check naming the file and why', () => {
    const documents = [
      { fileName: 'a.md', status: 'READY', chunkCount: 2 },
      { fileName: 'broken.pdf', status: 'FAILED', chunkCount: 0, error: { message: 'not a PDF file' } },
    ];
    expect(sampleDocumentProblems(['a.md', 'broken.pdf', 'lost.md'], documents)).toEqual([
      'sample broken.pdf: FAILED, not READY: not a PDF file',
      'sample lost.md: no document in the project',
    ]);
    expect(sampleDocumentProblems(['a.md'], documents)).toEqual([]);
  });

  it('a search without hits, or a hit without a citation URL, is a failed check', () => {
    expect(searchProblems('q', [])).toEqual(['search "q": no hit (expected a hit)']);
    expect(
      searchProblems('q', [
        { title: 'Runbook', citationUrl: 'https://x/1' },
        { title: 'Notes', citationUrl: null },
      ]),
    ).toEqual(['search "q": hit 2 (Notes) has no citation URL']);
  });

  it('an answer without citations, or whose citations it never marks, is a failed check', () => {
    expect(askProblems('q?', { answer: 'No idea.', citations: [] })).toEqual([
      'ask "q?": the answer has no citation',
    ]);
    const citations = [{ marker: 1, title: 'Runbook', citationUrl: 'https://x/1' }];
    expect(askProblems('q?', { answer: 'Roll back first [2].', citations })).toEqual([
      'ask "q?": the answer uses none of its citation markers',
    ]);
    expect(askProblems('q?', { answer: 'Roll back first [1].', citations })).toEqual([]);
  });

  it('a search whose expected document is not in its top 3 is a failed check naming what came first', () => {
    const runbook = {
      name: 'the sample deploy-runbook.md',
      is: (hit: { documentId: string }) => hit.documentId === 'd1',
    };
    const hit = (documentId: string, title: string) => ({ documentId, title });
    expect(rankProblems('roll back', [hit('d2', 'Notes'), hit('d1', 'Runbook')], runbook)).toEqual([]);
    expect(
      rankProblems(
        'roll back',
        [hit('d2', 'Notes'), hit('d3', 'Basics'), hit('d2', 'Notes'), hit('d1', 'Runbook')],
        runbook,
      ),
    ).toEqual([
      'search "roll back": the sample deploy-runbook.md is not in the top 3 (1. Notes, 2. Basics, 3. Notes)',
    ]);
    expect(rankProblems('roll back', [], runbook)).toEqual([
      'search "roll back": the sample deploy-runbook.md is not in the top 3 (no hit)',
    ]);
  });

  it('an answer that does not cite the expected document is a failed check', () => {
    const runbook = {
      name: 'the sample deploy-runbook.md',
      is: (c: { documentId?: string }) => c.documentId === 'd1',
    };
    const cited = (documentId: string) => ({
      answer: 'Roll back first [1].',
      citations: [{ marker: 1, documentId, title: 'Notes', citationUrl: 'https://x/1' }],
    });
    expect(askProblems('q?', cited('d1'), runbook)).toEqual([]);
    expect(askProblems('q?', cited('d2'), runbook)).toEqual([
      'ask "q?": no citation of the sample deploy-runbook.md (cited: Notes)',
    ]);
  });

  it('a sync that did not complete, saw other pages than expected, or failed pages is a failed check', () => {
    const progress = { pagesSeen: 5, pagesIngested: 5, pagesUnchanged: 0, pagesFailed: 0, pagesSkipped: 1 };
    const run = { status: 'COMPLETED', error: null, progress };
    expect(syncProblems('wiki', run, { pages: 5, skipped: 1 })).toEqual([]);
    expect(
      syncProblems(
        'wiki',
        { ...run, progress: { ...progress, pagesIngested: 0, pagesUnchanged: 5 } },
        { pages: 5 },
      ),
    ).toEqual([]);
    expect(
      syncProblems('wiki', { status: 'FAILED', error: { message: 'unauthorized' }, progress }, { pages: 5 }),
    ).toEqual(['wiki sync: FAILED, not COMPLETED: unauthorized']);
    expect(
      syncProblems(
        'wiki',
        { ...run, progress: { ...progress, pagesIngested: 4, pagesFailed: 1 } },
        { pages: 6, skipped: 0 },
      ),
    ).toEqual([
      'wiki sync: saw 5 pages, expected 6',
      'wiki sync: 1 pages failed',
      'wiki sync: 4 ingested + 0 unchanged of 5 seen',
      'wiki sync: skipped 1 pages, expected 0',
    ]);
    expect(
      syncProblems('wiki', { ...run, progress: { ...progress, pagesSeen: 0, pagesIngested: 0 } }, {}),
    ).toEqual(['wiki sync: saw 0 pages, expected some']);
  });

  it("a MkDocs project's pages are the Markdown files under its docs_dir", () => {
    const site = mkdtempSync(join(tmpdir(), 'demo-checks-'));
    writeFileSync(
      join(site, 'mkdocs.yml'),
      'site_name: S\ndocs_dir: pages\nmarkdown_extensions:\n  - toc:\n      slugify: !!python/object/apply:pymdownx.slugs.slugify {kwds: {case: lower}}\n',
    );
    mkdirSync(join(site, 'pages', 'ops'), { recursive: true });
    for (const file of ['index.md', 'ops/backups.md', 'ops/diagram.png'])
      writeFileSync(join(site, 'pages', file), '# x');
    writeFileSync(join(site, 'README.md'), '# not a page');
    expect(mkdocsPages(site)).toEqual(['index.md', 'ops/backups.md']);
  });

  it('the Notion subtree counts sub-pages, linked pages, database rows and synced content, and skips unshared links', () => {
    const audit = { createdTime: '2026-01-01T00:00:00Z', createdBy: 'u' };
    const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const page = (n: number, rest: Partial<PageInput> = {}): PageInput => ({
      id: uuid(n),
      parent: { type: 'workspace' },
      title: `Page ${n}`,
      ...audit,
      ...rest,
    });
    const workspace: Workspace = {
      workspace: { id: uuid(900), name: 'W' },
      integration: { id: uuid(901), botId: uuid(902), name: 'I', token: 't' },
      users: [{ id: 'u', name: 'U' }],
      pages: [
        page(1, {
          blocks: [
            { type: 'child_page', pageId: uuid(2) },
            { type: 'link_to_page', pageId: uuid(9) },
            { type: 'synced_block', syncedFrom: uuid(100) },
            {
              type: 'column_list',
              columns: [{ children: [{ type: 'child_database', databaseId: uuid(50) }] }, { children: [] }],
            },
          ],
        }),
        page(2, { parent: { type: 'page', id: uuid(1) } }),
        // A sub-page no block places: listed at the end of its parent.
        page(3, { parent: { type: 'page', id: uuid(2) } }),
        page(4, { parent: { type: 'page', id: uuid(1) }, inTrash: true }),
        page(5, {
          blocks: [
            { type: 'synced_block', id: uuid(100), children: [{ type: 'link_to_page', pageId: uuid(6) }] },
          ],
        }),
        page(6),
        page(7, { parent: { type: 'data_source', id: uuid(51) } }),
        page(8, { parent: { type: 'data_source', id: uuid(51) } }),
        page(9, { shared: false }),
        page(10),
      ],
      databases: [
        {
          id: uuid(50),
          title: 'DB',
          parent: { type: 'page', id: uuid(1) },
          ...audit,
          dataSources: [{ id: uuid(51), name: 'Rows', properties: [{ name: 'Name', type: 'title' }] }],
        },
      ],
    };
    // 1, 2, 3, 6 (through the synced block), 7 and 8 (rows); 9 is not shared; 4 is in the trash; 5 and 10 are elsewhere.
    expect(notionSubtree(workspace, uuid(1))).toEqual({ pages: 6, skipped: 1 });
  });
});
