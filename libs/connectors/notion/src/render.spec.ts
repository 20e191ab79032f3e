import { describe, expect, it } from 'vitest';
import type { BlockNode, NotionBlock, PageSnapshot } from './notion-types';
import { blockUrl, propertyText, renderPage } from './render';

const rt = (text: string, extra: Record<string, unknown> = {}) => [{ plain_text: text, ...extra }];
let counter = 0;
function node(type: string, data: Record<string, unknown> = {}, children: BlockNode[] = []): BlockNode {
  const block: NotionBlock = { id: `b${++counter}`, type, has_children: children.length > 0, [type]: data };
  return { block, children };
}

function snapshot(blocks: BlockNode[], properties: PageSnapshot['page']['properties'] = {}): PageSnapshot {
  return {
    page: {
      object: 'page',
      id: 'page-1',
      url: 'https://www.notion.so/Notes-page1',
      created_time: '2026-10-01T00:00:00.000Z',
      last_edited_time: '2026-10-02T00:00:00.000Z',
      parent: { type: 'workspace' },
      properties: { Name: { id: 'title', type: 'title', title: rt('Notes') }, ...properties },
    },
    title: 'Notes',
    blocks,
    breadcrumb: ['Team', 'Wiki'],
    relationTitles: { 'rel-1': 'Related page' },
  };
}

describe('renderPage', () => {
  it('builds heading paths, anchors every block and groups list items', () => {
    counter = 0;
    const doc = renderPage(
      snapshot([
        node('heading_1', { rich_text: rt('Databases') }),
        node('paragraph', { rich_text: rt('Indexes speed up reads.') }),
        node('heading_2', { rich_text: rt('Transactions') }),
        node('bulleted_list_item', { rich_text: rt('atomicity') }, [
          node('bulleted_list_item', { rich_text: rt('all or nothing') }),
        ]),
        node('to_do', { rich_text: rt('learn MVCC'), checked: true }),
        node('numbered_list_item', { rich_text: rt('read committed') }),
      ]),
    );
    expect(doc.title).toBe('Notes');
    expect(doc.metadata).toMatchObject({ breadcrumb: 'Team / Wiki', notionPageId: 'page-1' });
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'Indexes speed up reads.', headingPath: ['Databases'], anchor: 'b2' },
      {
        kind: 'list',
        text: '- atomicity\n  - all or nothing\n- [x] learn MVCC\n1. read committed',
        headingPath: ['Databases', 'Transactions'],
        anchor: 'b5', // the first list item (its child was created first)
      },
    ]);
  });

  it('renders code with its language, tables as Markdown, toggles as context, and no expiring file URLs', () => {
    const doc = renderPage(
      snapshot([
        node('code', { rich_text: rt('SELECT 1;'), language: 'sql', caption: [] }),
        node('table', { table_width: 2, has_column_header: true }, [
          node('table_row', { cells: [rt('Level'), rt('Anomaly')] }),
          node('table_row', { cells: [rt('read committed'), rt('non-repeatable | read')] }),
        ]),
        node('toggle', { rich_text: rt('What is MVCC?') }, [
          node('paragraph', { rich_text: rt('Versions of rows.') }),
        ]),
        node('image', {
          type: 'file',
          file: { url: 'https://files.example/secret?X-Amz-Expires=3600' },
          caption: rt('ER diagram'),
        }),
        node('equation', { expression: 'E = mc^2' }),
        node('callout', { rich_text: rt('Remember this'), icon: { emoji: '💡' } }),
      ]),
    );
    const texts = doc.blocks.map((b) => b.text);
    expect(texts[0]).toBe('```sql\nSELECT 1;\n```');
    expect(doc.blocks[0].codeLanguage).toBe('sql');
    expect(texts[1]).toBe('| Level | Anomaly |\n| --- | --- |\n| read committed | non-repeatable \\| read |');
    expect(doc.blocks[2]).toMatchObject({ text: 'Versions of rows.', headingPath: ['What is MVCC?'] });
    expect(texts[3]).toBe('Image: ER diagram');
    expect(texts.join('\n')).not.toContain('X-Amz-Expires');
    expect(texts[4]).toBe('$$E = mc^2$$');
    expect(texts[5]).toBe('> 💡 Remember this');
  });

  it('renders database row properties as text', () => {
    const doc = renderPage(
      snapshot([], {
        Status: { id: 's', type: 'status', status: { name: 'Done' } },
        Tags: { id: 't', type: 'multi_select', multi_select: [{ name: 'sql' }, { name: 'index' }] },
        Due: { id: 'd', type: 'date', date: { start: '2026-11-01', end: null } },
        Points: { id: 'p', type: 'number', number: 5 },
        Reviewed: { id: 'r', type: 'checkbox', checkbox: false },
        Related: { id: 'l', type: 'relation', relation: [{ id: 'rel-1' }] },
        Score: { id: 'f', type: 'formula', formula: { type: 'number', number: 42 } },
      }),
    );
    expect(doc.blocks[0]).toEqual({
      kind: 'list',
      headingPath: [],
      text: [
        '- Status: Done',
        '- Tags: sql, index',
        '- Due: 2026-11-01',
        '- Points: 5',
        '- Reviewed: no',
        '- Related: Related page',
        '- Score: 42',
      ].join('\n'),
    });
  });

  it('gives an empty page its title as text, so it stays findable', () => {
    expect(renderPage(snapshot([])).blocks).toEqual([
      { kind: 'paragraph', text: 'Notes', headingPath: [], anchor: undefined },
    ]);
  });
});

