import { describe, expect, it } from 'vitest';
import { Element, Text } from 'domhandler';
import { htmlToBlocks, type HtmlSection } from './html-blocks';
import { loadHtml } from './load-markup';

const body = (html: string) => loadHtml(`<body>${html}</body>`)('body')[0];

describe('htmlToBlocks', () => {
  it('walks a 100 000-deep tree without recursion (no parser cap involved)', () => {
    // Built by hand: parsers are capped before they build such a tree, the walker must not rely on it.
    let node: Element = new Element('p', {}, [new Text('at the bottom')]);
    for (let i = 0; i < 100_000; i++) node = new Element(i % 2 ? 'div' : 'span', {}, [node]);
    const root = new Element('body', {}, [new Element('h1', {}, [new Text('Deep')]), node]);
    const started = Date.now();
    expect(htmlToBlocks(root)).toEqual([{ kind: 'paragraph', text: 'at the bottom', headingPath: ['Deep'] }]);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('starts caller-defined sections at element ids, drops headings that repeat their title', () => {
    const part: HtmlSection = { headingPath: ['Book', 'Part 2'], chapter: 'Part 2', title: 'Part 2' };
    const intro: HtmlSection = { headingPath: ['Book', 'Intro'], chapter: 'Intro', title: 'Intro' };
    const entered: string[] = [];
    const blocks = htmlToBlocks(
      body(
        '<h2>Intro</h2><p>Welcome.</p><h3>Scope</h3><p>Narrow.</p>' +
          '<section id="p2"><h2 id="h-p2">Part 2: Methods</h2><p>We measured.</p><h3 id="tools">Tools</h3><ul><li>ruler</li></ul></section>',
      ),
      {
        section: intro,
        sections: new Map([['p2', part]]),
        anchorFor: (id) => (id ? `ch.xhtml#${id}` : 'ch.xhtml'),
        onSection: (id) => entered.push(id),
      },
    );
    expect(entered).toEqual(['p2']);
    expect(blocks.map((b) => [b.kind, b.text, b.chapter, b.headingPath.join(' > '), b.anchor])).toEqual([
      ['paragraph', 'Welcome.', 'Intro', 'Book > Intro', 'ch.xhtml'],
      ['paragraph', 'Narrow.', 'Intro', 'Book > Intro > Scope', 'ch.xhtml'],
      // "Part 2: Methods" starts the section titled "Part 2": a repeat, not a sub-heading.
      ['paragraph', 'We measured.', 'Part 2', 'Book > Part 2', 'ch.xhtml#p2'],
      ['list', '- ruler', 'Part 2', 'Book > Part 2 > Tools', 'ch.xhtml#tools'],
    ]);
  });

  it('reads layout tables as containers and Pygments line-number tables as code', () => {
    const blocks = htmlToBlocks(
      body(
        '<table role="presentation"><tr><td><h2>Inside</h2><p>Laid out.</p></td></tr></table>' +
          '<table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre>1\n2</pre></div></td>' +
          '<td class="code"><div class="highlight-sh"><pre>echo a\necho b</pre></div></td></tr></table>',
      ),
    );
    expect(blocks).toEqual([
      { kind: 'paragraph', text: 'Laid out.', headingPath: ['Inside'] },
      { kind: 'code', text: '```sh\necho a\necho b\n```', codeLanguage: 'sh', headingPath: ['Inside'] },
    ]);
  });
});
