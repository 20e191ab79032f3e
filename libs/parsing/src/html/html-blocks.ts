import type { AnyNode, Element, Text } from 'domhandler';
import type { ParsedBlock } from '@trove/domain';

/**
 * A part of a document whose title the caller knows from elsewhere (an EPUB table-of-contents
 * entry). Blocks inside it get its heading path and chapter; the document's own headings nest below.
 */
export interface HtmlSection {
  /** Heading titles above the section's own headings, e.g. the TOC path `[book part, chapter]`. */
  headingPath: readonly string[];
  /** Set as `chapter` on every block of the section. */
  chapter?: string;
  /** A heading at the top of the section that repeats this title is not added to the path again. */
  title?: string;
  /** Element id the section starts at, used as the anchor until a heading with an id comes. */
  anchorId?: string;
}

export interface HtmlToBlocksOptions {
  /**
   * Turns the id of the block's section (its heading's id, or a preceding `<a id|name>`) into the
   * block's anchor; receives undefined when there is none. Default: the id itself.
   */
  anchorFor?: (id: string | undefined) => string | undefined;
  /** The section in effect at the start of the walk. */
  section?: HtmlSection;
  /** Sections that start at the element with this id (inclusive): the heading stack restarts there. */
  sections?: ReadonlyMap<string, HtmlSection>;
  /** Called when the walk enters one of `sections`. */
  onSection?: (id: string, section: HtmlSection) => void;
}

const HEADING = /^h([1-6])$/;

/** Elements that never hold document text (or whose text is not prose). */
const DROPPED = new Set([
  'audio',
  'button',
  'canvas',
  'datalist',
  'embed',
  'head',
  'iframe',
  'input',
  'link',
  'map',
  'math',
  'meta',
  'nav',
  'noscript',
  'object',
  'option',
  'rp',
  'rt',
  'script',
  'select',
  'style',
  'svg',
  'template',
  'textarea',
  'title',
  'video',
]);

const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'dialog',
  'div',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hgroup',
  'html',
  'legend',
  'li',
  'main',
  'p',
  'section',
  'summary',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
]);

const LIST = new Set(['ul', 'ol', 'menu', 'dir']);
/** Lists nested deeper than this are flattened into their item's text. */
const MAX_LIST_DEPTH = 16;
/** Class names that say "no particular language" rather than naming one. */
const NO_LANGUAGE = new Set([
  'none',
  'text',
  'plain',
  'plaintext',
  'txt',
  'default',
  'nohighlight',
  'notranslate',
]);
/** Alt texts that only say "there is a picture here". */
const GENERIC_ALT =
  /^(?:image|img|picture|pic|photo|figure|fig|illo|illustration|cover|title|logo|icon|spacer|graphic|screenshot)?[\s_.-]*\d*$/i;
const FILE_NAME = /^[\w.-]+\.(?:png|jpe?g|gif|svg|webp|bmp|tiff?)$/i;
/** Invisible characters some books sprinkle in (zero-width space, word joiner, BOM). */
const INVISIBLE = /[\u200b\u2060\ufeff]/g;
/** White space other than a lone space (replacing every space with itself is slow on megabytes of text). */
const WHITE_SPACE = /\s{2,}|[^\S ]/g;

type Exit = { exit: 'block' | 'quote' };
type Task = AnyNode | Exit;

interface OpenHeading {
  level: number;
  text: string;
  anchorId?: string;
}

/**
 * Turns an HTML subtree into ParsedBlocks: paragraphs, Markdown-like lists, tables and fenced code,
 * quotes; headings build the heading path and anchors. The walk is iterative (a 100 000-deep
 * document does not overflow the stack); lists are flattened below 16 levels.
 */
export function htmlToBlocks(root: AnyNode, options: HtmlToBlocksOptions = {}): ParsedBlock[] {
  return new BlockWalker(options).walk(root);
}

