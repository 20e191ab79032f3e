import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MkDocsProject } from './mkdocs-project';
import { readMkDocsProject } from './mkdocs-project';

/**
 * mkdocs.yml of synced folders and uploaded archives is written by whoever uploads: it must not
 * read the worker's environment or files outside the project, and its messages never repeat
 * what a setting holds.
 */

const LEAK = 'leaked-worker-value-7f3a9c';
const OUTSIDE_MARK = 'outside-the-project-5b21e0';
const temp: string[] = [];

/** A scratch folder holding `project/` (the upload) and files next to it that it must not reach. */
async function scratch(files: Record<string, string>, links: Record<string, string> = {}) {
  const base = await mkdtemp(join(tmpdir(), 'trove-mkdocs-untrusted-'));
  temp.push(base);
  const root = join(base, 'project');
  for (const [path, content] of Object.entries({
    'outside.yml': `site_name: ${OUTSIDE_MARK}\nsite_url: https://${OUTSIDE_MARK}.example/\n`,
    'outside-docs/index.md': `# ${OUTSIDE_MARK}\n`,
    ...files,
  })) {
    await mkdir(dirname(join(base, path)), { recursive: true });
    await writeFile(join(base, path), content);
  }
  for (const [path, target] of Object.entries(links)) {
    await mkdir(dirname(join(base, path)), { recursive: true });
    await symlink(target.startsWith('/') ? target : join(base, target), join(base, path));
  }
  return { base, root };
}

