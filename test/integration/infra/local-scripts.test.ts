import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { expectEventually } from '../../support/services';

const run = promisify(execFile);
const envScript = join(__dirname, '../../../infra/local/env.sh');
const dir = mkdtempSync(join(tmpdir(), 'trove-local-scripts-'));

/** `is_running NAME` of infra/local/env.sh against a pid file in a private run folder. */
async function isRunning(pid: number): Promise<boolean> {
  writeFileSync(join(dir, 'service.pid'), String(pid));
  const script = `source "${envScript}"; is_running service && echo running || echo stopped`;
  const { stdout } = await run('bash', ['-c', script], {
    env: { ...process.env, TROVE_LOCAL_RUN_DIR: dir, TROVE_LOCAL_LOG_DIR: dir, TROVE_LOCAL_DATA_DIR: dir },
  });
  return stdout.trim() === 'running';
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('infra/local service state', () => {
  it('counts a killed service that is still a zombie (not yet reaped) as stopped, a live one as running', async () => {
    // The child exits at once; its parent execs into a sleep that never reaps it, so it stays a
    // zombie, as a killed service does until PID 1 reaps it. kill -0 succeeds on it all the same.
    const parent = spawn('bash', ['-c', `sleep 0 & echo $! > "${join(dir, 'child')}"; exec sleep 60`], {
      stdio: 'ignore',
    });
    try {
      let child = 0;
      await expectEventually(async () => {
        child = Number(readFileSync(join(dir, 'child'), 'utf8'));
        expect(readFileSync(`/proc/${child}/stat`, 'utf8')).toMatch(/^\d+ \(.*\) Z /);
      });
      expect(() => process.kill(child, 0)).not.toThrow();
      expect(await isRunning(child)).toBe(false);
      expect(await isRunning(parent.pid!)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
