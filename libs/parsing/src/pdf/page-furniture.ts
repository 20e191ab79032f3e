import type { TextLine } from './layout';

/** The lines of one page in reading order. */
export interface PageText {
  /** 1-based page number. */
  number: number;
  height: number;
  lines: TextLine[];
}

/** Share of the page height, at the top and at the bottom, where running headers and footers live. */
const MARGIN_ZONE = 0.12;

const PAGE_NUMBER =
  /^(?:(?:page|p\.|seite|s\.|pág\.?|página)\s*)?[-–—([]?\s*(?:\d{1,6}|[ivxlc]{1,6})\s*[-–—)\]]?(?:\s*(?:of|\/|von|de|sur)\s*\d{1,4})?$/i;
/** Chapter-relative numbers as in manuals: `7-45`, `3.12`. */
const CHAPTER_PAGE_NUMBER = /^\d{1,3}\s?[-–.]\s?\d{1,4}$/;

function inMarginZone(line: TextLine, height: number): boolean {
  return line.y - line.size < height * MARGIN_ZONE || line.y > height * (1 - MARGIN_ZONE);
}

/** Running-line identity: digits (page numbers, dates) stand for any number, and edge numbers go. */
function runningKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/\d+/g, '#')
    .replace(/\s+/g, ' ')
    .replace(/^[#\s\-–—|.,:/]+|[#\s\-–—|.,:/]+$/g, '');
}

/** A line that is only a page number: `12`, `- 12 -`, `Page 3 of 9`, `xiv`, `7-45`. */
export function isPageNumber(text: string): boolean {
  const trimmed = text.trim();
  return PAGE_NUMBER.test(trimmed) || CHAPTER_PAGE_NUMBER.test(trimmed);
}

/**
 * Removes running headers and footers (lines in the top or bottom margin zone whose text, digits
 * aside, recurs on at least half of the pages, or densely over a stretch of pages such as a
 * chapter), headers that carry the printed page number (whatever their text: section titles
 * change), bare page numbers in those zones, and transcript-style line numbers.
 */
export function removePageFurniture(pages: PageText[]): void {
  const running = runningKeys(pages);
  const offset = printedPageOffset(pages);
  for (const page of pages) {
    page.lines = page.lines.filter((line) => {
      if (!inMarginZone(line, page.height)) return true;
      if (isPageNumber(line.text)) return false;
      if (offset !== undefined && edgeNumbers(line.text).includes(page.number + offset)) return false;
      const key = runningKey(line.text);
      return !(key && running.has(key));
    });
    page.lines = removeLineNumbers(page.lines);
  }
}

/** Numbers at the start or the end of a line: where headers and footers print the page number. */
function edgeNumbers(text: string): number[] {
  const numbers: number[] = [];
  const first = /^(\d{1,6})\b/.exec(text);
  const last = /\b(\d{1,6})$/.exec(text);
  if (first) numbers.push(Number(first[1]));
  if (last && last.index > 0) numbers.push(Number(last[1]));
  return numbers;
}

/**
 * The difference between printed page numbers and page positions, when margin lines of many pages
 * agree on one (front matter and journal pagination shift it). Lines carrying that number are
 * page furniture even when their text is new on every page, as section titles in headers are.
 */
function printedPageOffset(pages: PageText[]): number | undefined {
  if (pages.length < 3) return undefined;
  const votes = new Map<number, Set<number>>();
  for (const page of pages) {
    for (const line of page.lines) {
      if (!inMarginZone(line, page.height)) continue;
      for (const number of edgeNumbers(line.text)) {
        const offset = number - page.number;
        votes.set(offset, (votes.get(offset) ?? new Set()).add(page.number));
      }
    }
  }
  let best: number | undefined;
  let count = 0;
  for (const [offset, on] of votes) {
    if (on.size > count) [best, count] = [offset, on.size];
  }
  return count >= Math.max(3, pages.length * 0.3) ? best : undefined;
}

function runningKeys(pages: PageText[]): Set<string> {
  const running = new Set<string>();
  if (pages.length < 3) return running;
  const seenOn = new Map<string, number[]>();
  for (const page of pages) {
    const keys = new Set(
      page.lines.filter((line) => inMarginZone(line, page.height)).map((line) => runningKey(line.text)),
    );
    for (const key of keys) {
      if (!key) continue;
      const on = seenOn.get(key);
      if (on) on.push(page.number);
      else seenOn.set(key, [page.number]);
    }
  }
  for (const [key, on] of seenOn) {
    if (on.length < 3) continue;
    const span = on[on.length - 1] - on[0] + 1;
    // Alternating left/right headers, or a chapter's header over the chapter's pages.
    if (on.length >= pages.length / 2 || on.length / span >= 0.4) running.add(key);
  }
  return running;
}

/**
 * Court transcripts and legal pleadings number every line in the margin. When at least five lines
 * of a page start with a small integer cell at the same x, counting upwards, those cells go.
 */
export function removeLineNumbers(lines: TextLine[]): TextLine[] {
  const numbered = lines
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => /^\d{1,3}$/.test(line.cells[0]?.text ?? ''));
  if (numbered.length < 5) return lines;
  const edges = new Map<number, typeof numbered>();
  for (const entry of numbered) {
    const edge = Math.round(entry.line.cells[0].x1 / 3);
    edges.set(edge, [...(edges.get(edge) ?? []), entry]);
  }
  const column = [...edges.values()].sort((a, b) => b.length - a.length)[0];
  const values = column.map(({ line }) => Number(line.cells[0].text));
  const rising = values.filter((value, i) => i === 0 || value > values[i - 1]).length;
  if (column.length < 5 || rising < column.length * 0.9) return lines;
  const drop = new Set(column.map(({ index }) => index));
  const kept: TextLine[] = [];
  lines.forEach((line, index) => {
    if (!drop.has(index)) {
      kept.push(line);
      return;
    }
    const cells = line.cells.slice(1);
    if (cells.length)
      kept.push({ ...line, cells, text: cells.map((c) => c.text).join(' '), x0: cells[0].x0 });
  });
  return kept;
}
