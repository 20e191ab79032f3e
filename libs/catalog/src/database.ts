import { Kysely, Migrator, PostgresDialect, type Migration, type MigrationProvider } from 'kysely';
import pg from 'pg';
import { TroveError, TroveErrorCode } from '@trove/domain';
import * as catalog0001 from './migrations/0001-catalog';
import * as itemVersion0002 from './migrations/0002-item-version';
import * as searchFilters0003 from './migrations/0003-search-filters';
import * as ragConfig0004 from './migrations/0004-rag-config';
import * as indexGenerations0005 from './migrations/0005-index-generations';
import * as apiKeys0006 from './migrations/0006-api-keys';
import * as webhookDeliveries0007 from './migrations/0007-webhook-deliveries';
import * as ingestLease0008 from './migrations/0008-ingest-lease';
import * as syncRunStage0009 from './migrations/0009-sync-run-stage';
import * as sourceConfig0010 from './migrations/0010-source-config';
import * as projectSettings0011 from './migrations/0011-project-settings';
import * as documentProgress0012 from './migrations/0012-document-progress';
import * as answers0013 from './migrations/0013-answers';
import * as feedback0014 from './migrations/0014-feedback';
import * as identity0015 from './migrations/0015-identity';
import { PostgresSafeTextPool } from './postgres-text';
import type { CatalogTables } from './tables';

export interface DatabaseOptions {
  /** `postgres://user[:password]@host:port/database` */
  url: string;
  /** Schema holding the tables; created if missing. */
  schema: string;
  poolSize?: number;
}

export type CatalogDb = Kysely<CatalogTables>;

// BIGINT (sizes) comes back as a string by default; our sizes fit a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** Migrations in order; each is applied once per schema. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-catalog': catalog0001,
  '0002-item-version': itemVersion0002,
  '0003-search-filters': searchFilters0003,
  '0004-rag-config': ragConfig0004,
  '0005-index-generations': indexGenerations0005,
  '0006-api-keys': apiKeys0006,
  '0007-webhook-deliveries': webhookDeliveries0007,
  '0008-ingest-lease': ingestLease0008,
  '0009-sync-run-stage': syncRunStage0009,
  '0010-source-config': sourceConfig0010,
  '0011-project-settings': projectSettings0011,
  '0012-document-progress': documentProgress0012,
  '0013-answers': answers0013,
  '0014-feedback': feedback0014,
  '0015-identity': identity0015,
};

/** The catalog migrations this version knows, oldest first (a backup records the level it was taken at). */
export const CATALOG_MIGRATIONS: readonly string[] = Object.keys(MIGRATIONS);

/** Where kysely records the applied migrations, in the catalog's schema. */
export const CATALOG_MIGRATION_TABLE = 'kysely_migration';

class StaticMigrations implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS;
  }
}

/** The pool behind each database handle, for its usage figures (metrics). */
const pools = new WeakMap<CatalogDb, pg.Pool>();

/** Connections of a handle's pool: open, idle, requests waiting for one, and the maximum. */
export function poolUsage(db: CatalogDb): { total: number; idle: number; waiting: number; max: number } {
  const pool = pools.get(db);
  if (!pool) return { total: 0, idle: 0, waiting: 0, max: 0 };
  return {
    total: pool.totalCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
    max: pool.options.max ?? 10,
  };
}

/** A pool to the catalog database with the schema on the search path. */
export function openCatalogDb(options: DatabaseOptions): CatalogDb {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    options: `-c search_path=${options.schema}`,
    connectionTimeoutMillis: 10_000,
    application_name: 'trove',
  });
  // An idle client losing its server (PostgreSQL restarted) must not crash the process.
  pool.on('error', () => undefined);
  // Every parameter goes through the text guard: PostgreSQL refuses NUL and unpaired surrogates.
  const db = new Kysely<CatalogTables>({
    dialect: new PostgresDialect({ pool: new PostgresSafeTextPool(pool) }),
  });
  pools.set(db, pool);
  return db;
}

/** Fixed key of the session lock that serialises start-up (schema, migrations, import). */
const STARTUP_LOCK = 7_261_540_113;

/**
 * Runs `work` holding the start-up lock: the api and worker may start together, and only one of
 * them may create the schema, migrate and import at a time.
 */
export async function withStartupLock<T>(options: DatabaseOptions, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: options.url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
    await client.query(`create schema if not exists "${options.schema}"`);
    return await work();
  } finally {
    await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

/**
 * Applies the migrations not yet applied to the schema (call under `withStartupLock`); up to
 * `to` when given (tests of a migration start from the schema before it).
 */
export async function migrateCatalog(db: CatalogDb, schema: string, to?: string): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: new StaticMigrations(),
    migrationTableSchema: schema,
    migrationTableName: CATALOG_MIGRATION_TABLE,
  });
  const { error, results } = to ? await migrator.migrateTo(to) : await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'a migration';
    throw new TroveError(
      TroveErrorCode.ServiceUnavailable,
      `the catalog database could not be migrated (${failed}): ${(error as Error).message}`,
    );
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
