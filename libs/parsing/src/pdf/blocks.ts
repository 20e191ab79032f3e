import type { ParsedBlock } from '@trove/domain';
import { minOf } from './layout';
import type { LineCell, TextLine } from './layout';
import type { PageText } from './page-furniture';
import type { SectionStart } from './outline';
import { tableMarkdown } from './table-grid';

/** What a line is, decided before blocks are assembled. */
export type LineRole =
  | { kind: 'text' }
  /** An inferred heading; `text` joins the lines of a heading that wraps. */
  | { kind: 'heading'; level: number; text: string }
  /** Printed in another line's heading, or an outline title: not body text. */
  | { kind: 'skip' }
  | { kind: 'table'; rows: LineCell[][] }
  | { kind: 'table-row' };

export interface StructuredPage extends PageText {
  roles: LineRole[];
  /** Footnotes taken out of the text flow (see `deferFootnotes`). */
  notes: TextLine[];
  /** Outline sections starting on this page, in reading order. */
  sections: SectionStart[];
}

const SIZE_STEP = 0.5;
const roundSize = (size: number) => Math.round(size / SIZE_STEP) * SIZE_STEP;

/** The font size most characters are set in. */
export function bodySize(pages: readonly PageText[]): number {
  const chars = new Map<number, number>();
  for (const page of pages) {
    for (const line of page.lines) {
      const size = roundSize(line.size);
      chars.set(size, (chars.get(size) ?? 0) + line.text.length);
    }
  }
  let best = 0;
  let size = 10;
  for (const [candidate, count] of chars) {
    if (count > best) [best, size] = [count, candidate];
  }
  return size;
}

/** Whether the body font is monospaced (a transcript, a listing): then monospace is not code. */
export function monospaceBody(pages: readonly PageText[]): boolean {
  let mono = 0;
  let all = 0;
  for (const page of pages) {
    for (const line of page.lines) {
      all += line.text.length;
      if (line.mono) mono += line.text.length;
    }
  }
  return mono > all / 2;
}

/** A line short and plain enough to be a heading, whatever its font. */
export function headingShaped(text: string): boolean {
  const words = text.split(/\s+/).length;
  return (
    text.length >= 2 &&
    text.length <= 150 &&
    words <= 16 &&
    /\p{L}/u.test(text) &&
    !/[,;]$/.test(text) &&
    !/^[\p{Ll}]/u.test(text)
  );
}

/** Weight and slant of a font, from its PostScript name. */
export interface FontStyle {
  bold: boolean;
  italic: boolean;
}

/**
 * Reads weight and slant from a PostScript font name: `Arial-BoldMT`, `Melior-Bold`, `CMBX12`,
 * `NimbusRomNo9L-Medi` (Times bold), `Times-Italic`, `CMTI10`.
 */
export function fontStyleFromName(name: string): FontStyle {
  const bare = name.replace(/^[A-Z]{6}\+/, '');
  return {
    bold:
      /bold|black|heavy|demi|semibd|[-_,](?:bd|sb|medi)(?:it(?:al)?)?$/i.test(bare) ||
      /^(?:cmbx|cmb\d|cmssbx|sfbx|sfsb|ecbx|ecsx|lmbx|txbx)/i.test(bare),
    italic:
      /italic|oblique|[-_,](?:it|bdit|sbit|mediit)$/i.test(bare) ||
      /^(?:cmti|cmsl|cmbxti|sfti|ecti)/i.test(bare),
  };
}

interface HeadingStyle {
  size: number;
  weight: 'bold' | 'italic' | 'regular';
}

const WEIGHT_RANK = { bold: 2, italic: 1, regular: 0 };
const styleKey = (style: HeadingStyle) => `${style.size}/${style.weight}`;

/**
 * Without an outline, headings come from typography: short lines clearly larger than the body
 * text, short lines set entirely in bold at body size or above, and lone italic lines standing
 * apart above the text they head. Levels follow the style rank (larger first, then bold, italic).
 * A style used by too many lines is body text after all.
 */
