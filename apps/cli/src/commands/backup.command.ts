import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Command } from 'commander';
import { z } from 'zod';
import {
  BackupError,
  BackupErrorCode,
  backupInstall,
  findPgTools,
  formatBytes,
  restoreInstall,
  type InstallConfig,
  type Progress,
} from '@trove/backup';
import {
  ConfigError,
  databaseSchema,
  elasticsearchSchema,
  foldersSchema,
  loadConfig,
  storageSchema,
} from '@trove/config';
import { action, type CliContext, type CliIo } from '../context';
import { CliError, ExitCode, UsageError } from '../output/exit-codes';
import { version } from '../../package.json';

/** What backup and restore read of the server's configuration: the same TROVE_* variables as the api and worker. */
const installConfigSchema = z.object({
  database: databaseSchema,
  elasticsearch: elasticsearchSchema,
  storage: storageSchema,
  folders: foldersSchema,
});

/** The checkout this CLI runs from: the nearest folder up with nx.json (from the sources or the bundle). */
function repositoryRoot(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
  }
  return process.cwd();
}

function installConfig(env: NodeJS.ProcessEnv): InstallConfig {
  try {
    return loadConfig(installConfigSchema, env);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message, 'BAD_CONFIG');
    throw error;
  }
}

/**
 * Where infra/local installs programs (infra/local/env.sh): TROVE_INSTALL_DIR, else a folder
 * shared by every checkout on the machine — /var/cache/trove for root, ~/.cache/trove otherwise.
 */
function installDir(env: NodeJS.ProcessEnv): string {
  if (env.TROVE_INSTALL_DIR) return env.TROVE_INSTALL_DIR;
  if (process.getuid?.() === 0) return '/var/cache/trove';
  return join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'trove');
}

function pgTools(ctx: CliContext, binDir?: string) {
  const env = ctx.io.env;
  // The local folder too: installs made before programs moved to the shared folder.
  return findPgTools(binDir ?? env.TROVE_PG_BIN_DIR, [
    installDir(env),
    env.TROVE_LOCAL_DIR ?? join(repositoryRoot(), '.trove', 'local'),
  ]);
}

/** Progress on stderr: each new step, and a running count at most every two seconds. */
function progressLines(ctx: CliContext): Progress {
  let lastStep = '';
  let lastAt = 0;
  return (message, done, total) => {
    const step = message.split(':')[0];
    const now = Date.now();
    const finished = done !== undefined && done === total;
    if (step !== lastStep || finished || now - lastAt > 2_000) {
      ctx.out.note(message);
      lastStep = step;
      lastAt = now;
    }
  };
}

/** Backup failures carry their own stable code; a refusal the operator can fix is exit code 2. */
async function translated<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BackupError) {
      const usage = [BackupErrorCode.BadFolder, BackupErrorCode.TargetNotEmpty, BackupErrorCode.Busy];
      throw new CliError(
        error.message,
        usage.includes(error.code) ? ExitCode.Usage : ExitCode.Failure,
        error.code,
      );
    }
    throw error;
  }
}

const SERVER_SETTINGS = `
They run where the api and worker run, with the same TROVE_DATABASE_URL, TROVE_DATABASE_SCHEMA,
TROVE_ES_URL, TROVE_INDEX_PREFIX and TROVE_BLOB_DIR (not through the API), and need pg_dump and
pg_restore of the catalog server's major version (infra/local installs them; else TROVE_PG_BIN_DIR).
Elasticsearch writes and reads the snapshot in <dir>/elasticsearch itself: <dir> must be inside its
path.repo (infra/local: TROVE_ES_PATH_REPO, default .trove/local/data/backups).`;

