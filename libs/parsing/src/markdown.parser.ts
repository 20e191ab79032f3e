import MarkdownIt from 'markdown-it';
import admonitionPlugin from 'markdown-it-admon';
type Token = ReturnType<MarkdownIt['parse']>[number];
type StateCore = Parameters<Parameters<MarkdownIt['core']['ruler']['push']>[1]>[0];
import { parse as parseYaml } from 'yaml';
import { basename, extname } from 'node:path';
import type { ParsedBlock, ParsedDocument, ParseInput, Parser } from '@trove/domain';
import { PermanentDocumentError, TroveErrorCode } from '@trove/domain';
import { decodeUtf8, MEDIA_TYPES } from './detect';

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/**
 * An attribute list at the end of a heading, as Python-Markdown's attr_list reads it
 * (`## Title {#id}`, `## Title {: #id .class }`): at least one space before the brace.
 */
const HEADING_ATTRIBUTES = /[ ]+\{:?[ ]*([^}\n ][^\n]*?)[ ]*\}[ ]*$/;
/** The tokens of an attribute list: `key="v"`, `key='v'`, `key=v`, `#id`, `.class`, `word`. */
const ATTRIBUTE_TOKEN = /([^ =}]+)="(.*?)"|([^ =}]+)='(.*?)'|([^ =}]+)=([^ =}]+)|([^ =}]+)/g;

const BLOCK_KINDS: Record<string, ParsedBlock['kind']> = {
  paragraph_open: 'paragraph',
  bullet_list_open: 'list',
  ordered_list_open: 'list',
  blockquote_open: 'quote',
  table_open: 'table',
  fence: 'code',
  code_block: 'code',
  html_block: 'paragraph',
  admonition_open: 'quote',
};

/**
 * Turns a heading's text into its anchor id. It must return an id that is not in `seen` (the ids
 * already taken in the document); the parser adds the result to `seen`. An empty result means
 * the heading has no anchor.
 */
export type HeadingSlugify = (text: string, seen: Set<string>) => string;

export interface MarkdownParserOptions {
  /** Heading text → anchor id. Default: GitHub's slugs ({@link githubSlugify}). */
  slugify?: HeadingSlugify;
  /**
   * Read attribute lists at the end of headings (`## Title {#custom-id}`, `{: #id .class }`):
   * the explicit id wins over the slug and the braces leave the heading text. Default true.
   */
  headingAttributes?: boolean;
  /**
   * Read Python-Markdown admonitions (`!!! note "Title"` with an indented body, MkDocs'
   * `admonition` extension) as quotes of plain text, not as indented code. Default false.
   */
  admonitions?: boolean;
}

/** A heading of a Markdown document with the anchor id a renderer gives it. */
export interface MarkdownHeading {
  /** 1 to 6. */
  level: number;
  /** Rendered text: inline markup, HTML tags and the attribute list removed, entities decoded. */
  text: string;
  /** The explicit `{#id}`, else the slug of the text; absent when the slug is empty. */
  anchor?: string;
  /** 1-based line of the heading in the source given (front matter included). */
  line: number;
}

/** A parsed document together with its headings, for callers that need the table of contents. */
export interface MarkdownParseResult {
  document: ParsedDocument;
  /** Top-level headings in document order (not those inside lists or quotes). */
  headings: MarkdownHeading[];
}

/**
 * GitHub's heading slugs (as github-slugger): lower-case, punctuation removed except `-` and `_`,
 * each space → `-`, letters and digits of every script kept; repeats get `-1`, `-2`, ….
 */
export function githubSlugify(text: string, seen: Set<string>): string {
  const base = text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
  let slug = base;
  for (let n = 1; seen.has(slug); n++) slug = `${base}-${n}`;
  return slug;
}

/**
 * Markdown via markdown-it (CommonMark + GFM tables). Each top-level block keeps its Markdown
 * source, so lists, tables and code stay readable in chunks; headings build the heading path and
 * give every block the anchor of the section it is in, so citations can link to `url#anchor`.
 */
