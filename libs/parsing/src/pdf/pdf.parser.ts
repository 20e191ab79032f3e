import { basename, extname } from 'node:path';
import type { DocumentLimits, ParsedBlock, ParsedDocument, ParseInput, Parser } from '@trove/domain';
import type { OcrPageResult } from '@trove/ocr';
import {
  checkDocumentLimit,
  DEFAULT_DOCUMENT_LIMITS,
  PermanentDocumentError,
  TroveErrorCode,
} from '@trove/domain';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist';
import {
  assembleBlocks,
  assignRoles,
  bodySize,
  deferFootnotes,
  headingShaped,
  inferHeadings,
  fontStyleFromName,
  monospaceBody,
  vocabulary,
} from './blocks';
import type { FontStyle, StructuredPage } from './blocks';
import { itemsToRuns, multiply, readingOrder } from './layout';
import type { PdfTextItem, TextLine } from './layout';
import { cleanTitle, placeSections, resolveOutline } from './outline';
import type { OutlineSource, OutlineTarget } from './outline';
import { removePageFurniture } from './page-furniture';
import type { PageText } from './page-furniture';
import { lowConfidenceWarning, ocrBlocks, sharedOcr } from '../ocr/ocr-pages';
import type { PageRecognizer } from '../ocr/ocr-pages';
import { loadPdfjs, pdfjsDataPaths } from './pdfjs-loader';
import { readScannedPages, SPARSE_PAGE_CHARS } from './scanned-pages';

/** Without OCR: below this many characters per page on average, a PDF is taken for scanned images. */
const MIN_CHARS_PER_PAGE = 8;
/** Page numbers listed in one warning before it says "and N more". */
const LISTED_PAGES = 10;

/** A page after layout. */
interface PageResult extends PageText {
  /** Maps a point in PDF user space to the page's reading frame; for outline destinations. */
  toFrame: (x: number, y: number) => { x: number; y: number };
}

/**
 * PDF via pdfjs-dist (legacy build, no eval, no font rendering). Each page's text items are laid
 * out into lines in reading order (columns detected from gutters), running headers, footers and
 * page numbers are removed, and lines are assembled into paragraphs, lists, tables and code with
 * their page numbers. Sections come from the outline (bookmarks) when the file has one, otherwise
 * from font size and weight.
 *
 * Pages without a text layer (scans), and pages with little text that paint an image (a scan
 * with a printed header), are rendered at 300 dpi and read by OCR: their blocks are marked `ocr`
 * with the page's confidence, and take the section of the text before them. Other pages keep
 * their real text.
 *
 * Errors are permanent: ENCRYPTED_DOCUMENT (a password is needed), CORRUPT_DOCUMENT (not a PDF,
 * truncated, broken structure, or no page readable), NO_TEXT_LAYER (scanned images only, with OCR
 * switched off), EMPTY_DOCUMENT (zero bytes, or no text even by OCR). Pages that fail on their own
 * are skipped with a warning naming them.
 */
export class PdfParser implements Parser {
  readonly mediaTypes = ['application/pdf'] as const;

  /**
   * `ocr: false` switches OCR off: a scanned PDF then fails with NO_TEXT_LAYER. `limits`: a PDF
   * with more pages than `maxPages` is refused as soon as it is opened, before any page is read.
   */
  constructor(
    private readonly options: {
      ocr?: (() => PageRecognizer) | false;
      limits?: Pick<DocumentLimits, 'maxPages'>;
    } = {},
  ) {}

  async parse(input: ParseInput): Promise<ParsedDocument> {
    const { fileName, data } = input;
    if (data.length === 0) {
      throw new PermanentDocumentError(TroveErrorCode.EmptyDocument, `${fileName} is empty (0 bytes)`);
    }
    const pdfjs = await loadPdfjs();
    const task = pdfjs.getDocument({
      // A copy: pdfjs transfers (detaches) the buffer it is given.
      data: new Uint8Array(data),
      // Fonts may embed PostScript functions; never compile them (CVE-2024-4367).
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      // Text needs no images: skipping them keeps the operator lists for bold detection cheap.
      maxImageSize: 0,
      verbosity: 0,
      ...pdfjsDataPaths(),
    });
    let doc: PDFDocumentProxy;
    try {
      doc = await task.promise;
    } catch (error) {
      await task.destroy().catch(() => undefined);
      throw openError(fileName, data, error);
    }
    try {
      checkDocumentLimit(this.options.limits ?? DEFAULT_DOCUMENT_LIMITS, 'maxPages', fileName, doc.numPages);
      return await this.read(fileName, data, doc, input.ocr !== false);
    } catch (error) {
      if (error instanceof PermanentDocumentError) throw error;
      throw new PermanentDocumentError(
        TroveErrorCode.ParseFailed,
        `${fileName}: the PDF could not be read (${reason(error)})`,
        error,
      );
    } finally {
      await doc.destroy().catch(() => undefined);
    }
  }

