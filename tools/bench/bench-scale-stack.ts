import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appArgs } from '../../scripts/app-entry';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { loadConfig, type WorkerConfig, workerConfigSchema } from '@trove/config';
import {
  DATABASE_URL,
  dropTestData,
  EMBEDDER_URL,
  ES_URL,
  expectEventually,
  freePort,
  QUERY_EMBEDDER_URL,
  ROOT,
  schemaName,
  TEMPORAL_ADDRESS,
} from '@trove/test-support';

/** A child process of the stack, with its log file. */
interface Child {
  label: string;
  process: ChildProcess;
  log: string;
}

export interface RunView {
  id: string;
  status: string;
  stage: string | null;
  startedAt: string;
  finishedAt: string | null;
  error: { code: string; message: string } | null;
  progress: Record<string, number>;
}

export interface DocumentCounts {
  total: number;
  ready: number;
  failed: number;
  /** Neither READY nor FAILED: waiting for or in ingest. */
  pending: number;
}

const RUN_FIELDS =
  'id status stage startedAt finishedAt error { code message } progress { pagesSeen pagesIngested pagesUnchanged pagesFailed pagesDeleted chunksEmbedded chunksReused }';

/** One VmRSS/VmHWM reading of a process, in MiB; undefined once the process is gone. */
export function readMemory(pid: number): { rssMiB: number; hwmMiB: number } | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMiB: kib('VmRSS') / 1024, hwmMiB: kib('VmHWM') / 1024 };
}

let jemalloc: string | undefined;

/**
 * jemalloc's path, preloaded as scripts/apps.sh does (installed once; TROVE_JEMALLOC=0: none),
 * found once per bench process rather than for every app it starts.
 */
function memoryAllocator(): string {
  if (process.env.TROVE_JEMALLOC === '0') return '';
  jemalloc ??= execFileSync('bash', [join(ROOT, 'infra/local/install-jemalloc.sh')], {
    encoding: 'utf8',
  }).trim();
  return jemalloc;
}

/**
 * The real api and N worker processes (started as `npm run quickstart` starts them) on the local
 * services, for `npm run bench:scale`: their own index prefix, catalog schema, task queue and blob
 * folder, optionally the stub embedding server instead of the local model. Every process it starts
 * is killed by `stop()`, which also removes the stack's data and terminates the workflows left on
 * its task queues. No canary scan (that is the e2e stack's job): nothing here reads or wraps the
 * responses, so the latencies measured are the api's own.
 */
export class ScaleStack {
  readonly name: string;
  readonly logDir: string;
  readonly blobDir: string;
  readonly adminKey = randomBytes(24).toString('hex');
  private readonly secretKey = randomBytes(32).toString('base64');
  private readonly children: Child[] = [];
  private api?: Child;
  private readonly workers: Child[] = [];
  private stub?: Child;
  private embedderUrl = EMBEDDER_URL;
  port = 0;
  private stopping?: Promise<void>;