export class MarkdownParser implements Parser {
  readonly mediaTypes = [MEDIA_TYPES.markdown] as const;
  private readonly md = new MarkdownIt('commonmark').enable('table');
  private readonly slugify: HeadingSlugify;

  constructor(options: MarkdownParserOptions = {}) {
    this.slugify = options.slugify ?? githubSlugify;
    // Before inline parsing, so the braces never reach the heading's text.
    if (options.headingAttributes ?? true) this.md.core.ruler.before('inline', 'heading_ids', headingIds);
    if (options.admonitions) this.md.use(admonitionPlugin);
  }

  async parse(input: ParseInput): Promise<ParsedDocument> {
    return this.parseText(input.fileName, decodeUtf8(input.fileName, input.data)).document;
  }

  /**
   * Parses already decoded Markdown, returning the document and its headings with their anchors.
   * Throws a permanent EMPTY_DOCUMENT error when there is no text besides headings.
   */
  parseText(fileName: string, source: string): MarkdownParseResult {
    const { body, metadata, bodyLine } = splitFrontMatter(fileName, source);
    const lines = body.split(/\r?\n/);
    const tokens = this.md.parse(body, {});
    const anchors = this.assignAnchors(tokens);

    const blocks: ParsedBlock[] = [];
    const headings: MarkdownHeading[] = [];
    const open: { level: number; text: string; anchor?: string }[] = [];

    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      if (token.level !== 0 || token.nesting === -1) continue;
      if (token.type === 'heading_open') {
        const level = Number(token.tag.slice(1));
        const text = inlineText(tokens[i + 1]);
        const anchor = anchors.get(token);
        headings.push({ level, text, line: bodyLine + (token.map?.[0] ?? 0), ...(anchor ? { anchor } : {}) });
        while (open.length && open[open.length - 1].level >= level) open.pop();
        if (text) open.push({ level, text, anchor });
        continue;
      }
      const kind = BLOCK_KINDS[token.type];
      if (!kind || !token.map) continue;
      const source = lines.slice(token.map[0], token.map[1]);
      const text = (
        token.type === 'admonition_open' ? admonitionText(token, source) : source.join('\n')
      ).trim();
      if (!text) continue;
      const block: ParsedBlock = { kind, text, headingPath: open.map((h) => h.text) };
      if (token.type === 'fence') {
        const language = token.info.trim().split(/\s+/)[0];
        if (language) block.codeLanguage = language;
      }
      const anchor = open[open.length - 1]?.anchor;
      if (anchor) block.anchor = anchor;
      blocks.push(block);
    }

    if (blocks.length === 0) {
      throw new PermanentDocumentError(
        TroveErrorCode.EmptyDocument,
        `${fileName} has no text content (only headings, front matter or white space)`,
      );
    }
    const firstH1 = headings.find((h) => h.level === 1 && h.text)?.text;
    const title = metadata.title || firstH1 || basename(fileName, extname(fileName));
    return { document: { title, metadata, blocks }, headings };
  }

  /**
   * The top-level headings of a Markdown text (front matter skipped) with their anchors: a page's
   * table of contents. Never throws on empty input.
   */
  headings(source: string): MarkdownHeading[] {
    const { body, bodyLine } = splitFrontMatter('', source, { lenient: true });
    const tokens = this.md.parse(body, {});
    const anchors = this.assignAnchors(tokens);
    const headings: MarkdownHeading[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      if (token.type !== 'heading_open' || token.level !== 0) continue;
      const anchor = anchors.get(token);
      headings.push({
        level: Number(token.tag.slice(1)),
        text: inlineText(tokens[i + 1]),
        line: bodyLine + (token.map?.[0] ?? 0),
        ...(anchor ? { anchor } : {}),
      });
    }
    return headings;
  }

  /**
   * Ids for every heading, nested ones included, in document order. Explicit ids are reserved
   * first, as Python-Markdown's toc does, so a slug never takes an id set by hand later on.
   */
  private assignAnchors(tokens: Token[]): Map<Token, string> {
    const seen = new Set<string>();
    for (const token of tokens) {
      const id = token.type === 'heading_open' ? token.attrGet('id') : null;
      if (id) seen.add(id);
    }
    const anchors = new Map<Token, string>();
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      if (token.type !== 'heading_open') continue;
      const anchor = token.attrGet('id') || this.slugify(inlineText(tokens[i + 1]), seen);
      if (!anchor) continue;
      seen.add(anchor);
      anchors.set(token, anchor);
    }
    return anchors;
  }
}