class BlockWalker {
  private readonly blocks: ParsedBlock[] = [];
  private inline: string[] = [];
  private quote: string[] = [];
  private quoteDepth = 0;
  private headings: OpenHeading[] = [];
  private section: HtmlSection | undefined;
  private sectionAnchorId: string | undefined;
  /** No block emitted since the section started: a heading containing its title repeats it. */
  private sectionFresh = true;
  /** An id seen since the last block (an `<a id>` or a `<section id>`), for the next heading. */
  private pendingAnchorId: string | undefined;
  private readonly anchorFor: (id: string | undefined) => string | undefined;

  constructor(private readonly options: HtmlToBlocksOptions) {
    this.anchorFor = options.anchorFor ?? ((id) => id);
    this.section = options.section;
    this.sectionAnchorId = options.section?.anchorId;
  }

  walk(root: AnyNode): ParsedBlock[] {
    const stack: Task[] = [root];
    while (stack.length > 0) {
      const task = stack.pop()!;
      if ('exit' in task) {
        this.flushParagraph();
        if (task.exit === 'quote' && --this.quoteDepth === 0) this.flushQuote();
        continue;
      }
      if (isText(task)) {
        this.inline.push(collapse(task.data));
        continue;
      }
      if (!isElement(task)) {
        if ('children' in task) pushChildren(stack, task.children);
        continue;
      }
      const el = task;
      const name = el.name.toLowerCase();
      if (isDropped(el, name)) continue;
      const id = elementId(el, name);
      if (id !== undefined) {
        if (this.options.sections?.has(id)) this.startSection(id);
        this.pendingAnchorId = id;
      }
      const heading = HEADING.exec(name);
      if (heading) {
        this.heading(el, Number(heading[1]));
      } else if (name === 'pre') {
        this.unit(el, () => this.code(el));
      } else if (name === 'table') {
        if (isLayoutTable(el)) {
          this.flushParagraph();
          stack.push({ exit: 'block' });
          pushChildren(stack, el.children);
        } else {
          this.unit(el, () => this.table(el));
        }
      } else if (LIST.has(name)) {
        this.unit(el, () => this.emit('list', listLines(el, 0).join('\n')));
      } else if (name === 'dl') {
        this.unit(el, () => this.emit('paragraph', definitionLines(el).join('\n')));
      } else if (name === 'blockquote') {
        this.flushParagraph();
        this.quoteDepth++;
        stack.push({ exit: 'quote' });
        pushChildren(stack, el.children);
      } else if (name === 'br') {
        this.inline.push('\n');
      } else if (name === 'hr') {
        this.flushParagraph();
      } else if (name === 'img') {
        this.inline.push(altText(el));
      } else if (name === 'code') {
        this.inline.push(codeSpan(rawText(el)));
      } else if (BLOCK.has(name)) {
        this.flushParagraph();
        stack.push({ exit: 'block' });
        pushChildren(stack, el.children);
      } else {
        pushChildren(stack, el.children);
      }
    }
    this.flushParagraph();
    this.flushQuote();
    return this.blocks;
  }

  private startSection(id: string): void {
    this.flushParagraph();
    this.flushQuote();
    const section = this.options.sections!.get(id)!;
    this.section = section;
    this.sectionAnchorId = id;
    this.sectionFresh = true;
    this.headings = [];
    this.options.onSection?.(id, section);
  }

  /** An element handled as a whole: a section may start at an id inside it, which the walk would not see. */
  private unit(el: Element, emit: () => void): void {
    this.closeBlocksAt(el);
    emit();
  }

  /** Ends the open paragraph and quote; a section that starts at an id inside `el` starts here. */
  private closeBlocksAt(el: Element): void {
    this.flushParagraph();
    this.flushQuote();
    const inner = this.options.sections?.size
      ? findId(el, (id) => this.options.sections!.has(id))
      : undefined;
    if (inner !== undefined) this.startSection(inner);
  }

