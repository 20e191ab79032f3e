import { basename, extname } from 'node:path';
import type { DocumentLimits, ParsedBlock, ParsedDocument, ParseInput, Parser } from '@trove/domain';
import {
  checkDocumentLimit,
  DEFAULT_DOCUMENT_LIMITS,
  documentOverLimit,
  IMAGE_MEDIA_TYPES,
  MEDIA_TYPES,
  PermanentDocumentError,
  TroveErrorCode,
} from '@trove/domain';
import type { Sharp, SharpOptions } from 'sharp';
import type { GreyImage } from '@trove/ocr';
import { lowConfidenceWarning, ocrBlocks, recognizePage, sharedOcr } from '../ocr/ocr-pages';
import type { OcrFailure, PageRecognizer } from '../ocr/ocr-pages';

/**
 * The document limits an image is held to: `maxPixels` per image (per TIFF page; a decompression
 * bomb or a poster is refused from its header, before any pixel is decoded) and `maxPages`
 * (a TIFF's pages).
 */
export type ImageLimits = Pick<DocumentLimits, 'maxPixels' | 'maxPages'>;

/** Larger images are scaled down to this many pixels before OCR (a 300-dpi A4 page is 8.7 MP). */
const OCR_PIXELS = 25_000_000;

type SharpFactory = (input: Buffer, options: SharpOptions) => Sharp;
let loadingSharp: Promise<SharpFactory> | undefined;

/** sharp (libvips) is loaded on the first image, so threads that never see one do not pay for it. */
function loadSharp(): Promise<SharpFactory> {
  loadingSharp ??= import('sharp').then((module) => module.default as unknown as SharpFactory);
  return loadingSharp;
}

/** Resolutions outside this range are taken for a missing or made-up value (72 dpi is a default). */
const PLAUSIBLE_DPI = { min: 100, max: 1200 };

const FORMAT_NAMES: Record<string, string> = {
  [MEDIA_TYPES.png]: 'PNG',
  [MEDIA_TYPES.jpeg]: 'JPEG',
  [MEDIA_TYPES.tiff]: 'TIFF',
  [MEDIA_TYPES.webp]: 'WebP',
  [MEDIA_TYPES.gif]: 'GIF',
};

/**
 * Images as documents, read by OCR: PNG, JPEG (turned upright by its EXIF orientation), TIFF (every
 * page, each a citation page), WebP and GIF (the first frame). Pixels are decoded by sharp (libvips)
 * with a pixel limit checked before decoding, flattened onto white, turned grey and handed to the
 * OCR pool. Every block is marked `ocr` with its page's mean confidence.
 *
 * Errors are permanent: EMPTY_DOCUMENT (zero bytes, or no text recognised), CORRUPT_DOCUMENT (the
 * image cannot be decoded), PARSE_LIMIT_EXCEEDED (more pixels than `maxPixels`, or every page over
 * the OCR time limit). Pages that time out alone are named in the warnings.
 */
export class ImageParser implements Parser {
  readonly mediaTypes = IMAGE_MEDIA_TYPES;

  constructor(
    private readonly ocr: () => PageRecognizer = sharedOcr,
    private readonly limits: ImageLimits = DEFAULT_DOCUMENT_LIMITS,
  ) {}

