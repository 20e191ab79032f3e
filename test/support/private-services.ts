import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './services';

const run = promisify(execFile);
const PREFIX = 'trove-private-services-';
/** Names the test process that owns a folder, so a later run can tell an orphan. */
const OWNER_FILE = 'owner.pid';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Folders whose test process died without its cleanup (Ctrl-C, SIGKILL): their services are stopped and the folder removed. */
async function stopOrphans(): Promise<void> {
  for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith(PREFIX))) {
    const dir = join(tmpdir(), name);
    const ownerFile = join(dir, OWNER_FILE);
    if (!existsSync(ownerFile) || alive(Number(readFileSync(ownerFile, 'utf8')))) continue;
    await run('bash', [join(ROOT, 'infra', 'local', 'down.sh'), ...ALL_SERVICES], {
      env: { ...process.env, ...folderEnv(dir) },
    }).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Where up.sh and down.sh keep a private instance's data, logs and pid files. */
function folderEnv(dir: string): Record<string, string> {
  return {
    TROVE_LOCAL_DATA_DIR: join(dir, 'data'),
    TROVE_LOCAL_LOG_DIR: join(dir, 'logs'),
    TROVE_LOCAL_RUN_DIR: join(dir, 'run'),
  };
}

/** The services of Temporal's production server, one process each (infra/local's temporal-server). */
export type TemporalServerService = 'frontend' | 'history' | 'matching' | 'worker';

/**
 * The services a test may stop: it runs its own instance of each, never the shared one.
 * `elasticsearch` is the single node or every node of a cluster; `elasticsearch-2` one node of it.
 * `temporal-server` is Temporal's production server (its state in this instance's PostgreSQL,
 * which it starts first if needed); `temporal-server-history` one of its services.
 */
export type PrivateService =
  | 'elasticsearch'
  | `elasticsearch-${number}`
  | 'postgresql'
  | 'temporal-server'
  | `temporal-server-${TemporalServerService}`;

/** Everything an instance may have started, in the order down.sh stops it (Temporal before its database). */
const ALL_SERVICES: PrivateService[] = ['temporal-server', 'elasticsearch', 'postgresql'];

/** Whether nothing listens on `port` now. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * `count` consecutive free ports below 32768 (Linux's ephemeral range starts at 32768): a port the
 * OS picks for an outgoing connection cannot take one of them before its service binds it, and
 * Temporal keeps its membership ports in a PostgreSQL smallint.
 */
async function freeLowPorts(count: number): Promise<number> {
  for (;;) {
    const first = 20_000 + Math.floor(Math.random() * (12_000 - count));
    const free = await Promise.all(Array.from({ length: count }, (_, i) => portFree(first + i)));
    if (free.every(Boolean)) return first;
  }
}

export interface PrivateServicesOptions {
  /** Elasticsearch nodes: 1 (default) a single node, more a cluster (TROVE_ES_NODES of infra/local). */
  esNodes?: number;
  /**
   * Elasticsearch's JVM heap (-Xms/-Xmx, e.g. '2g'). Two cores and other suites' services
   * alongside: the default, 512m, is plenty for one test's index; a benchmark loading a million
   * chunks asks for more.
   */
  esHeap?: string;
  /** Elasticsearch's path.repo (TROVE_ES_PATH_REPO): where it may write snapshots; default in its data folder. */
  esPathRepo?: string;
  /**
   * Run Elasticsearch's JVM with its quick compiler only (`-XX:TieredStopAtLevel=1`): a node
   * becomes healthy with about 40 % less CPU (18 → 11 s of CPU, 10 → 7.6 s, measured on this
   * 2-core machine) and runs hot code slower. For a test's short-lived instances, not benchmarks.
   */
  esQuickStart?: boolean;
}

/**
 * A private Elasticsearch, PostgreSQL and Temporal server for tests that stop them: the binaries installed by
 * infra/local, started by its own up.sh and stopped by its down.sh, but on free ports and with
 * their data, logs and pid files in a temporary folder. The developer's running stack (the shared
 * services on the default ports) is never signalled: down.sh only reads this folder's pid files.
 */
export class PrivateServices {
  private readonly dir = mkdtempSync(join(tmpdir(), PREFIX));
  private ports?: { es: number; esTransport: number; pg: number; temporal: number };
  private readonly esNodes: number;
  private readonly esHeap: string;
  private readonly esPathRepo: string;
  private readonly esQuickStart: boolean;

  constructor({
    esNodes = 1,
    esHeap = '512m',
    esPathRepo,
    esQuickStart = false,
  }: PrivateServicesOptions = {}) {
    this.esNodes = esNodes;
    this.esQuickStart = esQuickStart;
    this.esHeap = esHeap;
    this.esPathRepo = esPathRepo ?? join(this.dir, 'data', 'backups');
    // As root, up.sh runs each service as its own system user, which must reach its data folder.
    chmodSync(this.dir, 0o755);
    writeFileSync(join(this.dir, OWNER_FILE), String(process.pid));
  }

  /** The single node's URL, or a cluster's first node's. */
  get esUrl(): string {
    return `http://127.0.0.1:${this.port('es')}`;
  }

  /** Every node's URL, node 1 first: comma-joined, what TROVE_ES_URL takes for a cluster. */
  get esNodeUrls(): string[] {
    return Array.from({ length: this.esNodes }, (_, i) => `http://127.0.0.1:${this.port('es') + i}`);
  }

  /** Where a node's processes write their pid (the test may signal one itself). */
  pidFile(service: PrivateService): string {
    return join(this.dir, 'run', `${service}.pid`);
  }

  get databaseUrl(): string {
    return `postgres://trove@127.0.0.1:${this.port('pg')}/trove`;
  }

  /** The production Temporal server's frontend, what TROVE_TEMPORAL_ADDRESS takes. */
  get temporalAddress(): string {
    return `127.0.0.1:${this.port('temporal')}`;
  }

  /** Starts the services (a fresh data folder on first start) and returns once each is healthy. */
  async start(...services: PrivateService[]): Promise<void> {
    if (!this.ports) {
      await stopOrphans();
      // Below the ephemeral range: a service binds its port seconds after it is chosen (Elasticsearch
      // tens of seconds under load), and meanwhile any outgoing connection may take a port there.
      this.ports = {
        es: await freeLowPorts(this.esNodes),
        esTransport: await freeLowPorts(this.esNodes),
        pg: await freeLowPorts(1),
        // The four services' gRPC ports, then their four membership ports.
        temporal: await freeLowPorts(8),
      };
    }
    await this.script('up.sh', services);
  }

  /** Stops the services, keeping their data; returns once their processes have exited. */
  async stop(...services: PrivateService[]): Promise<void> {
    await this.script('down.sh', services);
  }

  /** Stops everything this instance started and removes its data. */
  async cleanup(): Promise<void> {
    try {
      if (this.ports) await this.stop(...ALL_SERVICES);
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }

  private port(name: 'es' | 'pg' | 'temporal'): number {
    if (!this.ports) throw new Error('the private services have not been started');
    return this.ports[name];
  }

  // Asynchronous: the test process keeps draining its children's log pipes while a service starts.
  private async script(script: 'up.sh' | 'down.sh', services: PrivateService[]): Promise<void> {
    const ports = this.ports!;
    try {
      await run('bash', [join(ROOT, 'infra', 'local', script), ...services], {
        env: {
          ...process.env,
          ...folderEnv(this.dir),
          TROVE_ES_PORT: String(ports.es),
          TROVE_ES_TRANSPORT_PORT: String(ports.esTransport),
          TROVE_ES_HEAP: this.esHeap,
          TROVE_ES_NODES: String(this.esNodes),
          TROVE_PG_PORT: String(ports.pg),
          TROVE_TEMPORAL_SERVER_PORT: String(ports.temporal),
          TROVE_TEMPORAL_SERVER_MEMBERSHIP_PORT: String(ports.temporal + 4),
          TROVE_ES_PATH_REPO: this.esPathRepo,
          ...(this.esQuickStart
            ? { TROVE_ES_JAVA_OPTS: `${process.env.TROVE_ES_JAVA_OPTS ?? ''} -XX:TieredStopAtLevel=1`.trim() }
            : {}),
        },
      });
    } catch (error) {
      const { stderr } = error as { stderr?: string };
      // up.sh prints the service log's last lines: the folder is gone after cleanup().
      throw new Error(`${script} ${services.join(' ')} failed:\n${stderr}`);
    }
  }
}