describe('helpers', () => {
  it('links to a block the way Notion does', () => {
    expect(blockUrl('1a2b-3c', '4d-5e')).toBe('https://www.notion.so/1a2b3c#4d5e');
  });

  it('renders rollups and unique ids', () => {
    expect(propertyText({ id: 'x', type: 'unique_id', unique_id: { prefix: 'Q', number: 7 } })).toBe('Q-7');
    expect(
      propertyText({
        id: 'x',
        type: 'rollup',
        rollup: {
          type: 'array',
          array: [
            { id: 'a', type: 'number', number: 1 },
            { id: 'b', type: 'number', number: 2 },
          ],
        },
      }),
    ).toBe('1, 2');
  });
});

describe('renderPage: blocks nested under list items', () => {
  const render = (...blocks: BlockNode[]) =>
    renderPage(snapshot([node('heading_1', { rich_text: rt('Ops') }), ...blocks])).blocks;
  /** A node with a readable id, so anchors can be checked by name. */
  const named = (id: string, n: BlockNode) => {
    n.block.id = id;
    return n;
  };

  it('keeps a toggle’s content under a bullet, with the bullet and the toggle as its context', () => {
    expect(
      render(
        named(
          'faq',
          node('bulleted_list_item', { rich_text: rt('FAQ') }, [
            node('toggle', { rich_text: rt('How do I page the secondary?') }, [
              named('answer', node('paragraph', { rich_text: rt('Type /page secondary in #incidents.') })),
            ]),
          ]),
        ),
        named('next', node('bulleted_list_item', { rich_text: rt('Next') })),
      ),
    ).toEqual([
      { kind: 'list', text: '- FAQ', headingPath: ['Ops'], anchor: 'faq' },
      {
        kind: 'paragraph',
        text: 'Type /page secondary in #incidents.',
        headingPath: ['Ops', 'FAQ', 'How do I page the secondary?'],
        anchor: 'answer',
      },
      { kind: 'list', text: '- Next', headingPath: ['Ops'], anchor: 'next' },
    ]);
  });

  it('keeps a table under a bullet a table', () => {
    expect(
      render(
        named(
          'levels',
          node('bulleted_list_item', { rich_text: rt('Severity levels') }, [
            named(
              'table',
              node('table', { table_width: 2, has_column_header: true }, [
                node('table_row', { cells: [rt('Level'), rt('Meaning')] }),
                node('table_row', { cells: [rt('SEV-1'), rt('Search is down')] }),
              ]),
            ),
          ]),
        ),
      ),
    ).toEqual([
      { kind: 'list', text: '- Severity levels', headingPath: ['Ops'], anchor: 'levels' },
      {
        kind: 'table',
        text: '| Level | Meaning |\n| --- | --- |\n| SEV-1 | Search is down |',
        headingPath: ['Ops'],
        anchor: 'table',
      },
    ]);
  });

  it('keeps a code block under a numbered item fenced, with its language, and the numbering after it', () => {
    expect(
      render(
        named(
          'open',
          node('numbered_list_item', { rich_text: rt('Open a channel') }, [
            named(
              'code',
              node('code', { rich_text: rt('/incident open --sev 2'), language: 'shell', caption: [] }),
            ),
          ]),
        ),
        named('page', node('numbered_list_item', { rich_text: rt('Page the owner') })),
      ),
    ).toEqual([
      { kind: 'list', text: '1. Open a channel', headingPath: ['Ops'], anchor: 'open' },
      {
        kind: 'code',
        text: '```shell\n/incident open --sev 2\n```',
        headingPath: ['Ops'],
        anchor: 'code',
        codeLanguage: 'shell',
      },
      { kind: 'list', text: '2. Page the owner', headingPath: ['Ops'], anchor: 'page' },
    ]);
  });

  it('keeps the children of a paragraph under a list item, indented', () => {
    expect(
      render(
        named(
          'todo',
          node('to_do', { rich_text: rt('Write the postmortem'), checked: false }, [
            node('paragraph', { rich_text: rt('Within 48 hours.') }, [
              node('paragraph', { rich_text: rt('Blameless: systems, not people.') }),
              node('bulleted_list_item', { rich_text: rt('timeline') }),
            ]),
          ]),
        ),
      ),
    ).toEqual([
      {
        kind: 'list',
        text: '- [ ] Write the postmortem\n  Within 48 hours.\n    Blameless: systems, not people.\n    - timeline',
        headingPath: ['Ops'],
        anchor: 'todo',
      },
    ]);
  });

  it('renders a synced block and a column list under a bullet as the item’s own content', () => {
    const blocks = render(
      node('bulleted_list_item', { rich_text: rt('On call') }, [
        node('synced_block', { synced_from: null }, [
          node('paragraph', { rich_text: rt('Primary: James') }),
          named('pd', node('code', { rich_text: rt('pd page james'), language: 'bash', caption: [] })),
        ]),
      ]),
      node('bulleted_list_item', { rich_text: rt('Dashboards') }, [
        node('column_list', {}, [
          node('column', {}, [node('paragraph', { rich_text: rt('Latency p95 < 300 ms') })]),
          node('column', {}, [node('callout', { rich_text: rt('Errors < 0.1 %'), icon: { emoji: '⚠️' } })]),
        ]),
      ]),
    );
    expect(blocks.map((b) => [b.kind, b.text])).toEqual([
      ['list', '- On call\n  Primary: James'],
      ['code', '```bash\npd page james\n```'],
      ['list', '- Dashboards\n  Latency p95 < 300 ms\n  > ⚠️ Errors < 0.1 %'],
    ]);
    expect(blocks[1]).toMatchObject({ anchor: 'pd', codeLanguage: 'bash' });
  });

  it('renders a bookmark under a to-do as a link', () => {
    expect(
      render(
        node('to_do', { rich_text: rt('Read the guide'), checked: true }, [
          node('bookmark', { url: 'https://sre.google/postmortems', caption: rt('Postmortem culture') }),
        ]),
      ).map((b) => b.text),
    ).toEqual(['- [x] Read the guide\n  [Postmortem culture](https://sre.google/postmortems)']);
  });

  it('renders four levels of nesting, down to a code block', () => {
    expect(
      render(
        named(
          'rollback',
          node('bulleted_list_item', { rich_text: rt('Rollback') }, [
            node('bulleted_list_item', { rich_text: rt('Find the last good release') }, [
              node('numbered_list_item', { rich_text: rt('Check the deploy log') }, [
                node('to_do', { rich_text: rt('Pick the tag') }, [
                  named(
                    'tag',
                    node('code', { rich_text: rt('git tag | tail -1'), language: 'bash', caption: [] }),
                  ),
                  named('then', node('paragraph', { rich_text: rt('Then redeploy it.') })),
                ]),
              ]),
            ]),
            node('bulleted_list_item', { rich_text: rt('Announce it') }),
          ]),
        ),
      ),
    ).toEqual([
      {
        kind: 'list',
        text: '- Rollback\n  - Find the last good release\n    1. Check the deploy log\n      - [ ] Pick the tag',
        headingPath: ['Ops'],
        anchor: 'rollback',
      },
      {
        kind: 'code',
        text: '```bash\ngit tag | tail -1\n```',
        headingPath: ['Ops'],
        anchor: 'tag',
        codeLanguage: 'bash',
      },
      {
        kind: 'list',
        text: '        Then redeploy it.\n  - Announce it',
        headingPath: ['Ops'],
        anchor: 'then',
      },
    ]);
  });

  it('leaves out trashed children and does not split a list for blocks with no text', () => {
    const trashed = node('paragraph', { rich_text: rt('deleted') });
    trashed.block.in_trash = true;
    expect(
      render(
        node('bulleted_list_item', { rich_text: rt('one') }, [trashed, node('divider')]),
        node('bulleted_list_item', { rich_text: rt('two') }),
      ).map((b) => b.text),
    ).toEqual(['- one\n- two']);
  });
});