  private heading(el: Element, level: number): void {
    this.closeBlocksAt(el);
    const text = normalise(inlineText(el)).replace(/\n/g, ' ');
    if (!text) return;
    const anchorId = el.attribs.id ?? findId(el, () => true) ?? this.pendingAnchorId;
    this.pendingAnchorId = undefined;
    const title = this.section?.title;
    if (title && this.headings.length === 0 && repeatsTitle(text, title, this.sectionFresh)) {
      // The book's own chapter heading: already in the path as the TOC entry.
      if (anchorId !== undefined && this.sectionAnchorId === undefined) this.sectionAnchorId = anchorId;
      return;
    }
    while (this.headings.length > 0 && this.headings[this.headings.length - 1].level >= level)
      this.headings.pop();
    this.headings.push({ level, text, anchorId });
  }

  private code(pre: Element): void {
    const code = rawText(pre).replace(/\r\n?/g, '\n').replace(/^\n/, '').replace(/\s+$/, '');
    if (!code.trim()) return;
    const language = codeLanguage(pre);
    const longestRun = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
    const fence = '`'.repeat(Math.max(3, longestRun + 1));
    this.emit('code', `${fence}${language ?? ''}\n${code}\n${fence}`, language);
  }

  private table(table: Element): void {
    if (hasClass(table, 'highlighttable')) {
      // Pygments with line numbers: one cell of numbers, one of code.
      const cell = findElement(table, (el) => hasClass(el, 'code'), true) ?? table;
      const pre = findElement(cell, (el) => el.name.toLowerCase() === 'pre', true);
      if (pre) this.code(pre);
      return;
    }
    const caption = findElement(table, (el) => el.name === 'caption');
    if (caption) {
      const text = normalise(inlineText(caption));
      if (text) this.emit('paragraph', text);
    }
    const rows = tableRows(table);
    if (rows.length === 0) return;
    const width = Math.max(...rows.map((row) => row.length));
    const line = (cells: string[]) =>
      `| ${[...cells, ...Array<string>(width - cells.length).fill('')].join(' | ')} |`;
    const lines = [line(rows[0]), line(Array<string>(width).fill('---')), ...rows.slice(1).map(line)];
    this.emit('table', lines.join('\n'));
  }

  private flushParagraph(): void {
    if (this.inline.length === 0) return;
    const text = normalise(this.inline.join(''));
    this.inline = [];
    if (!text) return;
    if (this.quoteDepth > 0) this.quote.push(text);
    else this.emit('paragraph', text);
  }

  private flushQuote(): void {
    if (this.quote.length === 0) return;
    const text = this.quote
      .join('\n\n')
      .split('\n')
      .map((line) => (line ? `> ${line}` : '>'))
      .join('\n');
    this.quote = [];
    this.emit('quote', text);
  }

  private emit(kind: ParsedBlock['kind'], text: string, codeLanguage?: string): void {
    if (!text.trim()) return;
    const block: ParsedBlock = {
      kind,
      text,
      headingPath: [...(this.section?.headingPath ?? []), ...this.headings.map((h) => h.text)],
    };
    if (codeLanguage) block.codeLanguage = codeLanguage;
    const anchor = this.anchorFor(this.currentAnchorId());
    if (anchor !== undefined) block.anchor = anchor;
    if (this.section?.chapter !== undefined) block.chapter = this.section.chapter;
    this.blocks.push(block);
    this.pendingAnchorId = undefined;
    this.sectionFresh = false;
  }

  private currentAnchorId(): string | undefined {
    for (let i = this.headings.length - 1; i >= 0; i--) {
      if (this.headings[i].anchorId !== undefined) return this.headings[i].anchorId;
    }
    return this.sectionAnchorId;
  }
}

/**
 * The text of a subtree as inline prose: white space collapsed, `<br>` and block boundaries as
 * line breaks, inline code in backticks, meaningful image alt text kept, hidden parts skipped.
 */
