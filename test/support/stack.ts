import { spawn, type ChildProcess } from 'node:child_process';
import { appArgs } from '../../scripts/app-entry';
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  type Canary,
  canaryValue,
  type CanaryFinding,
  CanaryLeakError,
  scanForCanaries,
  watchResponses,
} from './canary';
import {
  type DataServices,
  dropTestData,
  EMBEDDER_URL,
  expectEventually,
  freePort,
  ROOT,
  schemaName,
  SHARED_DATA_SERVICES,
  TEMPORAL_ADDRESS,
  uniqueName,
} from './services';
import { addSource, type NewSource } from './sources';

/**
 * Where each stack start and stop goes in the CI's timings (scripts/test.sh sets
 * TROVE_TEST_STACK_LOG): `file<TAB>start|stop<TAB>seconds`, read by tools/ci/test-timings.ts.
 */
async function logStackTime(phase: 'start' | 'stop', startedAt: number): Promise<void> {
  const log = process.env.TROVE_TEST_STACK_LOG;
  if (!log) return;
  // Imported here: the benches use this stack outside vitest, and never set the log.
  const { expect } = await import('vitest');
  const testPath = expect.getState().testPath;
  const file = testPath ? relative(ROOT, testPath) : 'unknown';
  appendFileSync(log, `${file}\t${phase}\t${((performance.now() - startedAt) / 1000).toFixed(2)}\n`);
}

/** The admin key tests send; random per test file, so it is a canary too (in requests, never in responses). */
export const ADMIN_KEY = canaryValue('admin-key');

/** The canary file every stack plants at the root of its blob folder. */
export const BLOB_CANARY_FILE = 'canary-secret.txt';

/** The secrets of the api and the worker: each one set (by the stack or a test) is a canary. */
const SECRET_VARIABLES = [
  'TROVE_ADMIN_API_KEY',
  'TROVE_SECRET_KEY',
  'TROVE_EMBEDDING_API_KEY',
  'TROVE_LLM_API_KEY',
  'TROVE_RERANK_API_KEY',
  'TROVE_METRICS_TOKEN',
  'TROVE_S3_ACCESS_KEY_ID',
  'TROVE_S3_SECRET_ACCESS_KEY',
] as const;

/** 32 random bytes in base64 without `+` or `/`, so the key reads the same in URLs, JSON and logs. */
function canarySecretKey(): string {
  for (;;) {
    const key = randomBytes(32).toString('base64');
    if (/^[A-Za-z0-9]+=*$/.test(key)) return key;
  }
}

/**
 * The real api and worker apps, started as child processes (the way `npm run quickstart` runs
 * them) against the local services, with their own index prefix, task queue and blob folder.
 * `services` points them at another Elasticsearch, PostgreSQL or Temporal (a test's private
 * instances); the stack's own teardown (canary scan, data drop) then reads those.
 */
export class TroveStack {
  /** Its index prefix, catalog schema and task queue; a restored install takes its backup's. */
  readonly name: string;
  readonly logDir: string;
  /** Where the api and worker store blobs (originals, archives, scratch files). */
  readonly blobDir: string;
  private api?: ChildProcess;
  private worker?: ChildProcess;
  /** Workers started besides the first (`addWorker`), sharing its task queues. */
  private readonly moreWorkers: ChildProcess[] = [];
  /** The folders of the workers started with `ownFolders`, by number. */
  private readonly workerDirs = new Map<number, string>();
  port = 0;
  /**
   * Values that must never leave the processes: their secrets, an extra variable in each one's
   * environment, a file in the blob folder. Checked in every response to this stack's address, and
   * in its logs, catalog, indices and Temporal histories at `stop()`.
   */
  readonly canaries: readonly Canary[];
  private readonly processCanaries = { api: canaryValue('api-env'), worker: canaryValue('worker-env') };
  private readonly responseFindings: CanaryFinding[] = [];
  private readonly logsClosed: Promise<void>[] = [];
  private unwatchResponses?: () => void;
  private stopped = false;

