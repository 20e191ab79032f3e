import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { isMap, isPair, isScalar, isSeq, parseDocument, Scalar, visit } from 'yaml';
import type { Document, Node } from 'yaml';
import { PermanentDocumentError, TroveErrorCode } from '@trove/domain';
import type { PythonCall, TocSettings } from './slugify';
import { tocSlugifyFromConfig } from './slugify';

/** The parts of mkdocs.yml that decide which pages exist, their order, URLs and heading ids. */
export interface MkDocsConfig {
  siteName: string;
  /** Absent: page URLs are site-relative (`/user-guide/configuration/`). Always ends in `/`. */
  siteUrl?: string;
  /** As written in mkdocs.yml, relative to the config file; `docs` by default. */
  docsDir: string;
  useDirectoryUrls: boolean;
  /** The `nav` value as written (after tags are resolved); absent: MkDocs builds the nav. */
  nav?: unknown;
  /** gitignore-style patterns, one per entry. */
  excludeDocs: string[];
  draftDocs: string[];
  notInNav: string[];
  /** Enabled Markdown extensions by name (`markdown.extensions.` prefix removed) → their config. */
  markdownExtensions: Record<string, Record<string, unknown>>;
  /** Enabled plugins by name → their config (`enabled: false` ones are left out). */
  plugins: Record<string, Record<string, unknown>>;
  toc: TocSettings;
}

/** The config and what could not be used from it. */
export interface LoadedMkDocsConfig {
  config: MkDocsConfig;
  warnings: string[];
}

const PYTHON_TAG = 'tag:yaml.org,2002:python/';
/** MkDocs always loads these, whatever mkdocs.yml lists. */
const DEFAULT_EXTENSIONS = ['toc', 'tables', 'fenced_code'];
const MAX_INHERIT_DEPTH = 10;

/**
 * Reads mkdocs.yml (or mkdocs.yaml) with MkDocs' custom YAML tags. The config is untrusted
 * (uploaded or synced content), so nothing in it reaches outside the project: `!ENV VAR` /
 * `!ENV [A, B, default]` never read an environment (the default is used, or nothing, with a
 * warning), `!!python/name:x.y` becomes the string `x.y`, `!!python/object/apply:f` a
 * {@link PythonCall} (data, never run), `!relative` keeps its path unresolved, and `INHERIT` is
 * followed only to files inside `root` (links resolved). Warnings name keys, never values.
 * Invalid YAML is a permanent PARSE_FAILED error.
 */
export async function loadMkDocsConfig(
  configPath: string,
  options: { root?: string } = {},
): Promise<LoadedMkDocsConfig> {
  const root = resolve(options.root ?? dirname(configPath));
  const warnings: string[] = [];
  const raw = await loadYamlWithInherit(resolve(configPath), root, await realpath(root), warnings, 0);
  return { config: normalizeConfig(raw, warnings), warnings };
}

async function loadYamlWithInherit(
  path: string,
  root: string,
  realRoot: string,
  warnings: string[],
  depth: number,
): Promise<Record<string, unknown>> {
  const name = relative(root, path).split(sep).join('/');
  const data = parseMkDocsYaml(await readFile(path, 'utf8'), name, warnings);
  const inherit = data['INHERIT'];
  delete data['INHERIT'];
  if (inherit === undefined || inherit === null) return data;
  if (typeof inherit !== 'string' || !inherit) {
    warnings.push(`${name}: INHERIT is not a file name; ignored`);
    return data;
  }
  const parentPath = resolve(dirname(path), inherit);
  if (!(await isFileInside(root, realRoot, parentPath))) {
    warnings.push(`${name}: INHERIT is not a file inside the project; ignored`);
    return data;
  }
  if (depth >= MAX_INHERIT_DEPTH) {
    warnings.push(`${name}: INHERIT nests deeper than ${MAX_INHERIT_DEPTH} files; ignored`);
    return data;
  }
  return mergeDeep(await loadYamlWithInherit(parentPath, root, realRoot, warnings, depth + 1), data);
}

/**
 * Whether `path` is a file inside `root`, also once links are followed (`realRoot` is `root`
 * with its links resolved). Missing files are not.
 */