export function inlineText(root: AnyNode): string {
  const out: string[] = [];
  const stack: (AnyNode | string)[] = [root];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out.push(item);
    } else if (isText(item)) {
      out.push(collapse(item.data));
    } else if (isElement(item)) {
      const name = item.name.toLowerCase();
      if (item !== root && isDropped(item, name)) continue;
      if (name === 'br') out.push('\n');
      else if (name === 'img') out.push(altText(item));
      else if (name === 'code' && item !== root) out.push(codeSpan(rawText(item)));
      else if (name === 'td' || name === 'th') {
        stack.push(' ');
        pushChildren(stack, item.children);
        stack.push(' ');
      } else if (
        BLOCK.has(name) ||
        LIST.has(name) ||
        HEADING.test(name) ||
        name === 'pre' ||
        name === 'table'
      ) {
        stack.push('\n');
        pushChildren(stack, item.children);
        stack.push('\n');
      } else {
        pushChildren(stack, item.children);
      }
    } else if ('children' in item) {
      pushChildren(stack, item.children);
    }
  }
  return out.join('');
}

/** Single-line, white-space-normalised text of a subtree (titles, TOC labels). */
export function textContent(root: AnyNode): string {
  return normalise(inlineText(root)).replace(/\n/g, ' ');
}

/** Text exactly as written (code): no white-space collapsing, `<br>` and block ends as line breaks. */
function rawText(root: Element): string {
  const out: string[] = [];
  const stack: (AnyNode | string)[] = [root];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') out.push(item);
    else if (isText(item)) out.push(item.data);
    else if (isElement(item)) {
      const name = item.name.toLowerCase();
      if (item !== root && (isDropped(item, name) || hasClass(item, 'linenos') || hasClass(item, 'lineno'))) {
        continue;
      }
      if (name === 'br') out.push('\n');
      else {
        if (BLOCK.has(name) && item !== root) stack.push('\n');
        pushChildren(stack, item.children);
      }
    } else if ('children' in item) pushChildren(stack, item.children);
  }
  return out.join('').replace(/\u00a0/g, ' ');
}

function listLines(list: Element, depth: number): string[] {
  const ordered = list.name.toLowerCase() === 'ol';
  let number = Number.parseInt(list.attribs.start ?? '', 10);
  if (!Number.isFinite(number)) number = 1;
  const indent = '  '.repeat(depth);
  const lines: string[] = [];
  for (const child of list.children) {
    let text: string;
    const nested: string[] = [];
    if (isElement(child)) {
      const name = child.name.toLowerCase();
      if (isDropped(child, name)) continue;
      if (LIST.has(name) && depth < MAX_LIST_DEPTH) {
        // A list directly inside a list (invalid but common): nest it under the previous item.
        lines.push(...listLines(child, depth + 1));
        continue;
      }
      const value = Number.parseInt(child.attribs.value ?? '', 10);
      if (ordered && Number.isFinite(value)) number = value;
      const own: AnyNode[] = [];
      for (const part of name === 'li' ? child.children : [child]) {
        if (isElement(part) && part !== child && isDropped(part, part.name.toLowerCase())) continue;
        if (isElement(part) && LIST.has(part.name.toLowerCase()) && depth < MAX_LIST_DEPTH) {
          nested.push(...listLines(part, depth + 1));
        } else {
          own.push(part);
        }
      }
      text = normalise(own.map(inlineText).join(''));
    } else if (isText(child)) {
      text = normalise(collapse(child.data));
    } else {
      continue;
    }
    if (!text && nested.length === 0) continue;
    const marker = ordered ? `${number++}. ` : '- ';
    const [first = '', ...rest] = text.split('\n');
    lines.push(`${indent}${marker}${first}`.trimEnd());
    for (const line of rest) lines.push(`${indent}${' '.repeat(marker.length)}${line}`);
    lines.push(...nested);
  }
  return lines;
}

