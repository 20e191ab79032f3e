/**
 * `npm run bench:scale`: the scale targets of issue 24, measured through the public interfaces
 * (archive and document uploads, GraphQL, webhooks) of real api and worker processes on the local
 * services, each against a baseline from the same run. Parts (`--parts`, all by default):
 *  - small: N short texts (one SciFact sentence each, one chunk) as one archive, upload → run
 *    COMPLETED, against raw embedding of the same chunk texts at the same embedder in the workers'
 *    batch size (before and after the sync); then SciFact abstracts (1–3 chunks) the same way;
 *  - stub: the same kind of archive with the stub embedding server, documents/s with 1 and 2 workers;
 *  - control: with a backlog of small documents queued (one archive, and/or single uploads), the
 *    planning of a 1,000-file archive, a Notion webhook edit until searchable, deleteProject of
 *    the busy project, HYBRID search latency on unique queries: each against the same measure
 *    with nothing queued, in the same run;
 *  - rss: the workers' resident memory while 50,000 tiny documents are queued;
 *  - telemetry: ingest and search with tracing and metrics on vs off, interleaved (bench-telemetry.ts).
 * Each part writes its own section of BENCHMARKS.md; a run with sizes other than the defaults
 * says so in the heading, so it never replaces a full-size section.
 */
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { Chunker, SegmenterTokenCounter } from '@trove/chunking';
import { webhooksSchema } from '@trove/config';
import { createEmbeddingProvider } from '@trove/embeddings';
import { percentile } from '@trove/evaluation';
import { defaultWorkspace, DEFAULT_IDS, NotionEmulator } from '@trove/notion-emulator';
import { ParserRegistry } from '@trove/parsing';
import { addSource } from '@trove/test-support';
import { sharedDatasets } from '@trove/testing';
import { buildZip } from '@trove/parsing/testing';
import { writeBenchmarkSections } from '@trove/tools-support';
import { readMemory, ScaleStack } from './bench-scale-stack';
import { telemetryPart } from './bench-telemetry';
import { CpuSampler, describeCpu } from './cpu-usage';
import {
  type FileEntry,
  loadAtStart,
  machineNote,
  mib,
  ratio,
  round,
  type SciFactDoc,
  scifactCorpus,
  scifactSentences,
  seconds,
  SentencePool,
  sentenceFiles,
  sleep,
  syncArchive,
  waited,
} from './bench-scale-workload';

export const PARTS = ['small', 'stub', 'control', 'rss', 'telemetry'] as const;
export type Part = (typeof PARTS)[number];
export const LOADS = ['archive', 'uploads'] as const;
export const TELEMETRY_KINDS = ['traces', 'metrics'] as const;
export type TelemetryKind = (typeof TELEMETRY_KINDS)[number];
export const TELEMETRY_EMBEDDERS = ['model', 'stub'] as const;
export type TelemetryEmbedder = (typeof TELEMETRY_EMBEDDERS)[number];
export type Load = (typeof LOADS)[number];

/** The sizes and switches of a run; the defaults are the sizes issue 24's targets name. */
export interface ScaleOptions {
  parts: Part[];
  /** Worker processes for the small, control and rss parts. */
  workers: number;
  small: number;
  abstracts: number;
  stubDocs: number;
  stubWorkers: number[];
  /** Bulk activity slots of each worker in the stub part (an embedder that answers at once wants more than the default). */
  stubSlots: number;
  queued: number;
  loads: Load[];
  planFiles: number;
  /** Notion webhook edits measured one after another per row of the control part (p50 / p95). */
  webhookEdits: number;
  searchDocs: number;
  queries: number;
  rssDocs: number;
  rssSeconds: number;
  /** Documents per ingest round of the telemetry part, with the model and with the stub embedder. */
  telemetryDocs: number;
  telemetryStubDocs: number;
  /** HYBRID searches per condition (on, off) and embedder in the telemetry part. */
  telemetryQueries: number;
  /** Ingest rounds per condition (ABBA order). */
  telemetryRounds: number;
  /** What "on" turns on (both by default: the overhead to report; one alone to find where it comes from). */
  telemetryOn: TelemetryKind[];
  /** The embedders the telemetry part runs with. */
  telemetryEmbedders: TelemetryEmbedder[];
  /** How long one waited-for measure may take before it is reported as "not reached" (s). */
  timeout: number;
  write: boolean;
}

export const DEFAULTS: ScaleOptions = {
  parts: [...PARTS],
  workers: 1,
  small: 1_500,
  abstracts: 400,
  stubDocs: 1_500,
  stubWorkers: [1, 2],
  stubSlots: 12,
  queued: 5_000,
  loads: ['archive', 'uploads'],
  planFiles: 1_000,
  webhookEdits: 5,
  searchDocs: 200,
  queries: 100,
  rssDocs: 50_000,
  rssSeconds: 300,
  telemetryDocs: 300,
  telemetryStubDocs: 1_000,
  telemetryQueries: 300,
  telemetryRounds: 4,
  telemetryOn: [...TELEMETRY_KINDS],
  telemetryEmbedders: [...TELEMETRY_EMBEDDERS],
  timeout: 600,
  write: true,
};

