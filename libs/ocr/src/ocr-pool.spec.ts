import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { characterErrorRate } from './character-error-rate';
import sharp from 'sharp';
import { languagesFor, OcrDataMissingError, OcrPool, OcrTimeoutError, tidyText } from './ocr-pool';
import type { GreyImage, OcrWorker } from './ocr-pool';
import { ocrSettingsFromEnv } from './ocr-settings';
import { layoutFixture, scannedCopy } from './testing';

/** Printed text rendered at 300 dpi, with its ground truth beside it. */
const fixture = (name: string) => ({
  image: readFileSync(join(__dirname, 'fixtures', `${name}.png`)),
  truth: readFileSync(join(__dirname, 'fixtures', `${name}.txt`), 'utf8'),
});

const grey = async (png: Buffer): Promise<GreyImage> => {
  const { data, info } = await sharp(png)
    .greyscale()
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height, dpi: 300 };
};

const settings = ocrSettingsFromEnv();
const pool = new OcrPool(settings);
afterAll(() => pool.close());

describe('OcrPool', () => {
  it('reads English, Russian and Chinese pages, each with the language of its script', async () => {
    const rates: Record<string, number> = {};
    const languages: Record<string, string[]> = {};
    for (const name of ['english', 'russian', 'chinese']) {
      const { image, truth } = fixture(name);
      const result = await pool.readPage(await grey(image));
      rates[name] = characterErrorRate(truth, result.text);
      languages[name] = result.languages;
      expect(result.confidence, name).toBeGreaterThan(70);
    }
    expect(languages).toEqual({ english: ['eng'], russian: ['rus'], chinese: ['chi_sim'] });
    expect(rates.english).toBeLessThanOrEqual(0.03);
    expect(rates.russian).toBeLessThanOrEqual(0.05);
    expect(rates.chinese).toBeLessThanOrEqual(0.1);
  }, 120_000);

  it('keeps the lines and reports a low confidence for an image without text', async () => {
    const { image } = fixture('english');
    const result = await pool.recognize(image);
    expect(result.text.split('\n')[0]).toBe('Scanned contracts and photographed whiteboards fill');
    const blank = readFileSync(join(__dirname, 'fixtures', 'blank.png'));
    expect(await pool.recognize(blank)).toEqual({
      text: '',
      blocks: [],
      confidence: 0,
      languages: settings.languages,
    });
  }, 60_000);

  describe('pages with a layout, scanned askew with specks and noise', () => {
    // Turned 2°, grey noise, 0.3% specks, JPEG: Tesseract's default segmentation (one block)
    // reads these pages with a character error rate of 0.4–0.7.
    const damage = { skewDegrees: 2, noise: 40, specks: 0.003, seed: 3 };

    it('reads a two-column page column by column and keeps its headings as headings', async () => {
      const { image, truth } = layoutFixture('two-column');
      const result = await pool.readPage(await grey(await scannedCopy(image, damage)));
      expect(characterErrorRate(truth.text, result.text)).toBeLessThanOrEqual(0.02);
      const kinds = result.blocks.map((b) => (b.kind === 'heading' ? `h${b.level} ${b.text}` : b.kind));
      expect(kinds).toEqual([
        'h1 Marsh Pump Station',
        'paragraph',
        'h2 Engines',
        'paragraph',
        'paragraph',
        'h2 Warranty',
        'paragraph',
      ]);
    }, 60_000);

    it('returns a table as its grid of cells, filled with the text read in each', async () => {
      const { image, truth } = layoutFixture('table');
      const result = await pool.readPage(await grey(await scannedCopy(image, damage)));
      const tables = result.blocks.flatMap((b) => (b.kind === 'table' ? [b.rows] : []));
      expect(tables).toEqual(truth.tables);
      expect(result.blocks.map((b) => b.kind)).toEqual(['heading', 'paragraph', 'table', 'paragraph']);
      expect(characterErrorRate(truth.text, result.text)).toBeLessThanOrEqual(0.02);
    }, 60_000);
  });

  it('never runs more pages at once than it has workers', async () => {
    const { image } = fixture('chinese');
    await Promise.all([pool.recognize(image), pool.recognize(image), pool.recognize(image)]);
    expect(pool.workerCount).toBe(settings.workers);
  }, 120_000);

  it('stops a page over its time limit and reads the next one with a new worker', async () => {
    const hasty = new OcrPool({ ...settings, workers: 1, pageTimeoutMs: 1 });
    try {
      await expect(hasty.recognize(fixture('english').image)).rejects.toBeInstanceOf(OcrTimeoutError);
      expect(hasty.workerCount).toBe(0);
    } finally {
      await hasty.close();
    }
  }, 60_000);

  it('stops a worker that stays idle, and starts one for the next page', async () => {
    const resting = new OcrPool({ ...settings, languages: ['eng'], workers: 1, idleMs: 50 });
    const blank = readFileSync(join(__dirname, 'fixtures', 'blank.png'));
    try {
      await resting.recognize(blank);
      expect(resting.workerCount).toBe(1);
      await vi.waitFor(() => expect(resting.workerCount).toBe(0), { timeout: 30_000, interval: 20 });
      const { text } = await resting.recognize(fixture('english').image);
      expect(text.split('\n')[0]).toBe('Scanned contracts and photographed whiteboards fill');
      expect(resting.workerCount).toBe(1);
    } finally {
      await resting.close();
    }
    expect(resting.workerCount).toBe(0);
  }, 60_000);

  describe('a page given up while its worker is between two jobs', () => {
    /** A Tesseract worker whose jobs end when the test says; it records what it was asked. */
    function scriptedWorker() {
      const calls: string[] = [];
      const pending: Record<string, () => void> = {};
      const job = (name: string) => () => {
        calls.push(name);
        return new Promise<never>((resolve) => {
          pending[name] = () => resolve(undefined as never);
        });
      };
      const worker = {
        reinitialize: job('reinitialize'),
        setParameters: job('setParameters'),
        recognize: job('recognize'),
        terminate: () => {
          calls.push('terminate');
          return Promise.resolve(undefined as never);
        },
      } as unknown as OcrWorker;
      return { worker, calls, finish: (name: string) => pending[name]() };
    }
    const blank = () => readFileSync(join(__dirname, 'fixtures', 'blank.png'));

    it('sends it no further job once it is stopped', async () => {
      const scripted = scriptedWorker();
      const hasty = new OcrPool({ ...settings, workers: 1, pageTimeoutMs: 20 }, () =>
        Promise.resolve(scripted.worker),
      );
      await expect(hasty.recognize(blank())).rejects.toBeInstanceOf(OcrTimeoutError);
      expect(scripted.calls).toEqual(['setParameters', 'terminate']);
      // The job's answer comes after all: the page goes no further on a stopped worker.
      scripted.finish('setParameters');
      await new Promise((resolve) => setImmediate(resolve));
      expect(scripted.calls).toEqual(['setParameters', 'terminate']);
    });

    it('stops it once a reinitialize (two jobs in a row) has ended', async () => {
      const scripted = scriptedWorker();
      const hasty = new OcrPool({ ...settings, workers: 1, pageTimeoutMs: 20 }, () =>
        Promise.resolve(scripted.worker),
      );
      const other = settings.languages.length > 1 ? settings.languages.slice(0, 1) : ['deu'];
      await expect(hasty.recognize(blank(), { languages: other })).rejects.toBeInstanceOf(OcrTimeoutError);
      expect(scripted.calls).toEqual(['reinitialize']);
      scripted.finish('reinitialize');
      await vi.waitFor(() => expect(scripted.calls).toEqual(['reinitialize', 'terminate']));
    });
  });

  it('names the missing language data and the script that installs it', async () => {
    const lost = new OcrPool({ ...settings, languages: ['eng', 'xyz'] });
    const error = await lost.recognize(fixture('english').image).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcrDataMissingError);
    expect((error as Error).message).toBe(
      `OCR language data is missing for xyz in ${settings.dataDir}: run infra/local/install-ocr-data.sh (or set TROVE_OCR_DATA_DIR)`,
    );
  });
});

describe('languagesFor', () => {
  const all = ['eng', 'rus', 'chi_sim'];
  it('keeps the languages of the scripts that make up a real share of the letters', () => {
    expect(languagesFor('The branches wouldn’t scrape our heads. Е: Че', all)).toEqual(['eng']);
    expect(languagesFor('Гарантийный срок (warranty) составляет два года', all)).toEqual(['eng', 'rus']);
    expect(languagesFor('泵站的保修期为二十四个月', all)).toEqual(['chi_sim']);
    expect(languagesFor('12 345', all)).toEqual(all);
  });
});

describe('tidyText', () => {
  it('joins CJK characters Tesseract spaced out and keeps spaces between words', () => {
    expect(tidyText('泵 站 的 保 修 期 。 \nThe  pump  \n\n\n\nend')).toBe(
      '泵站的保修期。\nThe  pump\n\nend',
    );
  });
});

describe('characterErrorRate', () => {
  it('counts edits over the length of the truth, ignoring layout', () => {
    expect(characterErrorRate('the pump\nstation', 'the pump station')).toBe(0);
    expect(characterErrorRate('abcd', 'abed')).toBe(0.25);
  });
});
