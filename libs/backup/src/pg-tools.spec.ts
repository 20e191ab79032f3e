import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPgTools } from './pg-tools';

function installWithClients(...versions: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'trove-pg-tools-'));
  for (const version of versions) {
    const bin = join(dir, `postgresql-client-${version}`, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'pg_dump'), '');
    writeFileSync(join(bin, 'pg_restore'), '');
  }
  return dir;
}

describe('findPgTools', () => {
  it('takes the newest client of the first install folder that has one', () => {
    const shared = installWithClients('15.4.0', '17.11.0', '9.6.0');
    const old = installWithClients('18.0.0');
    const tools = findPgTools(undefined, [join(shared, 'missing'), shared, old]);
    expect(tools.pgDump).toBe(join(shared, 'postgresql-client-17.11.0', 'bin', 'pg_dump'));
    expect(tools.pgRestore).toBe(join(shared, 'postgresql-client-17.11.0', 'bin', 'pg_restore'));
  });

  it('looks in later folders when the first has none, then falls back to the PATH', () => {
    const empty = installWithClients();
    const old = installWithClients('17.11.0');
    expect(findPgTools(undefined, [empty, old]).pgDump).toBe(
      join(old, 'postgresql-client-17.11.0', 'bin', 'pg_dump'),
    );
    expect(findPgTools(undefined, [empty])).toEqual({ pgDump: 'pg_dump', pgRestore: 'pg_restore' });
  });

  it('uses TROVE_PG_BIN_DIR alone when given, and says so when it lacks the tools', () => {
    const install = installWithClients('17.11.0');
    const bin = join(install, 'postgresql-client-17.11.0', 'bin');
    expect(findPgTools(bin, []).pgDump).toBe(join(bin, 'pg_dump'));
    expect(() => findPgTools(install, [install])).toThrow(
      /no pg_dump and pg_restore in .* \(TROVE_PG_BIN_DIR\)/,
    );
  });
});
