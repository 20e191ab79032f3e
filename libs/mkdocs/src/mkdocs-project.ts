import type { Dirent } from 'node:fs';
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, posix, resolve } from 'node:path';
import { PermanentDocumentError, TroveErrorCode } from '@trove/domain';
import type { MkDocsConfig } from './mkdocs-config';
import { isFileInside, isInside, loadMkDocsConfig } from './mkdocs-config';
import { buildNav, pageName } from './nav';
import { compilePathPatterns } from './path-patterns';
import { pythonQuote } from './slugify';

/** A page of a MkDocs site: where its source is and where the built site shows it. */
export interface MkDocsPage {
  /** Relative to docs_dir, posix (`user-guide/configuration.md`). */
  sourcePath: string;
  absolutePath: string;
  /** The title the nav gives the page, when it gives one. */
  navTitle?: string;
  /** Titles of the nav sections above the page, outermost first. */
  navPath: string[];
  /**
   * site_url joined with the page URL (`https://www.mkdocs.org/user-guide/configuration/`), or
   * site-relative (`/user-guide/configuration/`) without site_url.
   */
  url: string;
  /** 0-based position: nav order, then the pages the nav leaves out. */
  order: number;
  /** False for pages that are built but not in the nav (not listed, `not_in_nav`, literate-nav files). */
  inNav: boolean;
}

/**
 * Build-time expansions the site uses that Trove cannot run: their markers stay in the text
 * (autorefs only changes heading ids).
 */
export interface MkDocsExpansions {
  /** pymdownx.snippets: `--8<-- "file"` includes. */
  snippets: boolean;
  /** mkdocstrings: `::: package.module` API docs. */
  mkdocstrings: boolean;
  /** mkdocs-macros: Jinja `{{ … }}` / `{% … %}`. */
  macros: boolean;
  /** mkdocs-include-markdown: `{% include-markdown "…" %}`. */
  includeMarkdown: boolean;
  /** mkdocs-click: `::: mkdocs-click` CLI docs. */
  mkdocsClick: boolean;
  /** mkdocs-autorefs (also loaded by mkdocstrings): `[Title][identifier]` cross-references. */
  autorefs: boolean;
}

/** A MkDocs project read from disk: its settings and its pages in nav order. Plain data. */
export interface MkDocsProject {
  root: string;
  configPath: string;
  /** Absolute docs_dir. */
  docsDir: string;
  siteName: string;
  siteUrl?: string;
  useDirectoryUrls: boolean;
  config: MkDocsConfig;
  pages: MkDocsPage[];
  /** Files under docs_dir the site leaves out (exclude_docs, draft_docs, dot files, /templates/), posix. */
  excluded: string[];
  expansions: MkDocsExpansions;
  /** What was ignored: unknown nav entries, nav references to missing files, conflicting pages. */
  warnings: string[];
}

export interface ReadMkDocsProjectOptions {
  /** Refuse folders with more files than this under docs_dir (default 20,000). */
  maxFiles?: number;
}

const CONFIG_FILES = ['mkdocs.yml', 'mkdocs.yaml'];
/** MkDocs' `utils.markdown_extensions`. */
const MARKDOWN_SUFFIXES = ['.markdown', '.mdown', '.mkdn', '.mkd', '.md'];
/** MkDocs always leaves these out, before exclude_docs. */
const DEFAULT_EXCLUDES = ['.*', '/templates/'];

/**
 * Reads a MkDocs project folder: mkdocs.yml, the files under docs_dir, and the pages in the order
 * of the site's navigation (explicit `nav`, literate-nav nav files, or MkDocs' generated nav),
 * followed by the built pages the nav leaves out. The folder is untrusted content: nothing outside
 * it is read (links are resolved; see {@link loadMkDocsConfig} for the config), and messages name
 * settings, never their values or where the folder is. Throws a permanent PARSE_FAILED error when
 * there is no mkdocs.yml, it is invalid, or docs_dir is missing or outside the folder.
 */