  /** `env` is added to the environment of the api and every worker (after the stack's own variables). */
  constructor(
    label: string,
    private readonly env: Record<string, string> = {},
  ) {
    this.name = `bench-scale-${randomBytes(3).toString('hex')}-${label}`;
    this.logDir = mkdtempSync(join(tmpdir(), `${this.name}-logs-`));
    this.blobDir = mkdtempSync(join(tmpdir(), `${this.name}-blobs-`));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The Temporal server the stack runs on: the local one, unless `env` names another. */
  get temporalAddress(): string {
    return this.env.TROVE_TEMPORAL_ADDRESS ?? TEMPORAL_ADDRESS;
  }

  /** Whether the workers embed with the stub embedding server. */
  get stubEmbedder(): boolean {
    return this.stub !== undefined;
  }

  get workerPids(): number[] {
    return this.workers.map((w) => w.process.pid!);
  }

  /** The environment the api and workers run with (secrets included: never print it). */
  private appEnv(): NodeJS.ProcessEnv {
    return {
      // As scripts/apps.sh and the image start the api and the worker.
      MALLOC_ARENA_MAX: '2',
      NODE_OPTIONS: '--max-old-space-size=1024',
      LD_PRELOAD: memoryAllocator(),
      ...process.env,
      TROVE_API_PORT: String(this.port),
      TROVE_ADMIN_API_KEY: this.adminKey,
      TROVE_SECRET_KEY: this.secretKey,
      TROVE_ES_URL: ES_URL,
      TROVE_INDEX_PREFIX: this.name,
      TROVE_DATABASE_URL: DATABASE_URL,
      TROVE_DATABASE_SCHEMA: schemaName(this.name),
      TROVE_TEMPORAL_ADDRESS: TEMPORAL_ADDRESS,
      TROVE_TASK_QUEUE: this.name,
      TROVE_EMBEDDING_BASE_URL: this.embedderUrl,
      // Searches embed their queries at the query embedder, as the quick start's api does (the
      // stub embedder has no query lane: its vectors are another model's).
      ...(this.stub ? {} : { TROVE_EMBEDDING_QUERY_URL: QUERY_EMBEDDER_URL }),
      TROVE_BLOB_DIR: this.blobDir,
      TROVE_FOLDER_CACHE_DIR: join(this.blobDir, 'folder-cache'),
      TROVE_MAX_UPLOAD_BYTES: String(512 * 1024 * 1024),
      // The bench polls and searches as fast as it likes with one key.
      TROVE_RATE_LIMIT_REQUESTS: '0',
      // Several workers on one machine: each serves its metrics on a free port, to the bench's
      // scraper on loopback (no token).
      TROVE_WORKER_METRICS_PORT: '0',
      TROVE_METRICS_ALLOW_LOOPBACK: 'true',
      ...this.env,
    };
  }

  /** The worker configuration the workers load from their environment (for the raw baselines). */
  workerConfig(): WorkerConfig {
    return loadConfig(workerConfigSchema, this.appEnv());
  }

  /** Starts `node` with `args` (the apps' from scripts/app-entry.js: their bundles while current). */
  private spawnChild(label: string, args: string[], env: NodeJS.ProcessEnv): Child {
    const log = join(this.logDir, `${label}.log`);
    const stream = createWriteStream(log, { flags: 'a' });
    // Its own process group, so stop() also reaches what it starts (parser subprocesses).
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdout!.pipe(stream, { end: false });
    child.stderr!.pipe(stream, { end: false });
    child.once('close', () => stream.end());
    const entry = { label, process: child, log };
    this.children.push(entry);
    return entry;
  }

  private logOf(child: Child): string {
    try {
      return readFileSync(child.log, 'utf8');
    } catch {
      return '';
    }
  }

  private async waitForLog(child: Child, text: string, timeoutMs = 120_000): Promise<string> {
    return expectEventually(
      async () => {
        if (child.process.exitCode !== null)
          throw new Error(`${child.label} exited with ${child.process.exitCode}; log: ${child.log}`);
        const log = this.logOf(child);
        if (!log.includes(text))
          throw new Error(`${child.label} has not logged "${text}" yet (${child.log})`);
        return log;
      },
      { timeoutMs, intervalMs: 200 },
    );
  }

  /**
   * Starts the stub embedding server (apps/embedder-stub) on a free port, answering each request
   * after `delayMs` (default at once); workers started after use it.
   */
  async startStubEmbedder(dimensions = 384, delayMs = 0): Promise<void> {
    const port = await freePort();
    this.stub = this.spawnChild(
      'embedder-stub',
      [
        '-r',
        '@swc-node/register',
        'apps/embedder-stub/src/main.ts',
        '--port',
        String(port),
        '--dimensions',
        String(dimensions),
        '--delay-ms',
        String(delayMs),
      ],
      process.env,
    );
    await this.waitForLog(this.stub, 'embedder stub listening');
    this.embedderUrl = `http://127.0.0.1:${port}/v1`;
  }

  /** Starts `workers` worker processes and the api; returns once all of them are ready. */
  async start(workers = 1): Promise<void> {
    this.port = await freePort();
    for (let i = 0; i < workers; i++) await this.addWorker();
    this.api = this.spawnChild('api', appArgs(ROOT, 'api'), this.appEnv());
    await expectEventually(
      async () => {
        if (this.api!.process.exitCode !== null) throw new Error(`the api exited; log: ${this.api!.log}`);
        const response = await fetch(`${this.url}/readyz`);
        if (response.status !== 200) throw new Error(`readyz ${response.status}`);
      },
      { timeoutMs: 120_000, intervalMs: 250 },
    );
  }

  /** One more worker process on the same queues; returns once it polls. */
  async addWorker(): Promise<void> {
    const worker = this.spawnChild(
      `worker-${this.workers.length + 1}`,
      appArgs(ROOT, 'worker'),
      this.appEnv(),
    );
    this.workers.push(worker);
    await this.waitForLog(worker, 'polling task queue');
  }

  /** Each worker's adaptive embedder limit, every value it moved to in order (its log; none: it never moved). */
  embedderLimitMoves(): number[][] {
    return this.workers.map((worker) =>
      [...this.logOf(worker).matchAll(/embedder: (\d+) requests at once/g)].map((m) => Number(m[1])),
    );
  }

  /** The workers' `/metrics` URLs, as each worker logged it once polling (their ports are free ones). */
  workerMetricsUrls(): string[] {
    return this.workers.map((worker) => {
      const url = /metrics on (http:\/\/\S+?\/metrics)/.exec(this.logOf(worker))?.[1];
      if (!url) throw new Error(`${worker.label} has not logged its metrics URL (${worker.log})`);
      return url;
    });
  }

  async gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const response = await fetch(`${this.url}/graphql`, {
      method: 'POST',
      headers: { 'X-API-Key': this.adminKey, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: T; errors?: { message: string }[] };
    if (body.errors?.length) throw new Error(`GraphQL: ${body.errors.map((e) => e.message).join('; ')}`);
    return body.data!;
  }

  async createProject(name: string): Promise<string> {
    const data = await this.gql<{ createProject: { id: string } }>(
      'mutation($name: String!) { createProject(input: {name: $name}) { id } }',
      { name: `${this.name} ${name}` },
    );
    return data.createProject.id;
  }

  /** `POST /v1/projects/:id/archives`: the archive becomes a folder source and its first run starts. */
  async uploadArchive(
    projectId: string,
    fileName: string,
    zip: Buffer,
  ): Promise<{ sourceId: string; runId: string }> {
    const form = new FormData();
    form.append('file', new Blob([zip]), fileName);
    const response = await fetch(`${this.url}/v1/projects/${projectId}/archives`, {
      method: 'POST',
      headers: { 'X-API-Key': this.adminKey },
      body: form,
    });
    const body = (await response.json()) as {
      source?: { id: string };
      run?: { id: string };
      error?: unknown;
    };
    if (response.status !== 202 || !body.source || !body.run)
      throw new Error(`archive upload answered ${response.status}: ${JSON.stringify(body.error ?? body)}`);
    return { sourceId: body.source.id, runId: body.run.id };
  }

  /** `POST /v1/projects/:id/documents`: one file, one ingest. */
  async upload(projectId: string, fileName: string, content: string | Buffer): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([content]), fileName);
    const response = await fetch(`${this.url}/v1/projects/${projectId}/documents`, {
      method: 'POST',
      headers: { 'X-API-Key': this.adminKey },
      body: form,
    });
    const body = (await response.json()) as { id?: string; document?: { id: string }; error?: unknown };
    const id = body.id ?? body.document?.id;
    if (response.status >= 300 || !id)
      throw new Error(`upload answered ${response.status}: ${JSON.stringify(body.error ?? body)}`);
    return id;
  }