  constructor(
    private readonly extraEnv: Record<string, string> = {},
    readonly services: DataServices = SHARED_DATA_SERVICES,
    name: string = uniqueName('e2e'),
  ) {
    this.name = name;
    this.logDir = mkdtempSync(join(tmpdir(), `${this.name}-logs-`));
    this.blobDir = mkdtempSync(join(tmpdir(), `${this.name}-blobs-`));
    const env = this.env('api');
    const blobCanary = canaryValue('blob-file');
    const blobDir = env.TROVE_BLOB_DIR!;
    mkdirSync(blobDir, { recursive: true });
    writeFileSync(join(blobDir, BLOB_CANARY_FILE), `${blobCanary}\n`);
    const secrets = SECRET_VARIABLES.filter((name) => (env[name]?.length ?? 0) >= 16).map((name) => ({
      label: name,
      value: env[name]!,
    }));
    const secretKey = Buffer.from(env.TROVE_SECRET_KEY ?? '', 'base64');
    this.canaries = [
      ...secrets,
      ...(secretKey.length === 32
        ? [{ label: 'TROVE_SECRET_KEY (hex)', value: secretKey.toString('hex') }]
        : []),
      { label: 'api env TROVE_CANARY_ENV', value: this.processCanaries.api },
      { label: 'worker env TROVE_CANARY_ENV', value: this.processCanaries.worker },
      { label: 'env CANARY_UNRELATED_SECRET', value: env.CANARY_UNRELATED_SECRET! },
      { label: 'blob folder file', value: blobCanary },
    ];
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Where a worker (the first, or the one `addWorker` numbered) serves /metrics, from its start-up line. */
  workerMetricsUrl(number = 1): string {
    const log = readFileSync(join(this.logDir, number === 1 ? 'worker.log' : `worker-${number}.log`), 'utf8');
    for (const line of log.split('\n')) {
      if (!line.includes('polling task queue')) continue;
      const { metricsPort } = JSON.parse(line) as { metricsPort?: number };
      if (metricsPort) return `http://127.0.0.1:${metricsPort}/metrics`;
    }
    throw new Error(`worker ${number} has not said where it serves metrics; logs in ${this.logDir}`);
  }

  /** The api child's pid, e.g. to read its memory from /proc. */
  get apiPid(): number {
    return this.api!.pid!;
  }

  /** The worker child's pid, e.g. to read its peak memory from /proc. */
  get workerPid(): number {
    return this.worker!.pid!;
  }

  // The optional API keys (embedding, LLM, rerank) stay unset unless a test sets them: a key in the
  // environment changes what the config reports and which provider is used.
  private readonly secretDefaults = {
    TROVE_SECRET_KEY: canarySecretKey(),
    CANARY_UNRELATED_SECRET: canaryValue('unrelated-env'),
  };

  private env(app: 'api' | 'worker'): NodeJS.ProcessEnv {
    return {
      ...process.env,
      ...this.secretDefaults,
      TROVE_CANARY_ENV: this.processCanaries[app],
      TROVE_ADMIN_API_KEY: ADMIN_KEY,
      TROVE_API_PORT: String(this.port),
      TROVE_ES_URL: this.services.esUrl,
      TROVE_INDEX_PREFIX: this.name,
      TROVE_DATABASE_URL: this.services.databaseUrl,
      TROVE_DATABASE_SCHEMA: schemaName(this.name),
      TROVE_TEMPORAL_ADDRESS: this.services.temporalAddress ?? TEMPORAL_ADDRESS,
      TROVE_TASK_QUEUE: this.name,
      TROVE_EMBEDDING_BASE_URL: EMBEDDER_URL,
      TROVE_BLOB_DIR: this.blobDir,
      TROVE_MAX_UPLOAD_BYTES: String(256 * 1024),
      TROVE_CHUNK_TARGET_TOKENS: '200',
      TROVE_CHUNK_OVERLAP_TOKENS: '30',
      TROVE_EMBEDDING_BATCH_SIZE: '8',
      // Tests and benches poll and measure with one key as fast as they like; the limit has its
      // own test (access-hardening), which sets it.
      TROVE_RATE_LIMIT_REQUESTS: '0',
      // Logs as in production (JSON lines), whatever the terminal; each worker's metrics on a free port.
      TROVE_LOG_FORMAT: 'json',
      TROVE_WORKER_METRICS_PORT: '0',
      ...this.extraEnv,
    };
  }

  private spawnApp(
    name: 'api' | 'worker',
    logName: string = name,
    env: Record<string, string> = {},
  ): ChildProcess {
    const log = createWriteStream(join(this.logDir, `${logName}.log`), { flags: 'a' });
    // From its bundle while current (scripts/test.sh builds it), else from the TypeScript sources.
    const child = spawn('node', appArgs(ROOT, name), {
      cwd: ROOT,
      env: { ...this.env(name), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Both pipes write to one file: it ends once both have closed, so the teardown scan reads every line.
    child.stdout!.pipe(log, { end: false });
    child.stderr!.pipe(log, { end: false });
    this.logsClosed.push(
      new Promise((resolve) => {
        child.once('close', () => log.end(resolve));
      }),
    );
    return child;
  }

  /**
   * Starts the api and (unless `worker: false`, for a test that starts it later) the worker;
   * `ownFolders` gives the worker folders of its own (see `addWorker`).
   */
  async start(options: { worker?: boolean } & WorkerOptions = {}): Promise<void> {
    const startedAt = performance.now();
    await this.startApps(options);
    await logStackTime('start', startedAt);
  }

  private async startApps(options: { worker?: boolean } & WorkerOptions): Promise<void> {
    const { worker = true } = options;
    this.port = await freePort();
    this.unwatchResponses = watchResponses({
      owns: (url) => url.port === String(this.port) && ['127.0.0.1', 'localhost'].includes(url.hostname),
      canaries: this.canaries,
      record: (finding) => this.responseFindings.push(finding),
    });
    if (worker) this.startWorker(options);
    this.api = this.spawnApp('api');
    await expectEventually(
      async () => {
        if (this.api!.exitCode !== null) throw new Error(`the api exited; logs in ${this.logDir}`);
        const response = await fetch(`${this.url}/readyz`);
        if (response.status !== 200) throw new Error(`readyz ${response.status}`);
      },
      // Every e2e file starts a stack or two (62 in a CI run): a probe this cheap can run often
      // rather than lose half of a 500 ms interval, on average, per wait.
      { timeoutMs: 90_000, intervalMs: 100 },
    );
    // The worker too: its start-up (catalog migration, workflow bundle, first embedder ping) must
    // not overlap what a test measures.
    if (!worker) return;
    await expectEventually(
      async () => {
        if (this.worker!.exitCode !== null) throw new Error(`the worker exited; logs in ${this.logDir}`);
        if (!readFileSync(join(this.logDir, 'worker.log'), 'utf8').includes('polling task queue'))
          throw new Error('the worker is not polling yet');
      },
      { timeoutMs: 90_000, intervalMs: 100 },
    );
  }

  startWorker(options: WorkerOptions = {}): void {
    this.worker = this.spawnApp('worker', 'worker', this.workerFolders(1, options));
  }

  /**
   * Starts one more worker process on the same task queues (logs in worker-N.log) and returns
   * once it polls; its number (2, 3…) names it to `killWorker`.
   */
  async addWorker(options: WorkerOptions = {}): Promise<number> {
    const number = this.moreWorkers.length + 2;
    const logName = `worker-${number}`;
    const child = this.spawnApp('worker', logName, this.workerFolders(number, options));
    this.moreWorkers.push(child);
    await expectEventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`worker ${number} exited; logs in ${this.logDir}`);
        if (!readFileSync(join(this.logDir, `${logName}.log`), 'utf8').includes('polling task queue'))
          throw new Error(`worker ${number} is not polling yet`);
      },
      { timeoutMs: 90_000 },
    );
    return number;
  }

  /**
   * The settings that give worker `number` folders of its own under a fresh temporary folder, as
   * if it ran on a machine of its own; none without `ownFolders`.
   */
  private workerFolders(number: number, { ownFolders }: WorkerOptions): Record<string, string> {
    if (!ownFolders) return {};
    const dir = mkdtempSync(join(tmpdir(), `${this.name}-worker-${number}-`));
    this.workerDirs.set(number, dir);
    const folder = (name: string) => {
      mkdirSync(join(dir, name));
      return join(dir, name);
    };
    return {
      TMPDIR: folder('tmp'),
      TROVE_FOLDER_CACHE_DIR: folder('folder-cache'),
      TROVE_GIT_CACHE_DIR: folder('git-cache'),
      TROVE_WORKFLOW_BUNDLE_DIR: folder('workflow-bundles'),
      TROVE_BLOB_DIR: folder('blobs'),
    };
  }

  /** The folder of a worker started with `ownFolders` (subfolders tmp, folder-cache, git-cache, workflow-bundles, blobs). */
  workerDir(number: number): string {
    const dir = this.workerDirs.get(number);
    if (!dir) throw new Error(`worker ${number} was not started with folders of its own`);
    return dir;
  }

  /** A worker's pid (the first, or the one `addWorker` numbered), e.g. to find the tasks it runs. */
  workerPidOf(number: number): number {
    return this.workerProcess(number).pid!;
  }

  private workerProcess(number: number): ChildProcess {
    const worker = number === 1 ? this.worker : this.moreWorkers[number - 2];
    if (!worker) throw new Error(`no worker ${number}`);
    return worker;
  }

  /** SIGKILL: the worker (the first, or the one `addWorker` numbered) dies mid-task, as on a crash or an OOM kill. */
  async killWorker(number = 1): Promise<void> {
    const worker = this.workerProcess(number);
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.kill('SIGKILL');
    await exited;
  }

  /**
   * Stops both apps, scans what the stack kept for canaries, then drops its data (kept with
   * `keepData`, for a test that goes on with the install). Fails (after dropping) when a canary
   * reached a response, a log, the catalog, an index or a Temporal history.
   */
  async stop(options: { keepData?: boolean } = {}): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const startedAt = performance.now();
    try {
      await this.stopApps(options);
    } finally {
      await logStackTime('stop', startedAt);
    }
  }

