import type { ParsedBlock } from '@trove/domain';

/** A cell as a sheet shows it: its displayed text, and whether it holds a value rather than words. */
export interface SheetCell {
  text: string;
  /** A number, date, boolean or error: never taken for a column header. */
  value?: boolean;
}

/** A row of a sheet (a record of a CSV file) with its 1-based number there. */
export interface SheetRow {
  number: number;
  /** Cells by column index; holes are empty cells. */
  cells: (SheetCell | undefined)[];
}

export interface SheetTableOptions {
  /** Heading path of every block: the sheet's name for workbooks, nothing for a CSV file. */
  headingPath: string[];
  /** Set as `sheet` on every block. */
  sheet?: string;
}

/** The header is looked for among this many first non-empty rows; rows above it are the sheet's title lines. */
const HEADER_SEARCH_ROWS = 10;

/**
 * One sheet as blocks: lines above the table (a title, a note) as paragraphs, then one pipe
 * table whose header is the detected header row and whose rows carry their sheet row numbers
 * (`rowNumbers`), so the chunker can cut it by row ranges and repeat the header on every piece.
 * Empty rows and columns are dropped. The header is the first of the first rows that fills at least
 * half of the table's columns (two at least, in a table that wide) with words only, and has a row
 * under it; a sheet without one gets its column letters (A, B, …) as the header.
 */
export function sheetBlocks(rows: SheetRow[], options: SheetTableOptions): ParsedBlock[] {
  const filled = rows.filter((row) => row.cells.some((cell) => cell && cell.text.trim()));
  if (filled.length === 0) return [];
  const columns = usedColumns(filled);
  const texts = (row: SheetRow) => columns.map((c) => cellText(row.cells[c]));
  const headerAt = headerRow(filled, columns);
  const base = { headingPath: options.headingPath, ...(options.sheet ? { sheet: options.sheet } : {}) };
  const blocks: ParsedBlock[] = [];
  for (const row of filled.slice(0, Math.max(headerAt, 0))) {
    blocks.push({ ...base, kind: 'paragraph', text: texts(row).filter(Boolean).join(' ') });
  }
  const header = headerAt >= 0 ? texts(filled[headerAt]) : columns.map(columnLetters);
  const body = filled.slice(headerAt + 1);
  if (body.length === 0) {
    // Nothing under the header: the lines are text, not a table.
    if (headerAt >= 0) blocks.push({ ...base, kind: 'paragraph', text: header.filter(Boolean).join(' ') });
    return blocks;
  }
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const lines = [line(header), line(columns.map(() => '---')), ...body.map((row) => line(texts(row)))];
  blocks.push({ ...base, kind: 'table', text: lines.join('\n'), rowNumbers: body.map((row) => row.number) });
  return blocks;
}

/** Column indexes that hold something in at least one row, in order. */
function usedColumns(rows: SheetRow[]): number[] {
  const used = new Set<number>();
  for (const row of rows) {
    row.cells.forEach((cell, c) => {
      if (cell && cell.text.trim()) used.add(c);
    });
  }
  return [...used].sort((a, b) => a - b);
}

/** Index in `rows` of the header row, or -1. */
function headerRow(rows: SheetRow[], columns: number[]): number {
  const needed = Math.min(columns.length, Math.max(2, Math.ceil(columns.length / 2)));
  const last = Math.min(HEADER_SEARCH_ROWS, rows.length - 1);
  for (let i = 0; i < last; i++) {
    const cells = columns.map((c) => rows[i].cells[c]).filter((cell) => cell && cell.text.trim());
    if (cells.length >= needed && cells.every((cell) => !cell!.value)) return i;
  }
  return -1;
}

/** A cell's text on one line of a pipe table. */
function cellText(cell: SheetCell | undefined): string {
  if (!cell) return '';
  return cell.text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
}

/** `0` → `A`, `25` → `Z`, `26` → `AA`: the column's name in a spreadsheet. */
export function columnLetters(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}
