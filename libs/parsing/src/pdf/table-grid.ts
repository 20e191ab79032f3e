import type { LineCell } from './layout';

/**
 * A detected PDF table as a Markdown pipe table: cells placed in columns found from the body rows,
 * empty cells kept empty, and the header rows above the first row of figures folded into one
 * header row (a group label over several columns prefixes each of them: `Pre-Pawn Handgun`). The
 * chunker repeats that header on every chunk of the table's rows, so a chunk holding a cell can be
 * found by its row label and its column's name.
 */
export function tableMarkdown(rows: readonly LineCell[][]): string {
  const grid = tableGrid(rows);
  if (!grid) return rows.map((cells) => cells.map((c) => c.text).join(' | ')).join('\n');
  const line = (cells: readonly string[]) => `| ${cells.map(escapeCell).join(' | ')} |`;
  return [line(grid.header), line(grid.header.map(() => '---')), ...grid.body.map(line)].join('\n');
}

export interface TableGrid {
  header: string[];
  body: string[][];
}

interface Column {
  x0: number;
  x1: number;
}

/**
 * The table's cells by column; undefined when no consistent columns are found (then the rows are
 * written as they were read, cells joined by ` | `).
 */
export function tableGrid(rows: readonly LineCell[][]): TableGrid | undefined {
  const headerRows = countHeaderRows(rows);
  const columns = columnsOf(rows.slice(headerRows));
  if (!columns) return undefined;
  const header = columns.map(() => [] as string[]);
  // Where each column's name sits in the last header row (the column itself where it has none).
  const names: Column[] = columns.map((column) => ({ ...column }));
  const named = new Set<number>();
  for (const cell of rows[headerRows - 1] ?? []) {
    for (const piece of cell.parts ?? [cell]) {
      const c = nearestColumn(piece, columns);
      names[c] = named.has(c)
        ? { x0: Math.min(names[c].x0, piece.x0), x1: Math.max(names[c].x1, piece.x1) }
        : piece;
      named.add(c);
    }
  }
  rows.slice(0, headerRows).forEach((cells, r) => {
    const placed = r < headerRows - 1 ? placeHeaderRow(cells, columns, names) : placeRow(cells, columns);
    placed.forEach((text, c) => text && header[c].push(text));
  });
  const bodyRows = rows.slice(headerRows);
  // Two cells of a row in one column: a cell in some row bridges the gutter between two columns
  // (a label run into its figure by dot leaders), so the columns are not the table's.
  const merged = bodyRows.filter((cells) => {
    const used = cells.map((cell) => nearestColumn(cell.parts?.[0] ?? cell, columns));
    return new Set(used).size < used.length;
  });
  if (merged.length > bodyRows.length * 0.1) return undefined;
  const body = bodyRows.map((cells) => placeRow(cells, columns));
  return { header: header.map((parts) => parts.join(' ')), body };
}

/**
 * Columns are the stretches of the page's width that text covers in the body rows, between the
 * gutters no row writes in (header names centred over right-aligned figures would blur them). The
 * text runs count, not the cells, so two figures set too close to be told apart by their gap in one
 * row still fall into their columns; rows with few cells (a note across the table) do not count.
 * Undefined when fewer than two columns appear.
 */
function columnsOf(rows: readonly LineCell[][]): Column[] | undefined {
  const widest = Math.max(...rows.map((cells) => cells.length));
  const pieces = rows
    .filter((cells) => cells.length >= widest * 0.6)
    .flatMap((cells) => cells.flatMap((cell) => cell.parts ?? [cell]))
    .filter((piece) => piece.text.trim())
    .sort((a, b) => a.x0 - b.x0);
  const columns: Column[] = [];
  for (const piece of pieces) {
    const last = columns[columns.length - 1];
    if (last && piece.x0 <= last.x1 + 0.5) last.x1 = Math.max(last.x1, piece.x1);
    else columns.push({ x0: piece.x0, x1: piece.x1 });
  }
  return columns.length >= 2 ? columns : undefined;
}

const overlap = (cell: { x0: number; x1: number }, column: Column) =>
  Math.min(cell.x1, column.x1) - Math.max(cell.x0, column.x0);

