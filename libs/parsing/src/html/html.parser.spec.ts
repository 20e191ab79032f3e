import { describe, expect, it } from 'vitest';
import { TroveErrorCode } from '@trove/domain';
import { HtmlParser } from './html.parser';

const parser = new HtmlParser();
const parse = (html: string | Buffer, fileName = 'page.html', mediaType = 'text/html') =>
  parser.parse({ fileName, mediaType, data: Buffer.isBuffer(html) ? html : Buffer.from(html, 'utf8') });
const page = (body: string, head = '<title>Page</title>') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;

/** windows-1251 has no encoder in Node: Cyrillic А–я sit at 0xC0–0xFF, Ё/ё at 0xA8/0xB8. */
function windows1251(text: string): Buffer {
  return Buffer.from(
    [...text].map((char) => {
      const code = char.codePointAt(0)!;
      if (code < 0x80) return code;
      if (code >= 0x410 && code <= 0x44f) return code - 0x410 + 0xc0;
      if (char === 'Ё') return 0xa8;
      if (char === 'ё') return 0xb8;
      throw new Error(`not in the test encoder: ${char}`);
    }),
  );
}

describe('HtmlParser', () => {
  it('reads the main content only: navigation, header, sidebar, footer and scripts are dropped', async () => {
    const doc = await parse(
      page(
        `<header><a href="/">Logo</a><nav><ul><li><a href="/docs">Docs</a></li></ul></nav></header>
         <aside>Sidebar ad</aside>
         <main>
           <h1>Install guide</h1>
           <p>Run the installer.</p>
           <script>track()</script><style>p{}</style><noscript>Enable JS</noscript>
           <form role="search"><input name="q"><button>Search</button></form>
           <p hidden>Hidden text</p><div aria-hidden="true">Decoration</div>
           <p style="display: none">Invisible</p>
           <template><p>Template</p></template><svg><text>Chart label</text></svg>
         </main>
         <footer>© 2025 Example</footer>`,
        '<title> Install\n guide — Example </title>',
      ),
    );
    expect(doc.title).toBe('Install guide — Example');
    expect(doc.metadata).toEqual({ language: 'en' });
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'Run the installer.', headingPath: ['Install guide'] },
    ]);
  });

  it('drops page furniture outside any article when it falls back to the body', async () => {
    const doc = await parse(
      page(
        `<header><p>Site header</p></header>
         <div><h2>Notes</h2><p>Body text.</p><section><header><p>Section header kept</p></header></section></div>
         <footer><p>Footer</p></footer>`,
      ),
    );
    expect(doc.blocks.map((b) => b.text)).toEqual(['Body text.', 'Section header kept']);
  });

  it('finds doc-site containers and drops permalink anchors (MkDocs, Sphinx)', async () => {
    const mkdocs = await parse(
      page(
        `<div class="md-sidebar"><p>Table of contents</p></div>
         <div class="md-content"><article class="md-content__inner md-typeset">
           <h1 id="setup">Setup<a class="headerlink" href="#setup" title="Permanent link">¶</a></h1>
           <p>Intro.</p>
           <h2 id="linux">Linux<a class="headerlink" href="#linux">¶</a></h2>
           <div class="language-bash highlight"><pre><span></span><code>apt install trove
</code></pre></div>
         </article></div>`,
      ),
    );
    expect(mkdocs.blocks).toEqual([
      { kind: 'paragraph', text: 'Intro.', headingPath: ['Setup'], anchor: 'setup' },
      {
        kind: 'code',
        text: '```bash\napt install trove\n```',
        codeLanguage: 'bash',
        headingPath: ['Setup', 'Linux'],
        anchor: 'linux',
      },
    ]);

    const sphinx = await parse(
      page(
        `<div class="sphinxsidebar" role="navigation"><p>Quick search</p></div>
         <div class="body" role="main">
           <section id="usage"><h1>Usage<a class="headerlink" href="#usage">¶</a></h1>
             <div class="highlight-python notranslate"><div class="highlight"><pre><span></span><span class="kn">import</span> trove
</pre></div></div>
           </section>
         </div>`,
      ),
    );
    expect(sphinx.blocks).toEqual([
      {
        kind: 'code',
        text: '```python\nimport trove\n```',
        codeLanguage: 'python',
        headingPath: ['Usage'],
        anchor: 'usage',
      },
    ]);
  });

  it('builds heading paths with anchors from heading ids or a preceding <a name>', async () => {
    const doc = await parse(
      page(`<article>
        <h1 id="top">Manual</h1><p>a</p>
        <a name="install"></a><h2>Install</h2><p>b</p>
        <h3><a id="linux"></a>On  <em>Linux</em></h3><p>c</p>
        <h3>Unanchored</h3><p>d</p>
        <h2 id="use">Use</h2><p>e</p>
      </article>`),
    );
    expect(doc.blocks.map((b) => [b.text, b.headingPath.join(' > '), b.anchor])).toEqual([
      ['a', 'Manual', 'top'],
      ['b', 'Manual > Install', 'install'],
      ['c', 'Manual > Install > On Linux', 'linux'],
      // No id of its own: the nearest enclosing section's anchor.
      ['d', 'Manual > Install > Unanchored', 'install'],
      ['e', 'Manual > Use', 'use'],
    ]);
  });

  it('fences code with the language from language-/lang-/highlight-/sourceCode classes', async () => {
    const doc = await parse(
      page(`<main>
        <pre><code class="language-typescript">const a = 1;</code></pre>
        <pre class="lang-go">fmt.Println("hi")</pre>
        <div class="highlight highlight-source-rust"><pre>fn main() {}</pre></div>
        <div class="sourceCode" id="cb1"><pre class="sourceCode haskell"><code class="sourceCode haskell">main = pure ()</code></pre></div>
        <pre><code class="language-text">plain words</code></pre>
        <pre>has \`\`\` inside
  and indentation</pre>
        <p>Call <code>run()</code> then <code>a\`b</code>.</p>
      </main>`),
    );
    expect(doc.blocks.map((b) => [b.kind, b.codeLanguage, b.text])).toEqual([
      ['code', 'typescript', '```typescript\nconst a = 1;\n```'],
      ['code', 'go', '```go\nfmt.Println("hi")\n```'],
      ['code', 'rust', '```rust\nfn main() {}\n```'],
      ['code', 'haskell', '```haskell\nmain = pure ()\n```'],
      ['code', undefined, '```\nplain words\n```'],
      ['code', undefined, '````\nhas ``` inside\n  and indentation\n````'],
      ['paragraph', undefined, 'Call `run()` then `` a`b ``.'],
    ]);
  });

  it('turns tables into Markdown-like rows with a header separator', async () => {
    const doc = await parse(
      page(`<main><table>
        <caption>Prices</caption>
        <thead><tr><th>Plan</th><th>Price</th><th>Notes</th></tr></thead>
        <tbody>
          <tr><td>Free</td><td>0</td><td>a | b</td></tr>
          <tr><td colspan="2">Team, <b>per seat</b></td><td><p>line one</p><p>line two</p></td></tr>
          <tr><td></td><td></td><td></td></tr>
        </tbody></table></main>`),
    );
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'Prices', headingPath: [] },
      {
        kind: 'table',
        text: [
          '| Plan | Price | Notes |',
          '| --- | --- | --- |',
          '| Free | 0 | a \\| b |',
          '| Team, per seat |  | line one line two |',
        ].join('\n'),
        headingPath: [],
      },
    ]);
  });

  it('writes lists, nested lists, definition lists and quotes', async () => {
    const doc = await parse(
      page(`<main>
        <ul><li>Apples</li><li>Fruit <ol start="3"><li>pear</li><li><p>plum</p></li></ol></li><li></li></ul>
        <dl><dt>CPU</dt><dd>2 cores</dd><dt>RAM</dt><dt>Memory</dt><dd>8 GB</dd></dl>
        <blockquote><p>First.</p><p>Second<br>line.</p></blockquote>
        <p>See <img src="a.png" alt="the architecture diagram"> and <img src="b.png" alt="image1"><img src="c.png" alt="c.png">.</p>
      </main>`),
    );
    expect(doc.blocks.map((b) => [b.kind, b.text])).toEqual([
      ['list', '- Apples\n- Fruit\n  3. pear\n  4. plum'],
      ['paragraph', 'CPU: 2 cores\nRAM, Memory: 8 GB'],
      ['quote', '> First.\n>\n> Second\n> line.'],
      ['paragraph', 'See the architecture diagram and .'],
    ]);
  });

  it('decodes a windows-1251 page declared by <meta http-equiv>', async () => {
    const html =
      '<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1251">' +
      '<title>Документация</title></head><body><h1>Установка</h1><p>Съешь же ещё этих мягких французских булок.</p></body></html>';
    const doc = await parse(windows1251(html), 'ru.html');
    expect(doc.title).toBe('Документация');
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'Съешь же ещё этих мягких французских булок.', headingPath: ['Установка'] },
    ]);
    expect(doc.warnings).toBeUndefined();
  });

  it('keeps Chinese text; honours a BOM; falls back to UTF-8 on an unknown charset with a warning', async () => {
    const chinese = await parse(
      page('<article><h1>快速入门</h1><p>这是一个知识库。它索引文档。</p></article>'),
    );
    expect(chinese.blocks).toEqual([
      { kind: 'paragraph', text: '这是一个知识库。它索引文档。', headingPath: ['快速入门'] },
    ]);
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('<p>日本語のテキスト</p>', 'utf16le'),
    ]);
    expect((await parse(utf16)).blocks[0].text).toBe('日本語のテキスト');
    const unknown = await parse('<meta charset="x-klingon"><p>Qapla’</p>');
    expect(unknown.blocks[0].text).toBe('Qapla’');
    expect(unknown.warnings).toEqual(['unknown character encoding "x-klingon" declared; decoded as UTF-8']);
  });

  it('reads XHTML self-closing anchors as empty elements', async () => {
    const doc = await parse(
      '<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>X</title></head>' +
        '<body><h2 id="c1"><a id="chapter-1"/>Chapter&nbsp;One</h2><p>Text <a id="page_2"/>goes on.</p><div class="x"/><p>More.</p></body></html>',
      'book.xhtml',
      'application/xhtml+xml',
    );
    expect(doc.blocks).toEqual([
      { kind: 'paragraph', text: 'Text goes on.', headingPath: ['Chapter One'], anchor: 'c1' },
      { kind: 'paragraph', text: 'More.', headingPath: ['Chapter One'], anchor: 'c1' },
    ]);
  });

  it('survives 100 000 nested <div>s quickly', async () => {
    const depth = 100_000;
    const html = page(
      `<h1>Deep</h1>${'<div>'.repeat(depth)}<p>bottom text</p>${'</div>'.repeat(depth)}<p>after</p>`,
    );
    const started = Date.now();
    const doc = await parse(html);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(doc.blocks.map((b) => [b.text, b.headingPath])).toEqual([
      ['bottom text', ['Deep']],
      ['after', ['Deep']],
    ]);
  });

  it('handles 10 MB of text on a single line', async () => {
    const words = 'lorem ipsum '.repeat(900_000);
    const doc = await parse(`<html><body><p>${words}</p><p>end</p></body></html>`);
    expect(doc.blocks).toHaveLength(2);
    expect(doc.blocks[0].text.length).toBe(words.trim().length);
    expect(doc.blocks[1].text).toBe('end');
    // A bound on a hang only: 10 MB parse in seconds, but a loaded two-core machine is slow.
  }, 120_000);

  it('fails permanently on empty, markup-only and undecodable input', async () => {
    await expect(parse('')).rejects.toMatchObject({ code: TroveErrorCode.EmptyDocument, permanent: true });
    await expect(
      parse(page('<nav><a href="/">Home</a></nav><script>x()</script>'), 'nav.html'),
    ).rejects.toThrow('nav.html has no text content (only markup, navigation, scripts or white space)');
    await expect(parse(Buffer.from([0x3c, 0x70, 0x3e, 0xc3, 0x28]), 'bad.html')).rejects.toMatchObject({
      code: TroveErrorCode.UndecodableDocument,
      message: expect.stringMatching(/^bad\.html is not valid UTF-8 \(decoding fails at byte offset \d+\)$/),
    });
  });

  it('falls back to the first h1, then the file name, for the title', async () => {
    expect((await parse('<h1>Heading title</h1><p>x</p>')).title).toBe('Heading title');
    expect((await parse('<p>x</p>', 'notes/readme.htm')).title).toBe('readme');
  });
});
