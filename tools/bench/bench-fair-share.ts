/**
 * `npm run bench:fair-share [-- --parts client,stack]`: project B's small import while project A's
 * large one runs, against B alone, in two parts (both by default), each writing its own section:
 *  - stack: through the real api, worker and Temporal, fairness on vs first come, first served
 *    (bench-fair-share-stack.ts);
 *  - client: the worker's embedder client alone, below.
 *
 * The client part: how long project B's small import waits at the worker's embedder
 * client while project A's large import fills the bulk lane, with projects taking turns (each
 * request names its project) and without (every request in one queue, older work first: the
 * order before projects took turns), against B alone, all in the same run. The embedder is a
 * private stub answering each request after `BENCH_FAIR_DELAY_MS` (an embedder of our own, which
 * the shared one on a busy machine is not); `BENCH_FAIR_EMBEDDER=local` uses infra/local's instead.
 *
 * A's import is `BENCH_FAIR_A_UNITS` units at once (the bulk lane's slots), each a batch activity
 * that sends `BENCH_FAIR_UNIT_REQUESTS` requests of 16 passages one after another, then is
 * replaced by a new unit (younger, as the ingest window schedules it). B's import is one unit of
 * `BENCH_FAIR_B_REQUESTS` requests, started once A's units are all under way.
 */
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { EmbeddingConfig } from '@trove/config';
import type { EmbeddingProvider } from '@trove/domain';
import { createEmbeddingProvider, DEFAULT_MAX_IN_FLIGHT } from '@trove/embeddings';
import { startEmbedderStub } from '@trove/test-support';
import { localWorkerConfig, sizeDefault, writeBenchmarkSections } from '@trove/tools-support';
import { STACK_KNOBS, stackPart } from './bench-fair-share-stack';

const KNOBS = [
  'BENCH_FAIR_A_UNITS',
  'BENCH_FAIR_UNIT_REQUESTS',
  'BENCH_FAIR_B_REQUESTS',
  'BENCH_FAIR_ROUNDS',
  'BENCH_FAIR_DELAY_MS',
  'BENCH_FAIR_EMBEDDER',
];
const PARTS = ['stack', 'client'] as const;
type Part = (typeof PARTS)[number];
/** A knob's value, or its default from the command's entry in tools/support/benchmark-commands.ts. */
const size = (name: string) => Number(process.env[name] ?? sizeDefault('npm run bench:fair-share', name));
const A_UNITS = size('BENCH_FAIR_A_UNITS');
const UNIT_REQUESTS = size('BENCH_FAIR_UNIT_REQUESTS');
const B_REQUESTS = size('BENCH_FAIR_B_REQUESTS');
/** B's import is measured this many times per condition; the median is reported. */
const ROUNDS = size('BENCH_FAIR_ROUNDS');
const DELAY_MS = size('BENCH_FAIR_DELAY_MS');
const LOCAL_EMBEDDER = process.env.BENCH_FAIR_EMBEDDER === 'local';
/** The worker's batch size (TROVE_EMBEDDING_BATCH_SIZE's default). */
const BATCH = 16;
/** The target: B's import during A's takes at most this many times its time alone. */
const TARGET_RATIO = 3;

type Condition = 'alone' | 'turns' | 'one queue';

const WORDS = (
  'keeper lamp lens fog horn tide harbour gate storm shutter gallery beacon relief logbook ' +
  'signal chart reef current buoy lantern watch wick oil brass mirror rotation night dawn'
).split(' ');

/** A passage of about 60 words, different each time (the embedder caches nothing by text, but stay honest). */
function passage(seed: number): string {
  const words: string[] = [];
  let x = seed * 2_654_435_761;
  for (let i = 0; i < 60; i++) {
    x = (x * 1_103_515_245 + 12_345) >>> 0;
    words.push(WORDS[x % WORDS.length]);
  }
  return `${words.join(' ')} (${seed}).`;
}

let seeds = 0;
const batch = () => Array.from({ length: BATCH }, () => passage(seeds++));

/** One unit of ingest (a batch activity): its requests one after another, in its project's name. */
async function unit(
  embedder: EmbeddingProvider,
  requests: number,
  tenant: string | undefined,
): Promise<void> {
  const since = Date.now();
  for (let i = 0; i < requests; i++) {
    await embedder.embed(batch(), 'passage', { priority: 'bulk', since, ...(tenant ? { tenant } : {}) });
  }
}