export async function readMkDocsProject(
  root: string,
  options: ReadMkDocsProjectOptions = {},
): Promise<MkDocsProject> {
  const projectRoot = resolve(root);
  const realRoot = await realpath(projectRoot);
  const configPath = await findConfig(projectRoot, realRoot);
  const { config, warnings } = await loadMkDocsConfig(configPath, { root: projectRoot });

  const docsDir = resolve(projectRoot, config.docsDir);
  if (!(await isFolderInside(projectRoot, realRoot, docsDir))) {
    throw new PermanentDocumentError(
      TroveErrorCode.ParseFailed,
      'mkdocs.yml: docs_dir is not a folder inside the project',
    );
  }

  const files = await walkDocs(projectRoot, docsDir, options.maxFiles ?? 20_000);
  const exclude = compilePathPatterns([...DEFAULT_EXCLUDES, ...config.excludeDocs]);
  const drafts = compilePathPatterns(config.draftDocs);
  const notInNavPatterns = compilePathPatterns(config.notInNav);
  const excluded = files.filter((file) => exclude.matches(file) || drafts.matches(file));
  const excludedSet = new Set(excluded);
  const pages = dropConflicts(
    files.filter((file) => isMarkdown(file) && !excludedSet.has(file)),
    config.useDirectoryUrls,
    warnings,
  );
  const notInNav = new Set(pages.filter((page) => notInNavPatterns.matches(page)));

  const literate = config.plugins['literate-nav'];
  const navPages = await buildNav(config.nav, {
    pages,
    notInNav,
    excluded: new Set(excluded.filter(isMarkdown)),
    literateNav: literate && {
      navFile: typeof literate['nav_file'] === 'string' ? literate['nav_file'] : 'SUMMARY.md',
      implicitIndex: literate['implicit_index'] === true,
    },
    // MkDocs reads pages as utf-8-sig: a byte order mark is not content.
    read: async (path) => (await readFile(join(docsDir, path), 'utf8')).replace(/^\uFEFF/, ''),
    warnings,
  });

  const ordered: Omit<MkDocsPage, 'order'>[] = navPages.map((nav) => ({
    ...pageLocation(nav.path, docsDir, config),
    ...(nav.title ? { navTitle: nav.title } : {}),
    navPath: nav.sections,
    inNav: true,
  }));
  const listed = new Set(navPages.map((nav) => nav.path));
  for (const page of pages) {
    if (!listed.has(page))
      ordered.push({ ...pageLocation(page, docsDir, config), navPath: [], inNav: false });
  }

  return {
    root: projectRoot,
    configPath,
    docsDir,
    siteName: config.siteName,
    ...(config.siteUrl ? { siteUrl: config.siteUrl } : {}),
    useDirectoryUrls: config.useDirectoryUrls,
    config,
    pages: ordered.map((page, order) => ({ ...page, order })),
    excluded,
    expansions: {
      snippets: 'pymdownx.snippets' in config.markdownExtensions,
      mkdocstrings: 'mkdocstrings' in config.plugins,
      macros: 'macros' in config.plugins,
      includeMarkdown: 'include-markdown' in config.plugins,
      mkdocsClick: 'mkdocs-click' in config.markdownExtensions,
      autorefs: 'autorefs' in config.plugins || 'mkdocstrings' in config.plugins,
    },
    warnings,
  };
}

/**
 * The URL MkDocs gives a page, relative to the site root: `index.md`/`README.md` → the folder
 * (`''` for the home page, `dir/`), `foo.md` → `foo/` with use_directory_urls, else `foo.html`.
 */
export function mkdocsPageUrl(sourcePath: string, useDirectoryUrls: boolean): string {
  const parent = posix.dirname(sourcePath) === '.' ? '' : posix.dirname(sourcePath);
  const name = pageName(sourcePath);
  const dest =
    !useDirectoryUrls || name === 'index'
      ? posix.join(parent, `${name}.html`)
      : posix.join(parent, name, 'index.html');
  let url = dest;
  if (useDirectoryUrls && posix.basename(dest) === 'index.html') url = `${posix.dirname(dest)}/`;
  url = pythonQuote(url);
  return url === './' || url === '.' ? '' : url;
}

/** The page URL joined to site_url as MkDocs' canonical URL, or made site-relative without one. */
export function siteUrlFor(pageUrl: string, siteUrl: string | undefined): string {
  return siteUrl ? new URL(pageUrl, siteUrl).href : `/${pageUrl}`;
}

function pageLocation(
  sourcePath: string,
  docsDir: string,
  config: MkDocsConfig,
): Pick<MkDocsPage, 'sourcePath' | 'absolutePath' | 'url'> {
  return {
    sourcePath,
    absolutePath: join(docsDir, ...sourcePath.split('/')),
    url: siteUrlFor(mkdocsPageUrl(sourcePath, config.useDirectoryUrls), config.siteUrl),
  };
}

