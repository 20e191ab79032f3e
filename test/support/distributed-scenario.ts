import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Client as ElasticClient } from '@elastic/elasticsearch';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';
import { syncWorkflowId } from '@trove/domain';
import { buildZip } from '@trove/parsing/testing';
import { createElasticsearchClient } from '@trove/search';
import { checkEachDocumentOnce, type EachDocumentOnce } from './each-document-once';
import { startEmbedderStub, STUB_PROFILE_ARGS } from './embedder-stub';
import { createBucket, deleteBucket, ensureSeaweedfs, s3Env } from './object-store';
import { PrivateServices } from './private-services';
import { EMBEDDER_URL, QUERY_EMBEDDER_URL, uniqueName } from './services';
import { type SyncRunView, TroveStack } from './stack';

/**
 * Trove spread over several machines, on one: two worker processes that share no disk (each its
 * own temporary, archive-cache, Git-cache, workflow-bundle and blob folders; originals and the
 * uploaded archive in an S3 bucket), a private three-node Elasticsearch cluster, and Temporal's
 * production server (four services, PostgreSQL persistence). During a sync of one archive of
 * `documents` small Markdown files, worker 1 is SIGKILLed while it runs a batch (once a quarter of
 * the documents are ingested) and the Elasticsearch node that holds the chunk index's primary
 * shard is SIGKILLed (once half are); neither comes back. Meanwhile a search goes through the api
 * every 200 ms. Everything the scenario starts it stops; the shared services (the embedder, the
 * S3 server) are only used.
 */
export interface DistributedScenarioOptions {
  documents: number;
  /** The private Elasticsearch nodes with the JVM's quick compiler only (PrivateServicesOptions.esQuickStart): tests, not the benchmark. */
  esQuickStart?: boolean;
  /**
   * `local`: the embedding server of infra/local (the query embedder for searches), as in
   * production. `stub`: the stub embedding server (apps/embedder-stub, hash vectors at once), in a
   * process of its own: the sync then takes the time of Trove's own work, which is what the
   * scenario is about (distribution), and it leaves the shared embedder to the other tests.
   */
  embedder: 'local' | 'stub';
  /**
   * First an undisturbed sync of as many other files, in a project of its own on the same stack:
   * what the sync would take without its failures, measured in the same run (the benchmark's
   * baseline; the test leaves it out).
   */
  baseline?: boolean;
  /** Progress lines while it runs (each event with its time since the upload). */
  log?: (line: string) => void;
}

/** When a search was answered (or failed), relative to the events of the run. */
export type SearchPhase = 'before' | 'worker lost' | 'node lost' | 'after';
export const SEARCH_PHASES: readonly SearchPhase[] = ['before', 'worker lost', 'node lost', 'after'];

export interface SearchFigures {
  phase: SearchPhase;
  /** Searches that ended in the phase, and those answered with hits. */
  sent: number;
  answered: number;
  /** Why each other one failed (a GraphQL error, an HTTP status, no hits). */
  errors: string[];
  p50Ms?: number;
  p95Ms?: number;
}

/** An activity of the sync as its workflow's history recorded it. */
export interface ActivityRun {
  type: string;
  /** The attempt that ended it: > 1 when an earlier one was lost (a killed worker's heartbeat timeout). */
  attempt: number;
  /** The worker that ran the last attempt (pid@host). */
  identity: string;
  /** The previous attempt's failure, for attempt > 1. */
  lastFailure?: string;
  /** When its last attempt started and when it completed, in seconds since the upload. */
  startedAt: number;
  completedAt?: number;
}

