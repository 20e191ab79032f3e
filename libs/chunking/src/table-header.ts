/** A table block cut into its header (repeated on every chunk of its rows) and its rows. */
export interface TableParts {
  /** The header row, followed by the separator line for Markdown pipe tables. */
  header: string[];
  rows: string[];
}

/** A cell of a GFM delimiter row: at least one dash, with optional alignment colons. */
const SEPARATOR_CELL = /^:?-+:?$/;
// A row whose cells are all empty: Notion's stand-in header for a table without a column header.
const BLANK_ROW = /^[\s|]*$/;

/**
 * The header of a table block in the shapes the parsers produce: Markdown, HTML, DOCX and Notion
 * write pipe tables whose second line is a `---` separator, so the line before it is the header;
 * PDF tables are rows of ` | `-joined cells with no separator, and there the first row is taken as
 * the header (a PDF table continued from the previous page then repeats its first data row, which
 * costs a few tokens but never loses text). Undefined when there is nothing worth repeating: a
 * single line, or Notion's blank header row.
 */
export function tableParts(text: string): TableParts | undefined {
  const lines = text.split('\n');
  if (lines.length < 2) return undefined;
  const headerLength = isSeparator(lines[1]) ? 2 : 1;
  if (BLANK_ROW.test(lines[0]) || lines.length <= headerLength) return undefined;
  return { header: lines.slice(0, headerLength), rows: lines.slice(headerLength) };
}

/**
 * A GFM delimiter row: `| --- | :---: |`, `---|---`, cells between optional outer pipes. Checked
 * cell by cell (one regular expression over the whole line backtracks quadratically on a long
 * run of spaces).
 */
function isSeparator(line: string): boolean {
  let text = line.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|')) text = text.slice(0, -1);
  return text.split('|').every((cell) => SEPARATOR_CELL.test(cell.trim()));
}

/**
 * The header to repeat: the header row as written, and a compact separator (`| --- | :---: |`) in
 * place of an aligned one, whose runs of dashes would cost a token each.
 */
export function repeatedHeader(header: string[]): string {
  if (header.length < 2) return header.join('\n');
  const separator = header[1].trim();
  const cells = separator
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim())
    .map(
      (cell) => `${cell.startsWith(':') ? ':' : ''}---${cell.length > 1 && cell.endsWith(':') ? ':' : ''}`,
    );
  const compact = separator.startsWith('|') ? `| ${cells.join(' | ')} |` : cells.join(' | ');
  return `${header[0]}\n${compact}`;
}
