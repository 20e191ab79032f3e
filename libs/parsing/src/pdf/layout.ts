/**
 * Page geometry to text lines in reading order: pdfjs text items become runs in a y-down frame,
 * runs are cut into flows (columns inside regions), and each flow into lines and cells.
 * Pure functions over plain objects, so they can be tested without pdfjs.
 */

/** The fields of a pdfjs `TextItem` the layout needs. */
export interface PdfTextItem {
  str: string;
  /** Text-space to user-space matrix of the item's start: [a, b, c, d, e, f]. */
  transform: number[];
  /** Advance of the item along its direction, in user-space units. */
  width: number;
  fontName: string;
}

/** A piece of text on one baseline, in the page's reading frame (x to the right, y downwards). */
export interface TextRun {
  text: string;
  x0: number;
  x1: number;
  /** Baseline, measured downwards from the top of the page. */
  y: number;
  /** Font size (glyph height) in points. */
  size: number;
  /** pdfjs font id (`loadedName`), shared by every page of a document. */
  font: string;
  mono: boolean;
  /** Position in pdfjs's content-stream order. */
  order: number;
}

/** A stretch of a line between wide gaps: a table cell candidate. */
export interface LineCell {
  text: string;
  x0: number;
  x1: number;
  /**
   * The cell's stretches between gaps wider than a word space (absent where a cell was cut at dot
   * leaders): two table cells set too close to be told apart by the gap alone.
   */
  parts?: { text: string; x0: number; x1: number }[];
}

export interface TextLine {
  text: string;
  cells: LineCell[];
  x0: number;
  x1: number;
  /** Baseline, measured downwards from the top of the page. */
  y: number;
  /** Font size of most of the line's characters. */
  size: number;
  /** Font sizes where the line starts and ends, where it meets the lines before and after. */
  startSize: number;
  endSize: number;
  /** Fonts of the line's characters. */
  fonts: string[];
  mono: boolean;
  /** Index of the flow (a column of a region) the line belongs to, in reading order. */
  flow: number;
  /** Horizontal extent of the line's flow: the column edges for indentation and short-line tests. */
  flowX0: number;
  flowX1: number;
}

/** Matrix product `m1 × m2` in the PDF convention ([a, b, c, d, e, f]). */
export function multiply(m1: number[], m2: number[]): number[] {
  return [
    m1[0] * m2[0] + m1[2] * m2[1],
    m1[1] * m2[0] + m1[3] * m2[1],
    m1[0] * m2[2] + m1[2] * m2[3],
    m1[1] * m2[2] + m1[3] * m2[3],
    m1[0] * m2[4] + m1[2] * m2[5] + m1[4],
    m1[1] * m2[4] + m1[3] * m2[5] + m1[5],
  ];
}

// C0 controls other than tab/newline, DEL, C1 controls, and the object replacement characters that
// broken font encodings produce; they carry no text.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\uFFFC]/g;
/** Private-use code points: glyphs of symbol and emoji fonts without a Unicode meaning. */
const PRIVATE_USE = /[\u{E000}-\u{F8FF}\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}]/gu;
const SPACES = /[\s\u00A0\u2000-\u200B\u202F\u205F\u3000]+/g;

/**
 * Converts pdfjs text items to runs. `viewport` is the page viewport's transform (scale 1), which
 * puts the origin at the top left and applies the page's /Rotate. Text that is turned against the
 * page's dominant direction (margin stamps, rotated figure labels) is dropped; when most text is
 * turned (a landscape table on a portrait page), the frame turns with it.
 */
