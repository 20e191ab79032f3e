import pg from 'pg';
import { CATALOG_MIGRATION_TABLE } from '@trove/catalog';
import {
  DocumentStatus,
  IndexGenerationStatus,
  ProjectStatus,
  SourceStatus,
  SyncRunStatus,
  TroveErrorCode,
} from '@trove/domain';
import type { BackupManifest } from './manifest';

type Counts = BackupManifest['catalog']['counts'];

/** A short-lived connection to the catalog, with its schema's tables named explicitly. */
export class CatalogState {
  private constructor(
    private readonly client: pg.Client,
    readonly schema: string,
  ) {}

  static async open(url: string, schema: string): Promise<CatalogState> {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    client.on('error', () => undefined);
    await client.connect();
    return new CatalogState(client, schema);
  }

  close(): Promise<void> {
    return this.client.end().catch(() => undefined);
  }

  private table(name: string): string {
    return `"${this.schema}"."${name}"`;
  }

  private async number(sql: string, params: unknown[] = []): Promise<number> {
    const { rows } = await this.client.query<{ n: string | number | null }>(sql, params);
    return Number(rows[0]?.n ?? 0);
  }

  async serverVersion(): Promise<{ version: string; major: number }> {
    const { rows } = await this.client.query<{ server_version: string; num: string }>(
      "select current_setting('server_version') as server_version, current_setting('server_version_num') as num",
    );
    return { version: rows[0].server_version, major: Math.floor(Number(rows[0].num) / 10_000) };
  }

  /** Tables, views and sequences in the schema: none means an empty install. */
  async relations(): Promise<number> {
    return this.number(
      `select count(*) as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = $1 and c.relkind in ('r', 'p', 'v', 'm', 'S')`,
      [this.schema],
    );
  }

  async schemaExists(): Promise<boolean> {
    return (
      (await this.number('select count(*) as n from pg_namespace where nspname = $1', [this.schema])) > 0
    );
  }

  async dropSchema(): Promise<void> {
    await this.client.query(`drop schema if exists "${this.schema}" cascade`);
  }

  async migrations(): Promise<string[]> {
    const { rows } = await this.client.query<{ name: string }>(
      `select name from ${this.table(CATALOG_MIGRATION_TABLE)} order by name`,
    );
    return rows.map((r) => r.name);
  }

  async counts(): Promise<Counts> {
    const [projects, sources, documents, chunks, syncRuns] = await Promise.all([
      this.number(`select count(*) as n from ${this.table('projects')}`),
      this.number(`select count(*) as n from ${this.table('sources')}`),
      this.number(`select count(*) as n from ${this.table('documents')}`),
      this.number(`select coalesce(sum(chunk_count), 0) as n from ${this.table('documents')}`),
      this.number(`select count(*) as n from ${this.table('sync_runs')}`),
    ]);
    return { projects, sources, documents, chunks, syncRuns };
  }

  async schedules(): Promise<{ sourceId: string; minutes: number }[]> {
    const { rows } = await this.client.query<{ id: string; minutes: number }>(
      `select id, sync_interval_minutes as minutes from ${this.table('sources')}
        where sync_interval_minutes > 0 and status = $1 order by id`,
      [SourceStatus.ACTIVE],
    );
    return rows.map((r) => ({ sourceId: r.id, minutes: r.minutes }));
  }

  /**
   * What is in flight: running syncs, documents being ingested, an index rebuild, a project or
   * source being deleted. A backup taken meanwhile may catch the catalog and the indices apart.
   */
  async activity(): Promise<string[]> {
    const found: string[] = [];
    const add = (n: number, what: string) => n > 0 && found.push(`${n} ${what}`);
    add(
      await this.number(`select count(*) as n from ${this.table('sync_runs')} where status = $1`, [
        SyncRunStatus.RUNNING,
      ]),
      'sync run(s) RUNNING',
    );
    add(
      await this.number(`select count(*) as n from ${this.table('documents')} where status = any($1)`, [
        [DocumentStatus.PENDING, DocumentStatus.INDEXING],
      ]),
      'document(s) PENDING or INDEXING',
    );
    add(
      await this.number(`select count(*) as n from ${this.table('index_generations')} where status = $1`, [
        IndexGenerationStatus.BUILDING,
      ]),
      'index rebuild(s) BUILDING',
    );
    add(
      await this.number(`select count(*) as n from ${this.table('projects')} where status = $1`, [
        ProjectStatus.DELETING,
      ]),
      'project(s) DELETING',
    );
    add(
      await this.number(`select count(*) as n from ${this.table('sources')} where status = $1`, [
        SourceStatus.REMOVING,
      ]),
      'source(s) REMOVING',
    );
    return found;
  }

  /** Changes to documents and runs leave a different fingerprint: compared before and after a backup. */
  async fingerprint(): Promise<string> {
    const { rows } = await this.client.query<{ d: string; u: Date | null; r: string; f: Date | null }>(
      `select (select count(*) from ${this.table('documents')}) as d,
              (select max(updated_at) from ${this.table('documents')}) as u,
              (select count(*) from ${this.table('sync_runs')}) as r,
              (select max(coalesce(finished_at, started_at)) from ${this.table('sync_runs')}) as f`,
    );
    const row = rows[0];
    return `${row.d}/${row.u?.toISOString() ?? '-'}/${row.r}/${row.f?.toISOString() ?? '-'}`;
  }

  /**
   * Runs that were RUNNING when the backup was taken have no workflow in this install: they are
   * ended as CANCELLED, so the next sync of their source is not refused as "already running".
   */
  async endInterruptedRuns(): Promise<number> {
    const result = await this.client.query(
      `update ${this.table('sync_runs')}
          set status = $1, finished_at = now(), error_code = $2,
              error_message = 'interrupted: the backup this install was restored from was taken while it ran'
        where status = $3`,
      [SyncRunStatus.FAILED, TroveErrorCode.Cancelled, SyncRunStatus.RUNNING],
    );
    return result.rowCount ?? 0;
  }
}
