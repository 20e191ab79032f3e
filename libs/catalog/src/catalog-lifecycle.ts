import type { CatalogHealth, CatalogPoolUsage } from './catalog.ports';
import {
  migrateCatalog,
  openCatalogDb,
  poolUsage,
  withStartupLock,
  type CatalogDb,
  type DatabaseOptions,
} from './database';
import { query } from './database-error';

/**
 * The catalog's connection pool from start-up to shutdown: the schema brought up to date, the
 * readiness check, the pool's figures, and closing it. The repositories share the pool; this is
 * the one object that owns it.
 */
export class CatalogLifecycle implements CatalogHealth, CatalogPoolUsage {
  constructor(
    /** The pool's query builder (backups, benchmarks and tests read tables directly). */
    readonly db: CatalogDb,
    private readonly options: DatabaseOptions,
  ) {}

  /** A pool to the catalog database (it connects on first use). */
  static open(options: DatabaseOptions): CatalogLifecycle {
    return new CatalogLifecycle(openCatalogDb(options), options);
  }

  /**
   * Creates the schema and applies pending migrations, under a lock: the api and workers may start
   * together.
   */
  async ensure(): Promise<{ migrations: string[] }> {
    return query('preparing the catalog', () =>
      withStartupLock(this.options, async () => ({
        migrations: await migrateCatalog(this.db, this.options.schema),
      })),
    );
  }

  /** Whether the database answers (for readiness checks). */
  async ping(): Promise<void> {
    await query('checking the catalog', () => this.db.selectNoFrom((eb) => eb.val(1).as('one')).execute());
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }

  /** This process's connection pool: open, idle and waiting (metrics). */
  poolUsage(): { total: number; idle: number; waiting: number; max: number } {
    return poolUsage(this.db);
  }
}