export async function isFileInside(root: string, realRoot: string, path: string): Promise<boolean> {
  if (!isInside(root, path)) return false;
  try {
    return isInside(realRoot, await realpath(path)) && (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Parses one YAML config text, resolving MkDocs' tags without reading anything outside the text
 * (see {@link loadMkDocsConfig}). Exported for tests.
 */
export function parseMkDocsYaml(
  text: string,
  name: string,
  warnings: string[] = [],
): Record<string, unknown> {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: false });
  if (doc.errors.length) {
    throw new PermanentDocumentError(
      TroveErrorCode.ParseFailed,
      `${name} is not valid YAML (${doc.errors[0].message.split('\n')[0]})`,
    );
  }
  visit(doc, (_key, node, path) => {
    if (!isTagged(node)) return undefined;
    const tag = node.tag!;
    if (tag === '!ENV') {
      const fallback = envTagDefault(doc, node);
      warnings.push(
        `${name}: ${keyPath(path)} uses !ENV, which is not resolved in synced content; ` +
          (fallback === null ? 'left empty' : 'used its default'),
      );
      return doc.createNode(fallback);
    }
    if (tag === '!relative') {
      // MkDocs resolves it against the page or config folder at build time; the path itself is enough here.
      node.tag = undefined;
      return undefined;
    }
    if (tag.startsWith(PYTHON_TAG)) {
      const [kind, pythonName = ''] = splitOnce(tag.slice(PYTHON_TAG.length), ':');
      if (kind === 'name' || kind === 'module') return new Scalar(pythonName);
      if (kind.startsWith('object')) {
        const value = node.toJS(doc) as unknown;
        const call: PythonCall = { pythonName, args: [], kwds: {} };
        if (Array.isArray(value)) call.args = value;
        else if (value && typeof value === 'object') {
          const { args, kwds } = value as { args?: unknown; kwds?: unknown };
          if (Array.isArray(args)) call.args = args;
          if (kwds && typeof kwds === 'object') call.kwds = kwds as Record<string, unknown>;
        }
        return doc.createNode(call);
      }
      node.tag = undefined;
      return undefined;
    }
    if (!tag.startsWith('tag:yaml.org,2002:'))
      warnings.push(`${name}: ${keyPath(path)} has an unknown YAML tag; its value is used as is`);
    node.tag = undefined;
    return undefined;
  });
  const data = doc.toJS({ maxAliasCount: 1000 }) as unknown;
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new PermanentDocumentError(TroveErrorCode.ParseFailed, `${name} is not a YAML mapping`);
  }
  return data as Record<string, unknown>;
}

/**
 * What pyyaml-env-tag gives when none of the variables is set: the last item of `!ENV [A, B,
 * default]`, else null. Content is untrusted, so it never reads the variables themselves.
 */
function envTagDefault(doc: Document, node: Node): unknown {
  if (!isSeq(node) || node.items.length < 2) return null;
  return (node.items[node.items.length - 1] as Node).toJS(doc) as unknown;
}

/** The dotted keys above a node (`plugins.macros.enabled`), to name a setting without its value. */
function keyPath(path: readonly unknown[]): string {
  const keys = path.filter(isPair).map((pair) => (isScalar(pair.key) ? String(pair.key.value) : '(key)'));
  return keys.length ? keys.join('.') : 'the top level';
}

