import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ParsedDocument } from '@trove/domain';
import type { MkDocsProject } from './mkdocs-project';
import { readMkDocsProject } from './mkdocs-project';
import { renderMkDocsPage } from './mkdocs-page';
import { sharedDocuments } from '@trove/testing';

/** MkDocs' own documentation (read-only shared data set): explicit nav + literate-nav folders. */
const MKDOCS_DOCS = sharedDocuments('mkdocs');

let project: MkDocsProject;
const render = async (sourcePath: string): Promise<ParsedDocument> => {
  const page = project.pages.find((p) => p.sourcePath === sourcePath)!;
  return renderMkDocsPage(project, page, await readFile(page.absolutePath));
};
/** The distinct anchors of the sections under headings with this text, in order. */
const anchorsOf = (doc: ParsedDocument, heading: string) => [
  ...new Set(
    doc.blocks.filter((b) => b.headingPath[b.headingPath.length - 1] === heading).map((b) => b.anchor),
  ),
];

beforeAll(async () => {
  project = await readMkDocsProject(MKDOCS_DOCS);
});

describe('readMkDocsProject on the MkDocs documentation', () => {
  it('reads the settings that decide pages, URLs and heading ids', () => {
    expect(project.siteName).toBe('MkDocs');
    expect(project.siteUrl).toBe('https://www.mkdocs.org/');
    expect(project.docsDir).toBe(`${MKDOCS_DOCS}/docs`);
    expect(project.useDirectoryUrls).toBe(true);
    expect(project.config.excludeDocs).toEqual(['*.py']);
    expect(project.config.toc).toEqual({
      slugify: { kind: 'python-markdown' },
      separator: '-',
      attrList: true,
    });
    expect(project.config.plugins['literate-nav']).toEqual({ nav_file: 'README.md', implicit_index: true });
    expect(project.expansions).toMatchObject({
      snippets: true,
      mkdocstrings: true,
      macros: false,
      autorefs: true,
    });
    expect(project.excluded).toEqual([]);
    expect(project.warnings).toEqual([]);
  });

  it('lists the pages in nav order, expanding user-guide/ and dev-guide/ through their README.md', () => {
    expect(project.pages.map((p) => [p.sourcePath, p.navTitle, p.navPath.join(' > ')])).toEqual([
      ['index.md', 'Home', ''],
      ['getting-started.md', 'Getting Started', ''],
      // implicit_index: the folder's README comes first, titled by its H1 (no nav title).
      ['user-guide/README.md', undefined, 'User Guide'],
      ['user-guide/installation.md', 'Installation', 'User Guide'],
      ['user-guide/writing-your-docs.md', 'Writing Your Docs', 'User Guide'],
      ['user-guide/choosing-your-theme.md', 'Choosing Your Theme', 'User Guide'],
      ['user-guide/customizing-your-theme.md', 'Customizing Your Theme', 'User Guide'],
      ['user-guide/localizing-your-theme.md', 'Localizing Your Theme', 'User Guide'],
      ['user-guide/configuration.md', 'Configuration', 'User Guide'],
      ['user-guide/cli.md', 'Command Line Interface', 'User Guide'],
      ['user-guide/deploying-your-docs.md', 'Deploying Your Docs', 'User Guide'],
      ['dev-guide/README.md', undefined, 'Developer Guide'],
      ['dev-guide/themes.md', 'Themes', 'Developer Guide'],
      ['dev-guide/translations.md', 'Translations', 'Developer Guide'],
      ['dev-guide/plugins.md', 'Plugins', 'Developer Guide'],
      ['dev-guide/api.md', 'API Reference', 'Developer Guide'],
      ['about/release-notes.md', 'Release Notes', 'About'],
      ['about/contributing.md', 'Contributing', 'About'],
      ['about/license.md', 'License', 'About'],
    ]);
    expect(project.pages.map((p) => p.order)).toEqual([...project.pages.keys()]);
    expect(project.pages.every((p) => p.inNav)).toBe(true);
  });

  it('maps pages to the URLs MkDocs builds', () => {
    const urls = Object.fromEntries(project.pages.map((p) => [p.sourcePath, p.url]));
    expect(urls['index.md']).toBe('https://www.mkdocs.org/');
    expect(urls['user-guide/README.md']).toBe('https://www.mkdocs.org/user-guide/');
    expect(urls['user-guide/configuration.md']).toBe('https://www.mkdocs.org/user-guide/configuration/');
    expect(urls['about/release-notes.md']).toBe('https://www.mkdocs.org/about/release-notes/');
    const page = project.pages.find((p) => p.sourcePath === 'user-guide/configuration.md')!;
    expect(page.absolutePath).toBe(`${MKDOCS_DOCS}/docs/user-guide/configuration.md`);
  });
});