/** The options that decide how big a part's workload is (a run below them is "reduced"). */
const SIZES_OF: Record<Part, (keyof ScaleOptions)[]> = {
  small: ['small', 'abstracts', 'workers'],
  stub: ['stubDocs', 'stubWorkers', 'stubSlots'],
  control: ['queued', 'loads', 'planFiles', 'webhookEdits', 'searchDocs', 'queries', 'workers'],
  rss: ['rssDocs', 'rssSeconds', 'workers'],
  telemetry: [
    'telemetryDocs',
    'telemetryStubDocs',
    'telemetryQueries',
    'telemetryRounds',
    'telemetryOn',
    'telemetryEmbedders',
    'workers',
  ],
};

const USAGE = `usage: npm run bench:scale -- [--parts ${PARTS.join(',')}] [--workers 1]
  [--small 1500] [--abstracts 400] [--stub-docs 1500] [--stub-workers 1,2] [--stub-slots 12]
  [--queued 5000] [--loads archive,uploads] [--plan-files 1000] [--webhook-edits 5] [--search-docs 200] [--queries 100]
  [--rss-docs 50000] [--rss-seconds 300]
  [--telemetry-docs 300] [--telemetry-stub-docs 1000] [--telemetry-queries 300] [--telemetry-rounds 4]
  [--telemetry-on traces,metrics] [--telemetry-embedders model,stub] [--timeout 600] [--no-write]`;

function list<T extends string>(name: string, value: string, allowed: readonly T[]): T[] {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = items.filter((item) => !allowed.includes(item as T));
  if (!items.length || unknown.length)
    throw new Error(
      `--${name}: unknown ${unknown.join(', ') || '(none given)'}; choose from ${allowed.join(', ')}`,
    );
  return allowed.filter((a) => items.includes(a));
}

function count(name: string, value: string, min: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min)
    throw new Error(`--${name} must be an integer of at least ${min}, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** Parses the command line (without node and script); throws with the usage on a bad option. */
export function parseScaleOptions(argv: string[]): ScaleOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      parts: { type: 'string' },
      workers: { type: 'string' },
      small: { type: 'string' },
      abstracts: { type: 'string' },
      'stub-docs': { type: 'string' },
      'stub-workers': { type: 'string' },
      'stub-slots': { type: 'string' },
      queued: { type: 'string' },
      loads: { type: 'string' },
      'plan-files': { type: 'string' },
      'webhook-edits': { type: 'string' },
      'search-docs': { type: 'string' },
      queries: { type: 'string' },
      'rss-docs': { type: 'string' },
      'rss-seconds': { type: 'string' },
      'telemetry-docs': { type: 'string' },
      'telemetry-stub-docs': { type: 'string' },
      'telemetry-queries': { type: 'string' },
      'telemetry-rounds': { type: 'string' },
      'telemetry-on': { type: 'string' },
      'telemetry-embedders': { type: 'string' },
      timeout: { type: 'string' },
      'no-write': { type: 'boolean' },
    },
  });
  const o: ScaleOptions = { ...DEFAULTS };
  if (values.parts !== undefined) o.parts = list('parts', values.parts, PARTS);
  if (values.loads !== undefined) o.loads = list('loads', values.loads, LOADS);
  if (values.workers !== undefined) o.workers = count('workers', values.workers, 1);
  if (values.small !== undefined) o.small = count('small', values.small, 1);
  if (values.abstracts !== undefined) o.abstracts = count('abstracts', values.abstracts, 0);
  if (values['stub-docs'] !== undefined) o.stubDocs = count('stub-docs', values['stub-docs'], 1);
  if (values['stub-workers'] !== undefined) {
    o.stubWorkers = values['stub-workers'].split(',').map((n) => count('stub-workers', n.trim(), 1));
    if (o.stubWorkers.some((n, i) => i > 0 && n <= o.stubWorkers[i - 1]))
      throw new Error('--stub-workers must be increasing, e.g. 1,2');
  }
  if (values['stub-slots'] !== undefined) o.stubSlots = count('stub-slots', values['stub-slots'], 1);
  if (values.queued !== undefined) o.queued = count('queued', values.queued, 1);
  if (values['plan-files'] !== undefined) o.planFiles = count('plan-files', values['plan-files'], 1);
  if (values['webhook-edits'] !== undefined)
    o.webhookEdits = count('webhook-edits', values['webhook-edits'], 1);
  if (values['search-docs'] !== undefined) o.searchDocs = count('search-docs', values['search-docs'], 1);
  if (values.queries !== undefined) o.queries = count('queries', values.queries, 5);
  if (values['rss-docs'] !== undefined) o.rssDocs = count('rss-docs', values['rss-docs'], 1);
  if (values['rss-seconds'] !== undefined) o.rssSeconds = count('rss-seconds', values['rss-seconds'], 10);
  if (values['telemetry-docs'] !== undefined)
    o.telemetryDocs = count('telemetry-docs', values['telemetry-docs'], 1);
  if (values['telemetry-stub-docs'] !== undefined)
    o.telemetryStubDocs = count('telemetry-stub-docs', values['telemetry-stub-docs'], 1);
  if (values['telemetry-queries'] !== undefined)
    o.telemetryQueries = count('telemetry-queries', values['telemetry-queries'], 10);
  if (values['telemetry-rounds'] !== undefined)
    o.telemetryRounds = count('telemetry-rounds', values['telemetry-rounds'], 2);
  if (values['telemetry-on'] !== undefined)
    o.telemetryOn = list('telemetry-on', values['telemetry-on'], TELEMETRY_KINDS);
  if (values['telemetry-embedders'] !== undefined)
    o.telemetryEmbedders = list('telemetry-embedders', values['telemetry-embedders'], TELEMETRY_EMBEDDERS);
  if (o.telemetryRounds % 2)
    throw new Error('--telemetry-rounds must be even: the rounds alternate on, off, off, on, …');
  if (values.timeout !== undefined) o.timeout = count('timeout', values.timeout, 10);
  if (values['no-write']) o.write = false;
  return o;
}

/** The options of a part that differ from the defaults, as `--flag value` (empty for a full-size run). */
export function reducedSizes(part: Part, o: ScaleOptions): string[] {
  const flag = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  return SIZES_OF[part]
    .filter((key) => String(o[key]) !== String(DEFAULTS[key]))
    .map((key) => `${flag(key)} ${String(o[key])}`);
}

/** A part's heading: sizes other than the defaults are named in it, so it gets a section of its own. */
export function partHeading(title: string, part: Part, o: ScaleOptions): string {
  const sizes = reducedSizes(part, o);
  return sizes.length ? `## ${title} (sizes changed: ${sizes.join(' ')})` : `## ${title}`;
}

