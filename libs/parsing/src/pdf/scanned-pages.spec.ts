import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ParsedDocument } from '@trove/domain';
import { PermanentDocumentError, TroveErrorCode } from '@trove/domain';
import { characterErrorRate, OcrPool, ocrSettingsFromEnv } from '@trove/ocr';
import { layoutFixture, ocrFixture } from '@trove/ocr/testing';
import { sharedDocuments } from '@trove/testing';
import sharp from 'sharp';
import { buildTestPdf } from './pdf-builder.testing';
import { PdfParser } from './pdf.parser';

const pool = new OcrPool(ocrSettingsFromEnv());
afterAll(() => pool.close());
const parser = new PdfParser({ ocr: () => pool });
const parse = (fileName: string, data: Buffer) =>
  parser.parse({ fileName, mediaType: 'application/pdf', data });

const english = ocrFixture('english');
const russian = ocrFixture('russian');
/** A fixture as a scanner stores it: a greyscale JPEG. */
async function scan(png: Buffer) {
  const { data, info } = await sharp(png)
    .greyscale()
    .jpeg({ quality: 90 })
    .toBuffer({ resolveWithObject: true });
  return { jpeg: data, width: info.width, height: info.height };
}
const pageText = (doc: ParsedDocument, page: number) =>
  doc.blocks
    .filter((b) => b.page === page)
    .map((b) => b.text)
    .join('\n');

const PROSE = [
  'This report describes the pumping station commissioned in the spring and the terms of its warranty.',
  'The station supplies the northern district with water and is operated by the municipal utility.',
  'Its maintenance schedule, spare parts and service contacts are listed in the appendices that follow.',
];

describe('PdfParser on scanned pages', () => {
  it('reads a scanned, image-only PDF by OCR instead of failing it', async () => {
    const doc = await parse('scan.pdf', buildTestPdf([{ image: await scan(english.image) }]));
    expect(doc.pageCount).toBe(1);
    expect(characterErrorRate(english.truth, pageText(doc, 1))).toBeLessThanOrEqual(0.03);
    for (const block of doc.blocks) {
      expect(block).toMatchObject({ page: 1, ocr: true });
      expect(block.ocrConfidence).toBeGreaterThan(70);
    }
    expect(Number(doc.metadata.ocrConfidence)).toBeGreaterThan(70);
  }, 120_000);

  it('keeps the real text of a mixed PDF and OCRs only the scanned pages, a scan under a printed header included', async () => {
    const data = buildTestPdf([
      { text: PROSE },
      { image: await scan(russian.image) },
      { text: ['Archive copy 2024-117'], image: await scan(english.image) },
      { text: ['Thank you'] },
    ]);
    const doc = await parse('mixed.pdf', data);
    expect(doc.pageCount).toBe(4);
    const page1 = doc.blocks.filter((b) => b.page === 1);
    expect(page1.map((b) => b.text).join(' ')).toBe(PROSE.join(' '));
    expect(page1.every((b) => b.ocr === undefined)).toBe(true);
    expect(characterErrorRate(russian.truth, pageText(doc, 2))).toBeLessThanOrEqual(0.05);
    expect(doc.blocks.filter((b) => b.page === 2).every((b) => b.ocr)).toBe(true);
    // The scanned page is read whole, its printed header by OCR too; the page's text layer is not repeated.
    expect(pageText(doc, 3)).toContain('Archive copy');
    expect(
      characterErrorRate(`Archive copy 2024-117\n${english.truth}`, pageText(doc, 3)),
    ).toBeLessThanOrEqual(0.03);
    // A short born-digital page without an image keeps its text and is not OCR'd.
    expect(doc.blocks.filter((b) => b.page === 4)).toMatchObject([{ text: 'Thank you' }]);
    expect(doc.blocks.find((b) => b.page === 4)?.ocr).toBeUndefined();
  }, 180_000);

  it('reads a two-column scan column by column, its headings opening sections', async () => {
    const { image, truth } = layoutFixture('two-column');
    const doc = await parse('brochure.pdf', buildTestPdf([{ image: await scan(image) }]));
    expect(doc.blocks.map((b) => [b.text.slice(0, 24), b.headingPath])).toEqual([
      ['The pump station stands ', ['Marsh Pump Station']],
      ['Each of its three engine', ['Marsh Pump Station', 'Engines']],
      ['Visitors are welcome on ', ['Marsh Pump Station', 'Engines']],
      ['The warranty on the new ', ['Marsh Pump Station', 'Warranty']],
    ]);
    const read = [...truth.headings, ...doc.blocks.map((b) => b.text)].join('\n');
    const expected = [
      ...truth.headings,
      ...truth.text.split('\n\n').filter((p) => !truth.headings.includes(p)),
    ];
    expect(characterErrorRate(expected.join('\n'), read)).toBeLessThanOrEqual(0.02);
  }, 120_000);

  it('reads the shared scanned book page (Huckleberry Finn, chapter II)', async () => {
    const data = readFileSync(join(sharedDocuments('pdf'), 'scanned-huckfinn-c02-22-imageonly.pdf'));
    const doc = await parse('scanned-huckfinn-c02-22-imageonly.pdf', data);
    const text = doc.blocks.map((b) => b.text).join('\n');
    expect(text).toContain('went tip-toeing along a path amongst');
    expect(text).toContain('Seemed like I’d die if I couldn’t scratch.');
    expect(doc.blocks.every((b) => b.ocr && b.page === 1)).toBe(true);
  }, 180_000);

  it('fails a scanned PDF with NO_TEXT_LAYER when OCR is switched off', async () => {
    const off = new PdfParser({ ocr: false });
    const data = buildTestPdf([{ image: await scan(english.image) }]);
    const error = await off
      .parse({ fileName: 'scan.pdf', mediaType: 'application/pdf', data })
      .catch((e) => e);
    expect(error).toBeInstanceOf(PermanentDocumentError);
    expect(error).toMatchObject({
      code: TroveErrorCode.NoTextLayer,
      message: 'scan.pdf: no text layer: scanned PDF, and OCR is switched off',
    });
  });

  it('fails a scanned PDF with NO_TEXT_LAYER when its project switched OCR off, saying so', async () => {
    const data = buildTestPdf([{ image: await scan(english.image) }]);
    const error = await parser
      .parse({ fileName: 'scan.pdf', mediaType: 'application/pdf', data, ocr: false })
      .catch((e) => e);
    expect(error).toMatchObject({
      code: TroveErrorCode.NoTextLayer,
      message: 'scan.pdf: no text layer: scanned PDF, and OCR is switched off for this project',
    });
  });

  it('fails a PDF of blank scans as empty, naming OCR', async () => {
    const blank = await scan(ocrFixture('blank').image);
    const error = await parse('blank.pdf', buildTestPdf([{ image: blank }])).catch((e) => e);
    expect(error).toMatchObject({
      code: TroveErrorCode.EmptyDocument,
      message: 'blank.pdf has no text content (OCR recognised no text on its scanned pages)',
    });
  }, 60_000);
});