export function inferHeadings(
  pages: readonly PageText[],
  body: number,
  fontStyles: ReadonlyMap<string, FontStyle>,
): Map<TextLine, { level: number }> {
  const all = (line: TextLine, key: keyof FontStyle) =>
    line.fonts.every((font) => fontStyles.get(font)?.[key]);
  const styleOf = (lines: readonly TextLine[], i: number): HeadingStyle | undefined => {
    const line = lines[i];
    if (line.mono || line.cells.length > 2 || !headingShaped(line.text)) return undefined;
    const size = roundSize(line.size);
    const bold = all(line, 'bold');
    const italic = !bold && all(line, 'italic');
    const weight = bold ? 'bold' : italic ? 'italic' : 'regular';
    if (size >= body * 1.2) return { size, weight };
    if (size < body * 0.95) return undefined;
    if (bold) return { size, weight };
    if (!italic || /[.:]$/.test(line.text)) return undefined;
    // An italic line is a heading only on its own: space above it, and no italic line below.
    const [before, after] = [lines[i - 1], lines[i + 1]];
    const apart = !before || before.flow !== line.flow || line.y - before.y > line.size * 1.6;
    const alone = !after || after.flow !== line.flow || !all(after, 'italic');
    return apart && alone ? { size, weight } : undefined;
  };
  const candidates = new Map<TextLine, HeadingStyle>();
  const usage = new Map<string, number>();
  let total = 0;
  for (const page of pages) {
    page.lines.forEach((line, i) => {
      total++;
      const style = styleOf(page.lines, i);
      if (!style) return;
      candidates.set(line, style);
      usage.set(styleKey(style), (usage.get(styleKey(style)) ?? 0) + 1);
    });
  }
  const styles = [...new Map([...candidates.values()].map((s) => [styleKey(s), s])).values()]
    .filter((style) => (usage.get(styleKey(style)) ?? 0) <= Math.max(3, total * 0.25))
    .sort((a, b) => b.size - a.size || WEIGHT_RANK[b.weight] - WEIGHT_RANK[a.weight]);
  const levels = new Map(styles.map((style, index) => [styleKey(style), index + 1]));
  const headings = new Map<TextLine, { level: number }>();
  for (const [line, style] of candidates) {
    const level = levels.get(styleKey(style));
    if (level) headings.set(line, { level });
  }
  return headings;
}

/**
 * Roles of a page's lines: inferred headings (wrapped headings joined), tables, the rest text.
 * `skip` holds lines already represented elsewhere (outline titles printed in the text).
 */
export function assignRoles(
  page: PageText,
  headings: ReadonlyMap<TextLine, { level: number }>,
  skip: ReadonlySet<number>,
): LineRole[] {
  const roles: LineRole[] = page.lines.map((_, i) => (skip.has(i) ? { kind: 'skip' } : { kind: 'text' }));
  markTables(page.lines, roles);
  const lines = page.lines;
  for (let i = 0; i < lines.length; i++) {
    const heading = headings.get(lines[i]);
    if (!heading || roles[i].kind !== 'text') continue;
    const parts = [lines[i].text];
    let j = i + 1;
    while (
      j < lines.length &&
      roles[j].kind === 'text' &&
      headings.get(lines[j])?.level === heading.level &&
      lines[j].flow === lines[i].flow &&
      lines[j].y - lines[j - 1].y <= lines[j].size * 1.6 &&
      Math.abs(lines[j].size - lines[i].size) < 0.5
    ) {
      parts.push(lines[j].text);
      roles[j] = { kind: 'skip' };
      j++;
    }
    roles[i] = { kind: 'heading', level: heading.level, text: joinLines(parts) };
    i = j - 1;
  }
  return roles;
}

/** Cells of two rows line up when they share a left edge, a right edge or a centre. */
function aligned(a: LineCell, b: LineCell, tolerance: number): boolean {
  return (
    Math.abs(a.x0 - b.x0) <= tolerance ||
    Math.abs(a.x1 - b.x1) <= tolerance ||
    Math.abs((a.x0 + a.x1) / 2 - (b.x0 + b.x1) / 2) <= tolerance
  );
}

/** Running text rarely has three wide gaps on a line, so two shared column positions are enough. */
function rowsAlign(a: TextLine, b: TextLine): boolean {
  const tolerance = Math.max(2, 0.3 * Math.min(a.size, b.size));
  const matches = b.cells.filter((cell) => a.cells.some((other) => aligned(cell, other, tolerance))).length;
  return matches >= 2;
}

/**
 * Consecutive lines of one flow with three or more cells at the same x positions form a table.
 * A row may skip a neighbour when matching (a header over merged cells, a row with empty cells).
 */