  private async stopApps(options: { keepData?: boolean }): Promise<void> {
    // All at once: each drains on its own (the worker its activities, the api its requests).
    const running = [this.api, this.worker, ...this.moreWorkers].filter(
      (child): child is ChildProcess => !!child && child.exitCode === null && child.signalCode === null,
    );
    await Promise.all(
      running.map(async (child) => {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
        if (child.exitCode === null && child.signalCode === null) {
          // A process that outlives its drain holds something open (a timer, a socket): a bug.
          console.warn(`[stack] ${child.spawnargs.join(' ')} did not exit 15 s after SIGTERM; killed`);
          child.kill('SIGKILL');
        }
      }),
    );
    this.unwatchResponses?.();
    let findings: CanaryFinding[];
    try {
      // A bound only: a grandchild holding a pipe open must not hang the teardown.
      await Promise.race([
        Promise.all(this.logsClosed),
        new Promise((resolve) => setTimeout(resolve, 10_000)),
      ]);
      findings = [...this.responseFindings, ...(await scanForCanaries(this, this.canaries))];
    } finally {
      if (!options.keepData) await dropTestData(this.name, this.services);
      for (const dir of this.workerDirs.values()) rmSync(dir, { recursive: true, force: true });
    }
    if (findings.length) throw new CanaryLeakError(findings);
  }

