import type { GreyImage, OcrPageResult } from '@trove/ocr';
import { loadPdfjs, pdfjsDataPaths } from './pdfjs-loader';
import { readScannedPages } from './scanned-pages';

/**
 * A born-digital PDF page as if it had been scanned: drawn at 300 dpi as OCR sees a scanned page,
 * with the text of its text layer in the order the file writes it (lines kept, a blank line at
 * each gap), which for a typeset page is its reading order: the ground truth for OCR benchmarks.
 */
export async function scanOfPdfPage(data: Buffer, page: number): Promise<{ image: GreyImage; text: string }> {
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
    let text = '';
    for (const item of content.items) {
      if (!('str' in item)) continue;
      text += item.str + (item.hasEOL ? '\n' : '');
    }
    return { image, text };
  } finally {
    await doc.destroy();
  }
}
