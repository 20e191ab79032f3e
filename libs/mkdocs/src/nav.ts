import MarkdownIt from 'markdown-it';
import { posix } from 'node:path';
import { globSegmentRegex } from './path-patterns';

type Token = ReturnType<MarkdownIt['parse']>[number];

/** A page in nav order with where it sits in the nav. */
export interface NavPage {
  /** Relative to docs_dir, posix. */
  path: string;
  /** The title the nav gives it, when it gives one. */
  title?: string;
  /** Section titles above the page, outermost first. */
  sections: string[];
}

/** What the nav builder needs to know about the docs folder. */
export interface NavContext {
  /** Markdown pages that are part of the site, in MkDocs' file order (index first, then by name). */
  pages: readonly string[];
  /** Pages MkDocs leaves out of generated navs (`not_in_nav`). */
  notInNav: ReadonlySet<string>;
  /** Markdown files excluded from the site (`exclude_docs`, drafts), to explain nav references to them. */
  excluded: ReadonlySet<string>;
  /** literate-nav settings when the plugin is enabled. */
  literateNav?: { navFile: string; implicitIndex: boolean };
  /** Reads a page's text (for literate-nav nav files). */
  read(path: string): Promise<string>;
  warnings: string[];
}

type Pending =
  | { type: 'page'; path: string; title?: string }
  | { type: 'link'; url: string; title?: string }
  | { type: 'section'; title: string; children: Pending[] }
  | { type: 'wildcard'; pattern: string; title?: string }
  | { type: 'directory'; dir: string; title?: string }
  /** literate-nav's implicit index: the folder's index page first, unless the nav lists it elsewhere. */
  | { type: 'implicit'; path: string };

type NavItem =
  { type: 'page'; path: string; title?: string } | { type: 'section'; title: string; children: NavItem[] };

interface LiterateItem {
  title: string;
  href?: string;
  children?: LiterateItem[];
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * Builds the page order MkDocs' navigation gives: the `nav` of mkdocs.yml, with literate-nav's
 * folder references (`user-guide/`) and wildcards when the plugin is on, or MkDocs' generated nav
 * when there is none. Pages appear once, at their first place; external links are skipped.
 */
export async function buildNav(navConfig: unknown, context: NavContext): Promise<NavPage[]> {
  const builder = new NavBuilder(context);
  return flatten(await builder.build(navConfig), []);
}

class NavBuilder {
  private readonly seen = new Set<string>();
  private readonly pageSet: Set<string>;
  private readonly dirs = new Set<string>();
  private readonly md = new MarkdownIt('commonmark');

  constructor(private readonly context: NavContext) {
    this.pageSet = new Set(context.pages);
    for (const page of context.pages) {
      for (let dir = posix.dirname(page); dir !== '.'; dir = posix.dirname(dir)) this.dirs.add(dir);
    }
  }

  async build(navConfig: unknown): Promise<NavItem[]> {
    const { literateNav } = this.context;
    // literate-nav prefers a nav file at the docs root over mkdocs.yml's nav.
    if (literateNav && (navConfig === undefined || this.pageSet.has(literateNav.navFile))) {
      return this.folderNav('', []);
    }
    if (navConfig === undefined) return this.resolve([{ type: 'wildcard', pattern: '*' }], []);
    if (!Array.isArray(navConfig)) {
      this.warn(`nav is not a list; MkDocs' generated nav is used instead`);
      return this.resolve([{ type: 'wildcard', pattern: '*' }], []);
    }
    const items = navConfig.flatMap((entry) => this.fromYaml(entry, []));
    return this.resolve(items, []);
  }

  /** One mkdocs.yml nav entry: `path.md`, `Title: path.md`, `Title: [..]`, `Title: https://…`. */
  private fromYaml(entry: unknown, trail: string[]): Pending[] {
    if (typeof entry === 'string') return [this.fromLink('', entry, undefined, true)];
    if (entry && typeof entry === 'object' && !Array.isArray(entry)) {
      const result: Pending[] = [];
      for (const [title, value] of Object.entries(entry)) {
        if (typeof value === 'string') result.push(this.fromLink('', value, title, true));
        else if (Array.isArray(value)) {
          const children = value.flatMap((child) => this.fromYaml(child, [...trail, title]));
          result.push({ type: 'section', title, children });
        } else this.warn(`nav entry ${where(trail, title)} has no page, link or section; ignored`);
      }
      return result;
    }
    const under = trail.length ? ` under ${trail.join(' > ')}` : '';
    this.warn(`nav entry ${JSON.stringify(entry)}${under} is not understood; ignored`);
    return [];
  }

