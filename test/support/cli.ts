import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './services';

/** The `trove` binary's shim, run the way `npx trove` runs it. */
export const TROVE_BIN = join(ROOT, 'apps', 'cli', 'bin', 'trove.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The test's environment without the settings a developer's shell may hold (TROVE_API_URL, …). */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    'TROVE_API_URL',
    'TROVE_API_KEY',
    'TROVE_PROJECT',
    'TROVE_DEBUG',
    'NO_COLOR',
    'FORCE_COLOR',
  ]) {
    delete env[name];
  }
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** Runs `trove <args>` as a child process (no terminal) and collects its output and exit code. */
export function runTrove(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input?: string },
): Promise<CliRun> {
  return runProcess('node', [TROVE_BIN, ...args], options);
}

/** Runs one shell line in which `trove` and `npx trove` mean this checkout's binary. */
export function runShellLine(
  line: string,
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<CliRun> {
  const prelude = `trove() { node ${quote(TROVE_BIN)} "$@"; }; npx() { if [ "$1" = trove ]; then shift; trove "$@"; else command npx "$@"; fi; };`;
  return runProcess('bash', ['-c', `${prelude}\n${line}`], options);
}

/**
 * Runs `command` under a pseudo-terminal (util-linux `script`), the way a person's shell runs it;
 * `input` is typed into it.
 */
export function runInTerminal(
  command: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; input?: string },
): Promise<CliRun> {
  return runProcess('script', ['-qec', command, '/dev/null'], {
    ...options,
    env: { ...options.env, TERM: 'xterm', COLUMNS: '120' },
  });
}

export function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function runProcess(
  file: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input?: string },
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      { cwd: options.cwd, env: options.env, maxBuffer: 32 * 1024 * 1024, timeout: 600_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
    child.stdin?.end(options.input ?? '');
  });
}
