/** A box on the page, in pixels: left, top, right, bottom. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** What the layout reads of Tesseract's block tree (tesseract.js `blocks` output). */
export interface TesseractWord {
  text: string;
  bbox: Box;
}
export interface TesseractLine {
  text: string;
  bbox: Box;
  words: TesseractWord[];
  /** Tesseract's estimates of the line's type size, in pixels: x-height plus ascenders, and the ascenders. */
  rowAttributes?: { rowHeight: number; ascenders: number };
}
export interface TesseractParagraph {
  lines: TesseractLine[];
}
export interface TesseractBlock {
  /** Tesseract's PolyBlockType (numeric, though tesseract.js types it as a string). */
  blocktype: number | string;
  bbox: Box;
  paragraphs: TesseractParagraph[];
}

/** PolyBlockType PT_TABLE: Tesseract's page segmentation found a table here. */
const PT_TABLE = 6;

/** One block of a recognised page, in reading order. */
export type OcrBlock =
  /** Level 1 is set larger than level 2; both stand apart from the body text. */
  | { kind: 'heading'; level: 1 | 2; text: string; box: Box }
  /** The paragraph's lines as recognised, one a line. */
  | { kind: 'paragraph'; text: string; box: Box }
  /** Cells by row and column; every row has one cell per column (empty where nothing was read). */
  | { kind: 'table'; rows: string[][]; box: Box };

/** A paragraph set this much larger than the body text is a top-level heading. */
const TITLE_SIZE = 1.35;
/** A short line set this much larger than the body text, standing alone, is a subheading. */
const SUBHEADING_SIZE = 1.08;
/** A heading is short: at most this many lines and characters. */
const HEADING_LINES = 2;
const HEADING_CHARS = 90;
/** Words further apart than this share of the row height are in different cells of a table row. */
const CELL_GAP = 0.8;

/**
 * The page as blocks in reading order. Tesseract's automatic page segmentation already orders its
 * blocks column by column; this keeps that order and gives each paragraph its role: a short
 * paragraph set larger than the body text and than the text on either side of it is a heading,
 * and a block Tesseract marks as a table is laid out as a grid of cells from its words' positions.
 */
export function pageLayout(blocks: readonly TesseractBlock[]): OcrBlock[] {
  const body = bodyTypeSize(blocks);
  const items: (OcrBlock | Paragraph)[] = [];
  for (const block of blocks) {
    const lines = block.paragraphs.flatMap((p) => p.lines).filter((l) => l.text.trim());
    if (lines.length === 0) continue;
    if (Number(block.blocktype) === PT_TABLE) {
      const rows = tableRows(lines.flatMap((l) => l.words));
      if (rows.length >= 2 && rows[0].length >= 2) {
        items.push({ kind: 'table', rows, box: block.bbox });
        continue;
      }
    }
    for (const paragraph of block.paragraphs) {
      const kept = paragraph.lines.filter((l) => l.text.trim());
      if (kept.length === 0) continue;
      const texts = kept.map((l) => l.text.trim());
      const sizes = kept.map(typeSize).sort((a, b) => a - b);
      items.push({
        texts,
        box: enclosing(kept.map((l) => l.bbox)),
        size: sizes[Math.floor(sizes.length / 2)],
        smallest: sizes[0],
        level: body ? headingLevel(texts, sizes[0] / body) : undefined,
      });
    }
  }
  const paragraphs = items.filter((item): item is Paragraph => 'texts' in item);
  return items.map((item) => {
    if (!('texts' in item)) return item;
    const at = paragraphs.indexOf(item);
    // The body text nearest on either side (in reading order) must be set smaller too: a line of
    // body size among smaller footnotes is not a heading, nor is a running header over them.
    const near = [
      paragraphs.slice(0, at).findLast((p) => !p.level),
      paragraphs.slice(at + 1).find((p) => !p.level),
    ];
    const heading = item.level && near.every((p) => !p || item.smallest >= p.size * SUBHEADING_SIZE);
    return heading
      ? { kind: 'heading', level: item.level!, text: item.texts.join(' '), box: item.box }
      : { kind: 'paragraph', text: item.texts.join('\n'), box: item.box };
  });
}

/** A paragraph before its role is known. */
interface Paragraph {
  texts: string[];
  box: Box;
  /** The median type size of its lines, and the smallest. */
  size: number;
  smallest: number;
  /** The heading level its length, ending and size against the body text allow, if any. */
  level: 1 | 2 | undefined;
}

/**
 * The page's text as plain lines: blocks a blank line apart, a paragraph's lines kept, a table's
 * rows one a line with their cells separated by tabs.
 */
export function layoutText(blocks: readonly OcrBlock[]): string {
  return blocks
    .map((block) =>
      block.kind === 'table'
        ? block.rows.map((row) => row.filter(Boolean).join('\t')).join('\n')
        : block.text,
    )
    .join('\n\n');
}

/**
 * A line's type size: its x-height (Tesseract's row height less the ascenders), which tells 13 pt
 * from 11 pt where the row height, blurred by the ascenders' estimate, can not; the box's height
 * when Tesseract gives no row attributes.
 */
const typeSize = (line: TesseractLine) =>
  line.rowAttributes
    ? line.rowAttributes.rowHeight - line.rowAttributes.ascenders
    : line.bbox.y1 - line.bbox.y0;

/**
 * The type size of the body text: the median over the lines of paragraphs of two lines or more
 * (a heading seldom wraps), or over every line on a page without such paragraphs, weighted by the
 * lines' lengths; undefined on a page without text.
 */