/** The chunk texts the worker embeds for these files, chunked with the workers' own settings. */
async function chunkTexts(stack: ScaleStack, files: FileEntry[]): Promise<string[]> {
  const config = stack.workerConfig();
  const registry = ParserRegistry.default();
  const chunker = new Chunker(new SegmenterTokenCounter(), config.chunking);
  const texts: string[] = [];
  for (const file of files) {
    const parsed = await registry.parse({
      fileName: file.path,
      mediaType: 'text/markdown',
      data: Buffer.from(file.data),
    });
    for (const chunk of chunker.chunk(parsed, { documentId: 'bench', projectId: 'bench' }))
      texts.push(Chunker.embeddingText(chunk));
  }
  return texts;
}

/** Embeds `texts` at the workers' embedder in the workers' batch size, one request at a time (ms). */
async function rawEmbedding(stack: ScaleStack, texts: string[]): Promise<number> {
  const { embedding } = stack.workerConfig();
  const embedder = createEmbeddingProvider(embedding);
  const started = performance.now();
  for (let i = 0; i < texts.length; i += embedding.batchSize)
    await embedder.embed(texts.slice(i, i + embedding.batchSize), 'passage');
  return performance.now() - started;
}

// ---- part 1: small documents and abstracts vs raw embedding ---------------------------------------