function markTables(lines: readonly TextLine[], roles: LineRole[]): void {
  const row = (k: number) =>
    k >= 0 && k < lines.length && lines[k].cells.length >= 3 && roles[k].kind === 'text';
  const near = (a: number, b: number) =>
    row(a) &&
    row(b) &&
    lines[a].flow === lines[b].flow &&
    lines[b].y - lines[a].y <= lines[a].size * 3 * (b - a);
  const match = (a: number, b: number) => near(a, b) && rowsAlign(lines[a], lines[b]);
  const linked = (k: number) =>
    near(k, k + 1) &&
    (match(k, k + 1) || (near(k + 1, k + 2) && match(k, k + 2)) || (near(k - 1, k) && match(k - 1, k + 1)));
  let i = 0;
  while (i < lines.length) {
    let j = i;
    while (linked(j)) j++;
    if (j > i) {
      roles[i] = { kind: 'table', rows: lines.slice(i, j + 1).map((line) => line.cells) };
      for (let k = i + 1; k <= j; k++) roles[k] = { kind: 'table-row' };
    }
    i = j + 1;
  }
}

const SOFT_HYPHEN = /\u00AD/g;
const HYPHENS = '-\u2010\u2011';

/** Lower-case words of a document, hyphenated compounds included, to mend line-end hyphens by. */
export function vocabulary(pages: readonly PageText[]): Set<string> {
  const words = new Set<string>();
  for (const page of pages) {
    for (const line of page.lines) {
      for (const token of line.text.toLowerCase().split(/\s+/)) {
        const word = token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
        if (word) words.add(word);
      }
    }
  }
  return words;
}

/**
 * Whether the hyphen of `left-` + `right` at a line end is part of the word. The document's own
 * spelling decides when it has the word elsewhere on one line; otherwise the hyphen goes before
 * lower case (`exam-` + `ple`) unless it follows a capital or digit (`FAA-` + `approved`).
 */
function keepsHyphen(left: string, right: string, words?: ReadonlySet<string>): boolean {
  const stem = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*$/u.exec(left.slice(0, -1))?.[0] ?? '';
  const tail = /^[\p{L}\p{N}]+/u.exec(right)?.[0] ?? '';
  if (!stem || !tail) return true;
  if (words) {
    const [l, r] = [stem.toLowerCase(), tail.toLowerCase()];
    if (words.has(`${l}-${r}`) && !words.has(`${l}${r}`)) return true;
    if (words.has(`${l}${r}`)) return false;
  }
  if (!/^\p{Ll}/u.test(tail)) return true;
  return /[\p{Lu}\p{N}]$/u.test(stem);
}

/**
 * Joins the lines of a paragraph: a word broken with a hyphen at the end of a line is mended
 * (`exam-` + `ple`; see `keepsHyphen`), soft hyphens always are; a dash after a word or number
 * stays without a space (`737–` + `9`); a URL or e-mail address broken after `/` or `@` is rejoined.
 */
export function joinLines(lines: readonly string[], words?: ReadonlySet<string>): string {
  let text = '';
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) continue;
    if (!text) {
      text = line;
      continue;
    }
    const last = text[text.length - 1];
    const before = text[text.length - 2] ?? '';
    const lastToken = text.slice(text.lastIndexOf(' ') + 1);
    if (last === '\u00AD') text = text.slice(0, -1) + line;
    else if (HYPHENS.includes(last) && /[\p{L}\p{N}]/u.test(before)) {
      text =
        keepsHyphen(lastToken, line, words) || last === '\u2011' ? text + line : text.slice(0, -1) + line;
    } else if (last === '\u2013' && /[\p{L}\p{N}]/u.test(before)) text += line;
    else if (/[/@]$/.test(lastToken) && /(?:\/\/|www\.|@)/i.test(lastToken)) text += line;
    else text += ` ${line}`;
  }
  return text.replace(SOFT_HYPHEN, '').replace(/\s+/g, ' ').trim();
}

