import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Printed text rendered at 300 dpi (DejaVu Serif, WenQuanYi Micro Hei), kept in the repository. */
export type OcrFixtureName = 'english' | 'russian' | 'chinese' | 'blank';

/** A fixture image (PNG) and, except for `blank`, the text it shows, line by line. */
export function ocrFixture(name: OcrFixtureName): { image: Buffer; truth: string } {
  const dir = join(__dirname, 'fixtures');
  return {
    image: readFileSync(join(dir, `${name}.png`)),
    truth: name === 'blank' ? '' : readFileSync(join(dir, `${name}.txt`), 'utf8'),
  };
}

/** What a layout fixture shows: its text in reading order, its headings and its tables' cells. */
export interface LayoutTruth {
  /** Blocks in reading order, a blank line apart; a table's rows one a line, cells a space apart. */
  text: string;
  headings: string[];
  tables: string[][][];
}

/** Pages with a layout to read in order (rendered by fixtures/render-layout-fixtures.ts). */
export type LayoutFixtureName = 'two-column' | 'table';

/** A layout fixture image (PNG, 300 dpi) and its ground truth. */
export function layoutFixture(name: LayoutFixtureName): { image: Buffer; truth: LayoutTruth } {
  const dir = join(__dirname, 'fixtures');
  return {
    image: readFileSync(join(dir, `${name}.png`)),
    truth: JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as LayoutTruth,
  };
}

/** How a clean render is made to look scanned: turned, blurred, speckled and JPEG-compressed. */
export interface ScanDamage {
  /** Rotation, degrees clockwise (a page fed askew). */
  skewDegrees: number;
  /** Standard deviation of the grey noise added to every pixel (0–255). */
  noise: number;
  /** Share of pixels turned to black or white specks. */
  specks: number;
  seed: number;
}

/**
 * A clean render as a scanner would return it (a greyscale JPEG at quality 75), damaged as
 * `damage` says; the same seed gives the same page.
 */
export async function scannedCopy(png: Buffer, damage: ScanDamage): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const { data, info } = await sharp(png)
    .greyscale()
    .rotate(damage.skewDegrees, { background: '#ffffff' })
    .blur(0.8)
    .raw()
    .toBuffer({ resolveWithObject: true });
  let state = damage.seed >>> 0;
  // mulberry32: a small seeded generator, so a damaged page is the same on every run.
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const pixels = Buffer.from(data);
  for (let i = 0; i < pixels.length; i++) {
    const speck = random();
    if (speck < damage.specks / 2) pixels[i] = 0;
    else if (speck < damage.specks) pixels[i] = 255;
    else pixels[i] = Math.max(0, Math.min(255, Math.round(pixels[i] + gaussian() * damage.noise)));
  }
  return sharp(pixels, { raw: { width: info.width, height: info.height, channels: 1 } })
    .jpeg({ quality: 75 })
    .withMetadata({ density: 300 })
    .toBuffer();
}