export interface DistributedReport {
  documents: number;
  embedder: DistributedScenarioOptions['embedder'];
  /** Seconds to start the private services, then the api and both workers. */
  servicesStartSeconds: number;
  stackStartSeconds: number;
  /** Upload → run COMPLETED (or FAILED) as the catalog recorded it, seconds. */
  syncSeconds: number;
  /** The same for the undisturbed sync before it (with `baseline`). */
  baselineSyncSeconds?: number;
  /** When the last search was sent, seconds since the upload (after the run and the cluster's recovery). */
  searchesEndSeconds: number;
  run: SyncRunView;
  workerKill: {
    pid: number;
    /** Documents ingested (the run's progress) and seconds since the upload when it was killed. */
    atDocuments: number;
    atSeconds: number;
    /** Batches of the run it was running then. */
    batchesHeld: number;
  };
  nodeKill: {
    node: string;
    /** Whether it was also the elected master (an election then follows). */
    wasMaster: boolean;
    /** It held the chunk index's primary shard (the replica on another node is promoted). */
    heldPrimary: boolean;
    atDocuments: number;
    atSeconds: number;
    /** Seconds from the kill until the cluster counted two nodes, and until it was green again on them. */
    leftAfterSeconds: number;
    greenAfterSeconds: number;
    /** The run was still running when the node was killed. */
    runRunning: boolean;
  };
  /** The chunk index's replicas before the kill (one, on another node than the primary). */
  replicasBefore: number;
  searches: SearchFigures[];
  /** The sync's activities over every execution of its workflow (continue-as-new followed). */
  activities: ActivityRun[];
  executions: number;
  /** Worker identities (pid@host) of workers 1 and 2. */
  workerIdentities: [string, string];
  /** Per worker: whether its own archive cache holds the whole archive unpacked, and how many files. */
  unpacked: { worker: number; files: number }[];
  /** Files in the stack's blob folder and in each worker's (a bucket holds every blob: only the canary). */
  blobFolderFiles: string[];
  workerBlobFiles: number;
  once: EachDocumentOnce;
  /** The 1-minute load average at the upload and at the run's end. */
  load: [number, number];
}

const SEARCH_INTERVAL_MS = 200;
/** Searches sent at least once the cluster is green again. */
const AFTER_SEARCHES = 10;
const SEARCH = 'query($input: SearchInput!) { search(input: $input) { hits { documentId } } }';

/** File `i` of the archive: a heading and one sentence, so one chunk of its own words. */
function note(i: number): { path: string; data: string } {
  return {
    path: `notes/${String(Math.floor(i / 500)).padStart(2, '0')}/note-${String(i).padStart(5, '0')}.md`,
    data:
      `# Lighthouse log ${i}\n\nLighthouse ${i} on cape ${i % 37} blinks ${(i * 7) % 60} times a minute ` +
      `and its keeper logs ${(i * 13) % 97} ships a night from the ${['north', 'south', 'east', 'west'][i % 4]} tower.\n`,
  };
}

const percentile = (values: number[], p: number): number | undefined => {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
};

/** Searches through the api one after another, one every 200 ms, until stopped. */
class Searcher {
  /**
   * Each search: when its answer (or failure) came, in seconds since the upload, so a search in
   * flight when a node died counts in the phase of that loss; its latency; why it failed.
   */
  readonly samples: { at: number; ms: number; error?: string }[] = [];
  private stopping = false;
  private readonly done: Promise<void>;

  constructor(
    private readonly stack: TroveStack,
    private readonly projectId: string,
    private readonly since: number,
  ) {
    this.done = this.run();
  }

  stop(): Promise<void> {
    this.stopping = true;
    return this.done;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      const started = performance.now();
      let error: string | undefined;
      try {
        const body = await this.stack.gql<{ search: { hits: unknown[] } }>(SEARCH, {
          input: { projectId: this.projectId, query: 'lighthouse keeper ships', mode: 'HYBRID', limit: 5 },
        });
        if (body.errors?.length) error = body.errors.map((e) => e.message).join('; ');
        else if (!body.data?.search.hits.length) error = 'no hits';
      } catch (e) {
        error = (e as Error).message;
      }
      const ms = performance.now() - started;
      this.samples.push({ at: (performance.now() - this.since) / 1000, ms, ...(error ? { error } : {}) });
      // A steady rate, as users would send them, not a flood that measures only the queue.
      if (ms < SEARCH_INTERVAL_MS)
        await new Promise((resolve) => setTimeout(resolve, SEARCH_INTERVAL_MS - ms));
    }
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Files under `dir`, recursively (0 when it does not exist). */
function countFiles(dir: string): number {
  if (!existsSync(dir)) return 0;
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    files += entry.isDirectory() ? countFiles(join(dir, entry.name)) : 1;
  }
  return files;
}

