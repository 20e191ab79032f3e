import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from './context';
import { runCli } from './program';

function io(env: NodeJS.ProcessEnv = {}) {
  const stdout = {
    text: '',
    isTTY: false,
    write(chunk: string) {
      this.text += chunk;
    },
  };
  const stderr = {
    text: '',
    isTTY: false,
    write(chunk: string) {
      this.text += chunk;
    },
  };
  const value: CliIo = {
    stdout,
    stderr,
    stdin: Readable.from([]),
    env,
    cwd: mkdtempSync(join(tmpdir(), 'trove-cli-program-')),
  };
  return { value, stdout, stderr };
}

const run = (args: string[], env?: NodeJS.ProcessEnv) => {
  const streams = io(env);
  return runCli(['node', 'trove', ...args], streams.value).then((code) => ({ code, ...streams }));
};

describe('runCli', () => {
  it('exits 0 with the help, which has examples', async () => {
    const { code, stdout } = await run(['search', '--help']);
    expect(code).toBe(0);
    expect(stdout.text).toMatch(/Examples:\n\s+\$ trove search/);
    expect(stdout.text).toMatch(/Global Options:[\s\S]*--project/);
  });

  it('exits 2 for a wrong command line, with commander’s message', async () => {
    const missing = await run(['search']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.text).toMatch(/missing required argument 'query'/);
    expect((await run(['projects'])).code).toBe(2);
    expect((await run(['nonsense'])).code).toBe(2);
    const thread = await run(['ask', 'and for the Russian office?', '--thread', 'yesterday']);
    expect(thread.code).toBe(2);
    expect(thread.stderr.text).toMatch(/--thread takes "new" or a thread id \(thr_…\)/);
  });

  it('exits 2 when no project is configured, naming the ways to give one', async () => {
    const { code, stderr } = await run(['search', 'x'], { TROVE_API_URL: 'http://127.0.0.1:9' });
    expect(code).toBe(2);
    expect(stderr.text).toBe(
      'error: no project: pass --project <id or name>, set TROVE_PROJECT, or write one into .trove.yaml (trove init) (NO_PROJECT)\n',
    );
  });

  it('prints an unreachable API as one line with its code (exit 1), the stack only with TROVE_DEBUG=1', async () => {
    const plain = await run(['projects', 'list'], { TROVE_API_URL: 'http://127.0.0.1:9' });
    expect(plain.code).toBe(1);
    expect(plain.stderr.text).toMatch(
      /^error: cannot reach the Trove API at http:\/\/127\.0\.0\.1:9 .*\(NETWORK\)\n$/,
    );
    const debug = await run(['projects', 'list'], { TROVE_API_URL: 'http://127.0.0.1:9', TROVE_DEBUG: '1' });
    expect(debug.stderr.text).toMatch(/\n\s+at /);
  });

  it('with --json also gives errors as JSON on stdout', async () => {
    const { code, stdout } = await run(['projects', 'list', '--json'], {
      TROVE_API_URL: 'http://127.0.0.1:9',
    });
    expect(code).toBe(1);
    expect(JSON.parse(stdout.text)).toMatchObject({ error: { code: 'NETWORK', exitCode: 1 } });
  });
});