/** markdown-it core rule: takes a trailing attribute list off each heading and keeps its id. */
function headingIds(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (tokens[i].type !== 'heading_open' || tokens[i + 1].type !== 'inline') continue;
    const inline = tokens[i + 1];
    const match = HEADING_ATTRIBUTES.exec(inline.content);
    // A second closing brace means this is not an attribute list (attr_list's strict mode).
    if (!match || match[1].includes('}')) continue;
    let id: string | undefined;
    for (const [, dqKey, dqValue, sqKey, sqValue, key, value, word] of match[1].matchAll(ATTRIBUTE_TOKEN)) {
      const [k, v] = word
        ? [word.startsWith('#') ? 'id' : '', word.slice(1)]
        : [dqKey ?? sqKey ?? key, dqValue ?? sqValue ?? value];
      if (k === 'id' && v) id = v;
    }
    // Trailing hashes before the braces (`## Title ## {#id}`) are closing marks, as in attr_list.
    inline.content = inline.content.slice(0, match.index).replace(/[ #]+$/, '');
    if (id) tokens[i].attrSet('id', id);
  }
}

/** The text a reader sees: text and code spans, without markup, HTML tags or images. */
function inlineText(token: Token | undefined): string {
  if (!token || token.type !== 'inline') return '';
  const parts = (token.children ?? [])
    .filter((child) => child.type === 'text' || child.type === 'code_inline' || child.type === 'softbreak')
    .map((child) => (child.type === 'softbreak' ? ' ' : child.content));
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/**
 * Separates YAML front matter (`---` … `---`) from the body and flattens it to strings.
 * `bodyLine` is the 1-based line where the body starts. Invalid YAML is a permanent PARSE_FAILED
 * error, or with `lenient` is left in the body.
 */
export function splitFrontMatter(
  fileName: string,
  source: string,
  options: { lenient?: boolean } = {},
): { body: string; metadata: Record<string, string>; bodyLine: number } {
  const match = FRONT_MATTER.exec(source);
  if (!match) return { body: source, metadata: {}, bodyLine: 1 };
  let data: unknown;
  try {
    data = parseYaml(match[1]);
  } catch (error) {
    if (options.lenient) return { body: source, metadata: {}, bodyLine: 1 };
    throw new PermanentDocumentError(
      TroveErrorCode.ParseFailed,
      `${fileName}: the front matter is not valid YAML (${(error as Error).message.split('\n')[0]})`,
    );
  }
  const metadata: Record<string, string> = {};
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    for (const [key, value] of Object.entries(data)) {
      if (value === null || value === undefined) continue;
      metadata[key] = Array.isArray(value) ? value.map(String).join(', ') : String(value);
    }
  }
  const bodyLine = 1 + (match[0].match(/\n/g)?.length ?? 0);
  return { body: source.slice(match[0].length), metadata, bodyLine };
}

/**
 * An admonition as readable text: `Note: Title` (the type when there is no title; none for an
 * empty `""` title), then the body without its four-space indent.
 */
function admonitionText(token: Token, source: string[]): string {
  const [, ...rest] = token.info.trim().split(/\s+/);
  const quoted = rest.join(' ').replace(/^"(.*)"$/, '$1');
  const type = token.meta as string;
  const label = `${type.charAt(0).toUpperCase()}${type.slice(1)}`;
  const heading = rest.length === 0 ? `${label}:` : quoted ? `${label}: ${quoted}` : '';
  const body = source.slice(1).map((line) => line.replace(/^(?: {1,4}|\t)/, ''));
  return [heading, ...body].filter((line, i) => i > 0 || line).join('\n');
}
