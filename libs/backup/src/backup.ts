import { chmod, mkdir, readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { DatabaseConfig, ElasticsearchConfig, StorageConfig } from '@trove/config';
import { AuditAction, AuditOutcome } from '@trove/domain';
import { createElasticsearchClient } from '@trove/search';
import { recordInAuditLog } from './audit-entry';
import { blobLocation } from './blob-location';
import { checksumLines, fileSha256, sha256, writeText } from './blobs';
import { CatalogState } from './catalog-state';
import { exportConfig } from './config-export';
import {
  BACKUP_FILES,
  BACKUP_FORMAT,
  BackupError,
  BackupErrorCode,
  writeManifest,
  type BackupManifest,
} from './manifest';
import { checkPgTools, pgConnection, runPgTool, type PgTools } from './pg-tools';
import { describeIndices, snapshotIndices, type Progress } from './snapshot';

/** The parts of an install's configuration a backup reads (the api's and worker's own settings). */
export interface InstallConfig {
  database: DatabaseConfig;
  elasticsearch: ElasticsearchConfig;
  storage: StorageConfig;
  /** The folder cache is rebuilt from the blobs: left out when it lies inside the blob folder. */
  folders?: { cacheDir: string };
}

export interface BackupOptions {
  config: InstallConfig;
  /** The install's environment: its TROVE_* settings go into config.env. */
  env: NodeJS.ProcessEnv;
  /** An empty or new folder; Elasticsearch must be able to write into it at the same path. */
  dir: string;
  tools: PgTools;
  troveVersion: string;
  /** Back up although syncs or ingests are running (they are ended as CANCELLED on restore). */
  allowRunning?: boolean;
  /** Write secret settings (API keys, TROVE_SECRET_KEY, URL passwords) into config.env too. */
  includeSecrets?: boolean;
  progress?: Progress;
}

/**
 * Backs up a running install into `dir`: the catalog (pg_dump, custom format), the chunk indices
 * and their aliases (an Elasticsearch snapshot into `dir/elasticsearch`), the blob folder (files
 * with their sha256) and the non-secret settings; `manifest.json` last, so a folder without it is
 * known to be partial. Refuses when a sync, ingest, rebuild or deletion is in flight, and fails
 * when one started while it ran, unless `allowRunning`.
 */
export async function backupInstall(options: BackupOptions): Promise<BackupManifest> {
  const folder = resolve(options.dir);
  const warn = (note: string | undefined) => note && options.progress?.(`warning: ${note}`);
  try {
    const manifest = await backUp(options);
    warn(
      await recordInAuditLog(options.config.database, {
        action: AuditAction.Backup,
        outcome: AuditOutcome.SUCCESS,
        detail: { folder, documents: manifest.catalog.counts.documents, blobs: manifest.blobs.files },
      }),
    );
    return manifest;
  } catch (error) {
    warn(
      await recordInAuditLog(options.config.database, {
        action: AuditAction.Backup,
        outcome: AuditOutcome.FAILURE,
        code: error instanceof BackupError ? error.code : 'INTERNAL',
        detail: { folder, reason: (error as Error).message },
      }),
    );
    throw error;
  }
}

async function backUp(options: BackupOptions): Promise<BackupManifest> {
  const progress = options.progress ?? (() => undefined);
  const dir = resolve(options.dir);
  const { database, elasticsearch } = options.config;
  await prepareFolder(dir);

  const catalog = await CatalogState.open(database.url, database.schema);
  const es = createElasticsearchClient(elasticsearch.url);
  try {
    if (!(await catalog.schemaExists()) || (await catalog.relations()) === 0) {
      throw new BackupError(
        BackupErrorCode.BadFolder,
        `the catalog schema "${database.schema}" is empty: nothing to back up (is TROVE_DATABASE_SCHEMA right?)`,
      );
    }
    const busy = await catalog.activity();
    if (busy.length && !options.allowRunning) {
      throw new BackupError(
        BackupErrorCode.Busy,
        `the install is busy (${busy.join(', ')}): wait until it is idle, or pass --allow-running ` +
          '(running syncs are then ended as CANCELLED in the restored install and must be run again)',
      );
    }
    if (busy.length) progress(`warning: backing up while busy (${busy.join(', ')})`);
    const before = await catalog.fingerprint();
    const server = await catalog.serverVersion();
    await checkPgTools(options.tools, server.major);
    const migrations = await catalog.migrations();

    // The indices first, the catalog second: a document added in between is in the catalog
    // without chunks (its next sync or upload repairs it) rather than chunks without a document.
    progress('elasticsearch: reading the indices');
    const esState = await describeIndices(es, elasticsearch.indexPrefix);
    const snapshotDir = join(dir, BACKUP_FILES.elasticsearch);
    await mkdir(snapshotDir, { recursive: true });
    // Elasticsearch writes the snapshot as its own user; the folder is closed again afterwards.
    await chmod(snapshotDir, 0o777);
    try {
      await snapshotIndices(es, snapshotDir, esState, (message, done, total) =>
        progress(`elasticsearch: ${message}`, done, total),
      );
    } finally {
      await chmod(snapshotDir, 0o755);
    }

    progress('catalog: pg_dump');
    const dumpFile = join(dir, BACKUP_FILES.catalog);
    const connection = pgConnection(database.url);
    await runPgTool(
      options.tools.pgDump,
      [
        '--format=custom',
        `--schema=${database.schema}`,
        '--no-owner',
        '--no-privileges',
        `--file=${dumpFile}`,
        `--dbname=${connection.dbname}`,
      ],
      connection.env,
    );
    const counts = await catalog.counts();
    const schedules = await catalog.schedules();

    const blobs = blobLocation(options.config);
    progress(`blobs: copying from ${blobs.name}`);
    const entries = await blobs.copyOut(join(dir, BACKUP_FILES.blobs), (done, total) =>
      progress(`blobs: ${done}/${total} files`, done, total),
    );
    const checksums = checksumLines(entries, BACKUP_FILES.blobs);
    await writeText(join(dir, BACKUP_FILES.blobChecksums), checksums);

    const config = exportConfig(options.env, Boolean(options.includeSecrets));
    await writeText(join(dir, BACKUP_FILES.config), config.text);

    if (!options.allowRunning && (await catalog.fingerprint()) !== before) {
      throw new BackupError(
        BackupErrorCode.Busy,
        'documents or sync runs changed while the backup ran: the catalog and the indices may not match. ' +
          'Run it again when the install is idle (pause schedules and uploads), or pass --allow-running',
      );
    }

    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      createdAt: new Date().toISOString(),
      troveVersion: options.troveVersion,
      catalog: {
        schema: database.schema,
        serverVersion: server.version,
        migrations,
        file: BACKUP_FILES.catalog,
        sha256: await fileSha256(dumpFile),
        bytes: (await stat(dumpFile)).size,
        counts,
        schedules,
      },
      elasticsearch: esState,
      blobs: {
        files: entries.length,
        bytes: entries.reduce((sum, e) => sum + e.bytes, 0),
        checksumsSha256: sha256(checksums),
      },
      config: {
        file: BACKUP_FILES.config,
        omitted: config.omitted,
        secretsIncluded: Boolean(options.includeSecrets),
      },
    };
    await writeManifest(dir, manifest);
    return manifest;
  } finally {
    await catalog.close();
    await es.close();
  }
}

/** Creates the folder (readable by Elasticsearch's user) or accepts an existing empty one. */
async function prepareFolder(dir: string): Promise<void> {
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (entries?.length) {
    throw new BackupError(
      BackupErrorCode.BadFolder,
      `${dir} is not empty: back up into a new or empty folder`,
    );
  }
  await mkdir(dir, { recursive: true });
  await chmod(dir, 0o755);
}
