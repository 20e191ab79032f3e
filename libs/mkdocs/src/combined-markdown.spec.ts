import { describe, expect, it } from 'vitest';
import { splitCombinedMarkdown } from './combined-markdown';
import { createTocSlugify } from './slugify';

describe('splitCombinedMarkdown', () => {
  it('splits at the top-level headings, with an intro for the text before the first one', () => {
    const sections = splitCombinedMarkdown(
      'handbook.md',
      Buffer.from(
        [
          '---',
          'title: The Handbook',
          '---',
          'Read this first.',
          '',
          '# Install',
          'Run the installer.',
          '## On Linux',
          '```sh',
          '# not a heading',
          '```',
          '# Use {#usage}',
          'Open the app.',
          '',
          '> # quoted, not a split',
          '# Install',
          'Again.',
          '',
        ].join('\n'),
      ),
    );
    expect(sections).toEqual([
      { title: 'The Handbook', markdown: 'Read this first.\n', order: 0, line: 4 },
      {
        title: 'Install',
        anchor: 'install',
        markdown: '# Install\nRun the installer.\n## On Linux\n```sh\n# not a heading\n```\n',
        order: 1,
        line: 6,
      },
      {
        title: 'Use',
        anchor: 'usage',
        markdown: '# Use {#usage}\nOpen the app.\n\n> # quoted, not a split\n',
        order: 2,
        line: 12,
      },
      { title: 'Install', anchor: 'install-1', markdown: '# Install\nAgain.\n', order: 3, line: 16 },
    ]);
  });

  it('splits at the smallest heading level present and names the intro after the file', () => {
    const sections = splitCombinedMarkdown('notes.md', 'Intro\n\n## One\n### One.a\ntext\n## Two\ntext\n');
    expect(sections.map((s) => [s.title, s.anchor, s.line])).toEqual([
      ['notes', undefined, 1],
      ['One', 'one', 3],
      ['Two', 'two', 6],
    ]);
  });

  it('uses the slugify it is given, and handles files without headings or text', () => {
    const slugify = createTocSlugify({
      slugify: { kind: 'python-markdown' },
      separator: '-',
      attrList: true,
    });
    const sections = splitCombinedMarkdown('a.md', '# Über uns\nx\n# Über uns\ny\n', { slugify });
    expect(sections.map((s) => s.anchor)).toEqual(['uber-uns', 'uber-uns_1']);
    expect(splitCombinedMarkdown('plain.md', 'Just text.\n')).toEqual([
      { title: 'plain', markdown: 'Just text.\n', order: 0, line: 1 },
    ]);
    expect(splitCombinedMarkdown('empty.md', '')).toEqual([]);
    expect(splitCombinedMarkdown('empty.md', Buffer.alloc(0))).toEqual([]);
  });
});