async function smallPart(o: ScaleOptions, pool: SentencePool, corpus: SciFactDoc[], stacks: ScaleStack[]) {
  const stack = new ScaleStack('small');
  stacks.push(stack);
  loadAtStart.set(stack, loadavg()[0]);
  await stack.start(o.workers);
  const rows: string[] = [];
  const measure = async (label: string, files: FileEntry[], describe: string) => {
    const texts = await chunkTexts(stack, files);
    await rawEmbedding(stack, texts.slice(0, 4)); // warm-up: the first request pays for the connection
    const before = await rawEmbedding(stack, texts);
    console.log(`[bench:scale] ${label}: raw embedding of ${texts.length} chunk texts ${seconds(before)}`);
    const sync = await syncArchive(stack, label, files, o.timeout);
    console.log(`[bench:scale] ${label}: sync ${seconds(sync.ms)}`);
    const after = await rawEmbedding(stack, texts);
    const raw = (before + after) / 2;
    console.log(`[bench:scale] ${label}: raw embedding again ${seconds(after)} → ${ratio(sync.ms, raw)}`);
    if (sync.chunksEmbedded !== texts.length)
      console.warn(
        `[bench:scale] ${label}: the run embedded ${sync.chunksEmbedded} chunks, the baseline ${texts.length} texts: the baseline no longer matches the pipeline's chunking`,
      );
    rows.push(
      `| ${describe} | ${files.length.toLocaleString('en')} | ${texts.length.toLocaleString('en')} | ${seconds(sync.ms)} | ` +
        `${round((files.length * 1000) / sync.ms, 1)} | ${seconds(before)} / ${seconds(after)} | **${ratio(sync.ms, raw)}** | ` +
        `${sync.pagesIngested} / ${sync.pagesFailed} / ${sync.chunksEmbedded} |`,
    );
  };
  try {
    await measure(
      'small',
      sentenceFiles('notes', pool.take(o.small)),
      'short texts (one SciFact sentence each, one chunk); target ≤ 1.5×',
    );
    if (o.abstracts > 0) {
      const files = corpus
        .slice(0, o.abstracts)
        .map((d) => ({ path: `scifact/${d._id}.md`, data: `# ${d.title}\n\n${d.text}\n` }));
      await measure('abstracts', files, 'SciFact abstracts (1–3 chunks); target ≤ 1.15×');
    }
  } finally {
    await stack.stop();
  }
  return `${partHeading('Scale: small documents vs raw embedding', 'small', o)}

\`tools/bench/bench-scale.ts\` (part \`small\`): each set is one .zip uploaded to \`POST /v1/projects/:id/archives\` of a
new project; sync = upload → run COMPLETED (polled every 250 ms). Baseline: the same chunk texts (parsed and
chunked with the workers' settings) embedded directly at the same embedder, one request at a time in the
workers' batch size, once before and once after the sync; ratio = sync ÷ the mean of the two. No embedding
is reused (fresh index, texts not embedded before in it). ${machineNote(stack, o.workers)}

| documents | files | chunk texts | sync | docs/s | raw embedding before / after | sync ÷ raw | ingested / failed / chunks embedded |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
`;
}

// ---- part 2: the pipeline's ceiling with the stub embedder ----------------------------------------

/** Documents of the unmeasured sync that warms a fresh stack before the first row. */
const WARM_UP_DOCS = 100;

async function stubPart(o: ScaleOptions, pool: SentencePool, stacks: ScaleStack[]) {
  const stack = new ScaleStack('stub', { TROVE_WORKER_MAX_CONCURRENT_ACTIVITIES: String(o.stubSlots) });
  stacks.push(stack);
  loadAtStart.set(stack, loadavg()[0]);
  const rows: string[] = [];
  const cpuNotes: string[] = [];
  try {
    await stack.startStubEmbedder(384);
    let workers = 0;
    for (const n of o.stubWorkers) {
      if (workers === 0) {
        await stack.start(n);
        // Unmeasured: the first sync of a fresh worker also loads code and warms its parse threads.
        await syncArchive(stack, 'stub-warm-up', sentenceFiles('warm', pool.take(WARM_UP_DOCS)), o.timeout);
      } else for (let w = workers; w < n; w++) await stack.addWorker();
      workers = n;
      const cpu = new CpuSampler();
      cpu.begin();
      const sync = await syncArchive(
        stack,
        `stub-${n}w`,
        sentenceFiles('notes', pool.take(o.stubDocs)),
        o.timeout,
      );
      cpuNotes.push(`- ${n} worker process${n > 1 ? 'es' : ''}: ${describeCpu(cpu.end(), cpus().length)}`);
      const rate = (sync.documents * 1000) / sync.ms;
      console.log(`[bench:scale] stub, ${n} worker(s): ${seconds(sync.ms)}, ${round(rate)} docs/s`);
      const planned = sync.planMs === undefined ? '–' : seconds(sync.planMs);
      const ingestRate =
        sync.planMs === undefined ? '–' : round((sync.documents * 1000) / (sync.ms - sync.planMs), 1);
      rows.push(
        `| ${n} | ${sync.documents.toLocaleString('en')} | ${seconds(sync.ms)} | **${round(rate, 1)}** | ${planned} | ${ingestRate} | ${sync.pagesIngested} / ${sync.pagesFailed} / ${sync.chunksEmbedded} |`,
      );
    }
  } finally {
    await stack.stop();
  }
  return `${partHeading('Scale: pipeline ceiling with the stub embedder', 'stub', o)}

\`tools/bench/bench-scale.ts\` (part \`stub\`): the same kind of archive as the \`small\` part (one SciFact sentence per
file, fresh sentences per row) with the workers pointed at the stub embedding server (apps/embedder-stub: answers at
once with hash vectors), so the time is the pipeline's own: upload → run COMPLETED; planning (unpacking, listing and
recording the files) is the part until the run's stage leaves PLANNING (polled every 250 ms). Rows run one after another in one
stack, a worker process added between them (own index prefix and catalog schema, so the stub's vectors never
meet a real index), after one unmeasured sync of ${WARM_UP_DOCS} documents. Each worker has ${o.stubSlots} bulk slots
(\`--stub-slots\`, default 12 as the worker's \`TROVE_WORKER_MAX_CONCURRENT_ACTIVITIES\`): with an embedder that
answers at once a batch mostly waits for the index's refresh, and more batches in flight hide that. Target: ≥ 100 documents/s. ${machineNote(stack, o.stubWorkers.at(-1)!)}

| worker processes | documents | sync | documents/s | of which planning (upload → INGESTING) | documents/s after planning | ingested / failed / chunks embedded |
| --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

CPU time per process group during each row (\`tools/bench/cpu-usage.ts\`, /proc sampled every 500 ms; "benchmark" is this
script polling the run):

${cpuNotes.join('\n')}
`;
}

