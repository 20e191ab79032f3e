import { describe, expect, it } from 'vitest';
import { githubSlugify, MarkdownParser, splitFrontMatter } from './markdown.parser';

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
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'Текст абзаца.', headingPath: ['Heading'], anchor: 'heading' },
    ]);
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

  it('gives every heading a GitHub-style anchor and every block the anchor of its section', async () => {
    const doc = await parse(
      [
        'Before any heading.',
        '# Getting Started!',
        'intro',
        '## The `config` file: *mkdocs.yml*',
        'text',
        '## Установка и настройка',
        'текст',
        '## Getting started',
        'again',
        '## Getting started',
        'and again',
        '### A &amp; B <span>C</span>',
        'deep',
      ].join('\n'),
    );
    expect(doc.blocks.map((b) => b.anchor)).toEqual([
      undefined,
      'getting-started',
      'the-config-file-mkdocsyml',
      'установка-и-настройка',
      'getting-started-1',
      'getting-started-2',
      'a--b-c',
    ]);
    expect(doc.blocks[0]).not.toHaveProperty('anchor');
  });

  it('takes explicit ids from attribute lists and removes them from the heading text', async () => {
    const doc = await parse(
      [
        '# Guide {#top}',
        'a',
        '## Install {: #setup .wide }',
        'b',
        '## Setup',
        'c',
        '## Braces {in} the middle',
        'd',
        '',
        'Setext title {#setext}',
        '-----',
        'e',
        '## Closed ## {#closed}',
        'f',
      ].join('\n'),
    );
    expect(doc.title).toBe('Guide');
    expect(doc.blocks.map((b) => [b.headingPath.join(' > '), b.anchor])).toEqual([
      ['Guide', 'top'],
      ['Guide > Install', 'setup'],
      // `setup` is taken by the explicit id further up, so the slug moves on.
      ['Guide > Setup', 'setup-1'],
      ['Guide > Braces {in} the middle', 'braces-in-the-middle'],
      ['Guide > Setext title', 'setext'],
      ['Guide > Closed', 'closed'],
    ]);
  });

  it('leaves attribute lists as text when told to, and uses a custom slugify', async () => {
    const plain = new MarkdownParser({
      headingAttributes: false,
      slugify: (text, seen) => {
        let id = text.toUpperCase().replace(/\W+/g, '_');
        while (seen.has(id)) id += '+';
        return id;
      },
    });
    const { document, headings } = plain.parseText('x.md', '# One {#id}\ntext\n# One {#id}\nmore\n');
    expect(document.blocks.map((b) => b.anchor)).toEqual(['ONE_ID_', 'ONE_ID_+']);
    expect(headings).toEqual([
      { level: 1, text: 'One {#id}', anchor: 'ONE_ID_', line: 1 },
      { level: 1, text: 'One {#id}', anchor: 'ONE_ID_+', line: 3 },
    ]);
  });

  it('lists the top-level headings with anchors and source lines, front matter counted', () => {
    const headings = new MarkdownParser().headings(
      '---\ntitle: T\n---\n# A\n\n```\n# not a heading\n```\n> # quoted\n\n## B {#b-id}\n',
    );
    expect(headings).toEqual([
      { level: 1, text: 'A', anchor: 'a', line: 4 },
      { level: 2, text: 'B', anchor: 'b-id', line: 11 },
    ]);
    expect(new MarkdownParser().headings('')).toEqual([]);
  });

  it('slugifies like GitHub', () => {
    const seen = new Set<string>();
    const next = (text: string) => {
      const id = githubSlugify(text, seen);
      seen.add(id);
      return id;
    };
    expect(next('Hello, World!')).toBe('hello-world');
    expect(next('Hello, World!')).toBe('hello-world-1');
    expect(next('snake_case and-dash')).toBe('snake_case-and-dash');
    expect(next('Über  Größe 中文')).toBe('über--größe-中文');
  });

  it('reports where the body starts after front matter', () => {
    expect(splitFrontMatter('a.md', '---\na: 1\nb: 2\n---\nbody').bodyLine).toBe(5);
    expect(splitFrontMatter('a.md', 'body').bodyLine).toBe(1);
  });

  it('reads admonitions as quotes of plain text when asked, not as indented code', async () => {
    const source = [
      '# Backups',
      '',
      '!!! warning "Test restores first"',
      '    Restore into a scratch database and check the row counts.',
      '',
      '    Then switch over.',
      '',
      '!!! note',
      '    Snapshots are kept for 30 days.',
      '',
      'After the notes.',
    ].join('\n');
    const withAdmonitions = new MarkdownParser({ admonitions: true });
    const doc = await withAdmonitions.parse({
      fileName: 'b.md',
      mediaType: 'text/markdown',
      data: Buffer.from(source),
    });
    expect(doc.blocks.map((b) => [b.kind, b.text])).toEqual([
      [
        'quote',
        'Warning: Test restores first\nRestore into a scratch database and check the row counts.\n\nThen switch over.',
      ],
      ['quote', 'Note:\nSnapshots are kept for 30 days.'],
      ['paragraph', 'After the notes.'],
    ]);
    // Without the option (plain Markdown), the indented body is code, as CommonMark says.
    const plain = await parse(source, 'b.md');
    expect(plain.blocks.some((b) => b.kind === 'code')).toBe(true);
  });
});
