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