describe('renderMkDocsPage on the MkDocs documentation', () => {
  it('anchors each block at the id toc gives its heading, so url#anchor links to it', async () => {
    const doc = await render('user-guide/configuration.md');
    expect(doc.title).toBe('Configuration');
    expect(doc.url).toBe('https://www.mkdocs.org/user-guide/configuration/');
    expect(doc.metadata).toMatchObject({ navPath: 'User Guide', sourcePath: 'user-guide/configuration.md' });
    const siteUrl = doc.blocks.find(
      (b) => b.headingPath.join(' > ') === 'Configuration > Project information > site_url',
    );
    expect(siteUrl?.anchor).toBe('site_url');
    expect(siteUrl?.text).toMatch(/^Set the canonical URL of the site/);
    // Inline code and bold are rendered away before slugifying.
    expect(anchorsOf(doc, 'enabled option')).toContain('enabled-option');
    expect(anchorsOf(doc, 'separator')).toContain('separator');
    expect(anchorsOf(doc, 'use_directory_urls')).toContain('use_directory_urls');
    expect(doc.warnings).toBeUndefined();
  });

  it('handles entities, punctuation, mkdocstrings headings and warns about ::: and --8<-- lines', async () => {
    const doc = await render('dev-guide/plugins.md');
    expect(doc.title).toBe('Plugins');
    expect(anchorsOf(doc, 'on_<event_name>()')).toEqual(['on_event_name']);
    expect(anchorsOf(doc, 'load_config(options)')).toEqual(['load_configoptions']);
    expect(anchorsOf(doc, '::: mkdocs.plugins.event_priority')).toEqual(['mkdocs.plugins.event_priority']);
    expect(doc.warnings).toContain(
      'dev-guide/plugins.md:265: snippet include --8<-- "docs/img/plugin-events.svg" is not expanded; left as text',
    );
    expect(doc.warnings).toContain(
      'dev-guide/plugins.md:276: mkdocstrings ::: mkdocs.plugins.BasePlugin.on_startup is not rendered; left as text',
    );
    // Left as text, not dropped.
    expect(doc.blocks.some((b) => b.text.startsWith('::: mkdocs.plugins.BasePlugin.on_startup'))).toBe(true);
  });

  it('lists every mkdocstrings block of the API page with its line', async () => {
    const doc = await render('dev-guide/api.md');
    expect(doc.title).toBe('API Reference');
    expect(doc.warnings).toEqual(
      [
        [5, 'mkdocs.structure.files.Files'],
        [9, 'mkdocs.structure.files.File'],
        [13, 'mkdocs.config.base.Config'],
        [17, 'mkdocs.utils.templates.TemplateContext'],
        [22, 'mkdocs.livereload.LiveReloadServer'],
      ].map(
        ([line, name]) => `dev-guide/api.md:${line}: mkdocstrings ::: ${name} is not rendered; left as text`,
      ),
    );
  });

  it('keeps a page that is only a snippet include, with a warning', async () => {
    const doc = await render('about/contributing.md');
    expect(doc.blocks.map((b) => b.text)).toEqual(['--8<-- "CONTRIBUTING.md"']);
    expect(doc.warnings).toEqual([
      'about/contributing.md:1: snippet include --8<-- "CONTRIBUTING.md" is not expanded; left as text',
    ]);
  });

  it('numbers repeated headings like toc, ignores ids in code and strips autorefs from ids', async () => {
    const doc = await render('about/release-notes.md');
    expect(anchorsOf(doc, 'Drafts')).toEqual(['drafts', 'drafts_1']);
    expect(anchorsOf(doc, 'Version 1.5.3 (2023-09-18)')).toEqual(['version-153-2023-09-18']);
    // `{#custom-anchor-…}` on that page is inside a fenced example, not a heading.
    expect(doc.blocks.some((b) => b.anchor === 'custom-anchor-for-heading-using-attr-list')).toBe(false);
    const autoref = doc.blocks.find((b) => b.headingPath.at(-1)?.startsWith('Enabling true generated files'));
    expect(autoref?.anchor).toBe('enabling-true-generated-files-and-expanding-the-file-api');
  });

  it('titles a literate-nav README by its H1 and the home page by its nav title', async () => {
    expect((await render('user-guide/README.md')).title).toBe('User Guide');
    const home = await render('index.md');
    expect(home.title).toBe('Home');
    expect(home.url).toBe('https://www.mkdocs.org/');
    expect(home.blocks[0].anchor).toBe('mkdocs');
  });

  it('does not warn about Jinja when the macros plugin is off', async () => {
    const doc = await render('dev-guide/themes.md');
    expect(doc.warnings?.some((w) => w.includes('Jinja'))).toBeFalsy();
  });
});
