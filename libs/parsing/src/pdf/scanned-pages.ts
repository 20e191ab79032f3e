import type { GreyImage, OcrPageResult } from '@trove/ocr';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist';
import { recognizePage } from '../ocr/ocr-pages';
import type { OcrFailure, PageRecognizer } from '../ocr/ocr-pages';
import { loadPdfjs, pdfjsDataPaths } from './pdfjs-loader';

/**
 * A page whose text layer has fewer characters than this is looked at as a possible scan: a
 * scanned page with a printed header or a stamp has a few words of text, a page of prose has
 * well over a thousand characters.
 */
export const SPARSE_PAGE_CHARS = 200;
/** Tesseract reads printed text best at about 300 dpi. */
const OCR_DPI = 300;
/** A rendered page is kept under this many pixels (an A4 page at 300 dpi is 8.7 million). */
const MAX_RENDER_PIXELS = 25_000_000;
/** Images larger than this in a PDF are not decoded (pdfjs skips them): decompression bombs. */
const MAX_IMAGE_PIXELS = 100_000_000;

/** A page to consider for OCR: its number and the characters its text layer has. */
export interface SparsePage {
  number: number;
  chars: number;
}

export interface ScannedPagesResult {
  /** What OCR read, by page number; only pages it was run on. */
  read: Map<number, OcrPageResult>;
  failed: OcrFailure[];
}

/**
 * Renders the pages that lack a text layer and recognises them. A page with no text at all is
 * always read; a page with a little text only when it paints an image (a scan behind a printed
 * header), so a short born-digital page (a title page, a slide) keeps its real text. The document
 * is opened a second time with images decoded (the text pass skips them).
 */
export async function readScannedPages(
  data: Buffer,
  pages: readonly SparsePage[],
  ocr: PageRecognizer,
  pageCount?: number,
): Promise<ScannedPagesResult> {
  const result: ScannedPagesResult = { read: new Map(), failed: [] };
  if (pages.length === 0) return result;
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument({
    data: new Uint8Array(data),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    maxImageSize: MAX_IMAGE_PIXELS,
    verbosity: 0,
    ...pdfjsDataPaths(),
  });
  const doc = await task.promise;
  try {
    const imageOps = new Set([
      pdfjs.OPS.paintImageXObject,
      pdfjs.OPS.paintInlineImageXObject,
      pdfjs.OPS.paintImageXObjectRepeat,
      pdfjs.OPS.paintImageMaskXObject,
    ]);
    for (const { number, chars } of pages) {
      let page: PDFPageProxy | undefined;
      try {
        page = await doc.getPage(number);
        if (chars > 0) {
          const { fnArray } = await page.getOperatorList();
          if (!fnArray.some((op) => imageOps.has(op))) continue;
        }
        const image = await renderGrey(doc, page);
        const outcome = await recognizePage(ocr, number, image, pageCount);
        if (outcome.ok) result.read.set(number, outcome.result);
        else result.failed.push(outcome.failure);
      } finally {
        page?.cleanup();
      }
    }
  } finally {
    await doc.destroy().catch(() => undefined);
  }
  return result;
}

type RenderParameters = Parameters<PDFPageProxy['render']>[0];

interface CanvasAndContext {
  canvas: { width: number; height: number };
  context: {
    getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
  };
}

interface CanvasFactory {
  create(width: number, height: number): CanvasAndContext;
  destroy(canvasAndContext: CanvasAndContext): void;
}

/** The page drawn on white at `OCR_DPI` (less for a very large page), as grey pixels. */
async function renderGrey(doc: PDFDocumentProxy, page: PDFPageProxy): Promise<GreyImage> {
  const unscaled = page.getViewport({ scale: 1 });
  let scale = OCR_DPI / 72;
  const pixels = unscaled.width * unscaled.height * scale * scale;
  if (pixels > MAX_RENDER_PIXELS) scale *= Math.sqrt(MAX_RENDER_PIXELS / pixels);
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.floor(viewport.width));
  const height = Math.max(1, Math.floor(viewport.height));
  // pdfjs's own factory: @napi-rs/canvas in Node.
  const factory = (doc as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
  const target = factory.create(width, height);
  try {
    await page.render({
      canvas: target.canvas as unknown as RenderParameters['canvas'],
      canvasContext: target.context as unknown as RenderParameters['canvasContext'],
      viewport,
      background: 'white',
    }).promise;
    const rgba = target.context.getImageData(0, 0, width, height).data;
    const grey = new Uint8Array(width * height);
    for (let i = 0, j = 0; j < grey.length; i += 4, j++) {
      // ITU-R BT.601 luma; the page is drawn on white, so alpha is opaque.
      grey[j] = (rgba[i] * 299 + rgba[i + 1] * 587 + rgba[i + 2] * 114) / 1000;
    }
    return { pixels: grey, width, height, dpi: scale * 72 };
  } finally {
    factory.destroy(target);
  }
}