  async parse(input: ParseInput): Promise<ParsedDocument> {
    const { fileName, data, mediaType } = input;
    const format = FORMAT_NAMES[mediaType] ?? mediaType;
    if (data.length === 0) {
      throw new PermanentDocumentError(TroveErrorCode.EmptyDocument, `${fileName} is empty (0 bytes)`);
    }
    if (input.ocr === false) {
      throw new PermanentDocumentError(
        TroveErrorCode.NoTextLayer,
        `${fileName} is an image (${format}): its text is read by OCR, which is switched off for this project`,
      );
    }
    const sharp = await loadSharp();
    const metadata = await sharp(data, { limitInputPixels: false })
      .metadata()
      .catch((error: unknown) => {
        throw decodeError(fileName, format, error, this.limits);
      });
    // Only a TIFF's pages are pages of a document; an animated GIF or WebP is read by its first frame.
    const pageCount = mediaType === MEDIA_TYPES.tiff ? Math.max(1, metadata.pages ?? 1) : 1;
    checkDocumentLimit(this.limits, 'maxPages', fileName, pageCount);
    // The first page's size, from the header: a bomb is refused before anything is decoded.
    checkDocumentLimit(
      this.limits,
      'maxPixels',
      pageCount > 1 ? `${fileName} (page 1)` : fileName,
      (metadata.width ?? 0) * (metadata.pageHeight ?? metadata.height ?? 0),
    );

    const blocks: ParsedBlock[] = [];
    const confidences: { page: number; confidence: number }[] = [];
    const failed: OcrFailure[] = [];
    const ocr = this.ocr();
    for (let index = 0; index < pageCount; index++) {
      const page = index + 1;
      const image = await pagePixels(sharp, data, index, this.limits).catch((error: unknown) => {
        throw decodeError(fileName, format, error, this.limits, pageCount > 1 ? page : undefined);
      });
      const outcome = await recognizePage(ocr, page, image, pageCount);
      if (!outcome.ok) {
        failed.push(outcome.failure);
        continue;
      }
      confidences.push({ page, confidence: outcome.result.confidence });
      blocks.push(...ocrBlocks(page, outcome.result));
    }

    const warnings: string[] = [];
    if (failed.length === pageCount) {
      throw new PermanentDocumentError(
        TroveErrorCode.ParseLimitExceeded,
        `${fileName}: ${failed[0].reason}${pageCount > 1 ? ' (on every page)' : ''}`,
      );
    }
    if (failed.length) {
      warnings.push(
        `${failed.length > 1 ? 'pages' : 'page'} ${failed.map((f) => f.page).join(', ')} could not be read (${failed[0].reason})`,
      );
    }
    const low = lowConfidenceWarning(confidences);
    if (low) warnings.push(low);
    if (blocks.length === 0) {
      throw new PermanentDocumentError(
        TroveErrorCode.EmptyDocument,
        `${fileName}: no text was recognised in the ${format} image${pageCount > 1 ? 's' : ''}`,
      );
    }
    const mean = Math.round(confidences.reduce((sum, c) => sum + c.confidence, 0) / confidences.length);
    return {
      title: basename(fileName, extname(fileName)),
      metadata: { ocrConfidence: String(mean) },
      blocks,
      pageCount,
      ...(warnings.length ? { warnings } : {}),
    };
  }
}

/**
 * One page (frame) upright, on white, grey, scaled down to `ocrPixels` if larger. The pixel limit
 * is checked by libvips from the header, before any pixel is decoded.
 */
async function pagePixels(
  sharp: SharpFactory,
  data: Buffer,
  page: number,
  limits: ImageLimits,
): Promise<GreyImage> {
  const image = sharp(data, {
    page,
    pages: 1,
    limitInputPixels: limits.maxPixels,
    autoOrient: true,
    // Tolerates what viewers tolerate (a few bad bytes in a phone's JPEG); refuses what is broken.
    failOn: 'error',
  });
  const metadata = await image.metadata();
  const { width, height } = metadata.autoOrient;
  const scale = Math.min(1, Math.sqrt(OCR_PIXELS / (width * height)));
  let pipeline = image.flatten({ background: '#ffffff' }).greyscale();
  if (scale < 1) pipeline = pipeline.resize({ width: Math.max(1, Math.floor(width * scale)) });
  const { data: pixels, info } = await pipeline
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const density = metadata.density ? metadata.density * scale : undefined;
  const dpi = density && density >= PLAUSIBLE_DPI.min && density <= PLAUSIBLE_DPI.max ? density : undefined;
  return { pixels, width: info.width, height: info.height, dpi };
}

function decodeError(
  fileName: string,
  format: string,
  error: unknown,
  limits: ImageLimits,
  page?: number,
): PermanentDocumentError {
  const message = error instanceof Error ? error.message.split('\n')[0].trim() : String(error);
  if (/pixel limit/i.test(message)) {
    return documentOverLimit(
      'maxPixels',
      page ? `${fileName} (page ${page})` : fileName,
      limits.maxPixels,
      limits.maxPixels,
      { atLeast: true },
    );
  }
  return new PermanentDocumentError(
    TroveErrorCode.CorruptDocument,
    `${fileName} cannot be read as a ${format} image${page ? ` (page ${page})` : ''}: ${message}`,
    error,
  );
}