function normalizeConfig(raw: Record<string, unknown>, warnings: string[]): MkDocsConfig {
  const siteUrl = webUrl(raw['site_url']);
  if (!siteUrl && raw['site_url'] !== undefined && raw['site_url'] !== null && raw['site_url'] !== '')
    warnings.push('mkdocs.yml: site_url is not an http(s) URL; ignored');
  const markdownExtensions = namedEntries(
    raw['markdown_extensions'],
    'markdown_extensions',
    warnings,
    (name) => name.replace(/^markdown\.extensions\./, ''),
  );
  for (const name of DEFAULT_EXTENSIONS) markdownExtensions[name] ??= {};
  const plugins = namedEntries(raw['plugins'], 'plugins', warnings, (name) => name);
  for (const [name, options] of Object.entries(plugins))
    if (options['enabled'] === false) delete plugins[name];

  const tocOptions = markdownExtensions['toc'];
  let slugify = tocSlugifyFromConfig(tocOptions['slugify']);
  if (!slugify) {
    if (tocOptions['slugify'] !== undefined && tocOptions['slugify'] !== null) {
      warnings.push(
        "mkdocs.yml: toc slugify is not a function Trove knows; heading ids use Python-Markdown's default",
      );
    }
    slugify = { kind: 'python-markdown' };
  }
  const separator = typeof tocOptions['separator'] === 'string' ? tocOptions['separator'] : '-';

  return {
    siteName: raw['site_name'] === undefined || raw['site_name'] === null ? '' : String(raw['site_name']),
    ...(siteUrl ? { siteUrl: siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/` } : {}),
    docsDir: docsDirOf(raw['docs_dir'], warnings),
    useDirectoryUrls: raw['use_directory_urls'] !== false,
    ...(raw['nav'] !== undefined && raw['nav'] !== null ? { nav: raw['nav'] } : {}),
    excludeDocs: patternList(raw['exclude_docs']),
    draftDocs: patternList(raw['draft_docs']),
    notInNav: patternList(raw['not_in_nav']),
    markdownExtensions,
    plugins,
    toc: { slugify, separator, attrList: 'attr_list' in markdownExtensions },
  };
}

function docsDirOf(value: unknown, warnings: string[]): string {
  if (typeof value === 'string' && value) return value;
  if (value !== undefined && value !== null && value !== '')
    warnings.push('mkdocs.yml: docs_dir is not a folder name; docs is used');
  return 'docs';
}

/** `[a, {b: {...}}]` or `{a: null, b: {...}}` → `{a: {}, b: {...}}`, as MkDocs accepts both. */
function namedEntries(
  value: unknown,
  key: string,
  warnings: string[],
  normalize: (name: string) => string,
): Record<string, Record<string, unknown>> {
  const result: Record<string, Record<string, unknown>> = {};
  const add = (name: string, options: unknown) => {
    result[normalize(name)] =
      options && typeof options === 'object' && !Array.isArray(options) ? { ...options } : {};
  };
  if (value === undefined || value === null) return result;
  if (Array.isArray(value)) {
    for (const [index, entry] of value.entries()) {
      if (typeof entry === 'string') add(entry, {});
      else if (
        entry &&
        typeof entry === 'object' &&
        !Array.isArray(entry) &&
        Object.keys(entry).length === 1
      ) {
        const [[name, options]] = Object.entries(entry);
        add(name, options);
      } else warnings.push(`mkdocs.yml: ${key} entry ${index + 1} is not understood; ignored`);
    }
  } else if (typeof value === 'object') {
    for (const [name, options] of Object.entries(value)) add(name, options);
  } else {
    warnings.push(`mkdocs.yml: ${key} is neither a list nor a mapping; ignored`);
  }
  return result;
}

function patternList(value: unknown): string[] {
  const lines = Array.isArray(value)
    ? value.map(String)
    : typeof value === 'string'
      ? value.split(/\r?\n/)
      : [];
  return lines.filter((line) => line.trim() && !line.trimStart().startsWith('#'));
}

/** mergedeep's REPLACE strategy, as MkDocs' INHERIT uses: mappings merge, everything else is replaced. */
function mergeDeep(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const prior = result[key];
    result[key] = isPlainObject(prior) && isPlainObject(value) ? mergeDeep(prior, value) : value;
  }
  return result;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function isTagged(node: unknown): node is Node {
  return (isScalar(node) || isSeq(node) || isMap(node)) && !!node.tag;
}

function splitOnce(text: string, separator: string): [string, string?] {
  const at = text.indexOf(separator);
  return at < 0 ? [text] : [text.slice(0, at), text.slice(at + 1)];
}

/**
 * site_url when it is an absolute http(s) URL: it becomes the link of every page and citation,
 * so a `javascript:` or `data:` URL must never get through.
 */
function webUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.trim()) return undefined;
  const text = value.trim();
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:' ? text : undefined;
  } catch {
    return undefined;
  }
}

/** True when `path` is `root` or inside it. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
