/**
 * Run by parse-sandbox.spec.ts in a plain Node process: an image read by OCR in a thread, the same
 * image stopped in the middle of OCR (20 ms, once the thread and its OCR worker are warm), then
 * read again by the thread that replaces it; then a two-page TIFF, its pages heard as progress.
 */
import { isTroveError } from '@trove/domain';
import { ocrFixture } from '@trove/ocr/testing';
import sharp from 'sharp';
import { ParseSandbox } from './parse-sandbox';

async function main() {
  const sandbox = new ParseSandbox({ timeoutMs: 60_000, maxMemoryMb: 256, threads: 1 });
  const scan = { fileName: 'scan.png', mediaType: 'image/png', data: ocrFixture('english').image };
  const texts = (doc: { blocks: { text: string; ocr?: boolean; page?: number }[] }) =>
    doc.blocks.map((b) => ({ text: b.text, ocr: b.ocr, page: b.page }));
  const result: Record<string, unknown> = { first: texts(await sandbox.parse(scan)) };
  try {
    await sandbox.parse(scan, { timeoutMs: 20 });
    result.stopped = 'parsed';
  } catch (error) {
    result.stopped = isTroveError(error) ? { code: error.code, permanent: error.permanent } : String(error);
  }
  result.afterwards = texts(await sandbox.parse(scan));
  const second = await sharp(ocrFixture('chinese').image)
    .extend({ bottom: 240, background: '#ffffff' })
    .toBuffer();
  const tiff = await sharp([ocrFixture('english').image, second], { join: { animated: true } })
    .tiff()
    .toBuffer();
  const progress: number[] = [];
  const twoPages = await sandbox.parse(
    { fileName: 'scan.tiff', mediaType: 'image/tiff', data: tiff },
    { onProgress: (page) => progress.push(page) },
  );
  result.tiff = { pages: twoPages.pageCount, progress };
  await sandbox.close();
  process.stdout.write(JSON.stringify(result));
}

void main();
