import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

/** Bump when the layout of a backup folder changes: a restore refuses formats it does not know. */
export const BACKUP_FORMAT = 1;

/** The files of a backup folder. `manifest.json` is written last: without it a backup is partial. */
export const BACKUP_FILES = {
  manifest: 'manifest.json',
  catalog: 'catalog.dump',
  /** The Elasticsearch snapshot repository (type `fs`). */
  elasticsearch: 'elasticsearch',
  blobs: 'blobs',
  /** `sha256sum` format: `sha256sum -c blobs.sha256` (from the backup folder) checks the copies. */
  blobChecksums: 'blobs.sha256',
  config: 'config.env',
} as const;

/** The snapshot's name inside the backup's repository (one snapshot per backup). */
export const SNAPSHOT_NAME = 'trove';

/** Stable codes of what stops a backup or a restore (the CLI prints them). */
export enum BackupErrorCode {
  /** The folder to back up into is not empty, or the folder to restore from has no complete backup. */
  BadFolder = 'BACKUP_BAD_FOLDER',
  /** A sync, an ingest or an index rebuild is running (or started during the backup). */
  Busy = 'BACKUP_INSTALL_BUSY',
  /** The restore target already holds a catalog, indices or blobs (use --force to replace them). */
  TargetNotEmpty = 'RESTORE_TARGET_NOT_EMPTY',
  /** The backup does not fit this install: newer catalog, other index prefix or schema, ES too old. */
  Incompatible = 'BACKUP_INCOMPATIBLE',
  /** A file of the backup is missing or does not match its checksum or count. */
  Corrupt = 'BACKUP_CORRUPT',
  /** pg_dump / pg_restore are missing or of another major version than the server. */
  Tools = 'BACKUP_TOOLS',
  /** Elasticsearch cannot write or read the snapshot repository, or the snapshot failed. */
  Snapshot = 'BACKUP_SNAPSHOT_FAILED',
}

export class BackupError extends Error {
  constructor(
    readonly code: BackupErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BackupError';
  }
}

const count = z.number().int().min(0);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  createdAt: z.string(),
  troveVersion: z.string(),
  catalog: z.object({
    schema: z.string(),
    serverVersion: z.string(),
    /** Applied migrations, oldest first; the last is the level the dump is at. */
    migrations: z.array(z.string()).min(1),
    file: z.literal(BACKUP_FILES.catalog),
    sha256,
    bytes: count,
    counts: z.object({
      projects: count,
      sources: count,
      documents: count,
      /** The sum of the documents' chunk counts. */
      chunks: count,
      syncRuns: count,
    }),
    /** Sources with a periodic sync: Temporal schedules are not in the backup, the restore lists them. */
    schedules: z.array(z.object({ sourceId: z.string(), minutes: z.number().int().positive() })),
  }),
  elasticsearch: z.object({
    version: z.string(),
    indexPrefix: z.string(),
    snapshot: z.literal(SNAPSHOT_NAME),
    indices: z.array(z.object({ name: z.string(), documents: count })),
    aliases: z.array(z.object({ alias: z.string(), index: z.string(), isWriteIndex: z.boolean() })),
  }),
  blobs: z.object({
    files: count,
    bytes: count,
    /** The checksum file's own sha256: a changed list is caught before any blob is trusted. */
    checksumsSha256: sha256,
  }),
  config: z.object({
    file: z.literal(BACKUP_FILES.config),
    /** TROVE_* variables set at backup time whose values were left out (secrets). */
    omitted: z.array(z.string()),
    secretsIncluded: z.boolean(),
  }),
});

export type BackupManifest = z.infer<typeof manifestSchema>;

export async function writeManifest(dir: string, manifest: BackupManifest): Promise<void> {
  await writeFile(join(dir, BACKUP_FILES.manifest), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** The backup's manifest, validated; a missing or malformed one is a clear error, never a guess. */
export async function readManifest(dir: string): Promise<BackupManifest> {
  let text: string;
  try {
    text = await readFile(join(dir, BACKUP_FILES.manifest), 'utf8');
  } catch {
    throw new BackupError(
      BackupErrorCode.BadFolder,
      `${dir} holds no ${BACKUP_FILES.manifest}: not a backup, or one that did not finish`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BackupError(BackupErrorCode.Corrupt, `${BACKUP_FILES.manifest} in ${dir} is not JSON`);
  }
  const format = (json as { format?: unknown })?.format;
  if (format !== BACKUP_FORMAT) {
    throw new BackupError(
      BackupErrorCode.Incompatible,
      `the backup has format ${JSON.stringify(format)}; this Trove reads format ${BACKUP_FORMAT}`,
    );
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new BackupError(BackupErrorCode.Corrupt, `${BACKUP_FILES.manifest} is incomplete: ${issues}`);
  }
  return parsed.data;
}
