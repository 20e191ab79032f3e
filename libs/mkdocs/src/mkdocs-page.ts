import MarkdownIt from 'markdown-it';
import { posix } from 'node:path';
import type { ParsedDocument } from '@trove/domain';
import { decodeUtf8, MarkdownParser, splitFrontMatter } from '@trove/parsing/formats';
import type { MarkdownHeading } from '@trove/parsing/formats';
import type { MkDocsExpansions, MkDocsPage, MkDocsProject } from './mkdocs-project';
import { pageName } from './nav';
import { createTocSlugify } from './slugify';

/** MkDocs' MultiMarkdown-style meta-data (`Key: value` lines at the top, ended by a blank line). */
const MMD_META = /^[ ]{0,3}([A-Za-z0-9_-]+):\s*(.*)$/;
const MMD_MORE = /^(?:[ ]{4}|\t)\s*(.*)$/;
/** pymdownx.snippets' markers: `--8<-- "file"` inline, or a bare `--8<--` opening/closing a block of files. */
const SNIPPET = /^[ \t]*(;*)(-+8<-+)(?:[ \t]+("(?:\\"|[^"\n\r])+?"|'(?:\\'|[^'\n\r])+?'))?[ \t]*$/;
/** mkdocstrings' autodoc line, also as a heading (`## ::: module.Class`) and inside quotes or admonitions. */
const AUTODOC = /^[ \t>]*(#{1,6} *)?::: ?(\S.*?)\s*$/;
const JINJA = /\{\{.*?\}\}|\{%.*?%\}/;
const INCLUDE_MARKDOWN = /\{%\s*include(?:-markdown)?\s.*?%\}/;
/** Per kind of marker, so one page full of macros does not bury everything else. */
const MAX_WARNINGS_PER_KIND = 20;

const codeScanner = new MarkdownIt('commonmark');

/**
 * Parses one page of a MkDocs project as the site renders it: heading ids from the project's toc
 * settings (slugify, separator, attr_list ids), so each block's `anchor` makes `url#anchor` a
 * working link to its section. Title: the nav title (as MkDocs), else front matter `title`, else an H1 that
 * opens the page, else the file name (`Home` for the home page). Markers of build-time expansions
 * Trove cannot run (snippets, mkdocstrings, mkdocs-click, macros, include-markdown) stay in the
 * text and are listed in `warnings` as `path:line: …`. Throws the parser's permanent errors (not
 * UTF-8, no text).
 */
export async function renderMkDocsPage(
  project: MkDocsProject,
  page: MkDocsPage,
  markdown: Buffer | string,
): Promise<ParsedDocument> {
  const source =
    typeof markdown === 'string' ? markdown.replace(/^\uFEFF/, '') : decodeUtf8(page.sourcePath, markdown);
  const { body, meta, bodyLine } = splitMultiMarkdownMeta(source);
  const parser = new MarkdownParser({
    slugify: createTocSlugify(project.config.toc, {
      mkdocstrings: project.expansions.mkdocstrings,
      autorefs: project.expansions.autorefs,
    }),
    headingAttributes: project.config.toc.attrList,
    admonitions: 'admonition' in project.config.markdownExtensions,
  });
  const { document, headings } = parser.parseText(page.sourcePath, body);

  const metadata: Record<string, string> = { ...meta, ...document.metadata };
  const title = page.navTitle || metadata['title'] || openingH1(body, headings) || fileTitle(page);
  if (page.navPath.length) metadata['navPath'] = page.navPath.join(' > ');
  metadata['sourcePath'] = page.sourcePath;

  const warnings = expansionWarnings(page.sourcePath, body, bodyLine, project.expansions);
  return {
    title,
    metadata,
    blocks: document.blocks,
    url: page.url,
    ...(warnings.length ? { warnings } : {}),
  };
}

/**
 * MkDocs' `get_data`: YAML front matter is left to the parser; without it, `Key: value` lines at
 * the very top (up to a blank line) are MultiMarkdown meta-data and not part of the page.
 */
function splitMultiMarkdownMeta(source: string): {
  body: string;
  meta: Record<string, string>;
  bodyLine: number;
} {
  if (/^---[ \t]*\r?\n/.test(source)) return { body: source, meta: {}, bodyLine: 1 };
  const lines = source.split(/\r?\n|\r/);
  const meta: Record<string, string> = {};
  let key: string | undefined;
  let used = 0;
  for (; used < lines.length; used++) {
    const line = lines[used];
    if (!line.trim()) {
      if (key) used++;
      break;
    }
    const match = MMD_META.exec(line);
    const more = key ? MMD_MORE.exec(line) : null;
    if (match) {
      key = match[1].toLowerCase().trim();
      meta[key] = meta[key] ? `${meta[key]} ${match[2].trim()}` : match[2].trim();
    } else if (more && key) {
      meta[key] += ` ${more[1].trim()}`;
    } else {
      break;
    }
  }
  if (!key) return { body: source, meta: {}, bodyLine: 1 };
  // MkDocs also drops the blank lines that follow.
  let start = used;
  while (start < lines.length && !lines[start].trim()) start++;
  return { body: lines.slice(start).join('\n'), meta, bodyLine: start + 1 };
}

/** Warnings, with 1-based source lines, for each marker of an expansion the site runs at build time. */
function expansionWarnings(
  path: string,
  body: string,
  bodyLine: number,
  expansions: MkDocsExpansions,
): string[] {
  const { snippets, macros, includeMarkdown, mkdocstrings, mkdocsClick } = expansions;
  if (!(snippets || macros || includeMarkdown || mkdocstrings || mkdocsClick)) return [];
  const { body: text, bodyLine: textLine } = splitFrontMatter(path, body, { lenient: true });
  const offset = bodyLine - 1 + textLine;
  const lines = text.split(/\r?\n/);
  const fenced = fencedLines(text);
  const found: Record<string, string[]> = {};
  const add = (kind: string, line: number, message: string) =>
    (found[kind] ??= []).push(`${path}:${line + offset}: ${message}`);

  let snippetBlock: { line: number; files: string[] } | undefined;
  let raw = false;
  lines.forEach((line, i) => {
    if (snippets) {
      const snippet = SNIPPET.exec(line);
      // `;--8<--` is the escaped form: MkDocs shows it as text.
      if (snippet && !snippet[1]) {
        if (snippet[3])
          add('snippets', i, `snippet include --8<-- ${snippet[3]} is not expanded; left as text`);
        else if (snippetBlock) {
          const files = snippetBlock.files.join(', ') || 'no files';
          add('snippets', snippetBlock.line, `snippet block --8<-- (${files}) is not expanded; left as text`);
          snippetBlock = undefined;
        } else snippetBlock = { line: i, files: [] };
        return;
      }
      if (snippetBlock) {
        if (line.trim()) snippetBlock.files.push(line.trim());
        return;
      }
    }
    if (macros) {
      if (/\{%-?\s*raw\s*-?%\}/.test(line)) raw = true;
      if (/\{%-?\s*endraw\s*-?%\}/.test(line)) raw = false;
      else if (!raw && JINJA.test(line)) {
        add('macros', i, `Jinja ${JINJA.exec(line)![0]} is not evaluated (macros plugin); left as text`);
        return;
      }
    }
    if (includeMarkdown && INCLUDE_MARKDOWN.test(line)) {
      add(
        'include',
        i,
        `${INCLUDE_MARKDOWN.exec(line)![0]} is not expanded (include-markdown plugin); left as text`,
      );
      return;
    }
    const autodoc = (mkdocstrings || mkdocsClick) && !fenced.has(i) ? AUTODOC.exec(line) : null;
    if (autodoc && mkdocsClick && autodoc[2].startsWith('mkdocs-click')) {
      add('mkdocs-click', i, `mkdocs-click ::: ${autodoc[2]} is not rendered; left as text`);
    } else if (autodoc && mkdocstrings) {
      add('mkdocstrings', i, `mkdocstrings ::: ${autodoc[2]} is not rendered; left as text`);
    }
  });
  if (snippetBlock) add('snippets', snippetBlock.line, `snippet block --8<-- is not closed; left as text`);

  return Object.values(found).flatMap((messages) =>
    messages.length > MAX_WARNINGS_PER_KIND
      ? [
          ...messages.slice(0, MAX_WARNINGS_PER_KIND),
          `${path}: ${messages.length - MAX_WARNINGS_PER_KIND} more like these`,
        ]
      : messages,
  );
}

/** 0-based lines inside fenced code blocks, at any depth (lists, quotes). */
function fencedLines(text: string): Set<number> {
  const lines = new Set<number>();
  for (const token of codeScanner.parse(text, {})) {
    if (token.type !== 'fence' || !token.map) continue;
    for (let line = token.map[0]; line < token.map[1]; line++) lines.add(line);
  }
  return lines;
}

/** The text of an H1 that opens the page: MkDocs titles a page by its first element only when that is an H1. */
function openingH1(body: string, headings: MarkdownHeading[]): string | undefined {
  const first = headings[0];
  if (!first || first.level !== 1 || !first.text) return undefined;
  const { bodyLine } = splitFrontMatter('', body, { lenient: true });
  const before = body.split(/\r?\n/).slice(bodyLine - 1, first.line - 1);
  return before.every((line) => !line.trim()) ? first.text : undefined;
}

/** MkDocs' last-resort title: `Home` for the home page, else the file name, capitalised if lower-case. */
function fileTitle(page: MkDocsPage): string {
  const name = pageName(page.sourcePath);
  if (name === 'index' && posix.dirname(page.sourcePath) === '.') return 'Home';
  const title = name.replace(/[-_]/g, ' ');
  return title.toLowerCase() === title ? title.charAt(0).toUpperCase() + title.slice(1) : title;
}
