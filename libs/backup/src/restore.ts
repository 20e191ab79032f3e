import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CATALOG_MIGRATIONS } from '@trove/catalog';
import { AuditAction, AuditOutcome } from '@trove/domain';
import { createElasticsearchClient } from '@trove/search';
import { recordInAuditLog } from './audit-entry';
import type { InstallConfig } from './backup';
import { blobLocation } from './blob-location';
import { fileSha256, parseChecksums, readText, sha256 } from './blobs';
import { CatalogState } from './catalog-state';
import { BACKUP_FILES, BackupError, BackupErrorCode, readManifest, type BackupManifest } from './manifest';
import { checkPgTools, pgConnection, runPgTool, type PgTools } from './pg-tools';
import { clusterVersion, deleteIndices, existingIndices, restoreIndices, type Progress } from './snapshot';

export interface RestoreOptions {
  config: InstallConfig;
  /** A folder written by `backupInstall`; Elasticsearch must be able to read it at the same path. */
  dir: string;
  tools: PgTools;
  /** Replace what the target holds (its catalog schema, the prefix's indices, the blob folder). */
  force?: boolean;
  progress?: Progress;
}

export interface RestoreReport {
  manifest: BackupManifest;
  /** Runs that were RUNNING in the backup, ended as CANCELLED. */
  interruptedRuns: number;
}

/**
 * Restores a backup into an empty install (stopped: no api or worker running against it): checks
 * the manifest and every file first, refuses an incompatible backup or a non-empty target (unless
 * `force`), then restores the indices with their aliases, the catalog and the blobs, and checks
 * the counts against the manifest.
 */
export async function restoreInstall(options: RestoreOptions): Promise<RestoreReport> {
  const folder = resolve(options.dir);
  const warn = (note: string | undefined) => note && options.progress?.(`warning: ${note}`);
  try {
    const report = await restore(options);
    // Into the restored catalog: its log goes on from the backup's, and says where it came from.
    warn(
      await recordInAuditLog(options.config.database, {
        action: AuditAction.Restored,
        outcome: AuditOutcome.SUCCESS,
        detail: {
          folder,
          backupCreatedAt: report.manifest.createdAt,
          documents: report.manifest.catalog.counts.documents,
        },
      }),
    );
    return report;
  } catch (error) {
    // A refused restore leaves the target as it was: its own log records the attempt.
    warn(
      await recordInAuditLog(options.config.database, {
        action: AuditAction.Restored,
        outcome: AuditOutcome.FAILURE,
        code: error instanceof BackupError ? error.code : 'INTERNAL',
        detail: { folder, reason: (error as Error).message },
      }),
    );
    throw error;
  }
}