export function backupCommand(io: CliIo): Command {
  return new Command('backup')
    .description('back up this install (catalog, indices, blobs, settings) into an empty folder')
    .argument('<dir>', 'a new or empty folder inside Elasticsearch’s path.repo')
    .option('--allow-running', 'back up although syncs or ingests are running (they restore as CANCELLED)')
    .option('--include-secrets', 'write secret settings (API keys, TROVE_SECRET_KEY) into config.env too')
    .option(
      '--pg-bin <dir>',
      'where pg_dump and pg_restore are (default: TROVE_PG_BIN_DIR, infra/local’s, PATH)',
    )
    .addHelpText(
      'after',
      `${SERVER_SETTINGS}

Examples:
  $ trove backup .trove/local/data/backups/$(date +%F)
  $ trove backup /backups/nightly --json`,
    )
    .action(
      action(
        io,
        async (
          ctx,
          dir: string,
          options: { allowRunning?: boolean; includeSecrets?: boolean; pgBin?: string },
        ) => {
          const config = installConfig(io.env);
          const manifest = await translated(() =>
            backupInstall({
              config,
              env: io.env,
              dir: resolve(io.cwd, dir),
              tools: pgTools(ctx, options.pgBin),
              troveVersion: version,
              allowRunning: options.allowRunning,
              includeSecrets: options.includeSecrets,
              progress: progressLines(ctx),
            }),
          );
          ctx.out.result(manifest, () => {
            const chunks = manifest.elasticsearch.indices.reduce((sum, i) => sum + i.documents, 0);
            ctx.out.line(
              `backed up ${manifest.catalog.counts.documents} documents (${chunks} chunks in ` +
                `${manifest.elasticsearch.indices.length} indices), ${manifest.blobs.files} blobs ` +
                `(${formatBytes(manifest.blobs.bytes)}) at catalog level ${manifest.catalog.migrations.at(-1)}`,
            );
            if (manifest.config.omitted.length) {
              ctx.out.line(
                `not in the backup (bring them to the restored install yourself): ${manifest.config.omitted.join(', ')}`,
              );
            }
          });
        },
      ),
    );
}

export function restoreCommand(io: CliIo): Command {
  return new Command('restore')
    .description('restore a backup into an empty install (its api and worker stopped)')
    .argument('<dir>', 'a folder written by trove backup, inside Elasticsearch’s path.repo')
    .option('--force', 'replace what the target holds (its catalog schema, indices and blobs)')
    .option(
      '--pg-bin <dir>',
      'where pg_dump and pg_restore are (default: TROVE_PG_BIN_DIR, infra/local’s, PATH)',
    )
    .addHelpText(
      'after',
      `${SERVER_SETTINGS}
The secrets are not in a backup unless it was taken with --include-secrets: set the same
TROVE_SECRET_KEY as before (else Notion tokens cannot be decrypted) and TROVE_ADMIN_API_KEY.
<dir>/config.env holds the other settings as they were. Temporal's state is not restored:
periodic syncs are listed to be set again (the setSyncSchedule mutation or the dashboard).

Examples:
  $ trove restore .trove/local/data/backups/2026-11-26`,
    )
    .action(
      action(io, async (ctx, dir: string, options: { force?: boolean; pgBin?: string }) => {
        const config = installConfig(io.env);
        const report = await translated(() =>
          restoreInstall({
            config,
            dir: resolve(io.cwd, dir),
            tools: pgTools(ctx, options.pgBin),
            force: options.force,
            progress: progressLines(ctx),
          }),
        );
        const { manifest } = report;
        ctx.out.result(report, () => {
          ctx.out.line(
            `restored ${manifest.catalog.counts.documents} documents, ` +
              `${manifest.elasticsearch.indices.length} indices, ${manifest.blobs.files} blobs ` +
              `(backup of ${manifest.createdAt}, Trove ${manifest.troveVersion})`,
          );
          if (report.interruptedRuns) {
            ctx.out.line(
              `${report.interruptedRuns} sync run(s) running at backup time were ended as CANCELLED`,
            );
          }
          for (const schedule of manifest.catalog.schedules) {
            ctx.out.line(
              `set the periodic sync again: setSyncSchedule(sourceId: "${schedule.sourceId}", intervalMinutes: ${schedule.minutes})`,
            );
          }
          if (manifest.config.omitted.length) {
            ctx.out.line(`bring back these settings yourself: ${manifest.config.omitted.join(', ')}`);
          }
        });
      }),
    );
}