function definitionLines(dl: Element): string[] {
  const lines: string[] = [];
  let terms: string[] = [];
  let definitions: string[] = [];
  const flush = () => {
    if (terms.length === 0 && definitions.length === 0) return;
    const term = terms.join(', ');
    const definition = definitions.join('; ');
    lines.push(term && definition ? `${term}: ${definition}` : term || definition);
    terms = [];
    definitions = [];
  };
  // dt/dd pairs may be grouped in <div>s.
  const stack: AnyNode[] = [...dl.children].reverse();
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (!isElement(item)) continue;
    const name = item.name.toLowerCase();
    if (isDropped(item, name)) continue;
    if (name === 'div') {
      pushChildren(stack, item.children);
      continue;
    }
    const text = normalise(inlineText(item)).replace(/\n/g, ' ');
    if (!text) continue;
    if (name === 'dt') {
      if (definitions.length > 0) flush();
      terms.push(text);
    } else {
      definitions.push(text);
    }
  }
  flush();
  return lines;
}

/** The rows of this table (not of tables nested in it), as escaped single-line cell texts. */
function tableRows(table: Element): string[][] {
  const rows: string[][] = [];
  const stack: AnyNode[] = [...table.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    const name = node.name.toLowerCase();
    if (name === 'table' || name === 'caption' || isDropped(node, name)) continue;
    if (name !== 'tr') {
      pushChildren(stack, node.children);
      continue;
    }
    const cells: string[] = [];
    for (const cell of node.children) {
      if (!isElement(cell) || !['td', 'th'].includes(cell.name.toLowerCase())) continue;
      const text = normalise(inlineText(cell)).replace(/\n/g, ' ').replace(/\|/g, '\\|');
      cells.push(text);
      const span = Math.min(Number.parseInt(cell.attribs.colspan ?? '1', 10) || 1, 100);
      for (let i = 1; i < span; i++) cells.push('');
    }
    if (cells.some(Boolean)) rows.push(cells);
  }
  return rows;
}

/** Tables used to lay out a page (holding headings or other tables) are walked as containers. */
function isLayoutTable(table: Element): boolean {
  const role = table.attribs.role;
  if (role === 'presentation' || role === 'none') return true;
  if (hasClass(table, 'highlighttable')) return false;
  const rows = tableRows(table);
  if (rows.length === 1 && rows[0].length === 1) return true;
  return (
    findElement(table, (el) => HEADING.test(el.name.toLowerCase()) || el.name.toLowerCase() === 'table') !==
    undefined
  );
}

function codeLanguage(pre: Element): string | undefined {
  const candidates: Element[] = [];
  const code = pre.children.find((child): child is Element => isElement(child) && child.name === 'code');
  if (code) candidates.push(code);
  candidates.push(pre);
  // Sphinx and MkDocs put the language on wrappers: <div class="highlight-python"><div class="highlight"><pre>.
  let parent = pre.parent;
  for (let i = 0; i < 3 && parent && isElement(parent); i++, parent = parent.parent) candidates.push(parent);
  for (const el of candidates) {
    const language = languageOf(el);
    if (language) return language;
  }
  return undefined;
}

function languageOf(el: Element): string | undefined {
  const dataLang = el.attribs['data-lang'] ?? el.attribs['data-language'];
  if (dataLang && !NO_LANGUAGE.has(dataLang.toLowerCase())) return dataLang.toLowerCase();
  const classes = (el.attribs.class ?? '').split(/\s+/).filter(Boolean);
  for (const cls of classes) {
    const match = /^(?:language|lang)-(.+)$/i.exec(cls) ?? /^highlight-(?:source-)?(.+)$/i.exec(cls);
    if (match && !NO_LANGUAGE.has(match[1].toLowerCase())) return match[1].toLowerCase();
  }
  // Pandoc: <pre class="sourceCode python">.
  if (classes.includes('sourceCode')) {
    const other = classes.find((cls) => !['sourceCode', 'numberSource', 'numberLines'].includes(cls));
    if (other && !NO_LANGUAGE.has(other.toLowerCase())) return other.toLowerCase();
  }
  return undefined;
}