  /** Waits until the document is READY or FAILED; returns its status and error message. */
  async documentSettled(
    id: string,
    timeoutMs: number,
  ): Promise<{ status: string; error: { message: string } | null }> {
    return expectEventually(
      async () => {
        const { document } = await this.gql<{
          document: { status: string; error: { message: string } | null } | null;
        }>('query($id: ID!) { document(id: $id) { status error { message } } }', { id });
        if (!document || (document.status !== 'READY' && document.status !== 'FAILED'))
          throw new Error(`document ${id} is ${document?.status ?? 'missing'}`);
        return document;
      },
      { timeoutMs, intervalMs: 1000 },
    );
  }

  async run(runId: string): Promise<RunView> {
    const { syncRun } = await this.gql<{ syncRun: RunView }>(
      `query($id: ID!) { syncRun(id: $id) { ${RUN_FIELDS} } }`,
      {
        id: runId,
      },
    );
    return syncRun;
  }

  /** Waits until the run is no longer RUNNING; undefined when `timeoutMs` passed first. */
  async runSettled(
    runId: string,
    timeoutMs: number,
    intervalMs = 500,
    onPoll?: (run: RunView) => void,
  ): Promise<RunView | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const run = await this.run(runId);
      onPoll?.(run);
      if (run.status !== 'RUNNING') return run;
      if (Date.now() > deadline) return undefined;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }

  /** The project's documents by status (one request, four counts). */
  async documentCounts(projectId: string): Promise<DocumentCounts> {
    const data = await this.gql<Record<'all' | 'ready' | 'failed', { totalCount: number }>>(
      `query($p: ID!) {
         all: documents(projectId: $p, first: 1) { totalCount }
         ready: documents(projectId: $p, first: 1, status: READY) { totalCount }
         failed: documents(projectId: $p, first: 1, status: FAILED) { totalCount }
       }`,
      { p: projectId },
    );
    const [total, ready, failed] = [data.all.totalCount, data.ready.totalCount, data.failed.totalCount];
    return { total, ready, failed, pending: total - ready - failed };
  }

  async projectStatus(projectId: string): Promise<string | null> {
    const { project } = await this.gql<{ project: { status: string } | null }>(
      'query($id: ID!) { project(id: $id) { status } }',
      { id: projectId },
    );
    return project?.status ?? null;
  }

  /** `deleteProject` (returns once marked); with `wait`, returns once the project is gone. */
  async deleteProject(projectId: string, wait = false): Promise<void> {
    await this.gql('mutation($id: ID!, $wait: Boolean!) { deleteProject(id: $id, wait: $wait) }', {
      id: projectId,
      wait,
    });
  }

  /**
   * Stops every process it started (SIGTERM to each process group, SIGKILL after 10 s), then
   * terminates the workflows still open on its task queues and drops its indices, catalog schema
   * and blob folder. Safe after a failed start; a second call waits for the first one.
   */
  stop(): Promise<void> {
    this.stopping ??= this.stopNow();
    return this.stopping;
  }

  private async stopNow(): Promise<void> {
    await Promise.all(this.children.map((child) => stopChild(child.process)));
    try {
      await terminateOpenWorkflows(this.name, this.temporalAddress);
    } catch (error) {
      console.warn(
        `[bench:scale] could not terminate the workflows of ${this.name}: ${(error as Error).message}`,
      );
    }
    await dropTestData(this.name);
    rmSync(this.blobDir, { recursive: true, force: true });
  }

  /** Synchronous last resort (process exit): SIGKILL to every process group still alive. */
  killNow(): void {
    for (const { process: child } of this.children) {
      if (child.exitCode === null && child.signalCode === null && child.pid) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // the group is gone
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
  signal('SIGKILL'); // whatever the process left in its group
}

/**
 * Terminates the workflows still open on the stack's task queues (every queue whose name starts
 * with the stack's: a control queue beside the ingest queue too), so a run stopped mid-ingest
 * leaves no workflows behind in the Temporal server (the shared one, unless the stack runs on another).
 */
export async function terminateOpenWorkflows(name: string, address = TEMPORAL_ADDRESS): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const client = new TemporalClient({ connection });
    const open: { workflowId: string; runId: string }[] = [];
    for await (const workflow of client.workflow.list({ query: 'ExecutionStatus="Running"' })) {
      if (workflow.taskQueue.startsWith(name))
        open.push({ workflowId: workflow.workflowId, runId: workflow.runId });
    }
    for (const { workflowId, runId } of open) {
      await client.workflow
        .getHandle(workflowId, runId)
        .terminate('bench:scale finished')
        .catch(() => undefined);
    }
    if (open.length) console.log(`[bench:scale] terminated ${open.length} open workflows of ${name}`);
  } finally {
    await connection.close();
  }
}
