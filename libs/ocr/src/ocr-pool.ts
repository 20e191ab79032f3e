import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pLimit from 'p-limit';
import type { Worker } from 'tesseract.js';
import { DEFAULT_OCR_IDLE_MS, type OcrSettings } from './ocr-settings';
import { measureSkew } from './deskew';
import { layoutText, pageLayout } from './page-layout';
import type { OcrBlock, TesseractBlock } from './page-layout';

/** Scans are usually 300 dpi; the resolution assumed when an image does not say. */
const DEFAULT_DPI = 300;
/** tesseract.js's OEM.LSTM_ONLY: the neural engine, the only one the installed data has models for. */
const LSTM_ONLY = 1;
/**
 * tesseract.js's PSM.AUTO: Tesseract finds the page's columns, text blocks and tables before it
 * reads them, and returns the blocks column by column. Tesseract's own default (a single block of
 * text) reads a line across every column of a page.
 */
const AUTO_SEGMENTATION = '3';
/** A script is on a page when at least this share of the letters the first pass read are in it. */
const SCRIPT_SHARE = 0.15;

/** What OCR read on one page or image. */
export interface OcrPageResult {
  /** The blocks' text in reading order (see `layoutText`). */
  text: string;
  /** Headings, paragraphs and tables in reading order. */
  blocks: OcrBlock[];
  /** Tesseract's mean word confidence, 0 to 100 (0 when nothing was recognised). */
  confidence: number;
  /** The languages the text was recognised with. */
  languages: string[];
}

/** A page's pixels: one grey byte each, row by row. */
export interface GreyImage {
  pixels: Uint8Array;
  width: number;
  height: number;
  /** The resolution, when known (a rendered PDF page, an image that states it). */
  dpi?: number;
}

/** A page that took longer than `pageTimeoutMs`; its worker was stopped. */
export class OcrTimeoutError extends Error {
  override readonly name = 'OcrTimeoutError';
}

/** The language data a setting names is not installed: OCR cannot start at all. */
export class OcrDataMissingError extends Error {
  override readonly name = 'OcrDataMissingError';
}

/**
 * A bounded pool of Tesseract workers (tesseract.js: Tesseract compiled to WASM, each worker a
 * thread of its own). At most `workers` pages are recognised at once; workers start on first use
 * and are kept for the next page. Language data is read from `dataDir` only: nothing is ever
 * downloaded. A page over its time limit has its worker stopped (Tesseract cannot be interrupted)
 * and a fresh one takes its place on the next page. A worker idle for `idleMs` is stopped too: the
 * WASM memory Tesseract grew for the largest page it read is never given back while it lives.
 */
/** What the pool uses of a Tesseract worker (tests give a scripted one). */
export type OcrWorker = Pick<Worker, 'reinitialize' | 'setParameters' | 'recognize' | 'terminate'>;

/** Starts a Tesseract worker for `languages` ('+'-joined), reading their data from `dataDir`. */
export type OcrWorkerFactory = (languages: string, dataDir: string) => Promise<OcrWorker>;

const tesseractWorker: OcrWorkerFactory = async (languages, dataDir) => {
  // Loaded on the first page, so processes that never OCR do not pay for it.
  const { createWorker } = await import('tesseract.js');
  return createWorker(languages, LSTM_ONLY, {
    langPath: dataDir,
    gzip: false,
    // The data is read from disk every start; no copy is written anywhere.
    cacheMethod: 'none',
  });
};

export class OcrPool {
  private readonly limit: ReturnType<typeof pLimit>;
  private readonly idle: OcrWorker[] = [];
  private readonly busy = new Set<OcrWorker>();
  /** The languages each worker is initialised with now ('+'-joined). */
  private readonly loaded = new WeakMap<OcrWorker, string>();
  /** Each idle worker's timer, which stops it after `idleMs`. */
  private readonly idleTimers = new Map<OcrWorker, NodeJS.Timeout>();
  private closed = false;

  constructor(
    readonly settings: OcrSettings,
    private readonly startTesseract: OcrWorkerFactory = tesseractWorker,
  ) {
    this.limit = pLimit(settings.workers);
  }

  /**
   * Reads one page, with the languages of the scripts on it: a first pass at half resolution with
   * every configured language tells which scripts the page is written in (Latin, Cyrillic, Han),
   * and the page is then read at full resolution with those languages only. Fewer languages are
   * faster and keep, say, a Cyrillic "а" out of English text. A page the first pass finds no text
   * on is read with every language.
   */
  async readPage(image: GreyImage): Promise<OcrPageResult> {
    const all = this.settings.languages;
    if (new Set(all.map(scriptOf)).size < 2) return this.recognize(image);
    const probe = await this.recognize(await halve(image), { languages: all });
    return this.recognize(image, { languages: languagesFor(probe.text, all) });
  }

