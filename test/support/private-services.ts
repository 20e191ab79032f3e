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
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, ROOT } from './services';

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
    await run('bash', [join(ROOT, 'infra', 'local', 'down.sh'), 'elasticsearch', 'postgresql'], {
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

/** The services a test may stop: it runs its own instance of each, never the shared one. */
export type PrivateService = 'elasticsearch' | 'postgresql';

/**
 * A private Elasticsearch and PostgreSQL for tests that stop them: the binaries installed by
 * infra/local, started by its own up.sh and stopped by its down.sh, but on free ports and with
 * their data, logs and pid files in a temporary folder. The developer's running stack (the shared
 * services on the default ports) is never signalled: down.sh only reads this folder's pid files.
 */
export class PrivateServices {
  private readonly dir = mkdtempSync(join(tmpdir(), PREFIX));
  private ports?: { es: number; esTransport: number; pg: number };
  private readonly esHeap: string;

  /**
   * `esHeap`: Elasticsearch's JVM heap (-Xms/-Xmx, e.g. '2g'). Two cores and other suites'
   * services alongside: the default, 512m, is plenty for one test's index; a benchmark loading a
   * million chunks asks for more.
   */
  constructor(options: { esHeap?: string } = {}) {
    this.esHeap = options.esHeap ?? '512m';
    // As root, up.sh runs each service as its own system user, which must reach its data folder.
    chmodSync(this.dir, 0o755);
    writeFileSync(join(this.dir, OWNER_FILE), String(process.pid));
  }

  get esUrl(): string {
    return `http://127.0.0.1:${this.port('es')}`;
  }

  get databaseUrl(): string {
    return `postgres://trove@127.0.0.1:${this.port('pg')}/trove`;
  }

  /** Starts the services (a fresh data folder on first start) and returns once each is healthy. */
  async start(...services: PrivateService[]): Promise<void> {
    if (!this.ports) {
      await stopOrphans();
      this.ports = { es: await freePort(), esTransport: await freePort(), pg: await freePort() };
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
      if (this.ports) await this.stop('elasticsearch', 'postgresql');
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }

  private port(name: 'es' | 'pg'): number {
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
          TROVE_PG_PORT: String(ports.pg),
        },
      });
    } catch (error) {
      const { stderr } = error as { stderr?: string };
      // up.sh prints the service log's last lines: the folder is gone after cleanup().
      throw new Error(`${script} ${services.join(' ')} failed:\n${stderr}`);
    }
  }
}