async function refusal(root: string): Promise<{ code: string; message: string }> {
  try {
    await readMkDocsProject(root);
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('the project was read');
}

const everything = (project: MkDocsProject) => JSON.stringify(project);

beforeEach(() => {
  process.env['TROVE_TEST_LEAK'] = LEAK;
});
afterEach(() => {
  delete process.env['TROVE_TEST_LEAK'];
});
afterAll(() => Promise.all(temp.map((path) => rm(path, { recursive: true, force: true }))));

describe('!ENV in an untrusted mkdocs.yml', () => {
  it('never reads the environment, even for a variable the worker has: defaults are used and named', async () => {
    const { root } = await scratch({
      'project/mkdocs.yml': [
        'site_name: !ENV TROVE_TEST_LEAK',
        'docs_dir: !ENV [TROVE_TEST_LEAK, docs]',
        'site_url: !ENV [TROVE_TEST_LEAK, "https://docs.example.org/"]',
        'plugins:',
        '  - macros:',
        '      enabled: !ENV [TROVE_TEST_LEAK, false]',
      ].join('\n'),
      'project/docs/index.md': '# Home\n\nhello\n',
    });
    const project = await readMkDocsProject(root);
    expect(project.siteName).toBe('');
    expect(project.config.docsDir).toBe('docs');
    expect(project.siteUrl).toBe('https://docs.example.org/');
    expect(Object.keys(project.config.plugins)).toEqual([]);
    expect(project.pages.map((p) => p.sourcePath)).toEqual(['index.md']);
    expect(project.warnings).toEqual([
      'mkdocs.yml: site_name uses !ENV, which is not resolved in synced content; left empty',
      'mkdocs.yml: docs_dir uses !ENV, which is not resolved in synced content; used its default',
      'mkdocs.yml: site_url uses !ENV, which is not resolved in synced content; used its default',
      'mkdocs.yml: plugins.macros.enabled uses !ENV, which is not resolved in synced content; used its default',
    ]);
    expect(everything(project)).not.toContain(LEAK);
  });

  it('a docs_dir the default of which is not in the project fails naming the key, not the value', async () => {
    const { root } = await scratch({
      'project/mkdocs.yml': 'site_name: T\ndocs_dir: !ENV [TROVE_TEST_LEAK, ../outside-docs]\n',
      'project/docs/index.md': 'x',
    });
    const error = await refusal(root);
    expect(error).toMatchObject({ code: 'PARSE_FAILED', permanent: true });
    expect(error.message).toBe('mkdocs.yml: docs_dir is not a folder inside the project');
    expect(error.message).not.toContain(LEAK);
  });
});

describe('settings that reach outside the project', () => {
  it.each([
    ['a relative path', 'INHERIT: ../outside.yml'],
    ['an absolute path', 'INHERIT: {base}/outside.yml'],
    ['a link inside the project to a file outside', 'INHERIT: base.yml'],
  ])('INHERIT through %s is ignored with a warning naming the key', async (_label, line) => {
    const { base, root } = await scratch(
      { 'project/docs/index.md': '# Home\n' },
      { 'project/base.yml': 'outside.yml' },
    );
    await writeFile(join(root, 'mkdocs.yml'), `${line.replace('{base}', base)}\nsite_name: Inside\n`);
    const project = await readMkDocsProject(root);
    expect(project.siteName).toBe('Inside');
    expect(project.siteUrl).toBeUndefined();
    expect(project.warnings).toEqual(['mkdocs.yml: INHERIT is not a file inside the project; ignored']);
    expect(everything(project)).not.toContain(OUTSIDE_MARK);
    expect(project.warnings.join('\n')).not.toMatch(/outside\.yml|base\.yml/);
  });

  it.each([
    ['a relative path', '../outside-docs'],
    ['an absolute path', '{base}/outside-docs'],
    ['the project folder itself', '.'],
    ['a link inside the project to a folder outside', 'linked'],
    ['a file', 'mkdocs.yml'],
  ])('docs_dir as %s fails the sync naming the key, not the value', async (_label, docsDir) => {
    const { base, root } = await scratch({}, { 'project/linked': 'outside-docs' });
    const value = docsDir.replace('{base}', base);
    await writeFile(join(root, 'mkdocs.yml'), `site_name: T\ndocs_dir: ${value}\n`);
    const error = await refusal(root);
    expect(error).toMatchObject({ code: 'PARSE_FAILED', permanent: true });
    expect(error.message).toBe('mkdocs.yml: docs_dir is not a folder inside the project');
    expect(error.message).not.toContain(base);
  });

  it('a mkdocs.yml that links to a file outside the project is refused', async () => {
    const { base, root } = await scratch(
      { 'project/docs/index.md': '# Home\n' },
      { 'project/mkdocs.yml': 'outside.yml' },
    );
    const error = await refusal(root);
    expect(error).toMatchObject({ code: 'PARSE_FAILED', permanent: true });
    expect(error.message).toBe('mkdocs.yml is not a file inside the project');
    expect(error.message).not.toContain(base);
  });

  it('a folder without mkdocs.yml is refused without naming where the worker keeps it', async () => {
    const { root } = await scratch({ 'project/docs/index.md': '# Home\n' });
    const error = await refusal(root);
    expect(error).toMatchObject({ code: 'PARSE_FAILED', permanent: true });
    expect(error.message).not.toContain(root);
    expect(error.message).toMatch(/no mkdocs\.yml or mkdocs\.yaml/);
  });

  it('pages linked from outside the project are not read', async () => {
    const { root } = await scratch(
      { 'project/mkdocs.yml': 'site_name: T\nnav:\n  - index.md\n  - ../../outside-docs/index.md\n' },
      { 'project/docs/index.md': 'outside-docs/index.md', 'project/docs/more': 'outside-docs' },
    );
    await writeFile(join(root, 'docs', 'own.md'), '# Own\n');
    const project = await readMkDocsProject(root);
    expect(project.pages.map((p) => p.sourcePath)).toEqual(['own.md']);
    expect(everything(project)).not.toContain(OUTSIDE_MARK);
  });
});

describe('other MkDocs tags', () => {
  it('keeps !!python and !relative as plain data and names the key of an unknown tag, not the tag', async () => {
    const { root } = await scratch({
      'project/mkdocs.yml': [
        'site_name: T',
        'extra:',
        '  secret: !vault TROVE_TEST_LEAK',
        '  loader: !!python/object/apply:os.system ["echo hi"]',
        '  name: !!python/name:os.environ',
        'markdown_extensions:',
        '  - pymdownx.snippets:',
        '      base_path: !relative /etc',
      ].join('\n'),
      'project/docs/index.md': '# Home\n',
    });
    const project = await readMkDocsProject(root);
    expect(project.warnings).toEqual([
      'mkdocs.yml: extra.secret has an unknown YAML tag; its value is used as is',
    ]);
    expect(project.config.markdownExtensions['pymdownx.snippets']).toEqual({ base_path: '/etc' });
    expect(everything(project)).not.toContain(LEAK);
  });
});

describe('messages never repeat what a setting holds', () => {
  it('names the key of an ignored site_url, slugify or plugin entry', async () => {
    const { root } = await scratch({
      'project/mkdocs.yml': [
        'site_name: T',
        'site_url: "javascript:alert(document.domain)//"',
        'markdown_extensions:',
        '  - toc:',
        '      slugify: !!python/name:leaky.slugify_secret_value',
        'plugins:',
        '  - [secret-plugin-entry]',
      ].join('\n'),
      'project/docs/index.md': '# Home\n',
    });
    const project = await readMkDocsProject(root);
    expect(project.warnings).toEqual([
      'mkdocs.yml: site_url is not an http(s) URL; ignored',
      'mkdocs.yml: plugins entry 1 is not understood; ignored',
      "mkdocs.yml: toc slugify is not a function Trove knows; heading ids use Python-Markdown's default",
    ]);
    expect(project.warnings.join('\n')).not.toMatch(/javascript|secret|leaky/);
    expect(project.siteUrl).toBeUndefined();
    expect(project.pages.map((p) => p.url)).toEqual(['/']);
  });

  it.each([
    'javascript://docs/%0aalert(document.domain)//',
    'ftp://files.example/',
    'data:text/html,hi',
    'not a url',
    '//cdn.example/docs/',
  ])('site_url %s is ignored: only http(s) sites become page URLs', async (siteUrl) => {
    const { root } = await scratch({
      'project/mkdocs.yml': `site_name: T\nsite_url: ${JSON.stringify(siteUrl)}\n`,
      'project/docs/guide.md': '# Guide\n',
    });
    const project = await readMkDocsProject(root);
    expect(project.siteUrl).toBeUndefined();
    expect(project.pages.map((p) => p.url)).toEqual(['/guide/']);
    expect(project.warnings).toEqual(['mkdocs.yml: site_url is not an http(s) URL; ignored']);
  });

  it('keeps http and https site URLs', async () => {
    for (const siteUrl of ['http://intranet.example/docs', 'HTTPS://Docs.Example.org/']) {
      const { root } = await scratch({
        'project/mkdocs.yml': `site_name: T\nsite_url: ${siteUrl}\n`,
        'project/docs/index.md': '# Home\n',
      });
      const project = await readMkDocsProject(root);
      expect(project.warnings).toEqual([]);
      expect(project.pages[0].url).toMatch(/^https?:\/\//);
    }
  });
});
