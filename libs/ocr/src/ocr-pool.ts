import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pLimit from 'p-limit';
import type { Worker } from 'tesseract.js';
import type { OcrSettings } from './ocr-settings';

/** Scans are usually 300 dpi; the resolution assumed when an image does not say. */
const DEFAULT_DPI = 300;

/** What OCR read on one page or image. */
export interface OcrPageResult {
  text: string;
  /** Tesseract's mean word confidence, 0 to 100 (0 when nothing was recognised). */
  confidence: number;
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
 * and a fresh one takes its place on the next page.
 */
export class OcrPool {
  private readonly limit: ReturnType<typeof pLimit>;
  private readonly idle: Worker[] = [];
  private readonly busy = new Set<Worker>();
  private closed = false;

  constructor(readonly settings: OcrSettings) {
    this.limit = pLimit(settings.workers);
  }

  /**
   * Recognises the text of one image: PNG, JPEG, BMP or binary PGM bytes (PGM is the cheapest to
   * hand over: no compression to undo). Lines are kept, paragraphs separated by blank lines.
   * `dpi` is the image's resolution when known (a rendered PDF page); Tesseract sizes its
   * expectations of glyphs by it, and PGM carries none.
   */
  recognize(image: Buffer, options: { dpi?: number } = {}): Promise<OcrPageResult> {
    return this.limit(async () => {
      if (this.closed) throw new Error('the OCR pool is closed');
      const worker = this.idle.pop() ?? (await this.startWorker());
      this.busy.add(worker);
      let timer: NodeJS.Timeout | undefined;
      let timedOut = false;
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
        const dpi = String(Math.round(options.dpi ?? DEFAULT_DPI));
        const { data } = await Promise.race([
          worker.setParameters({ user_defined_dpi: dpi }).then(() => worker.recognize(image)),
          timeout,
        ]);
        return { text: tidyText(data.text ?? ''), confidence: Math.round(data.confidence ?? 0) };
      } finally {
        clearTimeout(timer);
        this.busy.delete(worker);
        if (timedOut || this.closed) void worker.terminate().catch(() => undefined);
        else this.idle.push(worker);
      }
    });
  }

  /** Workers started and not stopped. */
  get workerCount(): number {
    return this.idle.length + this.busy.size;
  }

  /** Stops every worker; pages still being read are stopped when they finish. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((worker) => worker.terminate().catch(() => undefined)));
  }

  private async startWorker(): Promise<Worker> {
    const { dataDir, languages } = this.settings;
    const missing = languages.filter((language) => !existsSync(join(dataDir, `${language}.traineddata`)));
    if (missing.length) {
      throw new OcrDataMissingError(
        `OCR language data is missing for ${missing.join(', ')} in ${dataDir}: run infra/local/install-ocr-data.sh (or set TROVE_OCR_DATA_DIR)`,
      );
    }
    // Loaded on the first page, so processes that never OCR do not pay for it.
    const { createWorker, OEM } = await import('tesseract.js');
    return createWorker(languages, OEM.LSTM_ONLY, {
      langPath: dataDir,
      gzip: false,
      // The data is read from disk every start; no copy is written anywhere.
      cacheMethod: 'none',
    });
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