type HistoryOfRun = Awaited<ReturnType<ReturnType<TemporalClient['workflow']['getHandle']>['fetchHistory']>>;

/** The sync's activities over every execution of its workflow, oldest first. */
async function syncActivities(
  temporal: TemporalClient,
  sourceId: string,
  since: number,
): Promise<{ activities: ActivityRun[]; executions: number }> {
  const workflowId = syncWorkflowId(sourceId);
  const activities: ActivityRun[] = [];
  let executions = 0;
  let runId: string | undefined = (await temporal.workflow.getHandle(workflowId).describe()).runId;
  // Event times are the server's wall clock; the upload's is this process's (same machine).
  const at = (ts: Parameters<typeof tsToMs>[0]) => (tsToMs(ts) - since) / 1000;
  while (runId) {
    const history: HistoryOfRun = await temporal.workflow.getHandle(workflowId, runId).fetchHistory();
    const events = history.events ?? [];
    executions++;
    const scheduled = new Map<string, string>();
    const started = new Map<string, ActivityRun>();
    for (const event of events) {
      const id = String(event.eventId);
      const s = event.activityTaskScheduledEventAttributes;
      if (s) scheduled.set(id, s.activityType?.name ?? 'unknown');
      const st = event.activityTaskStartedEventAttributes;
      if (st) {
        const run: ActivityRun = {
          type: scheduled.get(String(st.scheduledEventId)) ?? 'unknown',
          attempt: st.attempt ?? 1,
          identity: st.identity ?? '',
          startedAt: at(event.eventTime),
          ...(st.lastFailure?.message ? { lastFailure: st.lastFailure.message } : {}),
        };
        started.set(String(st.scheduledEventId), run);
        activities.push(run);
      }
      const done = event.activityTaskCompletedEventAttributes;
      if (done) {
        const run = started.get(String(done.scheduledEventId));
        if (run) run.completedAt = at(event.eventTime);
      }
    }
    runId = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
  }
  activities.sort((a, b) => a.startedAt - b.startedAt);
  return { activities, executions };
}

/**
 * Waits until the cluster's health meets `wait` (Elasticsearch's own wait, asked again every 20 s:
 * the client cannot wait longer than its 30 s request timeout), within `timeoutMs`.
 */
async function clusterHealth(
  es: ElasticClient,
  wait: { wait_for_nodes?: string; wait_for_status?: 'green' | 'yellow' },
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // 408 is its answer when the wait timed out.
    const health = await es.cluster.health({ ...wait, timeout: '20s' }, { ignore: [408] });
    if (!health.timed_out) return;
    if (Date.now() > deadline)
      throw new Error(
        `the cluster did not reach ${JSON.stringify(wait)} in ${timeoutMs / 1000} s: ${JSON.stringify(health)}`,
      );
  }
}

/**
 * Polls `probe` every 200 ms until it returns a value; a probe that throws ends the wait (the run
 * went past the point waited for). The deadline only bounds a hang.
 */
