import { afterAll, describe, expect, it } from 'vitest';
import type { ParsedDocument } from '@trove/domain';
import { DEFAULT_DOCUMENT_LIMITS, MEDIA_TYPES, PermanentDocumentError, TroveErrorCode } from '@trove/domain';
import { characterErrorRate, OcrPool, ocrSettingsFromEnv } from '@trove/ocr';
import { ocrFixture } from '@trove/ocr/testing';
import sharp from 'sharp';
import { pngClaiming } from './image-fixtures.testing';
import { ImageParser } from './image.parser';

const pool = new OcrPool(ocrSettingsFromEnv());
afterAll(() => pool.close());
const parser = new ImageParser(() => pool);

const english = ocrFixture('english');
const russian = ocrFixture('russian');
const parse = (fileName: string, mediaType: string, data: Buffer, p: ImageParser = parser) =>
  p.parse({ fileName, mediaType, data });
const pageText = (doc: ParsedDocument, page: number) =>
  doc.blocks
    .filter((b) => b.page === page)
    .map((b) => b.text)
    .join('\n');

async function failure(promise: Promise<unknown>): Promise<PermanentDocumentError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PermanentDocumentError);
  return error as PermanentDocumentError;
}

describe('ImageParser', () => {
  it('declares the image media types', () => {
    expect([...parser.mediaTypes].sort()).toEqual([
      'image/gif',
      'image/jpeg',
      'image/png',
      'image/tiff',
      'image/webp',
    ]);
  });

  it('fails an image with NO_TEXT_LAYER when its project switched OCR off, saying so', async () => {
    const error = await failure(
      parser.parse({ fileName: 'scan.png', mediaType: MEDIA_TYPES.png, data: english.image, ocr: false }),
    );
    expect(error).toMatchObject({
      code: TroveErrorCode.NoTextLayer,
      message: 'scan.png is an image (PNG): its text is read by OCR, which is switched off for this project',
    });
  });

  it('reads a PNG by OCR: one page, paragraphs marked as OCR with the confidence', async () => {
    const doc = await parse('warranty.png', MEDIA_TYPES.png, english.image);
    expect(doc.title).toBe('warranty');
    expect(doc.pageCount).toBe(1);
    expect(doc.warnings).toBeUndefined();
    expect(characterErrorRate(english.truth, pageText(doc, 1))).toBeLessThanOrEqual(0.03);
    for (const block of doc.blocks) {
      expect(block).toMatchObject({ kind: 'paragraph', page: 1, ocr: true, headingPath: [] });
      expect(block.ocrConfidence).toBeGreaterThan(70);
    }
    expect(Number(doc.metadata.ocrConfidence)).toBeGreaterThan(70);
  }, 60_000);

  it('turns a photographed JPEG upright by its EXIF orientation before reading it', async () => {
    // Stored on its side, with EXIF orientation 6: "rotate 90° clockwise to view".
    const sideways = await sharp(english.image)
      .rotate(-90)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const doc = await parse('photo.jpg', MEDIA_TYPES.jpeg, sideways);
    expect(characterErrorRate(english.truth, pageText(doc, 1))).toBeLessThanOrEqual(0.03);
  }, 60_000);

  it('reads every page of a multi-page TIFF, each its own citation page', async () => {
    const second = await sharp(russian.image).extend({ bottom: 80, background: '#ffffff' }).toBuffer();
    const tiff = await sharp([english.image, second], { join: { animated: true } })
      .tiff({ compression: 'lzw' })
      .toBuffer();
    const doc = await parse('scan.tiff', MEDIA_TYPES.tiff, tiff);
    expect(doc.pageCount).toBe(2);
    expect(characterErrorRate(english.truth, pageText(doc, 1))).toBeLessThanOrEqual(0.03);
    expect(characterErrorRate(russian.truth, pageText(doc, 2))).toBeLessThanOrEqual(0.05);
  }, 60_000);

  it('reads a WebP, and only the first frame of an animated GIF', async () => {
    const webp = await sharp(english.image).webp({ lossless: true }).toBuffer();
    const fromWebp = await parse('board.webp', MEDIA_TYPES.webp, webp);
    expect(characterErrorRate(english.truth, pageText(fromWebp, 1))).toBeLessThanOrEqual(0.03);

    const gif = await sharp([russian.image, english.image], { join: { animated: true } })
      .gif()
      .toBuffer();
    const fromGif = await parse('slides.gif', MEDIA_TYPES.gif, gif);
    expect(fromGif.pageCount).toBe(1);
    expect(characterErrorRate(russian.truth, pageText(fromGif, 1))).toBeLessThanOrEqual(0.05);
  }, 60_000);

  it('refuses an enormous image from its header, before decoding any pixel', async () => {
    const bomb = pngClaiming(60_000, 60_000);
    const error = await failure(parse('bomb.png', MEDIA_TYPES.png, bomb));
    expect(error.code).toBe(TroveErrorCode.ParseLimitExceeded);
    expect(error.message).toBe(
      'bomb.png has 3,600,000,000 pixels, over the limit of 100,000,000 pixels per image (TROVE_DOCUMENT_MAX_PIXELS raises it)',
    );
    const strict = new ImageParser(() => pool, { ...DEFAULT_DOCUMENT_LIMITS, maxPixels: 500_000 });
    const { width, height } = await sharp(english.image).metadata();
    const large = await failure(parse('warranty.png', MEDIA_TYPES.png, english.image, strict));
    expect(large.message).toBe(
      `warranty.png has ${(width! * height!).toLocaleString('en-US')} pixels, over the limit of 500,000 pixels per image (TROVE_DOCUMENT_MAX_PIXELS raises it)`,
    );
  });

  it('refuses a TIFF of more pages than the page limit before decoding any', async () => {
    const page = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const tiff = await sharp(
      Array.from({ length: 6 }, () => page),
      { join: { animated: true } },
    )
      .tiff()
      .toBuffer();
    const few = new ImageParser(() => pool, { ...DEFAULT_DOCUMENT_LIMITS, maxPages: 5 });
    const error = await failure(parse('fax.tiff', MEDIA_TYPES.tiff, tiff, few));
    expect(error.code).toBe(TroveErrorCode.ParseLimitExceeded);
    expect(error.message).toBe(
      'fax.tiff has 6 pages, over the limit of 5 pages per document (TROVE_DOCUMENT_MAX_PAGES raises it)',
    );
  });

  it('fails a broken, an empty and a blank image with the reason', async () => {
    const broken = await failure(
      parse(
        'broken.png',
        MEDIA_TYPES.png,
        Buffer.concat([english.image.subarray(0, 8), Buffer.alloc(64, 7)]),
      ),
    );
    expect(broken.code).toBe(TroveErrorCode.CorruptDocument);
    expect(broken.message).toMatch(/^broken\.png cannot be read as a PNG image: /);

    const empty = await failure(parse('empty.jpg', MEDIA_TYPES.jpeg, Buffer.alloc(0)));
    expect(empty.code).toBe(TroveErrorCode.EmptyDocument);

    const blank = await failure(parse('white.png', MEDIA_TYPES.png, ocrFixture('blank').image));
    expect(blank.code).toBe(TroveErrorCode.EmptyDocument);
    expect(blank.message).toBe('white.png: no text was recognised in the PNG image');
  }, 60_000);
});