// ---- part 3: control work and searches while a backlog is queued ----------------------------------

/** p50 / p95 of the edits' times, or how many were not searchable within the timeout. */
function webhookCell(times: (number | undefined)[], timeoutS: number): string {
  const reached = times.filter((ms): ms is number => ms !== undefined);
  const missed = times.length - reached.length;
  if (missed) return `${missed} of ${times.length} > ${timeoutS} s (not reached)`;
  return `${seconds(percentile(reached, 50))} / ${seconds(percentile(reached, 95))} (${times.length} edits)`;
}

interface ControlMeasures {
  queuedAtStart: number;
  queuedAtEnd?: number;
  searchMs: number[];
  planMs?: number;
  /** Each edit's time until searchable; undefined: not within the timeout. */
  webhookMs: (number | undefined)[];
  deleteMarkedMs?: number;
  deleteStatus?: string | null;
  deleteFinishedMs?: number;
}

async function controlPart(o: ScaleOptions, pool: SentencePool, corpus: SciFactDoc[], stacks: ScaleStack[]) {
  const emulator = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: Infinity });
  const emulatorUrl = await emulator.start();
  const stack = new ScaleStack('control', {
    TROVE_NOTION_API_URL: emulatorUrl,
    TROVE_NOTION_REQUESTS_PER_SECOND: '50',
  });
  stacks.push(stack);
  loadAtStart.set(stack, loadavg()[0]);
  const queries = readFileSync(join(sharedDatasets(), 'beir_scifact', 'queries.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { text: string }).text);
  let nextQuery = 0;
  const timeoutMs = o.timeout * 1000;
  const scenarios: { label: string; m: ControlMeasures }[] = [];
  try {
    await stack.start(o.workers);

    // The searched corpus, and a Notion source with its webhook subscription, before any load.
    const searchProject = await stack.createProject('search');
    const searchFiles = corpus
      .slice(-o.searchDocs)
      .map((d) => ({ path: `scifact/${d._id}.md`, data: `# ${d.title}\n\n${d.text}\n` }));
    const { runId: searchRun } = await stack.uploadArchive(
      searchProject,
      'search.zip',
      await buildZip(searchFiles),
    );
    if ((await stack.runSettled(searchRun, timeoutMs))?.status !== 'COMPLETED')
      throw new Error('the search corpus did not sync');
    const notionProject = await stack.createProject('notion');
    const { id: notionSource } = await addSource((query, variables) => stack.gql(query, variables), {
      projectId: notionProject,
      name: 'wiki',
      type: 'NOTION',
      config: { token: emulator.token, rootPageIds: [DEFAULT_IDS.onboarding] },
    });
    const { syncSource } = await stack.gql<{ syncSource: { id: string } }>(
      'mutation($id: ID!) { syncSource(id: $id, mode: FULL) { id } }',
      { id: notionSource },
    );
    if ((await stack.runSettled(syncSource.id, timeoutMs))?.status !== 'COMPLETED')
      throw new Error('the Notion source did not sync');
    const hook = `${stack.url}/webhooks/notion/${notionSource}`;
    const verification = await emulator.sendVerificationRequest(hook);
    if (verification.status !== 200) throw new Error(`webhook verification answered ${verification.status}`);
    const paragraph = await firstParagraph(emulatorUrl, emulator.token, DEFAULT_IDS.onboarding);

    const searches = async (n: number): Promise<number[]> => {
      const times: number[] = [];
      for (const query of queries.slice(nextQuery, nextQuery + n)) {
        const started = performance.now();
        await stack.gql('query($i: SearchInput!) { search(input: $i) { hits { chunkId } } }', {
          i: { projectId: searchProject, query, limit: 10, mode: 'HYBRID' },
        });
        times.push(performance.now() - started);
      }
      nextQuery += n;
      return times;
    };
    /** Upload → every file of the archive has its document row (the plan is recorded). */
    const planArchive = async (label: string): Promise<{ ms?: number; project: string }> => {
      const project = await stack.createProject(label);
      const files = Array.from({ length: o.planFiles }, (_, i) => ({
        path: `handbook/section-${Math.floor(i / 100)}/page-${i}.md`,
        data: `# Page ${i}\n\nPage ${i} of the ${label} handbook: procedure ${i % 97} applies to unit ${i % 13}.\n`,
      }));
      const zip = await buildZip(files);
      const started = performance.now();
      await stack.uploadArchive(project, `${label}.zip`, zip);
      for (;;) {
        if ((await stack.documentCounts(project)).total >= o.planFiles)
          return { ms: performance.now() - started, project };
        if (performance.now() - started > timeoutMs) return { project };
        await sleep(100);
      }
    };
    /** Edit in Notion → signed webhook delivered → the new text is found by a keyword search. */
    const webhookEdit = async (): Promise<number | undefined> => {
      const marker = `benchmarker${Math.random().toString(36).slice(2, 10)}`;
      emulator.editBlockText(paragraph, `Welcome aboard: the ${marker} checklist is on the first page.`);
      const started = performance.now();
      const delivered = await emulator.deliverWebhook(hook, {
        type: 'page.content_updated',
        entityId: DEFAULT_IDS.onboarding,
      });
      if (delivered.status !== 200) throw new Error(`webhook delivery answered ${delivered.status}`);
      for (;;) {
        const { search } = await stack.gql<{ search: { hits: { text: string }[] } }>(
          'query($i: SearchInput!) { search(input: $i) { hits { text } } }',
          { i: { projectId: notionProject, query: marker, limit: 3, mode: 'KEYWORD' } },
        );
        if (search.hits.some((h) => h.text.includes(marker))) return performance.now() - started;
        if (performance.now() - started > timeoutMs) return undefined;
        await sleep(250);
      }
    };
    /** deleteProject: until the mutation returns (marked), then until the project is gone. */
    const deletion = async (project: string) => {
      const started = performance.now();
      await stack.deleteProject(project);
      const markedMs = performance.now() - started;
      const status = await stack.projectStatus(project);
      for (;;) {
        if ((await stack.projectStatus(project)) === null)
          return { markedMs, status, finishedMs: performance.now() - started };
        if (performance.now() - started > timeoutMs) return { markedMs, status };
        await sleep(250);
      }
    };
    const measureAll = async (busy: string | undefined, m: ControlMeasures) => {
      m.searchMs = await searches(o.queries);
      const plan = await planArchive(busy ? 'plan-busy' : 'plan-idle');
      m.planMs = plan.ms;
      console.log(`[bench:scale] plan: ${waited(m.planMs, o.timeout)}`);
      for (let edit = 0; edit < o.webhookEdits; edit++) {
        const ms = await webhookEdit();
        m.webhookMs.push(ms);
        console.log(`[bench:scale] webhook ${edit + 1} → searchable: ${waited(ms, o.timeout)}`);
      }
      if (busy) m.queuedAtEnd = (await stack.documentCounts(busy)).pending;
      // Idle: the plan project's own 1,000 documents are what is deleted; busy: the backlog's project.
      const deleted = await deletion(busy ?? plan.project);
      m.deleteMarkedMs = deleted.markedMs;
      m.deleteStatus = deleted.status;
      m.deleteFinishedMs = deleted.finishedMs;
      console.log(
        `[bench:scale] deleteProject: marked ${seconds(deleted.markedMs)}, gone ${waited(deleted.finishedMs, o.timeout)}`,
      );
      if (busy) await stack.deleteProject(plan.project);
    };

    await searches(3); // warm-up: connections, caches, the first query embedding
    const idle: ControlMeasures = { queuedAtStart: 0, searchMs: [], webhookMs: [] };
    await measureAll(undefined, idle);
    scenarios.push({ label: 'nothing queued (baseline)', m: idle });

    for (const load of o.loads) {
      const busy = await stack.createProject(`busy-${load}`);
      const files = sentenceFiles('backlog', pool.take(o.queued));
      const started = performance.now();
      if (load === 'archive') {
        await stack.uploadArchive(busy, 'backlog.zip', await buildZip(files));
        while ((await stack.documentCounts(busy)).total < o.queued) {
          if (performance.now() - started > timeoutMs)
            throw new Error(`the backlog archive was not planned within ${o.timeout} s`);
          await sleep(500);
        }
      } else {
        let next = 0;
        await Promise.all(
          Array.from({ length: 4 }, async () => {
            while (next < files.length) {
              const file = files[next++];
              await stack.upload(busy, file.path.replace('/', '-'), file.data);
            }
          }),
        );
      }
      const m: ControlMeasures = {
        queuedAtStart: (await stack.documentCounts(busy)).pending,
        searchMs: [],
        webhookMs: [],
      };
      console.log(
        `[bench:scale] backlog of ${o.queued} (${load}) queued in ${seconds(performance.now() - started)}; ${m.queuedAtStart} pending`,
      );
      await measureAll(busy, m);
      scenarios.push({
        label:
          load === 'archive'
            ? `${o.queued.toLocaleString('en')} documents queued as one archive`
            : `${o.queued.toLocaleString('en')} documents uploaded one by one`,
        m,
      });
    }
  } finally {
    await stack.stop();
    await emulator.stop();
  }

  const idle = scenarios[0].m;
  const idleP95 = percentile(idle.searchMs, 95);
  const rows = scenarios.map(({ label, m }) => {
    const p50 = percentile(m.searchMs, 50);
    const p95 = percentile(m.searchMs, 95);
    const queued =
      m === idle
        ? '0'
        : `${m.queuedAtStart.toLocaleString('en')} → ${m.queuedAtEnd?.toLocaleString('en') ?? '?'}`;
    return (
      `| ${label} | ${queued} | ${waited(m.planMs, o.timeout)} | ${webhookCell(m.webhookMs, o.timeout)} | ` +
      `${m.deleteMarkedMs === undefined ? '–' : seconds(m.deleteMarkedMs)} (${m.deleteStatus ?? 'gone'}) | ${waited(m.deleteFinishedMs, o.timeout)} | ` +
      `${Math.round(p50)} / ${Math.round(p95)} ms | ${m === idle ? '1.00×' : ratio(p95, idleP95)} |`
    );
  });
  return `${partHeading('Scale: control work and searches under an ingest backlog', 'control', o)}

\`tools/bench/bench-scale.ts\` (part \`control\`): one stack; first every measure with nothing queued (the baseline of this run),
then the same measures with a backlog of ${o.queued.toLocaleString('en')} small documents (SciFact sentences) waiting for ingest in a
project of its own: ${o.loads.map((l) => (l === 'archive' ? 'one archive (measured once it is planned)' : "single uploads, 4 at a time (each wakes the project's upload workflow, which ingests them in batches; measured once all are accepted)")).join('; then ')}.
Per row, in this order: HYBRID searches of ${o.queries} unique SciFact queries, one at a time, over ${o.searchDocs} SciFact abstracts in
another project (client-side latency through GraphQL; queries embedded by the query embedder, \`TROVE_EMBEDDING_QUERY_URL\`,
as the quick start's api does); planning a ${o.planFiles.toLocaleString('en')}-file archive in a new project
(upload → every file has its document row, polled every 100 ms); ${o.webhookEdits} Notion page edits in the emulator, one after
another, each with its signed \`page.content_updated\` webhook delivered → the new text found by a KEYWORD search (p50 / p95
of the edits; polled every 250 ms; the webhook
batching first waits for ${webhooksSchema.parse({ quietMs: process.env.TROVE_WEBHOOK_QUIET_MS || undefined }).quietMs} ms of quiet, \`TROVE_WEBHOOK_QUIET_MS\`); \`deleteProject\` of the backlog's project (baseline row: of the
idle plan's project): the mutation's answer (the status right after it), and until \`project\` is null.
"Queued" is the backlog's documents neither READY nor FAILED at the start → at the end of the measures.
Targets: planning ≤ 3 s, webhook p95 ≤ 10 s, delete marked at once and gone ≤ 60 s, search p95 ≤ 1.5× idle. ${machineNote(stack, o.workers)}

| backlog | queued | plan ${o.planFiles.toLocaleString('en')} files | webhook → searchable (p50 / p95) | deleteProject answered | deleteProject gone | HYBRID p50 / p95 | p95 ÷ idle p95 |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
`;
}

async function firstParagraph(emulatorUrl: string, token: string, pageId: string): Promise<string> {
  const response = await fetch(`${emulatorUrl}/v1/blocks/${pageId}/children`, {
    headers: { Authorization: `Bearer ${token}`, 'Notion-Version': '2025-09-03' },
  });
  const body = (await response.json()) as { results: { id: string; type: string }[] };
  const block = body.results.find((b) => b.type === 'paragraph');
  if (!block) throw new Error(`the emulator's page ${pageId} has no paragraph to edit`);
  return block.id;
}

// ---- part 4: worker memory with a large backlog ---------------------------------------------------

/** Archives hold at most 10,000 entries (the zip reader's limit): the backlog is split below it. */
const FILES_PER_ARCHIVE = 9_000;

async function rssPart(o: ScaleOptions, stacks: ScaleStack[]) {
  const stack = new ScaleStack('rss');
  stacks.push(stack);
  loadAtStart.set(stack, loadavg()[0]);
  await stack.start(o.workers);
  const samples: { atMs: number; rssMiB: number; hwmMiB: number; ready: number }[] = [];
  let planEnd: { atMs: number; rssMiB: number } | undefined;
  let archives = 0;
  try {
    const project = await stack.createProject('rss');
    const zips: Buffer[] = [];
    for (let from = 0; from < o.rssDocs; from += FILES_PER_ARCHIVE) {
      const files = Array.from({ length: Math.min(FILES_PER_ARCHIVE, o.rssDocs - from) }, (_, k) => {
        const i = from + k;
        return {
          path: `tiny-${from}/note-${i}.md`,
          data: `Note ${i}: item ${i % 1013} goes to shelf ${i % 37}.\n`,
        };
      });
      zips.push(await buildZip(files));
    }
    archives = zips.length;
    const pids = stack.workerPids;
    const memory = () => {
      const readings = pids.map(readMemory).filter((r) => r !== undefined);
      return {
        rssMiB: readings.reduce((sum, r) => sum + r.rssMiB, 0),
        hwmMiB: readings.reduce((sum, r) => sum + r.hwmMiB, 0),
      };
    };
    const started = performance.now();
    for (const [k, zip] of zips.entries()) await stack.uploadArchive(project, `tiny-${k}.zip`, zip);
    let lastCount = performance.now();
    let ready = 0;
    while (performance.now() - started < o.rssSeconds * 1000) {
      const atMs = performance.now() - started;
      if (!planEnd || performance.now() - lastCount > 10_000) {
        const counts = await stack.documentCounts(project);
        ready = counts.ready;
        lastCount = performance.now();
        if (!planEnd && counts.total >= o.rssDocs) planEnd = { atMs, rssMiB: memory().rssMiB };
      }
      samples.push({ atMs, ...memory(), ready });
      await sleep(1000);
    }
    const final = await stack.documentCounts(project);
    samples.push({ atMs: performance.now() - started, ...memory(), ready: final.ready });
    await stack.deleteProject(project);
  } finally {
    await stack.stop();
  }
  const peak = Math.max(...samples.map((s) => s.rssMiB));
  const last = samples.at(-1)!;
  const every = Math.max(1, Math.round(samples.length / 10));
  const timeline = samples
    .filter((_, i) => i % every === 0 || i === samples.length - 1)
    .map((s) => `| ${seconds(s.atMs)} | ${mib(s.rssMiB)} | ${s.ready.toLocaleString('en')} |`);
  console.log(`[bench:scale] rss: peak ${mib(peak)}, kernel high-water ${mib(last.hwmMiB)}`);
  return `${partHeading('Scale: worker memory with a large backlog', 'rss', o)}

\`tools/bench/bench-scale.ts\` (part \`rss\`): ${o.rssDocs.toLocaleString('en')} tiny Markdown files (one line each) uploaded into one project as
${archives} archive${archives > 1 ? 's' : ''} (at most ${FILES_PER_ARCHIVE.toLocaleString('en')} files each: the zip reader refuses more than 10,000 entries),
then the resident memory (VmRSS) of the worker process${o.workers > 1 ? 'es (summed)' : ''} read from /proc every second for
${o.rssSeconds} s after the first upload (then the project is deleted). Target: ≤ 1 GB (1,024 MiB). ${machineNote(stack, o.workers)}

| measure | value |
| --- | --- |
| peak VmRSS sampled over ${o.rssSeconds} s | **${mib(peak)}** |
| kernel high-water mark (VmHWM) at the end | ${mib(last.hwmMiB)} |
| VmRSS when every file had its document row (planning done) | ${planEnd ? `${mib(planEnd.rssMiB)} at ${seconds(planEnd.atMs)}` : `not reached in ${o.rssSeconds} s`} |
| documents READY at the end of sampling | ${last.ready.toLocaleString('en')} of ${o.rssDocs.toLocaleString('en')} |

| since first upload | VmRSS | documents READY |
| --- | --- | --- |
${timeline.join('\n')}
`;
}

// ---- main ------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  let o: ScaleOptions;
  try {
    o = parseScaleOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  const stacks: ScaleStack[] = [];
  const killAll = () => stacks.forEach((s) => s.killNow());
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`[bench:scale] ${signal}: stopping the processes it started`);
      void Promise.allSettled(stacks.map((s) => s.stop())).finally(() => process.exit(130));
    });
  }
  const corpus = scifactCorpus();
  const pool = new SentencePool(scifactSentences(corpus));
  const command = ['npm run bench:scale --', ...process.argv.slice(2)].join(' ').replace(/ --$/, '');
  const sections: string[] = [];
  try {
    for (const part of o.parts) {
      console.log(`[bench:scale] part ${part}`);
      const section =
        part === 'small'
          ? await smallPart(o, pool, corpus, stacks)
          : part === 'stub'
            ? await stubPart(o, pool, stacks)
            : part === 'control'
              ? await controlPart(o, pool, corpus, stacks)
              : part === 'rss'
                ? await rssPart(o, stacks)
                : await telemetryPart(
                    o,
                    pool,
                    stacks,
                    partHeading('Scale: telemetry overhead (tracing and metrics on vs off)', 'telemetry', o),
                  );
      console.log(section);
      sections.push(section);
      if (o.write) writeBenchmarkSections(command, section);
    }
  } finally {
    await Promise.allSettled(stacks.map((s) => s.stop()));
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