function repeatsTitle(heading: string, title: string, fresh: boolean): boolean {
  const a = comparable(heading);
  const b = comparable(title);
  if (!a || !b) return false;
  return a === b || (fresh && (a.includes(b) || b.includes(a)));
}

function comparable(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

function altText(img: Element): string {
  const alt = collapse(img.attribs.alt ?? '').trim();
  if (alt.length < 2 || GENERIC_ALT.test(alt) || FILE_NAME.test(alt)) return '';
  // A figure's caption says it better, and usually says the same.
  let parent = img.parent;
  for (let i = 0; i < 3 && parent && isElement(parent); i++, parent = parent.parent) {
    if (parent.name.toLowerCase() === 'figure') {
      if (findElement(parent, (el) => el.name.toLowerCase() === 'figcaption')) return '';
      break;
    }
  }
  return ` ${alt} `;
}

function codeSpan(code: string): string {
  const text = collapse(code).trim();
  if (!text) return '';
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}

function isDropped(el: Element, name: string): boolean {
  if (DROPPED.has(name)) return true;
  const attribs = el.attribs;
  if ('hidden' in attribs || attribs['aria-hidden'] === 'true') return true;
  if (attribs.role === 'navigation' || attribs.role === 'search') return true;
  if (name === 'a' && hasClass(el, 'headerlink')) return true;
  if (attribs.style && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(attribs.style)) return true;
  // Search boxes and login forms go; a form wrapping the whole page (ASP.NET) holds headings and stays.
  if (name === 'form')
    return findElement(el, (inner) => HEADING.test(inner.name.toLowerCase())) === undefined;
  return false;
}

function elementId(el: Element, name: string): string | undefined {
  const id = el.attribs.id ?? (name === 'a' ? el.attribs.name : undefined);
  return id ? id : undefined;
}

/** First id (or `<a name>`) below `root` that passes `accept`. */
function findId(root: Element, accept: (id: string) => boolean): string | undefined {
  let found: string | undefined;
  findElement(root, (el) => {
    const id = elementId(el, el.name.toLowerCase());
    if (id !== undefined && accept(id)) found = id;
    return found !== undefined;
  });
  return found;
}

/** Depth-first, document-order search below `root` (excluded), iterative. */
function findElement(
  root: Element,
  test: (el: Element) => boolean,
  includeDropped = false,
): Element | undefined {
  const stack: AnyNode[] = [...root.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (!includeDropped && isDropped(node, node.name.toLowerCase())) continue;
    if (test(node)) return node;
    pushChildren(stack, node.children);
  }
  return undefined;
}

function hasClass(el: Element | null | undefined, name: string): boolean {
  const cls = el?.attribs?.class;
  return cls !== undefined && cls.split(/\s+/).includes(name);
}

function pushChildren<T>(stack: (AnyNode | T)[], children: readonly AnyNode[]): void {
  for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
}

function collapse(text: string): string {
  return text.replace(INVISIBLE, '').replace(WHITE_SPACE, ' ');
}

/** Collapses spaces, trims around line breaks, keeps at most one line break in a row. */
function normalise(text: string): string {
  return text
    .replace(/[^\S\n]{2,}|[^\S\n ]/g, ' ')
    .replace(/ ?\n\s*/g, '\n')
    .trim();
}

/** An element node (domhandler gives script and style elements types of their own). */
export function isElement(node: AnyNode): node is Element {
  return 'attribs' in node && 'name' in node;
}

function isText(node: AnyNode): node is Text {
  return (node.type as string) === 'text';
}