async function findConfig(root: string, realRoot: string): Promise<string> {
  for (const name of CONFIG_FILES) {
    const path = join(root, name);
    if (await isFileInside(root, realRoot, path)) return path;
    if (await lstat(path).catch(() => undefined)) {
      throw new PermanentDocumentError(
        TroveErrorCode.ParseFailed,
        `${name} is not a file inside the project`,
      );
    }
  }
  throw new PermanentDocumentError(
    TroveErrorCode.ParseFailed,
    'the folder is not a MkDocs project: it has no mkdocs.yml or mkdocs.yaml',
  );
}

/**
 * Every file under docs_dir in MkDocs' order: per folder its files (index/README first, then by
 * name) before its subfolders (by name). Dot folders are not entered (MkDocs excludes them
 * anyway); symlinks are followed only when they stay inside the project folder.
 */
async function walkDocs(root: string, docsDir: string, maxFiles: number): Promise<string[]> {
  const files: string[] = [];
  const visited = new Set<string>();
  const realRoot = await realpath(root);

  const walk = async (dir: string, prefix: string): Promise<void> => {
    const real = await realpath(dir);
    if (visited.has(real) || !isInside(realRoot, real)) return;
    visited.add(real);
    const entries = await readdir(dir, { withFileTypes: true });
    const names: string[] = [];
    const subdirs: string[] = [];
    for (const entry of entries) {
      const kind = await entryKind(entry, join(dir, entry.name), realRoot);
      if (kind === 'file') names.push(entry.name);
      else if (kind === 'dir' && !entry.name.startsWith('.')) subdirs.push(entry.name);
    }
    names.sort(fileOrder);
    subdirs.sort(byCodePoint);
    for (const name of names) {
      files.push(prefix + name);
      if (files.length > maxFiles) {
        throw new PermanentDocumentError(
          TroveErrorCode.ParseLimitExceeded,
          `docs_dir has more than ${maxFiles} files; MkDocs projects that large are not supported`,
        );
      }
    }
    for (const name of subdirs) await walk(join(dir, name), `${prefix}${name}/`);
  };
  await walk(docsDir, '');
  return files;
}

async function entryKind(entry: Dirent, path: string, realRoot: string): Promise<'file' | 'dir' | undefined> {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'dir';
  if (!entry.isSymbolicLink()) return undefined;
  try {
    const target = await realpath(path);
    if (!isInside(realRoot, target)) return undefined;
    const info = await stat(target);
    return info.isFile() ? 'file' : info.isDirectory() ? 'dir' : undefined;
  } catch {
    return undefined;
  }
}

/** MkDocs' `_file_sort_key`: `index.*` and `README.*` first, then by name. */
function fileOrder(a: string, b: string): number {
  const first = (name: string) => (['index', 'README'].includes(posix.parse(name).name) ? 0 : 1);
  return first(a) - first(b) || byCodePoint(a, b);
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isMarkdown(path: string): boolean {
  return MARKDOWN_SUFFIXES.some((suffix) => path.endsWith(suffix));
}

/**
 * Two pages of one folder with the same URL (README.md and index.md, or foo.md and foo.markdown):
 * MkDocs keeps the later one in its file order and warns.
 */
function dropConflicts(pages: string[], useDirectoryUrls: boolean, warnings: string[]): string[] {
  const byUrl = new Map<string, string>();
  const dropped = new Set<string>();
  for (const page of pages) {
    const url = mkdocsPageUrl(page, useDirectoryUrls);
    const prior = byUrl.get(url);
    if (prior !== undefined && posix.dirname(prior) === posix.dirname(page)) {
      dropped.add(prior);
      warnings.push(
        `${prior} is left out because it conflicts with ${page} (both would be ${url || 'the home page'})`,
      );
    }
    byUrl.set(url, page);
  }
  return pages.filter((page) => !dropped.has(page));
}

/** A folder strictly inside the project, also once links are followed. */
async function isFolderInside(root: string, realRoot: string, path: string): Promise<boolean> {
  if (!isInside(root, path) || path === root) return false;
  try {
    const real = await realpath(path);
    return isInside(realRoot, real) && real !== realRoot && (await stat(real)).isDirectory();
  } catch {
    return false;
  }
}