  private async read(
    fileName: string,
    data: Buffer,
    doc: PDFDocumentProxy,
    projectOcr: boolean,
  ): Promise<ParsedDocument> {
    const warnings: string[] = [];
    const info = await doc.getMetadata().catch(() => undefined);
    const outline = await resolveOutline(doc as unknown as OutlineSource).catch(() => {
      warnings.push('the outline (bookmarks) could not be read; sections are inferred from fonts');
      return [] as OutlineTarget[];
    });
    // A lone bookmark (often just the title) says nothing about sections; fonts say more.
    const sectioned = outline.length >= 2;
    const fontStyles = new Map<string, FontStyle>();
    const pages: PageResult[] = [];
    const failed: { page: number; reason: string }[] = [];
    for (let number = 1; number <= doc.numPages; number++) {
      let page: PDFPageProxy | undefined;
      try {
        page = await doc.getPage(number);
        pages.push(await readPage(page, sectioned ? undefined : fontStyles));
      } catch (error) {
        failed.push({ page: number, reason: reason(error) });
      } finally {
        page?.cleanup();
      }
    }

    if (pages.length === 0) {
      const first = failed[0];
      throw new PermanentDocumentError(
        TroveErrorCode.CorruptDocument,
        `${fileName} is damaged: no page could be read (page ${first?.page ?? 1}: ${first?.reason ?? 'no pages'})`,
      );
    }
    if (failed.length) {
      warnings.push(
        `${pageList(failed.map((f) => f.page))} could not be read and ${failed.length > 1 ? 'are' : 'is'} missing (${failed[0].reason})`,
      );
    }

    const ocrOff = this.options.ocr === false || !projectOcr;
    const ocr = ocrOff ? undefined : (this.options.ocr || sharedOcr)();
    const { scanned, ocrRan } = ocr
      ? await this.readScans(data, pages, ocr, warnings)
      : { scanned: new Map<number, OcrPageResult>(), ocrRan: false };
    // A page read by OCR is read whole: its few words of text layer are in the OCR text too.
    for (const page of pages) if (scanned.has(page.number)) page.lines = [];

    removePageFurniture(pages);
    const chars = pages.reduce((sum, page) => sum + countChars(page.lines), 0);
    if (!ocr && chars < MIN_CHARS_PER_PAGE * pages.length) {
      throw new PermanentDocumentError(
        TroveErrorCode.NoTextLayer,
        `${fileName}: no text layer: scanned PDF, and OCR is switched off${projectOcr ? '' : ' for this project'}`,
      );
    }
    const blank = pages
      .filter((page) => countChars(page.lines) === 0 && !scanned.has(page.number))
      .map((page) => page.number);
    if (blank.length) warnings.push(`${pageList(blank)} ${blank.length > 1 ? 'have' : 'has'} no text`);

    const body = bodySize(pages);
    const notes = new Map(pages.map((page) => [page.number, deferFootnotes(page, body)]));
    const headings = sectioned
      ? new Map<TextLine, { level: number }>()
      : inferHeadings(pages, body, fontStyles);
    const structured: StructuredPage[] = pages.map((page) => {
      const targets = (sectioned ? outline : [])
        .filter((target) => target.pageIndex === page.number - 1)
        .map((target) => ({ path: target.path, point: destinationPoint(page, target) }));
      const sections = placeSections(page.lines, targets);
      const skip = new Set(sections.flatMap((s) => s.titleLines));
      return {
        ...page,
        roles: assignRoles(page, headings, skip),
        sections,
        notes: notes.get(page.number) ?? [],
      };
    });
    const blocks = withOcrBlocks(
      chars > 0
        ? assembleBlocks(structured, { monoBody: monospaceBody(pages), words: vocabulary(pages) })
        : [],
      scanned,
    );
    if (blocks.length === 0) {
      throw new PermanentDocumentError(
        TroveErrorCode.EmptyDocument,
        `${fileName} has no text content${ocrRan ? ' (OCR recognised no text on its scanned pages)' : ''}`,
      );
    }

    const metadata = documentMetadata(info?.info);
    if (scanned.size) {
      const confidences = [...scanned.values()].map((result) => result.confidence);
      metadata.ocrConfidence = String(
        Math.round(confidences.reduce((a, b) => a + b, 0) / confidences.length),
      );
    }
    const title =
      meaningfulTitle(metadata.title) ??
      outline[0]?.path[0] ??
      firstLargeHeading(structured, body) ??
      basename(fileName, extname(fileName));
    return {
      title,
      metadata,
      blocks,
      pageCount: doc.numPages,
      ...(warnings.length ? { warnings } : {}),
    };
  }

