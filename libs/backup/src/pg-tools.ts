import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { BackupError, BackupErrorCode } from './manifest';

const run = promisify(execFile);

/** pg_dump and pg_restore of one installation, checked against the server's major version. */
export interface PgTools {
  pgDump: string;
  pgRestore: string;
}

/**
 * Where the client tools are: `binDir` when given (TROVE_PG_BIN_DIR), else the ones infra/local
 * installs (`<install dir>/postgresql-client-<version>/bin`, newest version first, in the first of
 * `installDirs` that has any), else the PATH.
 */
export function findPgTools(binDir: string | undefined, installDirs: readonly string[]): PgTools {
  const dirs: string[] = [];
  if (binDir) dirs.push(resolve(binDir));
  else {
    for (const installDir of installDirs.filter((d) => existsSync(d))) {
      const clients = readdirSync(installDir)
        .filter((name) => name.startsWith('postgresql-client-'))
        .sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
      dirs.push(...clients.map((name) => join(installDir, name, 'bin')));
    }
  }
  const dir = dirs.find((d) => existsSync(join(d, 'pg_dump')) && existsSync(join(d, 'pg_restore')));
  if (binDir && !dir) {
    throw new BackupError(BackupErrorCode.Tools, `no pg_dump and pg_restore in ${binDir} (TROVE_PG_BIN_DIR)`);
  }
  return dir
    ? { pgDump: join(dir, 'pg_dump'), pgRestore: join(dir, 'pg_restore') }
    : { pgDump: 'pg_dump', pgRestore: 'pg_restore' };
}

/** The major version a tool reports (`pg_dump (PostgreSQL) 17.11` → 17). */
async function toolMajor(tool: string): Promise<number> {
  try {
    const { stdout } = await run(tool, ['--version']);
    const match = /\(PostgreSQL\)\s+(\d+)/.exec(stdout);
    if (!match) throw new Error(stdout.trim());
    return Number(match[1]);
  } catch (error) {
    throw new BackupError(
      BackupErrorCode.Tools,
      `${tool} does not run (${(error as Error).message.split('\n')[0]}); install the PostgreSQL client ` +
        'tools of the server’s major version (infra/local/install.sh does) or set TROVE_PG_BIN_DIR',
    );
  }
}

/** Refuses tools of another major version than the server: dumps are only safe within one. */
export async function checkPgTools(tools: PgTools, serverMajor: number): Promise<void> {
  for (const tool of [tools.pgDump, tools.pgRestore]) {
    const major = await toolMajor(tool);
    if (major !== serverMajor) {
      throw new BackupError(
        BackupErrorCode.Tools,
        `${tool} is PostgreSQL ${major}, the catalog server is PostgreSQL ${serverMajor}: ` +
          `use the client tools of version ${serverMajor} (TROVE_PG_BIN_DIR)`,
      );
    }
  }
}

/**
 * A connection for the tools: the URL without its password (which would show in the process
 * list) and the password in PGPASSWORD.
 */
export function pgConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (password) env.PGPASSWORD = password;
  return { dbname: parsed.toString(), env };
}

/** Runs a tool; a failure carries the tool's own message (it never prints the password). */
export async function runPgTool(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  try {
    await run(tool, args, { env, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const stderr = ((error as { stderr?: string }).stderr ?? (error as Error).message).trim();
    throw new BackupError(BackupErrorCode.Tools, `${tool.split('/').pop()} failed: ${stderr}`);
  }
}