export function itemsToRuns(
  items: readonly PdfTextItem[],
  viewport: number[],
  monoFonts: ReadonlySet<string> = new Set(),
): { runs: TextRun[]; frame: (x: number, y: number) => { x: number; y: number } } {
  const placed: { item: PdfTextItem; text: string; m: number[]; angle: number; order: number }[] = [];
  const charsByAngle = new Map<number, number>();
  items.forEach((item, order) => {
    if (typeof item.str !== 'string' || !Array.isArray(item.transform)) return;
    const text = item.str.replace(CONTROL, '').replace(PRIVATE_USE, '').replace(SPACES, ' ');
    if (!text.trim()) return;
    const m = multiply(viewport, item.transform);
    if (!m.every(Number.isFinite)) return;
    const angle = Math.round((Math.atan2(m[1], m[0]) * 180) / Math.PI);
    placed.push({ item, text, m, angle, order });
    charsByAngle.set(angle, (charsByAngle.get(angle) ?? 0) + text.length);
  });
  let dominant = 0;
  let best = -1;
  for (const [angle, chars] of charsByAngle) {
    if (chars > best) [dominant, best] = [angle, chars];
  }
  const cos = Math.cos((dominant * Math.PI) / 180);
  const sin = Math.sin((dominant * Math.PI) / 180);
  const runs: TextRun[] = [];
  for (const { item, text, m, angle, order } of placed) {
    const turn = Math.abs(((angle - dominant + 540) % 360) - 180);
    if (turn > 2) continue;
    const size = Math.hypot(m[2], m[3]);
    if (!(size > 0.5)) continue;
    const x0 = m[4] * cos + m[5] * sin;
    const y = -m[4] * sin + m[5] * cos;
    const width = Number.isFinite(item.width) && item.width > 0 ? item.width : size * 0.5 * text.length;
    runs.push({
      text,
      x0,
      x1: x0 + width,
      y,
      size,
      font: item.fontName,
      mono: monoFonts.has(item.fontName),
      order,
    });
  }
  // Viewport (top-left origin) coordinates to the reading frame.
  const frame = (x: number, y: number) => ({ x: x * cos + y * sin, y: -x * sin + y * cos });
  return { runs: dedupeOverprint(runs), frame };
}

/** Some producers fake bold by painting the same text two or three times, slightly shifted. */
function dedupeOverprint(runs: TextRun[]): TextRun[] {
  const seen = new Map<string, TextRun[]>();
  return runs.filter((run) => {
    const same = seen.get(run.text);
    const near = (other: TextRun) =>
      Math.abs(other.x0 - run.x0) < run.size * 0.2 && Math.abs(other.y - run.y) < run.size * 0.2;
    if (same?.some(near)) return false;
    if (same) same.push(run);
    else seen.set(run.text, [run]);
    return true;
  });
}

const top = (run: TextRun) => run.y - run.size * 0.8;
const bottom = (run: TextRun) => run.y + run.size * 0.25;

/** Smallest and largest value; spreading a page's worth of values into Math.min can overflow the stack. */
export function minOf<T>(items: readonly T[], value: (item: T) => number): number {
  let min = Infinity;
  for (const item of items) min = Math.min(min, value(item));
  return min;
}

