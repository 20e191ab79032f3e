import type { GreyImage, OcrPageResult } from '@trove/ocr';
import { loadPdfjs, pdfjsDataPaths } from './pdfjs-loader';
import { readScannedPages } from './scanned-pages';

/**
 * A born-digital PDF page as if it had been scanned: drawn at 300 dpi as OCR sees a scanned page,
 * with the text of its text layer as the ground truth, in reading order for a page set in
 * `columns` equal columns: a line wider than a column (a running header, a title across the page)
 * closes the band of columns above it; within a band, each column is read top to bottom, left
 * column first. Lines are a line apart, a band's columns a blank line apart.
 */
export async function scanOfPdfPage(
  data: Buffer,
  page: number,
  columns = 1,
): Promise<{ image: GreyImage; text: string }> {
  let image: GreyImage | undefined;
  const capture = {
    readPage(drawn: GreyImage): Promise<OcrPageResult> {
      image = drawn;
      return Promise.resolve({ text: '', confidence: 0, languages: [], blocks: [] });
    },
  };
  await readScannedPages(data, [{ number: page, chars: 0 }], capture);
  if (!image) throw new Error(`page ${page} could not be drawn`);
  const pdfjs = await loadPdfjs();
  const doc = await pdfjs.getDocument({ data: new Uint8Array(data), verbosity: 0, ...pdfjsDataPaths() })
    .promise;
  try {
    const content = await (await doc.getPage(page)).getTextContent();
    const lines: TextLine[] = [];
    let open: TextLine | undefined;
    for (const item of content.items) {
      if (!('str' in item)) continue;
      const [, , , , x, y] = item.transform as number[];
      if (item.str.trim()) {
        open ??= { text: '', x0: x, x1: x, y };
        open.text += item.str;
        open.x0 = Math.min(open.x0, x);
        open.x1 = Math.max(open.x1, x + item.width);
      } else if (open && item.str) open.text += item.str;
      if (item.hasEOL && open) {
        lines.push(open);
        open = undefined;
      }
    }
    if (open) lines.push(open);
    return { image, text: readingOrder(lines, columns) };
  } finally {
    await doc.destroy();
  }
}

interface TextLine {
  text: string;
  x0: number;
  x1: number;
  /** PDF space: up the page. */
  y: number;
}

function readingOrder(lines: TextLine[], columns: number): string {
  if (lines.length === 0) return '';
  const left = Math.min(...lines.map((l) => l.x0));
  const width = (Math.max(...lines.map((l) => l.x1)) - left) / columns;
  const bands: string[] = [];
  let band: TextLine[] = [];
  const flush = () => {
    for (let c = 0; c < columns; c++) {
      const column = band.filter((l) => Math.min(columns - 1, Math.floor((l.x0 - left) / width)) === c);
      if (column.length) bands.push(column.map((l) => l.text.trim()).join('\n'));
    }
    band = [];
  };
  for (const line of [...lines].sort((a, b) => b.y - a.y)) {
    if (columns > 1 && line.x1 - line.x0 > width * 1.1) {
      flush();
      bands.push(line.text.trim());
    } else band.push(line);
  }
  flush();
  return bands.join('\n\n');
}
