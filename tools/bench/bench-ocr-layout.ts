/**
 * OCR of pages with a layout: character error rate against the ground truth in reading order, the
 * headings and table cells recovered, and seconds per page, for Trove's OCR (automatic page
 * segmentation, specks removed, page levelled, headings and table grids) against the baseline of
 * the same run: Tesseract called as Trove called it before, on its default segmentation (the page
 * as one block of text) with no clean-up. Same worker settings, same language, same pages, the two
 * interleaved page by page. Pages: the layout fixtures (libs/ocr/src/fixtures, rendered at 300 dpi)
 * clean and damaged as a scanner would (turned, noise, specks, JPEG), the single-column language
 * fixtures, and two born-digital pages of the shared documents drawn as scans (FAA handbook, two
 * columns; Federal Register, three columns), whose ground truth is their text layer read column by
 * column. Run: npm run bench:ocr-layout
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { GreyImage, OcrBlock, OcrPageResult } from '@trove/ocr';
import { characterErrorRate, OcrPool, ocrSettingsFromEnv, tidyText } from '@trove/ocr';
import type { LayoutTruth, ScanDamage } from '@trove/ocr/testing';
import { layoutFixture, ocrFixture, scannedCopy } from '@trove/ocr/testing';
import { scanOfPdfPage } from '@trove/parsing/testing';
import { sharedDocuments } from '@trove/testing';
import { writeBenchmarkSections } from '@trove/tools-support';
import sharp from 'sharp';
import { createWorker } from 'tesseract.js';

const TESSERACT_VERSION = (
  JSON.parse(readFileSync(require.resolve('tesseract.js/package.json'), 'utf8')) as { version: string }
).version;
/** tesseract.js's OEM.LSTM_ONLY, as the pool uses. */
const LSTM_ONLY = 1;
const MODERATE: ScanDamage = { skewDegrees: 1, noise: 20, specks: 0.001, seed: 5 };
const HEAVY: ScanDamage = { skewDegrees: 2, noise: 40, specks: 0.003, seed: 3 };
const ROUNDS = 2;

interface Page {
  name: string;
  image: GreyImage;
  language: string;
  truth: Partial<LayoutTruth> & { text: string };
}

async function grey(image: Buffer): Promise<GreyImage> {
  const { data, info } = await sharp(image)
    .greyscale()
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height, dpi: 300 };
}

async function pages(): Promise<Page[]> {
  const out: Page[] = [];
  for (const name of ['two-column', 'table'] as const) {
    const { image, truth } = layoutFixture(name);
    out.push({ name: `${name}, clean render`, image: await grey(image), language: 'eng', truth });
    for (const [label, damage] of [
      ['turned 1°, light noise', MODERATE],
      ['turned 2°, heavy noise and specks', HEAVY],
    ] as const) {
      out.push({
        name: `${name}, ${label}`,
        image: await grey(await scannedCopy(image, damage)),
        language: 'eng',
        truth,
      });
    }
  }
  for (const [name, language] of [
    ['english', 'eng'],
    ['russian', 'rus'],
    ['chinese', 'chi_sim'],
  ] as const) {
    const { image, truth } = ocrFixture(name);
    out.push({
      name: `${name}, one column, clean`,
      image: await grey(image),
      language,
      truth: { text: truth },
    });
  }
  const pdf = (file: string) => readFileSync(join(sharedDocuments('pdf'), file));
  for (const [name, file, page, columns] of [
    ['FAA handbook p. 1, two columns', 'faa-amt-handbook-sample-2col.pdf', 1, 2],
    ['Federal Register p. 2, three columns', 'federal-register-2020-17221-3col.pdf', 2, 3],
  ] as const) {
    const scan = await scanOfPdfPage(pdf(file), page, columns);
    out.push({
      name: `${name}, drawn at 300 dpi`,
      image: scan.image,
      language: 'eng',
      truth: { text: scan.text },
    });
  }
  return out;
}

/** Tesseract as Trove called it before: default segmentation (one block), the page as it is. */
async function baselineReader(dataDir: string) {
  const workers = new Map<string, Awaited<ReturnType<typeof createWorker>>>();
  return {
    async read(page: Page): Promise<string> {
      let worker = workers.get(page.language);
      if (!worker) {
        worker = await createWorker(page.language, LSTM_ONLY, {
          langPath: dataDir,
          gzip: false,
          cacheMethod: 'none',
        });
        workers.set(page.language, worker);
      }
      await worker.setParameters({ user_defined_dpi: '300' });
      const { width, height, pixels } = page.image;
      const pgm = Buffer.concat([Buffer.from(`P5\n${width} ${height}\n255\n`, 'latin1'), pixels]);
      const { data } = await worker.recognize(pgm);
      return tidyText(data.text ?? '');
    },
    async close() {
      await Promise.all([...workers.values()].map((w) => w.terminate()));
    },
  };
}

const percent = (n: number) => `${(n * 100).toFixed(1)}%`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * Headings of the truth that the page's blocks have as headings, and headings it does not have:
 * "3/3, 0 extra". On a page without heading truth, only the count of headings found.
 */