  /**
   * Recognises one image: grey pixels, or PNG, JPEG or BMP bytes. The page is turned level when
   * skewed (see `skewAngle`) and cleaned (a 3×3 median removes scanner specks, which Tesseract
   * otherwise reads as punctuation and which break its table and column finding), then segmented
   * into blocks and read block by block (see `pageLayout`). `dpi` is the image's resolution when
   * known; Tesseract sizes its expectations of glyphs by it. `languages` defaults to the configured
   * ones.
   */
  recognize(
    image: Buffer | GreyImage,
    options: { dpi?: number; languages?: string[] } = {},
  ): Promise<OcrPageResult> {
    const languages = options.languages ?? this.settings.languages;
    const dpi = String(
      Math.round(options.dpi ?? (Buffer.isBuffer(image) ? undefined : image.dpi) ?? DEFAULT_DPI),
    );
    return this.limit(async () => {
      if (this.closed) throw new Error('the OCR pool is closed');
      // Inside the limit, so no more decoded pages are held than there are workers.
      const input = await prepared(image);
      const worker = this.takeIdle() ?? (await this.startWorker());
      this.busy.add(worker);
      let timer: NodeJS.Timeout | undefined;
      let timedOut = false;
      let stop = () => void worker.terminate().catch(() => undefined);
      try {
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            timedOut = true;
            reject(
              new OcrTimeoutError(
                `OCR of one page took longer than ${Math.round(this.settings.pageTimeoutMs / 1000)} s and was stopped`,
              ),
            );
          }, this.settings.pageTimeoutMs);
        });
        // A stopped Tesseract worker must get no further job: tesseract.js would post it to the
        // dead thread in a promise nobody awaits (an unhandled rejection that fails the process's
        // tests, or the parsing thread). So each step starts only while the page is within its
        // time, checked right before the call (the calls post their job without yielding to a
        // timer: `input` is a buffer), and a timeout during `reinitialize` (which posts two jobs,
        // one after the other) stops the worker once that call has ended.
        let reinitializing: Promise<unknown> | undefined;
        const stillInTime = () => {
          if (timedOut) throw new OcrTimeoutError('the page was given up');
        };
        const read = async () => {
          const key = languages.join('+');
          if (this.loaded.get(worker) !== key) {
            reinitializing = worker.reinitialize(key, LSTM_ONLY);
            await reinitializing;
            reinitializing = undefined;
            this.loaded.set(worker, key);
          }
          stillInTime();
          await worker.setParameters({
            user_defined_dpi: dpi,
            tessedit_pageseg_mode: AUTO_SEGMENTATION as never,
          });
          stillInTime();
          return worker.recognize(input, {}, { text: false, blocks: true });
        };
        const reading = read();
        // Settled by the race or left pending by a stopped worker: never an unhandled rejection.
        reading.catch(() => undefined);
        stop = () => {
          const stopping = reinitializing;
          if (stopping) void stopping.finally(() => worker.terminate().catch(() => undefined));
          else void worker.terminate().catch(() => undefined);
        };
        const { data } = await Promise.race([reading, timeout]);
        const blocks = pageLayout((data.blocks ?? []) as unknown as TesseractBlock[])
          .map(tidyBlock)
          .filter((block) => (block.kind === 'table' ? block.rows.length : block.text));
        return {
          text: tidyText(layoutText(blocks)),
          blocks,
          confidence: blocks.length ? Math.round(data.confidence ?? 0) : 0,
          languages,
        };
      } finally {
        clearTimeout(timer);
        this.busy.delete(worker);
        if (timedOut || this.closed) stop();
        else this.putIdle(worker);
      }
    });
  }

  private takeIdle(): OcrWorker | undefined {
    const worker = this.idle.pop();
    if (worker) {
      clearTimeout(this.idleTimers.get(worker));
      this.idleTimers.delete(worker);
    }
    return worker;
  }

  private putIdle(worker: OcrWorker): void {
    this.idle.push(worker);
    const timer = setTimeout(() => {
      this.idleTimers.delete(worker);
      const index = this.idle.indexOf(worker);
      if (index < 0) return;
      this.idle.splice(index, 1);
      void worker.terminate().catch(() => undefined);
    }, this.settings.idleMs ?? DEFAULT_OCR_IDLE_MS);
    // An idle worker's timer must not keep the process (or the parsing thread) alive.
    timer.unref();
    this.idleTimers.set(worker, timer);
  }

  /** Workers started and not stopped. */
  get workerCount(): number {
    return this.idle.length + this.busy.size;
  }

  /** Stops every worker; pages still being read are stopped when they finish. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    this.idleTimers.clear();
    await Promise.all(this.idle.splice(0).map((worker) => worker.terminate().catch(() => undefined)));
  }

  private async startWorker(): Promise<OcrWorker> {
    const { dataDir, languages } = this.settings;
    const missing = languages.filter((language) => !existsSync(join(dataDir, `${language}.traineddata`)));
    if (missing.length) {
      throw new OcrDataMissingError(
        `OCR language data is missing for ${missing.join(', ')} in ${dataDir}: run infra/local/install-ocr-data.sh (or set TROVE_OCR_DATA_DIR)`,
      );
    }
    const worker = await this.startTesseract(languages.join('+'), dataDir);
    this.loaded.set(worker, languages.join('+'));
    return worker;
  }
}

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
const SPACE_BETWEEN_CJK = new RegExp(`(?<=[${CJK}、。，：；！？（）]) +(?=[${CJK}、。，：；！？（）])`, 'gu');

/**
 * Tesseract separates every recognised CJK character by a space; Chinese has none. Trailing spaces
 * and runs of blank lines go too.
 */