async function poll<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 900_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Runs the scenario (see {@link DistributedScenarioOptions}) and reports what happened; stops all it started. */
export async function runDistributedScenario(
  options: DistributedScenarioOptions,
): Promise<DistributedReport> {
  const log = options.log ?? (() => undefined);
  const services = new PrivateServices({ esNodes: 3, esQuickStart: options.esQuickStart });
  let stub: { url: string; process: ChildProcess } | undefined;
  let stack: TroveStack | undefined;
  let es: ElasticClient | undefined;
  let connection: Connection | undefined;
  let searcher: Searcher | undefined;
  const bucket = uniqueName('distributed');
  let bucketMade = false;
  try {
    let started = performance.now();
    await services.start('elasticsearch', 'temporal-server');
    const servicesStartSeconds = (performance.now() - started) / 1000;
    await ensureSeaweedfs();
    await createBucket(bucket);
    bucketMade = true;
    if (options.embedder === 'stub') stub = await startEmbedderStub(STUB_PROFILE_ARGS);
    stack = new TroveStack(
      {
        ...s3Env(bucket),
        // The archive of small files is larger than the stack's test default.
        TROVE_MAX_UPLOAD_BYTES: String(16 * 1024 * 1024),
        // The production default (the stack's tests use 8).
        TROVE_EMBEDDING_BATCH_SIZE: '16',
        ...(stub
          ? { TROVE_EMBEDDING_BASE_URL: stub.url }
          : { TROVE_EMBEDDING_BASE_URL: EMBEDDER_URL, TROVE_EMBEDDING_QUERY_URL: QUERY_EMBEDDER_URL }),
      },
      {
        esUrl: services.esNodeUrls.join(','),
        databaseUrl: services.databaseUrl,
        temporalAddress: services.temporalAddress,
      },
      uniqueName('distributed'),
    );
    es = createElasticsearchClient(services.esNodeUrls.join(','));
    connection = await Connection.connect({ address: services.temporalAddress });
    const temporal = new TemporalClient({ connection });
    started = performance.now();
    await stack.start({ ownFolders: true });
    await stack.addWorker({ ownFolders: true });
    const stackStartSeconds = (performance.now() - started) / 1000;
    const workerPids = [stack.workerPidOf(1), stack.workerPidOf(2)];
    /** A run once it ended, with when the catalog recorded its end (runSettled polls once a second). */
    const finishedRun = async (id: string) => {
      await stack!.runSettled(id, 900_000);
      const { syncRun } = await stack!.query<{ syncRun: SyncRunView & { finishedAt: string | null } }>(
        `query($id: ID!) { syncRun(id: $id) { id status finishedAt error { code message } warnings skipped { id reason }
           progress { pagesSeen pagesIngested pagesUnchanged pagesFailed pagesDeleted chunksEmbedded chunksReused } } }`,
        { id },
      );
      return syncRun;
    };

    let baselineSyncSeconds: number | undefined;
    if (options.baseline) {
      // Other files (no embedding to reuse), all of them ingested before the measured run starts.
      const undisturbed = await stack.createProject('Undisturbed');
      const zip = await buildZip(
        Array.from({ length: options.documents }, (_, i) => note(options.documents + i)),
      );
      const startedWall = Date.now();
      const upload = await stack.uploadArchive(undisturbed, 'undisturbed.zip', zip);
      if (upload.status !== 202) throw new Error(`the baseline upload answered ${upload.status}`);
      const run = await finishedRun(upload.body.run!.id);
      if (run.status !== 'COMPLETED' || !run.finishedAt)
        throw new Error(`the undisturbed run is ${run.status}: ${JSON.stringify(run.error)}`);
      baselineSyncSeconds = (Date.parse(run.finishedAt) - startedWall) / 1000;
      log(`undisturbed sync of ${options.documents} other files: ${baselineSyncSeconds.toFixed(1)} s`);
    }

    const projectId = await stack.createProject('Distributed');

    const files = Array.from({ length: options.documents }, (_, i) => note(i));
    const zip = await buildZip(files);
    const since = performance.now();
    const sinceWall = Date.now();
    const seconds = () => (performance.now() - since) / 1000;
    const load0 = loadavg()[0];
    const archive = await stack.uploadArchive(projectId, 'distributed.zip', zip);
    if (archive.status !== 202)
      throw new Error(`the archive upload answered ${archive.status}: ${JSON.stringify(archive.body)}`);
    const runId = archive.body.run!.id;
    const sourceId = archive.body.source!.id;
    const sync = temporal.workflow.getHandle(syncWorkflowId(sourceId));
    log(`archive of ${options.documents} files (${zip.length} bytes) uploaded; run ${runId}`);

    const progress = async (): Promise<{ status: string; ingested: number }> => {
      const { syncRun } = await stack!.query<{ syncRun: SyncRunView }>(
        'query($id: ID!) { syncRun(id: $id) { id status progress { pagesIngested } } }',
        { id: runId },
      );
      return { status: syncRun.status, ingested: syncRun.progress.pagesIngested ?? 0 };
    };
    /** Waits until `fraction` of the documents are ingested; the run must still be running then. */
    const midRun = (fraction: number) =>
      poll(`${fraction * 100}% of the documents ingested`, async () => {
        const now = await progress();
        if (now.status !== 'RUNNING')
          throw new Error(
            `the run is ${now.status} before ${fraction * 100}% was ingested (${now.ingested})`,
          );
        return now.ingested >= Math.max(1, fraction * options.documents) ? now.ingested : undefined;
      });

    // Searches from the first indexed document on: before it, no search can find anything.
    await midRun(0);
    searcher = new Searcher(stack, projectId, since);

    // Worker 1 dies while it runs a batch of the run (Temporal names the worker of each attempt).
    // The kill follows the answer that shows the batch at once: a batch with the stub embedder takes
    // about a second, and a request in between (the run's progress) once let it finish first on a
    // loaded machine, so that no batch was left to take over.
    await midRun(0.25);
    let workerKillAt = 0;
    const held = await poll('worker 1 running a batch of the run', async () => {
      const { raw } = await sync.describe();
      const mine = (raw.pendingActivities ?? []).filter(
        (a) =>
          a.activityType?.name === 'ingestBatch' &&
          a.lastStartedTime &&
          a.lastWorkerIdentity?.startsWith(`${workerPids[0]}@`),
      );
      if (mine.length > 0) {
        workerKillAt = seconds();
        await stack!.killWorker(1);
        return mine.length;
      }
      const { status } = await progress();
      if (status !== 'RUNNING')
        throw new Error(`the run is ${status} before worker 1 could be killed mid-batch`);
      return undefined;
    });
    const workerKillDocuments = (await progress()).ingested;
    log(
      `${workerKillAt.toFixed(1)} s: worker 1 (pid ${workerPids[0]}) SIGKILLed at ${workerKillDocuments} documents, running ${held} batch(es)`,
    );

    // The Elasticsearch node with the chunk index's primary shard dies.
    await midRun(0.5);
    const chunksIndex = `${stack.name}-chunks`;
    const shards = await es.cat.shards({ index: chunksIndex, format: 'json' });
    const primary = shards.find((s) => s.prirep === 'p' && s.state === 'STARTED')?.node;
    const replicasBefore = shards.filter((s) => s.prirep === 'r' && s.state === 'STARTED').length;
    const nodeMatch = /^trove-local-(\d)$/.exec(primary ?? '');
    const nodeNumber = nodeMatch ? Number(nodeMatch[1]) : undefined;
    if (!nodeNumber) throw new Error(`no started primary of ${chunksIndex}: ${JSON.stringify(shards)}`);
    const [master] = await es.cat.master({ format: 'json' });
    const atNodeKill = await progress();
    const nodeKillAt = seconds();
    const killedAt = performance.now();
    // Its process group (up.sh starts each node with setsid): the launcher and the server JVM.
    process.kill(-Number(readFileSync(services.pidFile(`elasticsearch-${nodeNumber}`), 'utf8')), 'SIGKILL');
    log(
      `${nodeKillAt.toFixed(1)} s: Elasticsearch node ${primary} SIGKILLed at ${atNodeKill.ingested} documents`,
    );
    // The cluster's recovery and the run go on side by side: either may end first.
    const recovery = (async () => {
      await clusterHealth(es, { wait_for_nodes: '2' }, 120_000);
      const leftAfterSeconds = (performance.now() - killedAt) / 1000;
      await clusterHealth(es, { wait_for_nodes: '2', wait_for_status: 'green' }, 300_000);
      const greenAfterSeconds = (performance.now() - killedAt) / 1000;
      log(
        `node left after ${leftAfterSeconds.toFixed(1)} s, cluster green on two nodes after ${greenAfterSeconds.toFixed(1)} s`,
      );
      return { leftAfterSeconds, greenAfterSeconds };
    })();
    const [run, { leftAfterSeconds, greenAfterSeconds }] = await Promise.all([finishedRun(runId), recovery]);
    const syncSeconds = run.finishedAt ? (Date.parse(run.finishedAt) - sinceWall) / 1000 : seconds();
    log(`${syncSeconds.toFixed(1)} s: run ${run.status}`);
    const load1 = loadavg()[0];
    // Searches after the recovery too, however early the run ended.
    const recovered = nodeKillAt + greenAfterSeconds;
    await poll('searches after the cluster was green again', async () =>
      searcher!.samples.filter((s) => s.at >= recovered).length >= AFTER_SEARCHES ? true : undefined,
    );
    await searcher.stop();
    const samples = searcher.samples;
    const searchesEndSeconds = seconds();
    searcher = undefined;

    const phaseOf = (at: number): SearchPhase =>
      at < workerKillAt ? 'before' : at < nodeKillAt ? 'worker lost' : at < recovered ? 'node lost' : 'after';
    const searches = SEARCH_PHASES.map((phase): SearchFigures => {
      const mine = samples.filter((s) => phaseOf(s.at) === phase);
      const ok = mine.filter((s) => !s.error).map((s) => s.ms);
      return {
        phase,
        sent: mine.length,
        answered: ok.length,
        errors: mine.filter((s) => s.error).map((s) => `${s.at.toFixed(1)} s: ${s.error}`),
        p50Ms: percentile(ok, 0.5),
        p95Ms: percentile(ok, 0.95),
      };
    });

    const { activities, executions } = await syncActivities(temporal, sourceId, sinceWall);
    const host = (pid: number) =>
      activities.find((a) => a.identity.startsWith(`${pid}@`))?.identity ?? `${pid}@?`;
    const workerIdentities: [string, string] = [host(workerPids[0]), host(workerPids[1])];
    const unpacked = [1, 2].map((worker) => ({
      worker,
      files: countFiles(join(stack!.workerDir(worker), 'folder-cache', sourceId)),
    }));
    const blobFolderFiles = readdirSync(stack.blobDir);
    const workerBlobFiles = [1, 2].reduce((n, w) => n + countFiles(join(stack!.workerDir(w), 'blobs')), 0);
    const once = await checkEachDocumentOnce(stack, es, projectId);

    return {
      documents: options.documents,
      embedder: options.embedder,
      servicesStartSeconds,
      stackStartSeconds,
      syncSeconds,
      ...(baselineSyncSeconds === undefined ? {} : { baselineSyncSeconds }),
      searchesEndSeconds,
      run,
      workerKill: {
        pid: workerPids[0],
        atDocuments: workerKillDocuments,
        atSeconds: workerKillAt,
        batchesHeld: held,
      },
      nodeKill: {
        node: primary!,
        wasMaster: master?.node === primary,
        heldPrimary: true,
        atDocuments: atNodeKill.ingested,
        atSeconds: nodeKillAt,
        leftAfterSeconds,
        greenAfterSeconds,
        runRunning: atNodeKill.status === 'RUNNING',
      },
      replicasBefore,
      searches,
      activities,
      executions,
      workerIdentities,
      unpacked,
      blobFolderFiles,
      workerBlobFiles,
      once,
      load: [load0, load1],
    };
  } finally {
    await searcher?.stop().catch(() => undefined);
    try {
      await stack?.stop();
    } finally {
      await es?.close().catch(() => undefined);
      await connection?.close().catch(() => undefined);
      try {
        if (stub) await stopChild(stub.process);
        if (bucketMade) await deleteBucket(bucket);
      } finally {
        await services.cleanup();
      }
    }
  }
}