function headingsFound(truth: Page['truth'], blocks: readonly OcrBlock[]): string {
  const found = blocks.flatMap((b) => (b.kind === 'heading' ? [b.text] : []));
  if (!truth.headings) return found.length ? `${found.length} found` : '—';
  const right = truth.headings.filter((h) => found.includes(h)).length;
  return `${right}/${truth.headings.length}, ${found.length - right} extra`;
}

/** Cells of the truth's tables read into the right row and column: "20/20". */
function cellsFound(truth: Page['truth'], blocks: readonly OcrBlock[]): string {
  if (!truth.tables?.length) return '—';
  const tables = blocks.flatMap((b) => (b.kind === 'table' ? [b.rows] : []));
  let right = 0;
  let total = 0;
  truth.tables.forEach((rows, t) => {
    rows.forEach((row, r) =>
      row.forEach((cell, c) => {
        total++;
        if (tables[t]?.[r]?.[c] === cell) right++;
      }),
    );
  });
  return `${right}/${total}`;
}

async function main() {
  const loadAtStart = loadavg()[0];
  const settings = ocrSettingsFromEnv();
  const pool = new OcrPool({ ...settings, workers: 1 });
  const baseline = await baselineReader(settings.dataDir);
  const all = await pages();
  // Start every worker (WASM, language data) before anything is timed.
  for (const language of new Set(all.map((p) => p.language))) {
    const first = all.find((p) => p.language === language)!;
    await baseline.read(first);
    await pool.recognize(first.image, { languages: [language] });
  }

  const rows: string[] = [];
  const totals = { before: 0, after: 0, beforeLayout: 0, afterLayout: 0, layoutPages: 0 };
  for (const [i, page] of all.entries()) {
    let text = '';
    let result: OcrPageResult = { text: '', blocks: [], confidence: 0, languages: [] };
    const ms = { before: 0, after: 0 };
    const readBefore = async () => {
      const started = performance.now();
      text = await baseline.read(page);
      ms.before += (performance.now() - started) / ROUNDS;
    };
    const readAfter = async () => {
      const started = performance.now();
      result = await pool.recognize(page.image, { languages: [page.language] });
      ms.after += (performance.now() - started) / ROUNDS;
    };
    // Each page ROUNDS times by each, alternating which goes first, so neither always meets a
    // warmer (or busier) machine; the texts are the same every round.
    for (let round = 0; round < ROUNDS; round++) {
      for (const read of (i + round) % 2 === 0 ? [readBefore, readAfter] : [readAfter, readBefore])
        await read();
    }
    const before = { text, ms: ms.before };
    const after = { result, ms: ms.after };
    const cerBefore = characterErrorRate(page.truth.text, before.text);
    const cerAfter = characterErrorRate(page.truth.text, after.result.text);
    totals.before += before.ms;
    totals.after += after.ms;
    if (!page.name.includes('one column')) {
      totals.beforeLayout += before.ms;
      totals.afterLayout += after.ms;
      totals.layoutPages++;
    }
    rows.push(
      `| ${page.name} | ${percent(cerBefore)} | ${percent(cerAfter)} | ${headingsFound(page.truth, after.result.blocks)} | ${cellsFound(page.truth, after.result.blocks)} | ${seconds(before.ms)} | ${seconds(after.ms)} |`,
    );
    console.log(rows[rows.length - 1]);
  }
  await pool.close();
  await baseline.close();

  const perMinute = (ms: number, n: number) => ((n * 60_000) / ms).toFixed(1);
  const section = `## OCR: reading order, headings and tables on scanned layouts

Tesseract (tesseract.js ${TESSERACT_VERSION}, LSTM models from Debian's tesseract-ocr-* packages), one worker each,
the page's language only (script detection is measured by \`npm run bench:ocr\`), pages at 300 dpi. **Before**:
Tesseract's default segmentation (the whole page one block of text, as Trove called it before), the page as it is.
**After**: Trove's OcrPool now: the page turned level (its skew found by projection within ±5°), a 3×3 median
against specks,
automatic page segmentation (columns and blocks found first, read column by column), headings found by type
size, tables as grids of cells. CER: edit distance over the length of the ground truth in reading order,
white space collapsed (a table's truth is its rows, cells in order). Headings: how many of the truth's
headings came out as headings, and how many other lines did (on the shared pages, which have no heading
truth, how many headings were found); cells: how many table cells came out in the right row and column.

| page | CER before | CER after | headings (after) | table cells (after) | time before | time after |
| --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

Pages per minute, the same pages in the same run: all ${all.length} pages ${perMinute(totals.before, all.length)} before →
${perMinute(totals.after, all.length)} after; the ${totals.layoutPages} pages with a layout (columns or a table)
${perMinute(totals.beforeLayout, totals.layoutPages)} → ${perMinute(totals.afterLayout, totals.layoutPages)}.

Load average (1 min) at the start → end: ${loadAtStart.toFixed(1)} → ${loadavg()[0].toFixed(1)} (the machine is shared;
each page read ${ROUNDS} times by each, back to back, alternating which goes first; times are means).
`;
  writeBenchmarkSections('npm run bench:ocr-layout', section);
  console.log(section);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