  /** literate-nav's `_resolve_string_item`: a link relative to `root` becomes a page, folder or wildcard. */
  private fromLink(root: string, link: string, title: string | undefined, yaml = false): Pending {
    if (EXTERNAL.test(link)) return { type: 'link', url: link, title };
    const path = normalize(root, link);
    if (yaml && this.context.literateNav && link.includes('*')) {
      return { type: 'wildcard', pattern: link.endsWith('/') ? `${path}/` : path, title };
    }
    this.seen.add(path);
    if (link.endsWith('/') && this.dirs.has(path)) return { type: 'directory', dir: path, title };
    return { type: 'page', path, title };
  }

  private async resolve(items: Pending[], roots: string[]): Promise<NavItem[]> {
    for (const item of items) if (item.type === 'page') this.seen.add(item.path);
    const result: NavItem[] = [];
    for (const item of items) {
      switch (item.type) {
        case 'link':
          break;
        case 'page':
          if (this.pageSet.has(item.path)) result.push(item);
          else this.missing(item.path, item.title);
          break;
        case 'implicit':
          if (!this.seen.has(item.path)) {
            this.seen.add(item.path);
            result.push({ type: 'page', path: item.path });
          }
          break;
        case 'section': {
          const children = await this.resolve(item.children, roots);
          if (children.length) result.push({ type: 'section', title: item.title, children });
          break;
        }
        case 'directory': {
          if (roots.includes(item.dir)) {
            this.warn(`nav: folder ${item.dir}/ includes itself; the repeated reference is ignored`);
            break;
          }
          const children = await this.folderNav(item.dir, roots);
          const title = item.title ?? dirnameToTitle(posix.basename(item.dir));
          if (children.length) result.push({ type: 'section', title, children });
          break;
        }
        case 'wildcard': {
          const expanded = await this.expand(item.pattern, roots);
          if (!expanded.length) this.warn(`nav: ${item.pattern} matches no page; ignored`);
          else if (item.title) result.push({ type: 'section', title: item.title, children: expanded });
          else result.push(...expanded);
          break;
        }
      }
    }
    return result;
  }

  /** A folder's nav: its literate-nav nav file when there is one, else its pages then its subfolders. */
  private async folderNav(dir: string, roots: string[]): Promise<NavItem[]> {
    const stack = [dir, ...roots];
    const literate = this.context.literateNav;
    const navPath = literate && posix.join(dir, literate.navFile);
    if (literate && navPath && this.pageSet.has(navPath)) {
      const list = extractNavList(this.md.parse(await this.context.read(navPath), {}));
      if (list) {
        const index = this.findIndex(dir);
        // The nav file is scaffolding, unless it is also the folder's index page shown first.
        if (!(literate.implicitIndex && navPath === index)) this.seen.add(navPath);
        const items: Pending[] = literate.implicitIndex && index ? [{ type: 'implicit', path: index }] : [];
        items.push(...this.fromLiterate(list, dir, navPath));
        return this.resolve(items, stack);
      }
      this.warn(`${navPath}: no Markdown list to read the nav from; the folder's pages are listed instead`);
    }
    return this.resolve([{ type: 'wildcard', pattern: dir ? `${dir}/*` : '*' }], stack);
  }

  private fromLiterate(items: LiterateItem[], root: string, file: string): Pending[] {
    const result: Pending[] = [];
    for (const item of items) {
      const children = item.children && this.fromLiterate(item.children, root, file);
      if (item.href !== undefined) {
        const target = this.fromLink(root, item.href, item.title);
        if (children) result.push({ type: 'section', title: item.title, children: [target, ...children] });
        else result.push(target);
      } else if (children) {
        result.push({ type: 'section', title: item.title, children });
      } else if (item.title.includes('*')) {
        result.push({ type: 'wildcard', pattern: normalize(root, item.title) });
      } else {
        this.warn(`${file}: nav item "${item.title}" has no link or sub-list; ignored`);
      }
    }
    return result;
  }

  /** literate-nav's glob: matching pages first, then folders (as sections), skipping what the nav lists. */
  private async expand(pattern: string, roots: string[]): Promise<NavItem[]> {
    const foldersOnly = pattern.endsWith('/');
    const parts = pattern.replace(/\/+$/, '').split('/');
    const regexes = parts.map(globSegmentRegex);
    const matches = (path: string) => {
      const segments = path.split('/');
      return segments.length === regexes.length && segments.every((s, i) => regexes[i].test(s));
    };
    const result: NavItem[] = [];
    for (const page of this.context.pages) {
      if (foldersOnly || !matches(page) || this.seen.has(page) || this.context.notInNav.has(page)) continue;
      this.seen.add(page);
      result.push({ type: 'page', path: page });
    }
    for (const dir of this.dirs) {
      if (!matches(dir) || this.seen.has(dir)) continue;
      this.seen.add(dir);
      const children = await this.folderNav(dir, roots);
      if (children.length)
        result.push({ type: 'section', title: dirnameToTitle(posix.basename(dir)), children });
    }
    return result;
  }