  async gql<T = Record<string, unknown>>(
    query: string,
    variables: Record<string, unknown> = {},
    headers: Record<string, string> = { 'X-API-Key': ADMIN_KEY },
  ): Promise<{ data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] }> {
    const response = await fetch(`${this.url}/graphql`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as {
      data?: T;
      errors?: { message: string; extensions?: Record<string, unknown> }[];
    };
  }

  /** GraphQL that must succeed: returns data or throws the errors. */
  async query<T = Record<string, unknown>>(
    query: string,
    variables: Record<string, unknown> = {},
  ): Promise<T> {
    const body = await this.gql<T>(query, variables);
    if (body.errors?.length) throw new Error(JSON.stringify(body.errors));
    return body.data!;
  }

  async upload(
    projectId: string,
    fileName: string,
    content: string | Buffer,
    headers: Record<string, string> = { 'X-API-Key': ADMIN_KEY },
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const form = new FormData();
    form.append('file', new Blob([content]), fileName);
    const response = await fetch(`${this.url}/v1/projects/${projectId}/documents`, {
      method: 'POST',
      headers,
      body: form,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** `POST /v1/projects/:id/archives`: a zipped folder becomes (or updates) a folder source. */
  async uploadArchive(
    projectId: string,
    fileName: string,
    content: Buffer,
    fields: Record<string, string> = {},
  ): Promise<{ status: number; body: ArchiveUploadView }> {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append('file', new Blob([content]), fileName);
    const response = await fetch(`${this.url}/v1/projects/${projectId}/archives`, {
      method: 'POST',
      headers: { 'X-API-Key': ADMIN_KEY },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as ArchiveUploadView };
  }

  /** Waits until a sync run ends and returns it. */
  async runSettled(runId: string, timeoutMs = 240_000): Promise<SyncRunView> {
    return expectEventually(
      async () => {
        const { syncRun } = await this.query<{ syncRun: SyncRunView }>(
          `query($id: ID!) { syncRun(id: $id) { id status error { code message } warnings skipped { id reason }
             progress { pagesSeen pagesIngested pagesUnchanged pagesFailed pagesDeleted chunksEmbedded chunksReused } } }`,
          { id: runId },
        );
        if (syncRun.status === 'RUNNING') throw new Error(`run ${runId} is still running`);
        return syncRun;
      },
      { timeoutMs, intervalMs: 1000 },
    );
  }

  /** Adds a source of any type through `addSource`; returns the `fields` asked for (by default its id). */
  async addSource<T = { id: string }>(input: NewSource, fields = 'id'): Promise<T> {
    return addSource<T>((query, variables) => this.query(query, variables), input, fields);
  }

  async createProject(name: string): Promise<string> {
    const data = await this.query<{ createProject: { id: string } }>(
      'mutation($name: String!) { createProject(input: {name: $name}) { id } }',
      { name },
    );
    return data.createProject.id;
  }

  async document(id: string): Promise<DocumentView | null> {
    const data = await this.query<{ document: DocumentView | null }>(
      `query($id: ID!) { document(id: $id) { id fileName status chunkCount error { code message }
         timings { fetchMs parseMs chunkMs embedMs upsertMs totalMs } } }`,
      { id },
    );
    return data.document;
  }

  /** Waits until the document reaches a final state (READY or FAILED) and returns it. */
  async settled(id: string, timeoutMs = 120_000): Promise<DocumentView> {
    return expectEventually(
      async () => {
        const document = await this.document(id);
        if (!document || (document.status !== 'READY' && document.status !== 'FAILED')) {
          throw new Error(`document ${id} is ${document?.status ?? 'missing'}`);
        }
        return document;
      },
      { timeoutMs, intervalMs: 500 },
    );
  }
}

/** How a worker process is started. */
export interface WorkerOptions {
  /**
   * Folders of its own, as on a machine of its own: temporary files (TMPDIR), unpacked archives,
   * Git clones, the workflow bundle and the blob folder (unused when blobs are in a bucket). Without
   * it every worker of the stack shares the stack's blob folder and the defaults under the checkout.
   */
  ownFolders?: boolean;
}

export interface ArchiveUploadView {
  source?: { id: string; name: string; config: { format: string; archiveFileName: string }; summary: string };
  run?: { id: string; status: string };
  error?: { code: string; message: string };
}

export interface SyncRunView {
  id: string;
  status: string;
  error: { code: string; message: string } | null;
  warnings: string[] | null;
  skipped: { id: string; reason: string }[];
  progress: Record<string, number>;
}

export interface DocumentView {
  id: string;
  fileName: string;
  status: string;
  chunkCount: number;
  error: { code: string; message: string } | null;
  timings: Record<string, number | null>;
}