  /** OCR of the pages with little or no text layer; what went wrong goes to the warnings. */
  private async readScans(
    data: Buffer,
    pages: readonly PageResult[],
    ocr: PageRecognizer,
    warnings: string[],
  ): Promise<{ scanned: Map<number, OcrPageResult>; ocrRan: boolean }> {
    const sparse = pages
      .map((page) => ({ number: page.number, chars: countChars(page.lines) }))
      .filter((page) => page.chars < SPARSE_PAGE_CHARS);
    const { read, failed } = await readScannedPages(data, sparse, ocr, pages.length);
    if (failed.length) {
      warnings.push(`${pageList(failed.map((f) => f.page))} could not be read by OCR (${failed[0].reason})`);
    }
    const low = lowConfidenceWarning(
      [...read].map(([page, result]) => ({ page, confidence: result.confidence })),
    );
    if (low) warnings.push(low);
    const ocrRan = read.size > 0;
    // A page OCR found nothing on keeps what its text layer has.
    for (const [page, result] of read) if (!result.text) read.delete(page);
    return { scanned: read, ocrRan };
  }
}

/**
 * OCR'd pages' blocks placed among the text blocks in page order; each takes the section (heading
 * path) of the text before it, since a scan carries no outline of its own.
 */
function withOcrBlocks(blocks: ParsedBlock[], scanned: Map<number, OcrPageResult>): ParsedBlock[] {
  if (scanned.size === 0) return blocks;
  const merged: ParsedBlock[] = [];
  const pending = [...scanned.entries()].sort(([a], [b]) => a - b);
  const flushUntil = (page: number) => {
    while (pending.length && pending[0][0] < page) {
      const [number, result] = pending.shift()!;
      merged.push(...ocrBlocks(number, result, merged.at(-1)?.headingPath ?? []));
    }
  };
  for (const block of blocks) {
    flushUntil(block.page ?? Infinity);
    merged.push(block);
  }
  flushUntil(Infinity);
  return merged;
}

/**
 * One page's lines. With `fontStyles` (no outline: headings come from fonts), short lines in a font
 * not seen before trigger one operator-list pass, the only way pdfjs tells font names, and the
 * page's fonts are recorded as bold, italic or neither.
 */
async function readPage(
  page: PDFPageProxy,
  fontStyles: Map<string, FontStyle> | undefined,
): Promise<PageResult> {
  const viewport = page.getViewport({ scale: 1 });
  const transform = viewport.transform;
  const content = await page.getTextContent();
  const monoFonts = new Set(
    Object.entries(content.styles)
      .filter(([, style]) => style.fontFamily === 'monospace')
      .map(([font]) => font),
  );
  const items = content.items.filter((item): item is PdfTextItem & typeof item => 'str' in item);
  const { runs, frame } = itemsToRuns(items, transform, monoFonts);
  const lines = readingOrder(runs);
  if (
    fontStyles &&
    lines.some((line) => headingShaped(line.text) && line.fonts.some((f) => !fontStyles.has(f)))
  ) {
    await recordFontStyles(page, Object.keys(content.styles), fontStyles);
  }
  return {
    number: page.pageNumber,
    height: viewport.height,
    lines,
    toFrame: (x, y) => {
      const [vx, vy] = multiply(transform, [1, 0, 0, 1, x, y]).slice(4);
      return frame(vx, vy);
    },
  };
}

async function recordFontStyles(page: PDFPageProxy, fonts: string[], fontStyles: Map<string, FontStyle>) {
  try {
    await page.getOperatorList();
  } catch {
    // Without font names the page's fonts count as regular; headings then come from size alone.
  }
  for (const font of fonts) {
    if (fontStyles.has(font)) continue;
    const loaded = page.commonObjs.has(font) ? (page.commonObjs.get(font) as { name?: unknown }) : {};
    fontStyles.set(font, fontStyleFromName(typeof loaded.name === 'string' ? loaded.name : ''));
  }
}

