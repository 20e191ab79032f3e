import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const GIT_ENV = {
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  HOME: tmpdir(),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
};

/** Runs git for a test's fixtures (author set, no user configuration). */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    'git',
    [
      '-c',
      'user.name=Trove Test',
      '-c',
      'user.email=test@trove.invalid',
      '-c',
      'protocol.file.allow=always',
      ...args,
    ],
    { cwd, env: GIT_ENV, encoding: 'utf8' },
  );
}

/**
 * Real Git servers for a test: bare repositories under one folder, served by `git http-backend`
 * behind a small HTTP server (basic auth checked when `token` is set) and by `git daemon`.
 */
export class GitTestServer {
  readonly root = mkdtempSync(join(tmpdir(), 'trove-git-server-'));
  readonly projectRoot = join(this.root, 'repos');
  /** The password the HTTP server wants (any user name); unset: no authentication. */
  token?: string;
  private http?: Server;
  private daemon?: ChildProcess;
  httpUrl = '';
  daemonUrl = '';

  async start(): Promise<this> {
    mkdirSync(this.projectRoot, { recursive: true });
    this.http = createServer((req, res) => {
      if (this.token !== undefined) {
        const given = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
        const password = given && Buffer.from(given, 'base64').toString().split(':').slice(1).join(':');
        if (password !== this.token) {
          res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end('unauthorized');
          return;
        }
      }
      const url = new URL(req.url ?? '/', 'http://localhost');
      const cgi = spawn('git', ['http-backend'], {
        env: {
          ...GIT_ENV,
          GIT_PROJECT_ROOT: this.projectRoot,
          GIT_HTTP_EXPORT_ALL: '1',
          PATH_INFO: decodeURIComponent(url.pathname),
          QUERY_STRING: url.search.slice(1),
          REQUEST_METHOD: req.method ?? 'GET',
          CONTENT_TYPE: req.headers['content-type'] ?? '',
          HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
          HTTP_GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
          REMOTE_ADDR: '127.0.0.1',
        },
      });
      req.pipe(cgi.stdin);
      let head = Buffer.alloc(0);
      let headersDone = false;
      cgi.stdout.on('data', (chunk: Buffer) => {
        if (headersDone) return void res.write(chunk);
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        headersDone = true;
        let status = 200;
        for (const line of head.subarray(0, end).toString().split('\r\n')) {
          const [name, ...rest] = line.split(':');
          const value = rest.join(':').trim();
          if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
          else res.setHeader(name, value);
        }
        res.writeHead(status);
        res.write(head.subarray(end + 4));
      });
      cgi.on('close', () => res.end());
    });
    await new Promise<void>((resolve) => this.http!.listen(0, '127.0.0.1', resolve));
    this.httpUrl = `http://127.0.0.1:${(this.http.address() as AddressInfo).port}`;

    const port = await freePort();
    this.daemon = spawn(
      'git',
      [
        'daemon',
        '--verbose',
        '--reuseaddr',
        '--export-all',
        `--base-path=${this.projectRoot}`,
        '--listen=127.0.0.1',
        `--port=${port}`,
        this.projectRoot,
      ],
      { env: GIT_ENV, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    // Waits for the daemon's own "Ready to rumble" line, not for time.
    await new Promise<void>((resolve, reject) => {
      let log = '';
      this.daemon!.stderr!.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('Ready to rumble')) resolve();
      });
      this.daemon!.on('exit', (code) => reject(new Error(`git daemon exited (${code}): ${log}`)));
    });
    this.daemonUrl = `git://127.0.0.1:${port}`;
    return this;
  }

  /** A new bare repository served as `<name>.git`, and a working clone of it to commit from. */
  repository(name: string, branch = 'main'): TestRepository {
    const bare = join(this.projectRoot, `${name}.git`);
    git(this.root, 'init', '-q', '--bare', `--initial-branch=${branch}`, bare);
    const work = join(this.root, 'work', name);
    mkdirSync(work, { recursive: true });
    git(work, 'init', '-q', `--initial-branch=${branch}`);
    git(work, 'remote', 'add', 'origin', bare);
    return new TestRepository(work, bare, `${this.httpUrl}/${name}.git`, `${this.daemonUrl}/${name}.git`);
  }

  async stop(): Promise<void> {
    this.daemon?.kill();
    await new Promise<void>((resolve) => (this.http ? this.http.close(() => resolve()) : resolve()));
    rmSync(this.root, { recursive: true, force: true });
  }
}

export class TestRepository {
  constructor(
    readonly work: string,
    readonly bare: string,
    readonly httpUrl: string,
    readonly daemonUrl: string,
  ) {}

  write(files: Record<string, string>): this {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(this.work, path)), { recursive: true });
      writeFileSync(join(this.work, path), content);
    }
    return this;
  }

  git(...args: string[]): string {
    return git(this.work, ...args);
  }

  /** Commits everything and pushes the current branch; returns the commit. */
  commit(message: string, push = true): string {
    this.git('add', '-A');
    this.git('commit', '-q', '-m', message);
    if (push) this.git('push', '-q', '--force', 'origin', 'HEAD');
    return this.git('rev-parse', 'HEAD').trim();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
