import { join, resolve } from 'node:path';

/** How OCR runs: the pool's size, the languages, the time a page may take, where the data is. */
export interface OcrSettings {
  /** Tesseract workers kept at most; each recognises one page at a time on one core. */
  workers: number;
  /** Tesseract language codes recognised together (`eng`, `rus`, `chi_sim`, ...). */
  languages: string[];
  /** A page taking longer than this is given up (its worker is stopped and replaced). */
  pageTimeoutMs: number;
  /** The folder holding `<language>.traineddata` (installed by infra/local/install-ocr-data.sh). */
  dataDir: string;
  /**
   * A worker idle this long is stopped, and its memory (Tesseract's WASM heap, which only grows)
   * is freed; the next page starts one again (about a second). Unset: {@link DEFAULT_OCR_IDLE_MS}.
   */
  idleMs?: number;
}

/** Pages of one scan follow each other within this; a worker idle longer is not reading a scan. */
export const DEFAULT_OCR_IDLE_MS = 30_000;

export const DEFAULT_OCR_LANGUAGES = ['eng', 'rus', 'chi_sim'];
const REPOSITORY_ROOT = resolve(__dirname, '../../..');

/**
 * Settings from the environment: `TROVE_OCR_WORKERS` (default 1), `TROVE_OCR_LANGUAGES`
 * (`eng+rus+chi_sim`), `TROVE_OCR_PAGE_TIMEOUT_MS` (120000), `TROVE_OCR_IDLE_MS` (30000), `TROVE_OCR_DATA_DIR` (default
 * `$TROVE_LOCAL_DIR/tessdata`, i.e. `.trove/local/tessdata`). Parse threads inherit the
 * environment, so every thread reads the same settings.
 */
export function ocrSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): OcrSettings {
  const localDir = env.TROVE_LOCAL_DIR ?? join(REPOSITORY_ROOT, '.trove', 'local');
  return {
    workers: positiveInteger(env, 'TROVE_OCR_WORKERS', 1),
    languages: (env.TROVE_OCR_LANGUAGES ?? DEFAULT_OCR_LANGUAGES.join('+')).split(/[+,\s]+/).filter(Boolean),
    pageTimeoutMs: positiveInteger(env, 'TROVE_OCR_PAGE_TIMEOUT_MS', 120_000),
    idleMs: positiveInteger(env, 'TROVE_OCR_IDLE_MS', DEFAULT_OCR_IDLE_MS),
    dataDir: resolve(env.TROVE_OCR_DATA_DIR ?? join(localDir, 'tessdata')),
  };
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`${name} must be a positive integer (got ${JSON.stringify(raw)})`);
  }
  return value;
}