export function tidyText(text: string): string {
  return text
    .replace(SPACE_BETWEEN_CJK, '')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The writing system of a Tesseract language; a language not listed is always used. */
const SCRIPTS: Record<string, string> = {
  eng: 'Latin',
  fra: 'Latin',
  deu: 'Latin',
  spa: 'Latin',
  ita: 'Latin',
  por: 'Latin',
  rus: 'Cyrillic',
  ukr: 'Cyrillic',
  bel: 'Cyrillic',
  chi_sim: 'Han',
  chi_tra: 'Han',
};

function scriptOf(language: string): string {
  return SCRIPTS[language] ?? language;
}

/** The configured languages whose scripts make up at least `SCRIPT_SHARE` of the letters in `text`. */
export function languagesFor(text: string, languages: string[]): string[] {
  const counts = new Map<string, number>();
  let letters = 0;
  for (const script of new Set(languages.map(scriptOf))) {
    if (!['Latin', 'Cyrillic', 'Han'].includes(script)) continue;
    const count = text.match(new RegExp(`\\p{Script=${script}}`, 'gu'))?.length ?? 0;
    counts.set(script, count);
    letters += count;
  }
  if (letters === 0) return languages;
  const chosen = languages.filter((language) => {
    const count = counts.get(scriptOf(language));
    return count === undefined || count / letters >= SCRIPT_SHARE;
  });
  return chosen.length ? chosen : languages;
}

function tidyBlock(block: OcrBlock): OcrBlock {
  return block.kind === 'table'
    ? { ...block, rows: block.rows.map((row) => row.map(tidyText)) }
    : { ...block, text: tidyText(block.text) };
}

/**
 * The page made ready for Tesseract, as a binary PGM (P5), the cheapest way to hand it grey
 * pixels: turned level when its lines of text are skewed (Tesseract finds columns and table rows
 * on a level page; its own levelling would analyse the page's layout twice), then a 3×3 median
 * filter: isolated specks go, strokes (several pixels wide at 150 dpi and above) stay.
 */
async function prepared(image: Buffer | GreyImage): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const grey = Buffer.isBuffer(image)
    ? await sharp(image)
        .flatten({ background: '#ffffff' })
        .greyscale()
        .toColourspace('b-w')
        .raw()
        .toBuffer({ resolveWithObject: true })
        .then(({ data, info }) => ({ pixels: data, width: info.width, height: info.height }))
    : image;
  const skew = await measureSkew(grey.pixels, grey.width, grey.height);
  const level = sharp(grey.pixels, { raw: { width: grey.width, height: grey.height, channels: 1 } });
  const { data, info } = await (skew ? level.rotate(-skew, { background: '#ffffff' }) : level)
    .median(3)
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return pgm({ pixels: data, width: info.width, height: info.height });
}

/** A binary PGM (P5) image: the cheapest way to hand raw grey pixels to Tesseract. */
function pgm(image: GreyImage): Buffer {
  return Buffer.concat([Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'latin1'), image.pixels]);
}

/** Half the width and height, for the script-detection pass. */
async function halve(image: GreyImage): Promise<GreyImage> {
  const { default: sharp } = await import('sharp');
  const width = Math.max(1, Math.round(image.width / 2));
  const { data, info } = await sharp(image.pixels, {
    raw: { width: image.width, height: image.height, channels: 1 },
  })
    .resize({ width })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    pixels: data,
    width: info.width,
    height: info.height,
    dpi: image.dpi ? image.dpi / 2 : DEFAULT_DPI / 2,
  };
}
