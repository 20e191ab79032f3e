import { describe, expect, it } from 'vitest';
import { MarkdownParser } from './markdown.parser';

const parser = new MarkdownParser();
const parse = (text: string, fileName = 'notes.md') =>
  parser.parse({ fileName, mediaType: 'text/markdown', data: Buffer.from(text, 'utf8') });

describe('MarkdownParser', () => {
  it('builds heading paths and keeps fenced code whole with its language', async () => {
    const doc = await parse(
      [
        '# Guide',
        'Intro paragraph.',
        '## Install',
        'Run this:',
        '```bash',
        'npm install',
        '',
        'npm test',
        '```',
        '### Linux',
        '- one',
        '- two',
        '## Use',
        '| a | b |',
        '|---|---|',
        '| 1 | 2 |',
      ].join('\n'),
    );
    expect(doc.title).toBe('Guide');
    expect(doc.blocks.map((b) => [b.kind, b.headingPath.join(' > ')])).toEqual([
      ['paragraph', 'Guide'],
      ['paragraph', 'Guide > Install'],
      ['code', 'Guide > Install'],
      ['list', 'Guide > Install > Linux'],
      ['table', 'Guide > Use'],
    ]);
    const code = doc.blocks[2];
    expect(code.codeLanguage).toBe('bash');
    expect(code.text).toBe('```bash\nnpm install\n\nnpm test\n```');
  });

  it('reads front matter as metadata and prefers its title', async () => {
    const doc = await parse('---\ntitle: Заметки\ntags: [a, b]\n---\n# Heading\n\nТекст абзаца.\n');
    expect(doc.title).toBe('Заметки');
    expect(doc.metadata).toEqual({ title: 'Заметки', tags: 'a, b' });
    expect(doc.blocks).toEqual([{ kind: 'paragraph', text: 'Текст абзаца.', headingPath: ['Heading'] }]);
  });

  it('a heading does not see headings of sibling sections', async () => {
    const doc = await parse('# A\n## B\ntext b\n# C\ntext c\n');
    expect(doc.blocks.map((b) => b.headingPath)).toEqual([['A', 'B'], ['C']]);
  });

  it('falls back to the file name for the title', async () => {
    const doc = await parse('just text', 'my-notes.md');
    expect(doc.title).toBe('my-notes');
  });

  it('fails permanently on empty, heading-only or undecodable input, with a reason', async () => {
    await expect(parse('')).rejects.toMatchObject({ code: 'EMPTY_DOCUMENT', permanent: true });
    await expect(parse('# Only a heading\n')).rejects.toThrow(/no text content/);
    await expect(
      parser.parse({
        fileName: 'x.md',
        mediaType: 'text/markdown',
        data: Buffer.from([0x61, 0x62, 0xc3, 0x28]),
      }),
    ).rejects.toThrow('x.md is not valid UTF-8 (decoding fails at byte offset 3)');
    await expect(parse('---\ntitle: [unclosed\n---\ntext')).rejects.toMatchObject({ code: 'PARSE_FAILED' });
  });
});