  private findIndex(dir: string): string | undefined {
    return this.context.pages.find(
      (page) => posix.dirname(page) === (dir || '.') && pageName(page) === 'index',
    );
  }

  private missing(path: string, title?: string): void {
    const what = title ? `"${title}" (${path})` : path;
    if (this.context.excluded.has(path)) this.warn(`nav: ${what} is excluded from the site; ignored`);
    else if (this.dirs.has(path))
      this.warn(`nav: ${what} is a folder; write it as ${path}/ to list its pages`);
    else this.warn(`nav: ${what} is not a page in docs_dir; ignored`);
  }

  private warn(message: string): void {
    if (!this.context.warnings.includes(message)) this.context.warnings.push(message);
  }
}

/**
 * The list literate-nav reads from a nav file: the first list after a `<!--nav-->` line, else the
 * last top-level list.
 */
function extractNavList(tokens: Token[]): LiterateItem[] | undefined {
  const marker = tokens.findIndex(
    (t) => t.type === 'html_block' && t.level === 0 && t.content.trim() === '<!--nav-->',
  );
  const isList = (t: Token) =>
    t.level === 0 && (t.type === 'bullet_list_open' || t.type === 'ordered_list_open');
  let start = -1;
  if (marker >= 0) start = tokens.findIndex((t, i) => i > marker && isList(t));
  else for (let i = tokens.length - 1; i >= 0 && start < 0; i--) if (isList(tokens[i])) start = i;
  return start < 0 ? undefined : readList(tokens, start).items;
}

function readList(tokens: Token[], start: number): { items: LiterateItem[]; end: number } {
  const level = tokens[start].level;
  const items: LiterateItem[] = [];
  let i = start + 1;
  let current: LiterateItem | undefined;
  for (; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.level === level && token.nesting === -1) break;
    if (token.type === 'list_item_open' && token.level === level + 1) {
      current = { title: '' };
      items.push(current);
    } else if (token.type === 'inline' && current && !current.title && current.href === undefined) {
      Object.assign(current, readItemText(token));
    } else if ((token.type === 'bullet_list_open' || token.type === 'ordered_list_open') && current) {
      const nested = readList(tokens, i);
      current.children = nested.items;
      i = nested.end;
    }
  }
  return { items, end: i };
}

/** `[Title](link)` → title and href; anything else → its text as a title. */
function readItemText(inline: Token): LiterateItem {
  const children = inline.children ?? [];
  const text = (list: Token[]) =>
    list
      .filter((c) => c.type === 'text' || c.type === 'code_inline' || c.type === 'softbreak')
      .map((c) => (c.type === 'softbreak' ? ' ' : c.content))
      .join('')
      .replace(/\s+/g, ' ')
      .trim();
  if (children[0]?.type === 'link_open') {
    const close = children.findIndex((c) => c.type === 'link_close');
    const href = children[0].attrGet('href') ?? '';
    return { title: text(children.slice(1, close)), href: safeDecode(href) };
  }
  return { title: text(children) };
}

function flatten(
  items: NavItem[],
  sections: string[],
  out: NavPage[] = [],
  listed = new Set<string>(),
): NavPage[] {
  for (const item of items) {
    if (item.type === 'section') {
      flatten(item.children, [...sections, item.title], out, listed);
    } else if (!listed.has(item.path)) {
      listed.add(item.path);
      out.push({ path: item.path, sections, ...(item.title ? { title: item.title } : {}) });
    }
  }
  return out;
}

/** MkDocs' `dirname_to_title`: dashes and underscores to spaces, capitalised when all lower-case. */
export function dirnameToTitle(name: string): string {
  const title = name.replace(/[-_]/g, ' ');
  return title.toLowerCase() === title ? title.charAt(0).toUpperCase() + title.slice(1) : title;
}

/** MkDocs' `File.name`: the stem, with `README` counting as `index`. */
export function pageName(path: string): string {
  const stem = posix.basename(path, posix.extname(path));
  return stem === 'README' ? 'index' : stem;
}

function normalize(root: string, link: string): string {
  const joined = posix.normalize(posix.join(root || '.', link.split('#')[0]));
  return joined
    .replace(/^(?:\.\/)+/, '')
    .replace(/^\/+/, '')
    .replace(/\/+$/, '');
}

function where(trail: string[], title: string): string {
  return [...trail, title].map((t) => `"${t}"`).join(' > ');
}

function safeDecode(href: string): string {
  try {
    return decodeURI(href);
  } catch {
    return href;
  }
}
