import type { HeadingSlugify } from '@trove/parsing/formats';

/** Which heading-id function a MkDocs site uses (the `toc` extension's `slugify`), as plain data. */
export type TocSlugify =
  /** Python-Markdown's `markdown.extensions.toc.slugify` (the default): ASCII only. */
  | { kind: 'python-markdown' }
  /** `markdown.extensions.toc.slugify_unicode`: the default without the ASCII folding. */
  | { kind: 'python-markdown-unicode' }
  /** pymdownx `slugs.slugify(case=…)` and the older `uslugify*` / `gfm*` functions. */
  | {
      kind: 'pymdownx';
      case: 'none' | 'lower' | 'lower-ascii' | 'fold';
      percentEncode: boolean;
      normalize: string;
    };

/** The `toc` extension's settings that decide heading ids, plus attr_list's explicit ids. */
export interface TocSettings {
  slugify: TocSlugify;
  /** Word separator (`toc.separator`), `-` by default. */
  separator: string;
  /** attr_list is enabled: `## Title {#id}` sets the id. */
  attrList: boolean;
}

/** Python-Markdown's default slugify: NFKD, non-ASCII dropped, `[^\w\s-]` removed, lower-case. */
export function pythonMarkdownSlug(value: string, separator = '-', unicode = false): string {
  let slug = value;
  // Python encodes to ASCII ignoring errors: everything above U+007F goes.
  if (!unicode) slug = slug.normalize('NFKD').replace(/[^\p{ASCII}]/gu, '');
  slug = slug
    .replace(/[^\p{L}\p{N}_\s-]/gu, '')
    .trim()
    .toLowerCase();
  // Python builds the class from the separator unescaped; escaping keeps odd separators literal.
  return slug.replace(new RegExp(`[${escapeClass(separator)}\\s]+`, 'gu'), separator);
}

/** pymdownx.slugs' Unicode slugify: tags removed, Unicode word characters kept, each space → separator. */
export function pymdownxSlug(
  value: string,
  separator = '-',
  options: {
    case?: 'none' | 'lower' | 'lower-ascii' | 'fold';
    percentEncode?: boolean;
    normalize?: string;
  } = {},
): string {
  let slug = value
    .normalize((options.normalize ?? 'NFC') as 'NFC')
    .replace(/<\/?[^>]*>/g, '')
    .trim();
  const letterCase = options.case ?? 'none';
  if (letterCase === 'lower') slug = slug.toLowerCase();
  // Upper then lower approximates Python's casefold (ß → ss).
  else if (letterCase === 'fold') slug = slug.toUpperCase().toLowerCase();
  else if (letterCase === 'lower-ascii') slug = slug.replace(/[A-Z]/g, (c) => c.toLowerCase());
  slug = slug.replace(/[^\p{L}\p{N}_\- ]/gu, '').replace(/ /g, separator);
  return options.percentEncode ? pythonQuote(slug) : slug;
}

/**
 * Python-Markdown toc's `unique()`: an id already taken (or empty) gets `_1`, `_2`, …; an id
 * that already ends in `_<n>` counts on from n.
 */
export function uniqueId(id: string, seen: Set<string>): string {
  let candidate = id;
  while (!candidate || seen.has(candidate)) {
    const match = /^(.*)_([0-9]+)$/s.exec(candidate);
    candidate = match ? `${match[1]}_${Number(match[2]) + 1}` : `${candidate}_1`;
  }
  return candidate;
}

/** Plugins that change heading text before toc sees it. */
export interface TocSlugifyOptions {
  /** mkdocstrings: a `## ::: package.module` heading gets the object's path as its id. */
  mkdocstrings?: boolean;
  /** mkdocs-autorefs: an undefined reference `[Title][some.identifier]` renders as its title only. */
  autorefs?: boolean;
}

/** The heading-id function a MkDocs page is rendered with, for the Markdown parser. */
export function createTocSlugify(settings: TocSettings, options: TocSlugifyOptions = {}): HeadingSlugify {
  const { slugify, separator } = settings;
  const slug = (text: string): string => {
    switch (slugify.kind) {
      case 'python-markdown':
        return pythonMarkdownSlug(text, separator);
      case 'python-markdown-unicode':
        return pythonMarkdownSlug(text, separator, true);
      case 'pymdownx':
        return pymdownxSlug(text, separator, slugify);
    }
  };
  return (text, seen) => {
    // mkdocstrings replaces `## ::: package.module` with the object's docs, anchored at its path.
    const autodoc = options.mkdocstrings ? /^::: ?(\S.*?)\s*$/.exec(text) : null;
    if (autodoc && !seen.has(autodoc[1])) return autodoc[1];
    // Defined references are links by now; what is left in brackets is an autoref.
    const rendered = options.autorefs ? text.replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1') : text;
    return uniqueId(slug(rendered), seen);
  };
}

/**
 * Recognises a `toc.slugify` value from mkdocs.yml: a Python name (`!!python/name:…`) or a call
 * (`!!python/object/apply:pymdownx.slugs.slugify {kwds: {case: lower}}`). Undefined when unknown.
 */
export function tocSlugifyFromConfig(value: unknown): TocSlugify | undefined {
  const call = isPythonCall(value) ? value : undefined;
  const name = typeof value === 'string' ? value : call?.pythonName;
  if (!name) return undefined;
  const short = name.replace(/^markdown\.extensions\.toc\./, 'toc.').replace(/^pymdownx\.slugs\./, 'slugs.');
  switch (short) {
    case 'toc.slugify':
      return { kind: 'python-markdown' };
    case 'toc.slugify_unicode':
      return { kind: 'python-markdown-unicode' };
    case 'slugs.uslugify':
      return pymdownx('lower', false);
    case 'slugs.uslugify_encoded':
      return pymdownx('lower', true);
    case 'slugs.uslugify_cased':
      return pymdownx('none', false);
    case 'slugs.uslugify_cased_encoded':
      return pymdownx('none', true);
    case 'slugs.gfm':
      return pymdownx('lower-ascii', false);
    case 'slugs.gfm_encoded':
      return pymdownx('lower-ascii', true);
    case 'slugs.slugify': {
      const kwds = call?.kwds ?? {};
      const letterCase = ['none', 'lower', 'lower-ascii', 'fold'].includes(String(kwds['case']))
        ? (String(kwds['case']) as 'none')
        : 'none';
      const normalize = typeof kwds['normalize'] === 'string' ? kwds['normalize'] : 'NFC';
      return {
        kind: 'pymdownx',
        case: letterCase,
        percentEncode: kwds['percent_encode'] === true,
        normalize,
      };
    }
    default:
      return undefined;
  }
}

/** A `!!python/object/apply:name` (or `/object`, `/object/new`) value from mkdocs.yml. */
export interface PythonCall {
  pythonName: string;
  args: unknown[];
  kwds: Record<string, unknown>;
}

export function isPythonCall(value: unknown): value is PythonCall {
  return !!value && typeof value === 'object' && typeof (value as PythonCall).pythonName === 'string';
}

function pymdownx(letterCase: 'none' | 'lower' | 'lower-ascii', percentEncode: boolean): TocSlugify {
  return { kind: 'pymdownx', case: letterCase, percentEncode, normalize: 'NFC' };
}

function escapeClass(text: string): string {
  return text.replace(/[\\\]^-]/g, '\\$&');
}

/** Python's `urllib.parse.quote` (safe `/`): percent-encodes all but `A-Za-z0-9_.-~/`. */
export function pythonQuote(text: string): string {
  return encodeURIComponent(text)
    .replace(/%2F/g, '/')
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
