import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { measureSkew, skewAngle } from './deskew';
import { layoutFixture, scannedCopy } from './testing';

async function greyOf(image: Buffer) {
  const { data, info } = await sharp(image)
    .greyscale()
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height };
}

describe('measureSkew', () => {
  it('finds the angle a scan was turned by, either way, to a tenth of a degree', async () => {
    const { image } = layoutFixture('table');
    for (const degrees of [-3.5, 2]) {
      const page = await greyOf(
        await scannedCopy(image, { skewDegrees: degrees, noise: 30, specks: 0.002, seed: 1 }),
      );
      expect(
        Math.abs((await measureSkew(page.pixels, page.width, page.height)) - degrees),
        `${degrees}°`,
      ).toBeLessThanOrEqual(0.1);
    }
  });

  it('leaves a level page and a blank one as they are', async () => {
    const level = await greyOf(layoutFixture('two-column').image);
    expect(await measureSkew(level.pixels, level.width, level.height)).toBe(0);
    expect(skewAngle(new Uint8Array(400 * 300).fill(255), 400, 300)).toBe(0);
  });
});
