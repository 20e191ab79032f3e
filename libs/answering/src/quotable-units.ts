import { splitSentences } from './text';

/** What a quotable unit is in its chunk. */
export type QuotableKind = 'sentence' | 'code-line' | 'table-row' | 'list-item' | 'toggle-child';

/**
 * A piece of a chunk that can be quoted on its own: a prose sentence, one line of fenced code, a
 * table row (quoted with its header row), a list item, or a sentence inside a `<details>` toggle.
 * `context` is what it is read under (the table's header, the parent item, the toggle's summary,
 * the prose before a code block): it helps choose the unit but is not part of its own words.
 */
export interface QuotableUnit {
  kind: QuotableKind;
  /** The quote, as the chunk writes it (a table row is its header line, a line break, the row). */
  text: string;
  context: string;
  /** Offset in the chunk, so the units of one chunk can be put back in reading order. */
  start: number;
}

const FENCE = /^\s*(`{3,}|~{3,})/;
const LIST_ITEM = /^(\s*)(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?(.*)$/;
const TABLE_LINE = /^\s*\|.*\|\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const SUMMARY = /<summary>(.*?)<\/summary>/i;
const DETAILS_OPEN = /<details\b[^>]*>/i;
const DETAILS_CLOSE = /<\/details>/i;
const ONLY_TAGS = /^(\s*<\/?[a-z][^>]*>\s*)+$/i;
const HEADING = /^\s{0,3}#{1,6}\s/;
const HAS_TEXT = /[\p{L}\p{N}]/u;

/** A toggle's own line: `<details>`, its `<summary>…</summary>` or `</details>`. */
function isTag(trimmed: string): boolean {
  return DETAILS_OPEN.test(trimmed) || SUMMARY.test(trimmed) || DETAILS_CLOSE.test(trimmed);
}

interface Line {
  text: string;
  start: number;
}

/**
 * The quotable units of a chunk's Markdown-like text (the shape the parsers and the Notion
 * renderer give chunks: fenced code, pipe tables, indented lists, `<details>` toggles), in order.
 * Prose lines of one paragraph are joined before sentences are split, so a sentence wrapped over
 * two lines stays one quote.
 */
export function quotableUnits(text: string): QuotableUnit[] {
  const lines: Line[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    lines.push({ text: line, start: offset });
    offset += line.length + 1;
  }
  const units: QuotableUnit[] = [];
  let paragraph: Line[] = [];
  let lastSentence = '';
  const toggles: string[] = [];
  /** Open list items by indent, for a nested item's parent. */
  let items: { indent: number; text: string }[] = [];

  const flush = () => {
    if (paragraph.length === 0) return;
    const first = paragraph[0].start;
    const last = paragraph[paragraph.length - 1];
    const joined = text.slice(first, last.start + last.text.length).replace(/\n/g, ' ');
    const toggle = toggles[toggles.length - 1];
    for (const sentence of splitSentences(joined)) {
      units.push({
        kind: toggle === undefined ? 'sentence' : 'toggle-child',
        text: sentence.text,
        context: toggle ?? '',
        start: first + sentence.start,
      });
      lastSentence = sentence.text;
    }
    paragraph = [];
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const trimmed = line.text.trim();
    const fence = FENCE.exec(line.text);
    if (fence) {
      flush();
      items = [];
      const context = lastSentence;
      for (i++; i < lines.length && !lines[i].text.trim().startsWith(fence[1]); i++) {
        const code = lines[i].text.trim();
        if (HAS_TEXT.test(code)) {
          units.push({
            kind: 'code-line',
            text: code,
            context,
            start: lines[i].start + lines[i].text.indexOf(code),
          });
        }
      }
      continue;
    }
    if (TABLE_LINE.test(line.text)) {
      flush();
      items = [];
      const header = i + 1 < lines.length && TABLE_SEPARATOR.test(lines[i + 1].text) ? trimmed : undefined;
      if (header !== undefined) i += 2;
      for (; i < lines.length && TABLE_LINE.test(lines[i].text); i++) {
        const row = lines[i].text.trim();
        if (!HAS_TEXT.test(row)) continue;
        units.push({
          kind: 'table-row',
          text: header === undefined ? row : `${header}\n${row}`,
          context: header ?? '',
          start: lines[i].start,
        });
      }
      i--;
      continue;
    }
    if (isTag(trimmed)) {
      flush();
      if (DETAILS_OPEN.test(trimmed)) toggles.push('');
      const summary = SUMMARY.exec(trimmed);
      if (summary) {
        if (toggles.length === 0) toggles.push('');
        toggles[toggles.length - 1] = summary[1].trim();
      }
      if (DETAILS_CLOSE.test(trimmed)) toggles.pop();
      continue;
    }
    if (!trimmed || ONLY_TAGS.test(trimmed) || HEADING.test(line.text)) {
      flush();
      if (HEADING.test(line.text)) items = [];
      continue;
    }
    const item = LIST_ITEM.exec(line.text);
    if (item) {
      flush();
      const indent = item[1].length;
      let body = item[2].trim();
      // Lines indented under the item without a marker of their own continue it; a toggle's tags
      // open the item's children instead.
      while (
        i + 1 < lines.length &&
        lines[i + 1].text.trim() &&
        /^\s/.test(lines[i + 1].text) &&
        lines[i + 1].text.search(/\S/) > indent &&
        !LIST_ITEM.test(lines[i + 1].text) &&
        !FENCE.test(lines[i + 1].text) &&
        !isTag(lines[i + 1].text.trim())
      ) {
        body += ` ${lines[++i].text.trim()}`;
      }
      items = items.filter((open) => open.indent < indent);
      const parent = items[items.length - 1];
      if (HAS_TEXT.test(body)) {
        units.push({
          kind: 'list-item',
          text: body,
          context: parent?.text ?? toggles[toggles.length - 1] ?? '',
          start: line.start,
        });
      }
      items.push({ indent, text: body });
      continue;
    }
    // Indented prose under a list item (a toggle's or paragraph's child): its lines up to the next
    // blank line, tag or item are one paragraph, cut into sentences quoted on their own and read
    // under the item (and the toggle's summary when it sits in one).
    const open = items[items.length - 1];
    if (open && /^\s/.test(line.text)) {
      flush();
      let end = i;
      while (
        end + 1 < lines.length &&
        lines[end + 1].text.trim() &&
        /^\s/.test(lines[end + 1].text) &&
        !LIST_ITEM.test(lines[end + 1].text) &&
        !FENCE.test(lines[end + 1].text) &&
        !TABLE_LINE.test(lines[end + 1].text) &&
        !isTag(lines[end + 1].text.trim())
      ) {
        end++;
      }
      const toggle = toggles[toggles.length - 1];
      const context = [open.text, toggle].filter(Boolean).join(' › ');
      const joined = lines
        .slice(i, end + 1)
        .map((l) => l.text.trim())
        .join(' ');
      // Offsets of the joined text map back to the chunk through each line's start.
      const starts: { at: number; start: number }[] = [];
      let at = 0;
      for (const l of lines.slice(i, end + 1)) {
        const own = l.text.trim();
        starts.push({ at, start: l.start + l.text.indexOf(own) });
        at += own.length + 1;
      }
      for (const sentence of splitSentences(joined)) {
        const from = [...starts].reverse().find((s) => s.at <= sentence.start)!;
        units.push({
          kind: toggle === undefined ? 'list-item' : 'toggle-child',
          text: sentence.text,
          context,
          start: from.start + (sentence.start - from.at),
        });
      }
      i = end;
      continue;
    }
    items = [];
    paragraph.push(line);
  }
  flush();
  return units;
}