function bodyTypeSize(blocks: readonly TesseractBlock[]): number | undefined {
  const paragraphs = blocks.flatMap((b) => b.paragraphs);
  const wrapped = paragraphs.filter((p) => p.lines.length >= 2);
  const samples = (wrapped.length ? wrapped : paragraphs)
    .flatMap((p) => p.lines)
    .map((line) => ({ height: typeSize(line), weight: line.text.trim().length }))
    .filter((s) => s.weight > 0)
    .sort((a, b) => a.height - b.height);
  const total = samples.reduce((sum, s) => sum + s.weight, 0);
  let seen = 0;
  for (const sample of samples) {
    seen += sample.weight;
    if (seen >= total / 2) return sample.height;
  }
  return undefined;
}

/**
 * The heading level a paragraph may have: a line or two with a letter, not ending as a sentence
 * does, and set larger than the body text (`size` is its smallest line's over the body's): by
 * `TITLE_SIZE` for level 1, `SUBHEADING_SIZE` for level 2.
 */
function headingLevel(texts: string[], size: number): 1 | 2 | undefined {
  const text = texts.join(' ');
  if (texts.length > HEADING_LINES || text.length > HEADING_CHARS) return undefined;
  if (/[.,;]$/.test(text) || !/\p{L}/u.test(text)) return undefined;
  if (size >= TITLE_SIZE) return 1;
  return size >= SUBHEADING_SIZE ? 2 : undefined;
}

function enclosing(boxes: readonly Box[]): Box {
  return {
    x0: Math.min(...boxes.map((b) => b.x0)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  };
}

/** A ruling line read as a glyph (`|`, `[`, `_`): not text of any cell. */
const RULE_GLYPHS = /^[|¦[\]_]+$/;

interface Piece {
  text: string;
  x0: number;
  x1: number;
}

/**
 * A table's cells from its words. Rows are the words whose vertical middles fall within one
 * another's height (Tesseract's lines can split a row whose cells sit at different heights); a row
 * splits into cells where its words are further apart than `CELL_GAP` of the row's height; the
 * columns are the stretches of the width that the cells of the fullest rows cover, and every cell
 * goes to the column it overlaps most.
 */
export function tableRows(words: readonly TesseractWord[]): string[][] {
  const kept = words
    .map((w) => ({ ...w, text: w.text.replace(/^[|¦[\]]+|[|¦[\]]+$/g, '').trim() }))
    .filter((w) => w.text && !RULE_GLYPHS.test(w.text));
  const rows = groupRows(kept);
  const pieces = rows.map((row) => cellsOfRow(row));
  const widest = Math.max(0, ...pieces.map((p) => p.length));
  const columns: { x0: number; x1: number }[] = [];
  for (const piece of pieces
    .filter((p) => p.length >= Math.max(2, widest * 0.6))
    .flat()
    .sort((a, b) => a.x0 - b.x0)) {
    const last = columns[columns.length - 1];
    if (last && piece.x0 <= last.x1) last.x1 = Math.max(last.x1, piece.x1);
    else columns.push({ x0: piece.x0, x1: piece.x1 });
  }
  if (columns.length < 2) return pieces.map((row) => [row.map((p) => p.text).join(' ')]);
  return pieces.map((row) => {
    const cells = columns.map(() => [] as string[]);
    for (const piece of row) cells[nearestColumn(piece, columns)].push(piece.text);
    return cells.map((texts) => texts.join(' '));
  });
}

function groupRows(words: readonly TesseractWord[]): TesseractWord[][] {
  const middle = (w: TesseractWord) => (w.bbox.y0 + w.bbox.y1) / 2;
  const rows: { y0: number; y1: number; words: TesseractWord[] }[] = [];
  for (const word of [...words].sort((a, b) => middle(a) - middle(b))) {
    const row = rows.find(
      (r) =>
        middle(word) >= r.y0 &&
        middle(word) <= r.y1 &&
        r.words.some((w) => middle(w) >= word.bbox.y0 && middle(w) <= word.bbox.y1),
    );
    if (row) {
      row.words.push(word);
      row.y0 = Math.min(row.y0, word.bbox.y0);
      row.y1 = Math.max(row.y1, word.bbox.y1);
    } else rows.push({ y0: word.bbox.y0, y1: word.bbox.y1, words: [word] });
  }
  return rows.sort((a, b) => a.y0 - b.y0).map((r) => r.words.sort((a, b) => a.bbox.x0 - b.bbox.x0));
}

function cellsOfRow(words: readonly TesseractWord[]): Piece[] {
  const heights = words.map((w) => w.bbox.y1 - w.bbox.y0).sort((a, b) => a - b);
  const gap = heights[Math.floor(heights.length / 2)] * CELL_GAP;
  const pieces: Piece[] = [];
  for (const word of words) {
    const last = pieces[pieces.length - 1];
    if (last && word.bbox.x0 - last.x1 <= gap) {
      last.text += ` ${word.text}`;
      last.x1 = word.bbox.x1;
    } else pieces.push({ text: word.text, x0: word.bbox.x0, x1: word.bbox.x1 });
  }
  return pieces;
}

function nearestColumn(piece: Piece, columns: readonly { x0: number; x1: number }[]): number {
  let best = 0;
  let score = -Infinity;
  const centre = (piece.x0 + piece.x1) / 2;
  columns.forEach((column, c) => {
    const overlap = Math.min(piece.x1, column.x1) - Math.max(piece.x0, column.x0);
    const s = Math.max(overlap, -Math.abs(centre - (column.x0 + column.x1) / 2));
    if (s > score) [best, score] = [c, s];
  });
  return best;
}
