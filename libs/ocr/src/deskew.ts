/** The page is looked at this wide to find its skew: lines of 8 pt type are still a few pixels tall. */
const SAMPLE_WIDTH = 800;
/** Skews searched, in degrees either way; a scan turned further is a rotated page, not a skewed one. */
const MAX_SKEW = 5;
/** Below this the page is taken as level (Tesseract copes with a fraction of a degree). */
const MIN_SKEW = 0.1;

/**
 * The angle, in degrees clockwise, that the lines of text on a page are turned by: the shear of
 * the dark pixels that makes their rows' counts most uneven (text lines and the gaps between them
 * line up only at the right angle). Searched every 0.5° within ±5°, then every 0.05° around the
 * best; 0 on a page without enough ink to tell.
 */
export function skewAngle(pixels: Uint8Array, width: number, height: number): number {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (pixels[row + x] < 128) {
        xs.push(x);
        ys.push(y);
      }
    }
  }
  if (xs.length < 200) return 0;
  const counts = new Float64Array(height + 2 * Math.ceil(width * Math.tan((MAX_SKEW * Math.PI) / 180)) + 2);
  const offset = (counts.length - height) / 2;
  const score = (degrees: number) => {
    const slope = Math.tan((degrees * Math.PI) / 180);
    counts.fill(0);
    for (let i = 0; i < xs.length; i++) counts[Math.round(ys[i] - xs[i] * slope + offset)]++;
    let sum = 0;
    for (let i = 1; i < counts.length; i++) sum += (counts[i] - counts[i - 1]) ** 2;
    return sum;
  };
  const best = (from: number, to: number, step: number) => {
    let angle = 0;
    let top = -Infinity;
    for (let a = from; a <= to + 1e-9; a += step) {
      const s = score(a);
      if (s > top) [angle, top] = [a, s];
    }
    return angle;
  };
  const coarse = best(-MAX_SKEW, MAX_SKEW, 0.5);
  return best(coarse - 0.5, coarse + 0.5, 0.05);
}

/** The page's skew (see `skewAngle`), measured on a copy `SAMPLE_WIDTH` pixels wide; 0 below `MIN_SKEW`. */
export async function measureSkew(pixels: Uint8Array, width: number, height: number): Promise<number> {
  const { default: sharp } = await import('sharp');
  const sample = await sharp(pixels, { raw: { width, height, channels: 1 } })
    .resize({ width: Math.min(width, SAMPLE_WIDTH) })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const angle = skewAngle(sample.data, sample.info.width, sample.info.height);
  return Math.abs(angle) < MIN_SKEW ? 0 : angle;
}
