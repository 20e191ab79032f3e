import { ocrFixture } from '@trove/ocr/testing';
import sharp from 'sharp';

/** A Letter page scanned at 300 dpi: the English and Russian fixtures stacked, as a greyscale JPEG. */
export async function scannedLetterJpeg(): Promise<{ jpeg: Buffer; width: number; height: number }> {
  const width = 2550;
  const height = 3300;
  const parts = [ocrFixture('english').image, ocrFixture('russian').image, ocrFixture('english').image];
  let top = 150;
  const composites = [];
  for (const input of parts) {
    composites.push({ input, left: 200, top });
    top += (await sharp(input).metadata()).height + 100;
  }
  const jpeg = await sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .composite(composites)
    .greyscale()
    .jpeg({ quality: 85 })
    .toBuffer();
  return { jpeg, width, height };
}