/** The column nearest a piece of text: the one it overlaps most, else the closest by centre. */
function nearestColumn(piece: { x0: number; x1: number }, columns: readonly Column[]): number {
  let best = 0;
  let score = -Infinity;
  const centre = (piece.x0 + piece.x1) / 2;
  columns.forEach((column, c) => {
    const s = Math.max(overlap(piece, column), -Math.abs(centre - (column.x0 + column.x1) / 2));
    if (s > score) [best, score] = [c, s];
  });
  return best;
}

/**
 * A row's text per column. A cell whose text runs fall into different columns (two names set too
 * close to be told apart by their gap) is cut between them; a body row's runs each lie inside one
 * column, since the columns are made of them. Several cells in one column are joined.
 */
function placeRow(cells: readonly LineCell[], columns: readonly Column[]): string[] {
  const placed = columns.map(() => [] as string[]);
  for (const cell of cells) {
    const pieces = cell.parts ?? [cell];
    const byColumn = new Map<number, typeof pieces>();
    for (const piece of pieces) {
      const c = nearestColumn(piece, columns);
      byColumn.set(c, [...(byColumn.get(c) ?? []), piece]);
    }
    if (byColumn.size === 1) placed[[...byColumn.keys()][0]].push(cell.text);
    else for (const [c, group] of byColumn) placed[c].push(joinRuns(group));
  }
  return placed.map((texts) => texts.join(' ').trim());
}

/** Runs joined as a line joins them: a space where there is a gap (or a space at either side). */
function joinRuns(runs: readonly { text: string; x0: number; x1: number }[]): string {
  let text = '';
  runs.forEach((run, i) => {
    const gap = i > 0 ? run.x0 - runs[i - 1].x1 : 0;
    text += i > 0 && (gap > 1 || /\s$/.test(text) || /^\s/.test(run.text)) ? ` ${run.text}` : run.text;
  });
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A header row's text per column (above the last header row). A row with far fewer cells than columns is a row of group labels,
 * each centred over its group: a column takes the label whose centre is nearest its name's centre
 * (names in the header row below are centred as labels are; right-aligned figures are not). Past
 * the first and the last label, a label reaches a little less than half the way to its neighbour,
 * so the columns outside every group (a row label's, a total's) take none.
 */
function placeHeaderRow(
  cells: readonly LineCell[],
  columns: readonly Column[],
  names: readonly Column[],
): string[] {
  if (cells.length > columns.length * 0.6) return placeRow(cells, columns);
  const centre = (extent: { x0: number; x1: number }) => (extent.x0 + extent.x1) / 2;
  const labels = [...cells].sort((a, b) => a.x0 - b.x0);
  const first = labels[0];
  const last = labels[labels.length - 1];
  const outer = (label: LineCell, neighbour: LineCell | undefined) =>
    neighbour ? 0.45 * Math.abs(centre(neighbour) - centre(label)) : (label.x1 - label.x0) / 2;
  const from = centre(first) - outer(first, labels[1]);
  const to = centre(last) + outer(last, labels[labels.length - 2]);
  return names.map((name) => {
    const at = centre(name);
    if (at < from || at > to) return '';
    let nearest = first;
    for (const label of labels) {
      if (Math.abs(centre(label) - at) < Math.abs(centre(nearest) - at)) nearest = label;
    }
    return nearest.text;
  });
}

const FIGURE = /^[-–—+(]?[$€£¥₽]?\s?\d[\d\s,.'’]*%?\)?$|^[-–—]$|^n\/?a$/i;

/** Whether a row is mostly figures (past its first cell, the row label): a body row of a statistics table. */
function figuresRow(cells: readonly LineCell[]): boolean {
  const values = cells.slice(1).map((c) => c.text.trim());
  const figures = values.filter((v) => FIGURE.test(v)).length;
  return figures >= 2 && figures >= values.length / 2;
}

/**
 * Header rows: those above the first row of figures (at most three; none when the table starts with
 * figures), when the table has rows of figures; otherwise the first row.
 */
function countHeaderRows(rows: readonly LineCell[][]): number {
  const first = rows.findIndex(figuresRow);
  if (first >= 0 && first <= 3) return first;
  return rows.length > 1 ? 1 : 0;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').trim();
}