export function maxOf<T>(items: readonly T[], value: (item: T) => number): number {
  let max = -Infinity;
  for (const item of items) max = Math.max(max, value(item));
  return max;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Lines of a page in reading order. Regions separated by wide blank bands are read top to bottom;
 * within a region, gutters (x-ranges almost no text crosses, with text on both sides) split it
 * into columns read left to right, and lines that do cross a gutter (titles, full-width figures)
 * cut the region into bands first.
 */
export function readingOrder(runs: readonly TextRun[]): TextLine[] {
  const lines: TextLine[] = [];
  segment([...runs], 0).forEach((flow, index) => {
    // Lines of punctuation alone (stray dots, rules drawn with dashes) carry no text.
    const flowLines = buildLines(flow).filter((line) => /[\p{L}\p{N}]/u.test(line.text));
    if (flowLines.length === 0) return;
    const flowX0 = minOf(flowLines, (l) => l.x0);
    const flowX1 = maxOf(flowLines, (l) => l.x1);
    for (const line of flowLines) lines.push({ ...line, flow: index, flowX0, flowX1 });
  });
  return lines;
}

function segment(runs: TextRun[], depth: number): TextRun[][] {
  if (runs.length < 2 || depth > 12) return [runs];
  const bands = horizontalBands(runs);
  if (bands.length > 1) return bands.flatMap((band) => segment(band, depth + 1));
  const gutter = findGutter(runs);
  if (!gutter) return [runs];
  const crossing = runs.filter((r) => r.x0 < gutter.x0 && r.x1 > gutter.x1);
  if (crossing.length === 0) {
    const middle = (gutter.x0 + gutter.x1) / 2;
    const left = runs.filter((r) => (r.x0 + r.x1) / 2 < middle);
    const right = runs.filter((r) => (r.x0 + r.x1) / 2 >= middle);
    return [...segment(left, depth + 1), ...segment(right, depth + 1)];
  }
  const parts = splitAtSpanning(runs, crossing);
  if (parts.length < 2) return [runs];
  return parts.flatMap((part) => segment(part, depth + 1));
}

/** Splits where a blank band at least two lines high crosses the whole region. */
function horizontalBands(runs: TextRun[]): TextRun[][] {
  const minGap = 2 * median(runs.map((r) => r.size));
  const sorted = [...runs].sort((a, b) => top(a) - top(b));
  const bands: TextRun[][] = [];
  let current: TextRun[] = [];
  let reach = -Infinity;
  for (const run of sorted) {
    if (current.length && top(run) - reach >= minGap) {
      bands.push(current);
      current = [];
    }
    current.push(run);
    reach = Math.max(reach, bottom(run));
  }
  if (current.length) bands.push(current);
  return bands;
}

interface Gutter {
  x0: number;
  x1: number;
}

/** The widest x-range that separates two columns of text, if the region has one. */
function findGutter(runs: TextRun[]): Gutter | undefined {
  const em = median(runs.map((r) => r.size));
  const left = Math.floor(minOf(runs, (r) => r.x0));
  const right = Math.ceil(maxOf(runs, (r) => r.x1));
  const width = right - left;
  if (!(width > 4 * em) || width > 20_000) return undefined;
  // Coverage per 1-pt bin: the height of the text crossing it (a difference array keeps it linear).
  const diff = new Float64Array(width + 1);
  for (const run of runs) {
    const a = Math.max(0, Math.floor(run.x0) - left);
    const b = Math.min(width, Math.ceil(run.x1) - left);
    if (b <= a) continue;
    diff[a] += run.size;
    diff[b] -= run.size;
  }
  const coverage = new Float64Array(width);
  let level = 0;
  for (let i = 0; i < width; i++) coverage[i] = level += diff[i];
  const covered = [...coverage].filter((c) => c > 0).sort((a, b) => a - b);
  const reference = covered[Math.floor(covered.length * 0.75)] ?? 0;
  // A gutter may be crossed by a few spanning lines (a title), far less text than a column holds.
  const limit = reference * 0.35;
  const minWidth = Math.max(3, em * 0.7);
  const candidates: Gutter[] = [];
  let start = -1;
  for (let i = 0; i <= width; i++) {
    const open = i < width && coverage[i] <= limit;
    if (open && start < 0) start = i;
    if (!open && start >= 0) {
      if (start > 0 && i < width && i - start >= minWidth)
        candidates.push({ x0: left + start, x1: left + i });
      start = -1;
    }
  }
  candidates.sort((a, b) => b.x1 - b.x0 - (a.x1 - a.x0));
  return candidates.find((gutter) => isColumnGutter(runs, gutter, em));
}

interface RoughLine {
  y: number;
  x0: number;
  x1: number;
  runs: TextRun[];
  leaders: boolean;
}

/** Dot leaders between the cells of a table row (or a table of contents). */
const LEADERS = /\.{4,}|(?:\. ){3,}\./;

/** Baseline groups, cheaper than `buildLines`, for judging a gutter. */
function roughLines(runs: TextRun[]): RoughLine[] {
  const sorted = [...runs].sort((a, b) => a.y - b.y);
  const lines: RoughLine[] = [];
  for (const run of sorted) {
    const last = lines[lines.length - 1];
    const leaders = LEADERS.test(run.text);
    if (last && run.y - last.y <= run.size * 0.3) {
      last.x0 = Math.min(last.x0, run.x0);
      last.x1 = Math.max(last.x1, run.x1);
      last.runs.push(run);
      last.leaders ||= leaders;
    } else {
      lines.push({ y: run.y, x0: run.x0, x1: run.x1, runs: [run], leaders });
    }
  }
  return lines;
}

/**
 * A gap is a column gutter when both sides hold several lines of running text over a good part
 * of the region's height. Rows of short cells on shared baselines, or rows with dot leaders,
 * are a table, not columns.
 */
function isColumnGutter(runs: TextRun[], gutter: Gutter, em: number): boolean {
  const middle = (gutter.x0 + gutter.x1) / 2;
  const inside = runs.filter((r) => !(r.x0 < gutter.x0 && r.x1 > gutter.x1));
  const sides = [
    roughLines(inside.filter((r) => (r.x0 + r.x1) / 2 < middle)),
    roughLines(inside.filter((r) => (r.x0 + r.x1) / 2 >= middle)),
  ];
  const height = maxOf(runs, bottom) - minOf(runs, top);
  for (const side of sides) {
    if (side.length < 3) return false;
    if (side.filter((l) => l.leaders).length >= side.length * 0.3) return false;
    const extent = side[side.length - 1].y - side[0].y + em;
    if (extent < height * 0.3) return false;
    if (median(side.map((l) => l.x1 - l.x0)) < 4 * em) return false;
  }
  const [a, b] = sides;
  const aligned = (from: RoughLine[], to: RoughLine[]) =>
    from.filter((l) => to.some((o) => Math.abs(o.y - l.y) < 1)).length / from.length;
  const shortCells = sides.every((side) => median(side.map(wordsPerCell)) < 3);
  return !(shortCells && Math.max(aligned(a, b), aligned(b, a)) >= 0.75);
}

/** Words per stretch of text between wide gaps: a few in table cells, many in running text. */
function wordsPerCell(line: RoughLine): number {
  const runs = [...line.runs].sort((x, y) => x.x0 - y.x0);
  let cells = 1;
  for (let i = 1; i < runs.length; i++) {
    if (runs[i].x0 - runs[i - 1].x1 > 1.25 * Math.min(runs[i].size, runs[i - 1].size)) cells++;
  }
  const words = runs.reduce((n, run) => n + run.text.trim().split(/\s+/).length, 0);
  return words / cells;
}

/** Cuts a region at the lines that cross its gutter: bands above, the spanning lines, bands below. */
function splitAtSpanning(runs: TextRun[], crossing: TextRun[]): TextRun[][] {
  const groups: { top: number; bottom: number }[] = [];
  for (const run of [...crossing].sort((a, b) => top(a) - top(b))) {
    const last = groups[groups.length - 1];
    if (last && top(run) <= last.bottom + run.size * 0.6) last.bottom = Math.max(last.bottom, bottom(run));
    else groups.push({ top: top(run), bottom: bottom(run) });
  }
  const parts: TextRun[][] = Array.from({ length: groups.length * 2 + 1 }, () => []);
  for (const run of runs) {
    const centre = run.y - run.size * 0.3;
    let index = 0;
    for (const [i, group] of groups.entries()) {
      if (centre >= group.top && centre <= group.bottom) {
        index = i * 2 + 1;
        break;
      }
      if (centre > group.bottom) index = i * 2 + 2;
    }
    parts[index].push(run);
  }
  return parts.filter((part) => part.length > 0);
}

/** Dot leaders separate cells as whitespace does; positions inside a run are interpolated. */
function splitAtLeaders(cell: LineCell): LineCell[] {
  const text = cell.text.replace(SPACES, ' ').trim();
  if (!LEADERS.test(text)) return [{ ...cell, text }];
  // Cut at leaders, the pieces' positions are interpolated and their runs no longer apply.
  const parts: LineCell[] = [];
  const width = (cell.x1 - cell.x0) / Math.max(1, cell.text.length);
  const pattern = new RegExp(`\\s*(?:${LEADERS.source})[. ]*`, 'g');
  let start = 0;
  for (const match of [...text.matchAll(pattern), null]) {
    const end = match ? match.index : text.length;
    const piece = text.slice(start, end).trim();
    if (piece) parts.push({ text: piece, x0: cell.x0 + start * width, x1: cell.x0 + end * width });
    if (match) start = match.index + match[0].length;
  }
  return parts;
}

const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/g;
const LTR = /[A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF]/g;

/** Lines of one flow, top to bottom. */
export function buildLines(runs: readonly TextRun[]): Omit<TextLine, 'flow' | 'flowX0' | 'flowX1'>[] {
  const sorted = [...runs].sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const groups: { y: number; size: number; runs: TextRun[] }[] = [];
  for (const run of sorted) {
    const last = groups[groups.length - 1];
    if (last && run.y - last.y <= 0.3 * Math.min(last.size, run.size)) {
      last.runs.push(run);
      if (run.size > last.size) last.size = run.size;
    } else {
      groups.push({ y: run.y, size: run.size, runs: [run] });
    }
  }
  // Superscripts and subscripts sit up to ~0.45 em off the baseline of the text beside them; they
  // join that line. Smaller text further away on a nearby baseline stays a line of its own.
  const beside = (small: TextRun[], line: TextRun[]) =>
    small.every((s) => line.some((r) => s.x0 - r.x1 < r.size && r.x0 - s.x1 < r.size));
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i];
    for (const j of [i + 1, i - 1]) {
      const host = groups[j];
      if (!host || group.size >= host.size * 0.8) continue;
      if (Math.abs(group.y - host.y) > 0.45 * host.size || !beside(group.runs, host.runs)) continue;
      host.runs.push(...group.runs);
      groups.splice(i--, 1);
      break;
    }
  }
  return groups.map((group) => toLine(group.runs));
}