async function restore(options: RestoreOptions): Promise<RestoreReport> {
  const progress = options.progress ?? (() => undefined);
  const dir = resolve(options.dir);
  const { database, elasticsearch } = options.config;
  const manifest = await readManifest(dir);
  checkCompatible(manifest, options.config);

  progress('checking the backup’s files');
  const dumpFile = join(dir, BACKUP_FILES.catalog);
  const dumpOk = await stat(dumpFile).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!dumpOk || (await fileSha256(dumpFile)) !== manifest.catalog.sha256) {
    throw new BackupError(
      BackupErrorCode.Corrupt,
      `${BACKUP_FILES.catalog} is missing or does not match the manifest`,
    );
  }
  const checksums = await readText(join(dir, BACKUP_FILES.blobChecksums), BACKUP_FILES.blobChecksums);
  if (sha256(checksums) !== manifest.blobs.checksumsSha256) {
    throw new BackupError(
      BackupErrorCode.Corrupt,
      `${BACKUP_FILES.blobChecksums} does not match the manifest`,
    );
  }
  const blobs = parseChecksums(checksums, BACKUP_FILES.blobs);
  if (blobs.length !== manifest.blobs.files) {
    throw new BackupError(
      BackupErrorCode.Corrupt,
      `${BACKUP_FILES.blobChecksums} lists ${blobs.length} files, the manifest ${manifest.blobs.files}`,
    );
  }
  if (manifest.elasticsearch.indices.length) {
    const snapshotFiles = await readdir(join(dir, BACKUP_FILES.elasticsearch)).catch(() => []);
    if (!snapshotFiles.some((name) => name.startsWith('index-'))) {
      throw new BackupError(BackupErrorCode.Corrupt, `${BACKUP_FILES.elasticsearch}/ holds no snapshot`);
    }
  }

  const catalog = await CatalogState.open(database.url, database.schema);
  const es = createElasticsearchClient(elasticsearch.url);
  try {
    const server = await catalog.serverVersion();
    await checkPgTools(options.tools, server.major);
    const esVersion = await clusterVersion(es);
    checkEsVersion(manifest.elasticsearch.version, esVersion);

    // The target must be empty: a restore never merges into a live install.
    const tables = (await catalog.schemaExists()) ? await catalog.relations() : 0;
    const indices = await existingIndices(es, elasticsearch.indexPrefix);
    const blobLocationOfTarget = blobLocation(options.config);
    const files = await blobLocationOfTarget.count();
    const occupied = [
      tables ? `${tables} tables in the schema "${database.schema}"` : '',
      indices.length ? `indices ${indices.join(', ')}` : '',
      files ? `${files} files in ${blobLocationOfTarget.name}` : '',
    ].filter(Boolean);
    if (occupied.length && !options.force) {
      throw new BackupError(
        BackupErrorCode.TargetNotEmpty,
        `the target install is not empty (${occupied.join('; ')}): restore into an empty one (stop its ` +
          'api and worker, or start them only after the restore), or pass --force to replace it',
      );
    }
    if (occupied.length) {
      progress(`--force: removing ${occupied.join('; ')}`);
      await deleteIndices(es, indices);
      await blobLocationOfTarget.clear();
    }
    // The dump creates the schema (even `public`): an empty one left by a first start goes.
    await catalog.dropSchema();

    await restoreIndices(
      es,
      join(dir, BACKUP_FILES.elasticsearch),
      manifest.elasticsearch,
      (message, done, total) => progress(`elasticsearch: ${message}`, done, total),
    );

    progress('catalog: pg_restore');
    const connection = pgConnection(database.url);
    await runPgTool(
      options.tools.pgRestore,
      [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        '--single-transaction',
        `--dbname=${connection.dbname}`,
        dumpFile,
      ],
      connection.env,
    );
    const counts = await catalog.counts();
    if (JSON.stringify(counts) !== JSON.stringify(manifest.catalog.counts)) {
      throw new BackupError(
        BackupErrorCode.Corrupt,
        `the restored catalog counts ${JSON.stringify(counts)}, the backup recorded ${JSON.stringify(manifest.catalog.counts)}`,
      );
    }
    const interruptedRuns = await catalog.endInterruptedRuns();

    progress(`blobs: copying into ${blobLocationOfTarget.name}`);
    await blobLocationOfTarget.copyIn(join(dir, BACKUP_FILES.blobs), blobs, (done, total) =>
      progress(`blobs: ${done}/${total} files`, done, total),
    );
    return { manifest, interruptedRuns };
  } finally {
    await catalog.close();
    await es.close();
  }
}

/** A backup fits when this Trove knows its catalog level and it names the same prefix and schema. */
function checkCompatible(manifest: BackupManifest, config: InstallConfig): void {
  const level = manifest.catalog.migrations.at(-1)!;
  if (!CATALOG_MIGRATIONS.includes(level)) {
    throw new BackupError(
      BackupErrorCode.Incompatible,
      `the backup's catalog is at migration ${level}, which this Trove (latest ${CATALOG_MIGRATIONS.at(-1)}) ` +
        `does not know: restore it with Trove ${manifest.troveVersion} or newer`,
    );
  }
  if (manifest.elasticsearch.indexPrefix !== config.elasticsearch.indexPrefix) {
    throw new BackupError(
      BackupErrorCode.Incompatible,
      `the backup's indices have the prefix "${manifest.elasticsearch.indexPrefix}", this install's is ` +
        `"${config.elasticsearch.indexPrefix}": set TROVE_INDEX_PREFIX=${manifest.elasticsearch.indexPrefix}`,
    );
  }
  if (manifest.catalog.schema !== config.database.schema) {
    throw new BackupError(
      BackupErrorCode.Incompatible,
      `the backup's catalog schema is "${manifest.catalog.schema}", this install's is ` +
        `"${config.database.schema}": set TROVE_DATABASE_SCHEMA=${manifest.catalog.schema}`,
    );
  }
}

/** Elasticsearch restores snapshots of its own major version and the one before it, never newer ones. */
function checkEsVersion(backup: string, target: string): void {
  const major = (version: string) => Number(version.split('.')[0]);
  const [from, to] = [major(backup), major(target)];
  const [fromMinor, toMinor] = [backup, target].map((v) => Number(v.split('.')[1] ?? 0));
  if (to < from || to > from + 1 || (to === from && toMinor < fromMinor)) {
    throw new BackupError(
      BackupErrorCode.Incompatible,
      `the snapshot was taken on Elasticsearch ${backup}; this cluster is ${target}, which cannot restore it ` +
        `(it needs ${from}.${fromMinor} or a later ${from}.x or ${from + 1}.x)`,
    );
  }
}