/** The first inferred heading set clearly larger than the body text. */
function firstLargeHeading(pages: readonly StructuredPage[], body: number): string | undefined {
  for (const page of pages) {
    for (const [i, role] of page.roles.entries()) {
      if (role.kind === 'heading' && page.lines[i].size >= body * 1.2) return role.text;
    }
  }
  return undefined;
}

function destinationPoint(page: PageResult, target: OutlineTarget): { x?: number; y: number } | undefined {
  if (target.top === undefined) return undefined;
  const point = page.toFrame(target.left ?? 0, target.top);
  return { x: target.left === undefined ? undefined : point.x, y: point.y };
}

function countChars(lines: readonly TextLine[]): number {
  return lines.reduce((sum, line) => sum + line.text.replace(/\s/g, '').length, 0);
}

function pageList(numbers: number[]): string {
  const shown = numbers.slice(0, LISTED_PAGES).join(', ');
  const more = numbers.length > LISTED_PAGES ? ` and ${numbers.length - LISTED_PAGES} more` : '';
  return `${numbers.length > 1 ? 'pages' : 'page'} ${shown}${more}`;
}

function reason(error: unknown): string {
  const message =
    error instanceof Error || (error && typeof error === 'object' && 'message' in error)
      ? String((error as { message: unknown }).message)
      : String(error);
  return message.split('\n')[0].trim() || 'unknown error';
}

/** pdfjs rejects with its own exception classes, told apart by `name`. */
function openError(fileName: string, data: Buffer, error: unknown): PermanentDocumentError {
  const name = error && typeof error === 'object' && 'name' in error ? String(error.name) : '';
  if (name === 'PasswordException') {
    // pdfjs has already tried the empty user password, which opens owner-password-only files.
    return new PermanentDocumentError(
      TroveErrorCode.EncryptedDocument,
      `${fileName} is password-protected: it does not open without a password`,
      error,
    );
  }
  // A complete PDF ends with `%%EOF` (give or take trailing white space or junk).
  const tail = data.subarray(Math.max(0, data.length - 2048)).toString('latin1');
  const problem = !data.subarray(0, 1024).includes('%PDF-')
    ? 'it is not a PDF (no %PDF- header)'
    : tail.includes('%%EOF')
      ? 'its structure is broken'
      : 'it looks truncated (no %%EOF at the end)';
  return new PermanentDocumentError(
    TroveErrorCode.CorruptDocument,
    `${fileName} cannot be opened: ${problem} (pdfjs: ${reason(error)})`,
    error,
  );
}

/** Producers put file names, tool names and placeholders in /Title; those are no title. */
function meaningfulTitle(title: string | undefined): string | undefined {
  if (!title) return undefined;
  const cleaned = title.replace(/^Microsoft (?:Word|PowerPoint|Excel) - /i, '').trim();
  if (!/\p{L}/u.test(cleaned)) return undefined;
  if (/\.(?:exe|docx?|pptx?|xlsx?|pdf|tex|dvi|indd|qxd|rtf|odt|txt|html?|ps)$/i.test(cleaned))
    return undefined;
  if (/^(?:untitled|title|document|unknown|none|null|slide \d+|\s*)$/i.test(cleaned)) return undefined;
  return cleaned;
}

/** The document information dictionary, flattened to strings; PDF dates become ISO 8601. */
function documentMetadata(info: unknown): Record<string, string> {
  const metadata: Record<string, string> = {};
  if (!info || typeof info !== 'object') return metadata;
  const fields: Record<string, string> = {
    Title: 'title',
    Author: 'author',
    Subject: 'subject',
    Keywords: 'keywords',
    Creator: 'creator',
    Producer: 'producer',
    CreationDate: 'createdAt',
    ModDate: 'modifiedAt',
    Language: 'language',
  };
  for (const [field, key] of Object.entries(fields)) {
    const value = cleanTitle((info as Record<string, unknown>)[field]);
    if (!value) continue;
    metadata[key] = field.endsWith('Date') ? (pdfDate(value) ?? value) : value;
  }
  return metadata;
}

/** `D:20200806055139-04'00'` → `2020-08-06T09:51:39.000Z`. */
function pdfDate(value: string): string | undefined {
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?/.exec(value);
  if (!m) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, oh = '00', om = '00'] = m;
  const offset = sign === '+' || sign === '-' ? (Number(oh) * 60 + Number(om)) * (sign === '-' ? -1 : 1) : 0;
  const utc =
    Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) - offset * 60_000;
  return Number.isFinite(utc) ? new Date(utc).toISOString() : undefined;
}
