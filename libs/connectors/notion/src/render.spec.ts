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