/** B's import (one unit) timed in ms, alone or while A keeps `A_UNITS` units in flight. */
async function measureB(
  embedding: EmbeddingConfig,
  condition: Condition,
): Promise<{ ms: number; aRequests: number }> {
  // A client of its own per measurement, as one worker process has (its queue starts empty).
  const embedder = createEmbeddingProvider(embedding);
  const tenants = condition === 'turns';
  let stop = false;
  let aRequests = 0;
  let aStarted = 0;
  let allStarted: () => void = () => undefined;
  const aUnderWay = new Promise<void>((resolve) => (allStarted = resolve));
  const counting: EmbeddingProvider = {
    dimensions: embedder.dimensions,
    modelId: embedder.modelId,
    ping: () => embedder.ping(),
    embed: async (texts, purpose, options) => {
      const vectors = await embedder.embed(texts, purpose, options);
      aRequests++;
      return vectors;
    },
  };
  const slot = async () => {
    while (!stop) {
      const work = unit(counting, UNIT_REQUESTS, tenants ? 'project-a' : undefined);
      if (++aStarted === A_UNITS) allStarted();
      await work;
    }
  };
  const slots = condition === 'alone' ? [] : Array.from({ length: A_UNITS }, slot);
  if (condition !== 'alone') {
    await aUnderWay;
    // A's first requests are at the server and the rest queued behind them, as in a running import.
    const before = aRequests;
    while (aRequests < before + 2) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const started = Date.now();
  await unit(embedder, B_REQUESTS, tenants ? 'project-b' : undefined);
  const ms = Date.now() - started;
  stop = true;
  await Promise.all(slots);
  return { ms, aRequests };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Runs the client part and returns its BENCHMARKS.md section. */
async function clientPart(): Promise<string> {
  const config = localWorkerConfig('bench-fair-share', join(tmpdir(), 'bench-fair-share'));
  const stub = LOCAL_EMBEDDER ? undefined : await startEmbedderStub(['--delay-ms', String(DELAY_MS)]);
  const embedding: EmbeddingConfig = {
    ...config.embedding,
    queryBaseUrl: undefined,
    ...(stub ? { baseUrl: stub.url } : {}),
    // Fixed, so the turns are compared at one limit (unset, the client's limit adapts to the server).
    maxInFlight: config.embedding.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT,
  };
  const results = new Map<Condition, number[]>();
  try {
    await createEmbeddingProvider(embedding).ping();
    // Warm the embedder (its first requests are slower).
    await unit(createEmbeddingProvider(embedding), 2, undefined);
    // Interleaved, so every condition meets the same machine.
    for (let round = 0; round < ROUNDS; round++) {
      for (const condition of ['alone', 'turns', 'one queue'] as Condition[]) {
        const { ms, aRequests } = await measureB(embedding, condition);
        console.log(
          `[bench] round ${round + 1} ${condition}: B took ${ms} ms (A sent ${aRequests} requests)`,
        );
        results.set(condition, [...(results.get(condition) ?? []), ms]);
      }
    }
  } finally {
    if (stub) {
      stub.process.kill('SIGTERM');
      await once(stub.process, 'exit');
    }
  }
  const alone = median(results.get('alone')!);
  const row = (condition: Condition, label: string) => {
    const values = results.get(condition)!;
    return `| ${label} | ${values.join(', ')} | ${median(values)} | ${(median(values) / alone).toFixed(2)} |`;
  };
  const turns = median(results.get('turns')!) / alone;
  const oneQueue = median(results.get('one queue')!) / alone;
  const body = `## Fair share: a small import while another project's import fills the bulk lane

Project B's small import (one batch activity: ${B_REQUESTS} embedding requests of ${BATCH} passages, one after another)
through the worker's embedder client (\`TROVE_EMBEDDING_MAX_IN_FLIGHT\` ${embedding.maxInFlight} requests at the
embedder at once; ${stub ? `the stub embedder answering each request after ${DELAY_MS} ms, an embedder of the bench's own` : 'the local embedder of infra/local, shared with whatever else runs on the machine'}), alone and while project A's import keeps ${A_UNITS} batch activities in flight (the bulk lane's
default slots), each sending ${UNIT_REQUESTS} requests one after another and then replaced by a younger one. "projects take
turns": every request names its project, and waiting bulk requests of different projects alternate; "one queue": no
project named, every bulk request in one queue by its work's age (older first), which is how the client ordered them before.
${ROUNDS} rounds, the conditions interleaved in each.

| B's import | ms per round | median ms | × alone |
| --- | --- | --- | --- |
${row('alone', 'alone')}
${row('turns', 'during A, projects take turns')}
${row('one queue', 'during A, one queue (before)')}

While A's import runs, B's takes ${turns.toFixed(2)}× its time alone when projects take turns and ${oneQueue.toFixed(2)}× in
one queue (target ≤ ${TARGET_RATIO}×). This measures the embedder client, where the machine's shared capacity is; the bulk
lane's activity slots, dispatched by Temporal, are measured by the stack part ("Fair share through the stack").
Knobs: \`BENCH_FAIR_A_UNITS\` (${A_UNITS}), \`BENCH_FAIR_UNIT_REQUESTS\` (${UNIT_REQUESTS}), \`BENCH_FAIR_B_REQUESTS\`
(${B_REQUESTS}), \`BENCH_FAIR_ROUNDS\` (${ROUNDS}).`;
  return body;
}

/** The parts `--parts` names (all of them without it), or an error naming the unknown ones. */
function chooseParts(names: string | undefined): Part[] {
  if (!names) return [...PARTS];
  const chosen = names.split(',').map((n) => n.trim());
  const unknown = chosen.filter((n) => !(PARTS as readonly string[]).includes(n));
  if (unknown.length || !chosen.length)
    throw new Error(`unknown part ${unknown.join(', ') || '(none given)'}; choose from ${PARTS.join(', ')}`);
  return PARTS.filter((p) => chosen.includes(p));
}

async function main() {
  const { values } = parseArgs({ options: { parts: { type: 'string' } } });
  const parts = chooseParts(values.parts);
  const command = [
    ...[...KNOBS, ...STACK_KNOBS].filter((k) => process.env[k]).map((k) => `${k}=${process.env[k]}`),
    'npm run bench:fair-share',
    ...(values.parts ? ['--', `--parts ${parts.join(',')}`] : []),
  ].join(' ');
  const sections: string[] = [];
  for (const part of parts) {
    sections.push(part === 'stack' ? await stackPart() : await clientPart());
    console.log(sections.at(-1));
  }
  // Written together, so every section is stamped with the commit measured (not -dirty from the first).
  writeBenchmarkSections(command, ...sections);
}

main().catch((error: unknown) => {
  console.error(`[bench] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