/** The phase of the run a moment (seconds since the upload) falls in. */
export function phaseAt(report: DistributedReport, at: number): SearchPhase {
  if (at < report.workerKill.atSeconds) return 'before';
  if (at < report.nodeKill.atSeconds) return 'worker lost';
  return at < report.nodeKill.atSeconds + report.nodeKill.greenAfterSeconds ? 'node lost' : 'after';
}

/** The report as the lines a test prints and the benchmark writes under its table. */
export function describeReport(report: DistributedReport): string[] {
  const s = (n: number) => `${n.toFixed(1)} s`;
  const ms = (n?: number) => (n === undefined ? '—' : `${Math.round(n)} ms`);
  const [w1, w2] = report.workerIdentities;
  const worker = (identity: string) =>
    identity === w1 ? 'worker 1' : identity === w2 ? 'worker 2' : identity;
  const batches = report.activities.filter((a) => a.type === 'ingestBatch' && a.completedAt !== undefined);
  const retried = new Map<string, ActivityRun[]>();
  for (const a of report.activities.filter((a) => a.attempt > 1)) {
    const key = `${a.type} attempt ${a.attempt} on ${worker(a.identity)} after "${a.lastFailure}"`;
    retried.set(key, [...(retried.get(key) ?? []), a]);
  }
  const green = report.nodeKill.atSeconds + report.nodeKill.greenAfterSeconds;
  const phaseEnds: Record<SearchPhase, [number, number]> = {
    before: [0, report.workerKill.atSeconds],
    'worker lost': [report.workerKill.atSeconds, report.nodeKill.atSeconds],
    'node lost': [report.nodeKill.atSeconds, green],
    after: [green, report.searchesEndSeconds],
  };
  return [
    `${report.documents} documents, embedder ${report.embedder}: sync (upload → ${report.run.status}) ${s(report.syncSeconds)}` +
      (report.baselineSyncSeconds === undefined
        ? '; '
        : ` (the same size undisturbed, just before on the same stack: ${s(report.baselineSyncSeconds)}); `) +
      `private services started in ${s(report.servicesStartSeconds)}, api and 2 workers in ${s(report.stackStartSeconds)}`,
    `worker 1 (${w1}) SIGKILLed at ${s(report.workerKill.atSeconds)}, ${report.workerKill.atDocuments} documents ingested, ` +
      `while running ${report.workerKill.batchesHeld} batch(es)`,
    `Elasticsearch node ${report.nodeKill.node} (primary of the chunk index${report.nodeKill.wasMaster ? ', elected master' : ''}) ` +
      `SIGKILLed at ${s(report.nodeKill.atSeconds)}, ${report.nodeKill.atDocuments} documents ingested; the cluster counted ` +
      `2 nodes ${s(report.nodeKill.leftAfterSeconds)} later and was green on them ${s(report.nodeKill.greenAfterSeconds)} later`,
    `Temporal: ${report.executions} executions of the sync workflow, ${batches.length} ingestBatch activities completed ` +
      `(worker 1: ${batches.filter((a) => a.identity === w1).length}, worker 2: ${batches.filter((a) => a.identity === w2).length}); ` +
      `by phase: ${SEARCH_PHASES.map((p) => `${p} ${batches.filter((a) => phaseAt(report, a.completedAt!) === p).length} in ${s(phaseEnds[p][1] - phaseEnds[p][0])}`).join(', ')}`,
    `retried: ` +
      ([...retried]
        .map(
          ([key, runs]) =>
            `${runs.length} × ${key}, started ${s(runs[0].startedAt)}–${s(runs[runs.length - 1].startedAt)}`,
        )
        .join('; ') || 'none'),
    `searches every ${SEARCH_INTERVAL_MS} ms: ` +
      report.searches
        .map(
          (f) =>
            `${f.phase}: ${f.answered}/${f.sent} answered, p50 ${ms(f.p50Ms)}, p95 ${ms(f.p95Ms)}, ${f.errors.length} errors`,
        )
        .join('; '),
    ...report.searches.flatMap((f) => f.errors.map((e) => `  search error (${f.phase}) ${e}`)),
    `no shared disk: ${report.unpacked.map((u) => `worker ${u.worker} unpacked ${u.files} files into its own cache`).join(', ')}; ` +
      `blob folders: the stack's holds ${report.blobFolderFiles.join(', ')}, the workers' ${report.workerBlobFiles} files`,
    `each document once: ${report.once.documents} documents, ${report.once.chunks} chunks counted, ${report.once.indexed} indexed` +
      (report.once.problems.length ? `; problems: ${report.once.problems.join('; ')}` : ', no problem'),
    `load average (1 min) at the upload → at the end: ${report.load[0].toFixed(1)} → ${report.load[1].toFixed(1)} on 2 cores`,
  ];
}
