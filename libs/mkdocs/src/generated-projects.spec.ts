import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ParsedDocument } from '@trove/domain';
import type { MkDocsProject } from './mkdocs-project';
import { readMkDocsProject } from './mkdocs-project';
import { renderMkDocsPage } from './mkdocs-page';

const roots: string[] = [];

/** Writes a small MkDocs project into a fresh temp folder. */
async function makeProject(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'trove-mkdocs-'));
  roots.push(root);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

async function render(project: MkDocsProject, sourcePath: string): Promise<ParsedDocument> {
  const page = project.pages.find((p) => p.sourcePath === sourcePath)!;
  return renderMkDocsPage(project, page, await readFile(page.absolutePath));
}

const outline = (project: MkDocsProject) =>
  project.pages.map((p) => [p.sourcePath, p.navPath.join(' > '), p.url, p.inNav]);

afterAll(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

describe('readMkDocsProject on generated projects', () => {
  it('without nav: index first, then by name, folders after files; dot files and templates left out', async () => {
    const root = await makeProject({
      'mkdocs.yml': 'site_name: Test\nnot_in_nav: |\n  /b.md\n',
      'docs/b.md': '# B\n\nb',
      'docs/a.md': '# A\n\na',
      'docs/index.md': '# Home\n\nhome',
      'docs/sub/z.md': 'z',
      'docs/sub/index.md': 'sub',
      'docs/sub/deeper/x.md': 'x',
      'docs/Other_Dir/page.md': 'p',
      'docs/.hidden.md': 'h',
      'docs/templates/t.md': 't',
      'docs/img/logo.png': 'png',
    });
    const project = await readMkDocsProject(root);
    expect(project.siteUrl).toBeUndefined();
    expect(outline(project)).toEqual([
      ['index.md', '', '/', true],
      ['a.md', '', '/a/', true],
      ['Other_Dir/page.md', 'Other Dir', '/Other_Dir/page/', true],
      ['sub/index.md', 'Sub', '/sub/', true],
      ['sub/z.md', 'Sub', '/sub/z/', true],
      ['sub/deeper/x.md', 'Sub > Deeper', '/sub/deeper/x/', true],
      ['b.md', '', '/b/', false],
    ]);
    expect(project.excluded).toEqual(['.hidden.md', 'templates/t.md']);
    expect(project.warnings).toEqual([]);
  });

  it('with use_directory_urls false maps pages to .html files under site_url', async () => {
    const root = await makeProject({
      'mkdocs.yml': 'site_name: T\nsite_url: https://example.com/docs\nuse_directory_urls: false\n',
      'docs/index.md': 'home',
      'docs/guide/README.md': 'guide',
      'docs/guide/setup steps.md': 'setup',
      'docs/faq.md': 'faq',
    });
    const project = await readMkDocsProject(root);
    expect(project.siteUrl).toBe('https://example.com/docs/');
    expect(project.pages.map((p) => p.url)).toEqual([
      'https://example.com/docs/index.html',
      'https://example.com/docs/faq.html',
      'https://example.com/docs/guide/index.html',
      'https://example.com/docs/guide/setup%20steps.html',
    ]);
  });

  it('tolerates MkDocs YAML tags: !ENV, !!python/name, !!python/object/apply, !relative', async () => {
    const root = await makeProject({
      'mkdocs.yml': [
        'site_name: !ENV [TROVE_TEST_UNSET, TROVE_TEST_SITE, "Fallback name"]',
        'site_url: !ENV [TROVE_TEST_UNSET, "https://docs.example.org/"]',
        'use_directory_urls: !ENV [TROVE_TEST_DIR_URLS, true]',
        'docs_dir: !ENV [TROVE_TEST_UNSET, "content"]',
        'markdown_extensions:',
        '  - toc:',
        '      permalink: true',
        '      slugify: !!python/object/apply:pymdownx.slugs.slugify',
        '        kwds:',
        '          case: lower',
        '  - pymdownx.emoji:',
        '      emoji_index: !!python/name:material.extensions.emoji.twemoji',
        '  - pymdownx.snippets:',
        '      base_path: !relative $config_dir',
        'plugins:',
        '  - search',
        '  - macros:',
        '      enabled: !ENV [TROVE_TEST_MACROS, true]',
        '  - offline:',
        '      enabled: !ENV [TROVE_TEST_UNSET, false]',
      ].join('\n'),
      'content/index.md': 'home',
    });
    const project = await readMkDocsProject(root);
    // !ENV is never resolved in synced content: every variable is taken as unset.
    expect(project.siteName).toBe('Fallback name');
    expect(project.siteUrl).toBe('https://docs.example.org/');
    expect(project.useDirectoryUrls).toBe(true);
    expect(project.config.docsDir).toBe('content');
    expect(project.config.toc.slugify).toEqual({
      kind: 'pymdownx',
      case: 'lower',
      percentEncode: false,
      normalize: 'NFC',
    });
    expect(project.config.markdownExtensions['pymdownx.emoji']).toEqual({
      emoji_index: 'material.extensions.emoji.twemoji',
    });
    expect(project.config.markdownExtensions['pymdownx.snippets']).toEqual({ base_path: '$config_dir' });
    expect(Object.keys(project.config.plugins)).toEqual(['search', 'macros']);
    expect(project.pages.map((p) => p.url)).toEqual(['https://docs.example.org/']);
    expect(project.warnings).toHaveLength(6);
    expect(project.warnings.every((w) => w.includes('!ENV, which is not resolved'))).toBe(true);
  });

  it('follows INHERIT, merging mappings', async () => {
    const root = await makeProject({
      'base.yml': 'site_name: Base\nsite_url: https://base.example/\nmarkdown_extensions:\n  - attr_list\n',
      'mkdocs.yml': 'INHERIT: base.yml\nsite_name: Child\n',
      'docs/index.md': 'home',
    });
    const project = await readMkDocsProject(root);
    expect(project.siteName).toBe('Child');
    expect(project.siteUrl).toBe('https://base.example/');
    expect(project.config.toc.attrList).toBe(true);
  });

  it('warns about nav entries it ignores and still includes the pages left out of the nav', async () => {
    const root = await makeProject({
      'mkdocs.yml': [
        'site_name: T',
        'exclude_docs: |',
        '  *.py',
        '  drafts/',
        '  !drafts/keep.md',
        'nav:',
        '  - index.md',
        '  - Missing: missing.md',
        '  - GitHub: https://github.com/example/project',
        '  - Guide:',
        '    - guide/one.md',
        '    - Two: guide/two.md#part',
        '    - 42',
        '  - Draft: drafts/wip.md',
        '  - Folder: guide',
        '  - Kept: drafts/keep.md',
      ].join('\n'),
      'docs/index.md': 'home',
      'docs/hooks.py': 'print()',
      'docs/guide/one.md': 'one',
      'docs/guide/two.md': 'two',
      'docs/guide/three.md': 'three',
      'docs/drafts/wip.md': 'wip',
      'docs/drafts/keep.md': 'keep',
    });
    const project = await readMkDocsProject(root);
    expect(outline(project)).toEqual([
      ['index.md', '', '/', true],
      ['guide/one.md', 'Guide', '/guide/one/', true],
      ['guide/two.md', 'Guide', '/guide/two/', true],
      ['drafts/keep.md', '', '/drafts/keep/', true],
      ['guide/three.md', '', '/guide/three/', false],
    ]);
    expect(project.pages[2].navTitle).toBe('Two');
    expect(project.excluded).toEqual(['hooks.py', 'drafts/wip.md']);
    expect(project.warnings).toEqual([
      'nav entry 42 under Guide is not understood; ignored',
      'nav: "Missing" (missing.md) is not a page in docs_dir; ignored',
      'nav: "Draft" (drafts/wip.md) is excluded from the site; ignored',
      'nav: "Folder" (guide) is a folder; write it as guide/ to list its pages',
    ]);
  });

  it('expands a folder entry without literate-nav, index first, and warns about README/index conflicts', async () => {
    const root = await makeProject({
      'mkdocs.yml': 'site_name: T\nnav:\n  - Start: start.md\n  - Manual: manual/\n',
      'docs/start.md': 's',
      'docs/manual/b.md': 'b',
      'docs/manual/README.md': 'readme',
      'docs/manual/index.md': 'index',
      'docs/manual/a.md': 'a',
      'docs/manual/part/c.md': 'c',
    });
    const project = await readMkDocsProject(root);
    expect(outline(project)).toEqual([
      ['start.md', '', '/start/', true],
      ['manual/index.md', 'Manual', '/manual/', true],
      ['manual/a.md', 'Manual', '/manual/a/', true],
      ['manual/b.md', 'Manual', '/manual/b/', true],
      ['manual/part/c.md', 'Manual > Part', '/manual/part/c/', true],
    ]);
    expect(project.warnings).toEqual([
      'manual/README.md is left out because it conflicts with manual/index.md (both would be manual/)',
    ]);
  });

  it('reads literate-nav nav files: SUMMARY.md at the root, links, sections, wildcards and folders', async () => {
    const root = await makeProject({
      'mkdocs.yml': 'site_name: T\nplugins:\n  - literate-nav\n',
      'docs/SUMMARY.md': [
        '# Contents',
        '',
        '* [Welcome](index.md)',
        '* Tutorials',
        '    * [First steps](tutorials/first.md)',
        '    * tutorials/*.md',
        '* [Reference](reference/)',
        '* [Elsewhere](https://example.com)',
        '* [Gone](gone.md)',
      ].join('\n'),
      'docs/index.md': 'w',
      'docs/tutorials/first.md': 'f',
      'docs/tutorials/second.md': 's',
      'docs/tutorials/another.md': 'a',
      'docs/reference/SUMMARY.md': '- [CLI](cli.md)\n- [API](api/)\n',
      'docs/reference/cli.md': 'c',
      'docs/reference/api/index.md': 'api',
      'docs/reference/api/types.md': 't',
    });
    const project = await readMkDocsProject(root);
    expect(project.pages.map((p) => [p.sourcePath, p.navTitle, p.navPath.join(' > '), p.inNav])).toEqual([
      ['index.md', 'Welcome', '', true],
      ['tutorials/first.md', 'First steps', 'Tutorials', true],
      ['tutorials/another.md', undefined, 'Tutorials', true],
      ['tutorials/second.md', undefined, 'Tutorials', true],
      ['reference/cli.md', 'CLI', 'Reference', true],
      ['reference/api/index.md', undefined, 'Reference > API', true],
      ['reference/api/types.md', undefined, 'Reference > API', true],
      // Nav files are built pages too, just not in the nav.
      ['SUMMARY.md', undefined, '', false],
      ['reference/SUMMARY.md', undefined, '', false],
    ]);
    expect(project.warnings).toEqual(['nav: "Gone" (gone.md) is not a page in docs_dir; ignored']);
  });

  it('fails permanently without mkdocs.yml, with invalid YAML, or with docs_dir outside the folder', async () => {
    await expect(readMkDocsProject(await makeProject({ 'docs/index.md': 'x' }))).rejects.toMatchObject({
      code: 'PARSE_FAILED',
      permanent: true,
    });
    await expect(
      readMkDocsProject(await makeProject({ 'mkdocs.yml': 'site_name: [unclosed\n', 'docs/index.md': 'x' })),
    ).rejects.toThrow(/mkdocs.yml is not valid YAML/);
    await expect(
      readMkDocsProject(await makeProject({ 'mkdocs.yaml': 'site_name: T\ndocs_dir: ../elsewhere\n' })),
    ).rejects.toThrow(/^mkdocs.yml: docs_dir is not a folder inside the project$/);
  });
});

describe('renderMkDocsPage on generated projects', () => {
  it('numbers repeated headings _1, _2 and gives non-ASCII headings toc ids (default slugify)', async () => {
    const root = await makeProject({
      'mkdocs.yml': 'site_name: T\nmarkdown_extensions:\n  - toc:\n      separator: "_"\n  - attr_list\n',
      'docs/guide.md': [
        '# Guide',
        'intro',
        '## Usage',
        'one',
        '## Usage',
        'two',
        '## Usage',
        'three',
        '## Установка',
        'ru',
        '## Crème brûlée recipe',
        'fr',
        '## Explicit {#usage_5 .note}',
        'explicit',
      ].join('\n'),
    });
    const project = await readMkDocsProject(root);
    const doc = await render(project, 'guide.md');
    expect(doc.blocks.map((b) => [b.headingPath.at(-1), b.anchor])).toEqual([
      ['Guide', 'guide'],
      ['Usage', 'usage'],
      ['Usage', 'usage_1'],
      ['Usage', 'usage_2'],
      // Python-Markdown's default drops non-ASCII letters: nothing is left, so toc numbers it.
      ['Установка', '_1'],
      ['Crème brûlée recipe', 'creme_brulee_recipe'],
      ['Explicit', 'usage_5'],
    ]);
    expect(doc.title).toBe('Guide');
    expect(doc.url).toBe('/guide/');
  });

  it('uses pymdownx uslugify for Russian and Chinese headings', async () => {
    const root = await makeProject({
      'mkdocs.yml': [
        'site_name: T',
        'site_url: https://example.com/',
        'markdown_extensions:',
        '  - toc:',
        '      slugify: !!python/name:pymdownx.slugs.uslugify',
      ].join('\n'),
      'docs/index.md': [
        '# Руководство',
        'Вступление.',
        '## Привет, мир!',
        'Текст.',
        '## 安装 指南',
        '中文。',
        '## Привет, мир!',
        'Ещё раз.',
        '## Ünïcode `code` <b>bold</b>',
        'x',
      ].join('\n'),
    });
    const project = await readMkDocsProject(root);
    const doc = await render(project, 'index.md');
    expect(doc.blocks.map((b) => b.anchor)).toEqual([
      'руководство',
      'привет-мир',
      '安装-指南',
      'привет-мир_1',
      'ünïcode-code-bold',
    ]);
    expect(doc.blocks.map((b) => `${doc.url}#${b.anchor}`)[2]).toBe('https://example.com/#安装-指南');
  });

  it('takes the title from front matter, then nav, then an opening H1, then the file name', async () => {
    const root = await makeProject({
      'mkdocs.yml': 'site_name: T\nnav:\n  - Nav title: b.md\n  - a.md\n  - c.md\n  - d.md\n  - my_page.md\n',
      'docs/a.md': '---\ntitle: Front matter title\ntags: [one, two]\n---\n# Heading\n\ntext\n',
      'docs/b.md': '# Heading B\n\ntext\n',
      // Without attr_list the braces are text.
      'docs/c.md': '\n# Heading C {#c-id}\n\ntext\n',
      // MkDocs only takes an H1 that is the page's first element.
      'docs/d.md': 'Intro.\n\n# Heading D\n\ntext\n',
      'docs/my_page.md': 'just text\n',
    });
    const project = await readMkDocsProject(root);
    const titles = await Promise.all(
      project.pages.map(async (p) => (await render(project, p.sourcePath)).title),
    );
    expect(titles).toEqual(['Nav title', 'Front matter title', 'Heading C {#c-id}', 'D', 'My page']);
    const a = await render(project, 'a.md');
    expect(a.metadata).toEqual({ title: 'Front matter title', tags: 'one, two', sourcePath: 'a.md' });
  });

  it('reads MultiMarkdown meta-data as MkDocs does and keeps line numbers of warnings right', async () => {
    const root = await makeProject({
      'mkdocs.yml': 'site_name: T\nmarkdown_extensions:\n  - pymdownx.snippets\nplugins:\n  - macros\n',
      'docs/page.md': [
        'Title: Meta title',
        'Authors: Ann',
        '    Bob',
        '',
        '# Heading',
        '',
        'Version {{ config.extra.version }} is out.',
        '',
        '{% raw %}',
        'Literal {{ braces }} here.',
        '{% endraw %}',
        '',
        '--8<--',
        'part-one.md',
        'part-two.md',
        '--8<--',
        '',
        ';--8<-- "escaped.md"',
        '',
        '::: not.mkdocstrings',
      ].join('\n'),
    });
    const project = await readMkDocsProject(root);
    const doc = await render(project, 'page.md');
    expect(doc.title).toBe('Meta title');
    expect(doc.metadata).toMatchObject({ title: 'Meta title', authors: 'Ann Bob' });
    expect(doc.blocks[0]).toMatchObject({
      text: 'Version {{ config.extra.version }} is out.',
      anchor: 'heading',
    });
    expect(doc.warnings).toEqual([
      'page.md:7: Jinja {{ config.extra.version }} is not evaluated (macros plugin); left as text',
      'page.md:13: snippet block --8<-- (part-one.md, part-two.md) is not expanded; left as text',
    ]);
  });
});

describe('renderMkDocsPage and the admonition extension', () => {
  it('reads `!!! note` blocks as text only when mkdocs.yml enables admonition', async () => {
    const page = '# Ops\n\n!!! tip "Before you start"\n    Take a snapshot first.\n';
    const withIt = await readMkDocsProject(
      await makeProject({
        'mkdocs.yml': 'site_name: T\nmarkdown_extensions:\n  - admonition\n',
        'docs/index.md': page,
      }),
    );
    expect((await render(withIt, 'index.md')).blocks.map((b) => [b.kind, b.text])).toEqual([
      ['quote', 'Tip: Before you start\nTake a snapshot first.'],
    ]);
    const without = await readMkDocsProject(
      await makeProject({ 'mkdocs.yml': 'site_name: T\n', 'docs/index.md': page }),
    );
    // Without the extension MkDocs shows the marker as text too: one paragraph, marker included.
    expect((await render(without, 'index.md')).blocks.map((b) => [b.kind, b.text.split('\n')[0]])).toEqual([
      ['paragraph', '!!! tip "Before you start"'],
    ]);
  });
});
