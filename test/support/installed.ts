import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './services';

const execFileAsync = promisify(execFile);

/**
 * Runs an infra/local install script (`install-helm.sh`, `up.sh seaweedfs`, …) and returns what it
 * printed. On a machine where `npm test`'s build jobs are still compiling that program, the script
 * waits on the job's install lock and then only finds it: this waits for that without blocking the
 * test's worker (a vitest worker blocked for minutes in a synchronous call loses its link to vitest:
 * "Timeout calling onTaskUpdate"). The caller's hook timeout bounds the wait.
 */
export async function installed(script: string, ...args: string[]): Promise<string> {
  try {
    const { stdout } = await execFileAsync('bash', [join(ROOT, 'infra', 'local', script), ...args], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout.trim();
  } catch (error) {
    const failed = error as { code?: number; stderr?: string; stdout?: string };
    const output = `${failed.stdout ?? ''}${failed.stderr ?? ''}`.trim().split('\n').slice(-20).join('\n');
    throw new Error(
      `infra/local/${[script, ...args].join(' ')} failed (exit ${failed.code ?? '?'}):\n${output}`,
    );
  }
}

/**
 * How long a test may wait for a program `npm test` is still building on a new machine (SeaweedFS,
 * llama.cpp's server, docker compose, Prometheus, helm, kubeconform: up to about half an hour on 2
 * cores under load); once built, the install scripts answer in about a second.
 */
export const BUILD_WAIT_MS = 60 * 60_000;

/**
 * Runs an infra/local script that may start a service (`up.sh seaweedfs`), its output on the test's
 * own: a started service keeps no pipe of ours open. Resolves when the script exits 0.
 */
export function runLocalScript(script: string, ...args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [join(ROOT, 'infra', 'local', script), ...args], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(
            new Error(`infra/local/${[script, ...args].join(' ')} failed (${signal ?? `exit ${code}`})`),
          ),
    );
  });
}