function toLine(runs: TextRun[]): Omit<TextLine, 'flow' | 'flowX0' | 'flowX1'> {
  const joined = runs.map((r) => r.text).join('');
  const rtl = (joined.match(RTL)?.length ?? 0) > (joined.match(LTR)?.length ?? 0);
  // Right-to-left lines keep pdfjs's content order: sorting by x would reverse their words.
  const ordered = [...runs].sort(rtl ? (a, b) => a.order - b.order : (a, b) => a.x0 - b.x0);
  const cells: LineCell[] = [];
  let cell: LineCell | undefined;
  let previous: TextRun | undefined;
  for (const run of ordered) {
    const em = Math.min(run.size, previous?.size ?? run.size);
    const gap = previous ? run.x0 - previous.x1 : 0;
    const part = { text: run.text, x0: run.x0, x1: run.x1 };
    if (!cell || (!rtl && gap > 1.25 * em)) {
      cell = { ...part, parts: [{ ...part }] };
      cells.push(cell);
    } else {
      const space = rtl || gap > 0.15 * em || /\s$/.test(cell.text) || /^\s/.test(run.text);
      cell.text += space ? ` ${run.text}` : run.text;
      cell.x0 = Math.min(cell.x0, run.x0);
      cell.x1 = Math.max(cell.x1, run.x1);
      // Wider than a word space: maybe two table cells set close together (see table-grid).
      const last = cell.parts?.[cell.parts.length - 1];
      if (!last || rtl || gap > 0.6 * em) cell.parts?.push(part);
      else [last.text, last.x1] = [`${last.text}${space ? ' ' : ''}${run.text}`, Math.max(last.x1, run.x1)];
    }
    previous = run;
  }
  const kept = cells.flatMap(splitAtLeaders).filter((c) => c.text);
  const bySize = new Map<number, number>();
  for (const run of runs) {
    const size = Math.round(run.size * 2) / 2;
    bySize.set(size, (bySize.get(size) ?? 0) + run.text.length);
  }
  const size = [...bySize.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const main = runs.filter((r) => Math.abs(r.size - size) < 0.5);
  const monoChars = runs.filter((r) => r.mono).reduce((n, r) => n + r.text.length, 0);
  return {
    text: kept.map((c) => c.text).join(' '),
    cells: kept,
    startSize: ordered[0].size,
    endSize: ordered[ordered.length - 1].size,
    x0: minOf(runs, (r) => r.x0),
    x1: maxOf(runs, (r) => r.x1),
    y: median((main.length ? main : runs).map((r) => r.y)),
    size,
    fonts: [...new Set(runs.map((r) => r.font))],
    mono: monoChars >= joined.length * 0.9,
  };
}
