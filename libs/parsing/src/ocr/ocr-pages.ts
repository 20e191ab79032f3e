import type { ParsedBlock } from '@trove/domain';
import { TroveError, TroveErrorCode } from '@trove/domain';
import { OcrDataMissingError, OcrPool, ocrSettingsFromEnv, OcrTimeoutError } from '@trove/ocr';
import type { GreyImage, OcrPageResult } from '@trove/ocr';

/** Pages recognised with a lower mean confidence are kept, and named in the document's warnings. */
export const LOW_CONFIDENCE = 60;

/** What a parser needs of OCR: one page's pixels in, its text and confidence out. */
export interface PageRecognizer {
  readPage(image: GreyImage): Promise<OcrPageResult>;
}

let shared: OcrPool | undefined;
let pageListener: ((page: number, pageCount?: number) => void) | undefined;

/**
 * Hears of every page this thread reads by OCR, with the document's page count where known (the
 * parse thread reports it as progress).
 */
export function onOcrPage(listener: (page: number, pageCount?: number) => void): void {
  pageListener = listener;
}

/**
 * The OCR pool of this thread (a parse thread), started on the first scanned page and kept for
 * the next document. Settings come from the environment (see `ocrSettingsFromEnv`).
 */
export function sharedOcr(): PageRecognizer {
  shared ??= new OcrPool(ocrSettingsFromEnv());
  return shared;
}

/** A page number standing alone (`12`, `- 12 -`, `Page 12`): page furniture, not text. */
const PAGE_NUMBER = /^(?:[-–—]\s*\d{1,5}\s*[-–—]|(?:page|стр\.?|第)?\s*\d{1,5}\s*页?)$/iu;
/** Page numbers are looked for among this many blocks at either end of a page (a running header may come first). */
const FURNITURE_BLOCKS = 2;

/**
 * OCR'd pages as blocks, in reading order. A recognised heading opens a section: the blocks after
 * it carry it in their heading path (under the path the scan started in, since a scan has no
 * outline of its own), a larger heading closing the smaller ones before it, across pages too. A
 * paragraph's lines are joined (hyphenated line ends rejoined), as a reader would read them; a
 * table becomes a Markdown pipe table headed by its first row; a page number alone near either
 * end of the page is dropped.
 */
export class ScanSections {
  private readonly headings: { level: number; text: string }[] = [];

  constructor(private base: string[] = []) {}

  /** Text from the file's own text layer came after the scanned pages: sections start again under its path. */
  rebase(path: string[]): void {
    this.base = path;
    this.headings.length = 0;
  }

  blocks(page: number, result: OcrPageResult): ParsedBlock[] {
    const out: ParsedBlock[] = [];
    const marks = { page, ocr: true, ocrConfidence: result.confidence };
    const path = () => [...this.base, ...this.headings.map((h) => h.text)];
    // A heading with nothing under it on the page (a cover's title, one closed at once by the
    // next) is kept as text of its own, so no recognised word is lost.
    let bare: { level: number; text: string } | undefined;
    const keepBare = () => {
      // `bare` is the innermost heading: its own path is the one above it.
      if (bare) out.push({ kind: 'paragraph', text: bare.text, headingPath: path().slice(0, -1), ...marks });
      bare = undefined;
    };
    result.blocks.forEach((block, i) => {
      if (block.kind === 'heading') {
        keepBare();
        while (this.headings.length && this.headings[this.headings.length - 1].level >= block.level) {
          this.headings.pop();
        }
        bare = { level: block.level, text: block.text };
        this.headings.push(bare);
        return;
      }
      if (block.kind === 'table') {
        bare = undefined;
        out.push({ kind: 'table', text: pipeTable(block.rows), headingPath: path(), ...marks });
        return;
      }
      const text = joinLines(block.text);
      const margin = i < FURNITURE_BLOCKS || i >= result.blocks.length - FURNITURE_BLOCKS;
      if (!text || (margin && PAGE_NUMBER.test(text))) return;
      bare = undefined;
      out.push({ kind: 'paragraph', text, headingPath: path(), ...marks });
    });
    keepBare();
    return out;
  }
}

/** Rows of cells as a Markdown pipe table, the first row its header. */
function pipeTable(rows: readonly string[][]): string {
  const line = (cells: readonly string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(rows[0]), line(rows[0].map(() => '---')), ...rows.slice(1).map(line)].join('\n');
}

function joinLines(paragraph: string): string {
  return paragraph
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .reduce((text, line) => {
      if (!text) return line;
      if (/\p{Ll}-$/u.test(text) && /^\p{Ll}/u.test(line)) return text.slice(0, -1) + line;
      // CJK lines join without a space.
      if (/\p{Script=Han}$/u.test(text) && /^\p{Script=Han}/u.test(line)) return text + line;
      return `${text} ${line}`;
    }, '');
}

/** "page 3", "pages 2, 5 and 9 more": for warnings. */
export function lowConfidenceWarning(pages: { page: number; confidence: number }[]): string | undefined {
  const low = pages.filter((p) => p.confidence < LOW_CONFIDENCE);
  if (low.length === 0) return undefined;
  const listed = low
    .slice(0, 10)
    .map((p) => `${p.page} (${p.confidence}%)`)
    .join(', ');
  const more = low.length > 10 ? ` and ${low.length - 10} more` : '';
  return `OCR confidence is below ${LOW_CONFIDENCE}% on ${low.length > 1 ? 'pages' : 'page'} ${listed}${more}: the text may be inaccurate`;
}

/** A page OCR could not read, and why. */
export interface OcrFailure {
  page: number;
  reason: string;
}

/**
 * Recognises one page, turning OCR's own failures into the document's terms: a page over its time
 * limit is a failure of that page (the caller lists it in the warnings); missing language data is
 * an installation fault, retryable once fixed, and fails the parse as such.
 */
export async function recognizePage(
  ocr: PageRecognizer,
  page: number,
  image: GreyImage,
  pageCount?: number,
): Promise<{ ok: true; result: OcrPageResult } | { ok: false; failure: OcrFailure }> {
  try {
    const result = await ocr.readPage(image);
    pageListener?.(page, pageCount);
    return { ok: true, result };
  } catch (error) {
    if (error instanceof OcrDataMissingError) {
      throw new TroveError(TroveErrorCode.Internal, error.message, { cause: error });
    }
    if (error instanceof OcrTimeoutError) return { ok: false, failure: { page, reason: error.message } };
    throw error;
  }
}