const BULLET = /^[•●○◦▪▫■□‣⁃∙·➢➤►▸✓✔]\s*/u;
const ENUMERATOR = /^(?:\d{1,3}[.)]\s+\S|[a-z]\)\s+\S|[a-z]\.\s+[\p{Lu}\d]|[–—-]\s+\S)/u;
const SENTENCE_END = /[.!?:;]["'”’»)\]]*$/;

/** A line that starts a list item; numbers and dashes only count after a finished sentence. */
function startsListItem(line: TextLine, previous: TextLine | undefined): boolean {
  if (BULLET.test(line.text)) return true;
  return ENUMERATOR.test(line.text) && (!previous || SENTENCE_END.test(previous.text));
}

interface Placed {
  page: number;
  line: TextLine;
}

interface OpenBlock {
  kind: 'paragraph' | 'list' | 'code';
  lines: Placed[];
  headingPath: string[];
}

/** Typical baseline distance per flow: what "the next line of the same paragraph" looks like. */
function leadings(lines: readonly TextLine[]): Map<number, number> {
  const gaps = new Map<number, number[]>();
  for (let i = 1; i < lines.length; i++) {
    const [a, b] = [lines[i - 1], lines[i]];
    const dy = b.y - a.y;
    if (a.flow !== b.flow || Math.abs(a.size - b.size) > 0.5 || dy <= 0 || dy > a.size * 3) continue;
    const values = gaps.get(a.flow);
    if (values) values.push(dy);
    else gaps.set(a.flow, [dy]);
  }
  const result = new Map<number, number>();
  for (const [flow, values] of gaps) {
    values.sort((x, y) => x - y);
    result.set(flow, values[Math.floor(values.length / 2)]);
  }
  return result;
}

/**
 * Assembles blocks from structured pages: paragraphs by vertical gap, indentation and sentence
 * ends, continued across columns and pages when the text plainly goes on; lists, monospace code
 * and tables as their own blocks. Every block gets the heading path in force where it starts.
 */
export function assembleBlocks(
  pages: readonly StructuredPage[],
  options: { monoBody: boolean; words?: ReadonlySet<string> },
): ParsedBlock[] {
  const blocks: ParsedBlock[] = [];
  let path: string[] = [];
  const stack: { level: number; text: string }[] = [];
  let open: OpenBlock | undefined;
  let listOpen = false;
  /** Footnotes wait for the paragraph they interrupt to end, so it is not cut in two. */
  let notes: ParsedBlock[] = [];

  const flushNotes = () => {
    blocks.push(...notes);
    notes = [];
  };
  const flush = () => {
    closeOpen();
    flushNotes();
  };
  const closeOpen = () => {
    if (!open) return;
    const { kind, lines, headingPath } = open;
    open = undefined;
    const first = lines[0];
    const last = lines[lines.length - 1];
    const text =
      kind === 'code'
        ? codeText(lines.map((p) => p.line))
        : joinLines(
            lines.map((p) => p.line.text),
            options.words,
          );
    if (!text) return;
    const pages = last.page > first.page ? { page: first.page, pageEnd: last.page } : { page: first.page };
    const previous = blocks[blocks.length - 1];
    if (kind === 'list' && listOpen && previous?.kind === 'list') {
      previous.text += `\n${text}`;
      if (last.page > (previous.pageEnd ?? previous.page ?? 0)) previous.pageEnd = last.page;
      return;
    }
    blocks.push({ kind, text, headingPath, ...pages });
    listOpen = kind === 'list';
  };
  const setPath = (next: string[]) => {
    flush();
    listOpen = false;
    path = next;
  };

  let previous: (Placed & { leading: number }) | undefined;
  for (const page of pages) {
    const leading = leadings(page.lines);
    let section = 0;
    for (let i = 0; i < page.lines.length; i++) {
      while (section < page.sections.length && page.sections[section].before <= i) {
        setPath(page.sections[section++].path);
      }
      const line = page.lines[i];
      const role = page.roles[i];
      if (role.kind === 'skip' || role.kind === 'table-row') continue;
      if (role.kind === 'heading') {
        while (stack.length && stack[stack.length - 1].level >= role.level) stack.pop();
        stack.push({ level: role.level, text: role.text });
        setPath(stack.map((h) => h.text));
        previous = undefined;
        continue;
      }
      if (role.kind === 'table') {
        flush();
        listOpen = false;
        blocks.push({ kind: 'table', text: tableMarkdown(role.rows), headingPath: path, page: page.number });
        previous = undefined;
        continue;
      }
      const current = { page: page.number, line, leading: leading.get(line.flow) ?? line.size * 1.2 };
      const code = line.mono && !options.monoBody;
      if (open && previous && continues(open, previous, current, code)) {
        open.lines.push(current);
      } else {
        flush();
        const kind = code ? 'code' : startsListItem(line, previous?.line) ? 'list' : 'paragraph';
        if (kind !== 'list') listOpen = false;
        open = { kind, lines: [current], headingPath: path };
      }
      previous = current;
    }
    while (section < page.sections.length) setPath(page.sections[section++].path);
    for (const text of noteTexts(page.notes, options.words)) {
      notes.push({ kind: 'paragraph', text, headingPath: path, page: page.number });
    }
    if (!open) flushNotes();
  }
  flush();
  return blocks;
}

/** Whether `next` goes on with the open block that `prev` ended. */
function continues(
  open: OpenBlock,
  prev: Placed & { leading: number },
  next: Placed & { leading: number },
  code: boolean,
): boolean {
  if ((open.kind === 'code') !== code) return false;
  const [a, b] = [prev.line, next.line];
  // Compare the sizes where the lines meet: a small-caps label opening a line is not a new size.
  if (Math.abs(a.endSize - b.startSize) > Math.max(0.6, a.endSize * 0.12)) return false;
  if (!code && startsListItem(b, a)) return false;
  const indent = (line: TextLine) => line.x0 - line.flowX0 > line.size * 0.8;
  if (prev.page === next.page && a.flow === b.flow) {
    const dy = b.y - a.y;
    if (dy < a.size * 0.3 || dy > prev.leading * 1.4 + 0.5) return false;
    if (code) return true;
    if (open.kind !== 'list' && indent(b) && !indent(a)) return false;
    const width = a.flowX1 - a.flowX0;
    return !(SENTENCE_END.test(a.text) && a.x1 < a.flowX1 - width * 0.3);
  }
  // Another column or page: go on only where the text plainly does.
  if (code) return false;
  if (indent(b) && open.kind !== 'list') return false;
  const last = a.text[a.text.length - 1];
  if ('\u00AD-\u2010'.includes(last)) return true;
  if (SENTENCE_END.test(a.text)) return false;
  // A line running to the edge of a column as wide as the next one was cut by the column end.
  const full = a.x1 >= a.flowX1 - a.size * 1.5 && a.x1 - a.x0 >= (b.flowX1 - b.flowX0) * 0.85;
  return /^\p{Ll}/u.test(b.text) || full;
}

const FOOTNOTE = /^(?:\d{1,3}(?![\d.,])|[*†‡§¶])\s?\S/;

/**
 * Takes footnotes and figure labels out of a page's lines and returns them. At the foot of a
 * column they sit between the column's text and the text that continues in the next column or
 * page; without them the paragraph goes on. Taken: small lines (below 0.9 × body, not table rows)
 * that end a flow in the lower half of the page, after the flow's body text or forming the flow.
 */
export function deferFootnotes(page: PageText, body: number): TextLine[] {
  const lines = page.lines;
  const notes = new Set<number>();
  let end = lines.length;
  while (end > 0) {
    const flow = lines[end - 1].flow;
    let start = end;
    const small = (line: TextLine) => line.flow === flow && line.size < body * 0.9 && line.cells.length < 3;
    while (start > 0 && small(lines[start - 1])) start--;
    if (start < end && lines[start].y > page.height * 0.5) {
      for (let i = start; i < end; i++) notes.add(i);
    }
    end = lines.findIndex((line) => line.flow === flow);
  }
  if (notes.size === lines.length) return [];
  page.lines = lines.filter((_, i) => !notes.has(i));
  return lines.filter((_, i) => notes.has(i));
}

/**
 * Footnote paragraphs: a line with a note mark after a finished sentence starts a note; other
 * lines go on with the note before, or (figure labels) start a group where the flow changes.
 */
function noteTexts(notes: readonly TextLine[], words?: ReadonlySet<string>): string[] {
  const groups: string[][] = [];
  notes.forEach((line, i) => {
    const previous = notes[i - 1];
    const mark = FOOTNOTE.test(line.text) && (!previous || SENTENCE_END.test(previous.text));
    const moved = previous && previous.flow !== line.flow && !/^\p{Ll}/u.test(line.text);
    if (!previous || mark || moved) groups.push([line.text]);
    else groups[groups.length - 1].push(line.text);
  });
  return groups.map((group) => joinLines(group, words)).filter(Boolean);
}

/** Code keeps its lines and, approximately, its indentation. */
function codeText(lines: readonly TextLine[]): string {
  const left = minOf(lines, (l) => l.x0);
  return lines
    .map((line) => {
      const charWidth = line.size * 0.6;
      const indent = Math.max(0, Math.round((line.x0 - left) / charWidth));
      return ' '.repeat(Math.min(indent, 40)) + line.text;
    })
    .join('\n')
    .replace(/[ \t]+$/gm, '');
}
