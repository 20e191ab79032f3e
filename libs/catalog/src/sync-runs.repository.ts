import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { SyncRun } from '@trove/domain';
import {
  isTroveId,
  SyncMode,
  SyncRunStatus,
  type SyncStage,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import type { CatalogDb } from './database';
import { pgCode, PgCode, query } from './database-error';
import { decodeCursor, pageSize, toPage, type Page, type PageRequest } from './cursor';
import type { SyncRunsTable } from './tables';
import { jsonb } from './postgres-text';
import type { SyncRunChanges, SyncRunHistory, SyncRunRecords, SyncRunStats } from './catalog.ports';

export class SyncRunRepository implements SyncRunRecords, SyncRunHistory, SyncRunStats {
  constructor(private readonly db: CatalogDb) {}

  async createRun(run: SyncRun): Promise<SyncRun> {
    try {
      await this.db.insertInto('sync_runs').values(toRow(run)).execute();
    } catch (error) {
      if (pgCode(error) === PgCode.foreignKeyViolation) {
        throw new TroveError(TroveErrorCode.SourceNotFound, `source ${run.sourceId} does not exist`, {
          permanent: true,
        });
      }
      return query('creating a sync run', () => Promise.reject(error));
    }
    return run;
  }

  async import(run: SyncRun): Promise<void> {
    await query('importing a sync run', () =>
      this.db
        .insertInto('sync_runs')
        .values(toRow(run))
        .onConflict((c) => c.doNothing())
        .execute(),
    );
  }

  async getRun(id: string): Promise<SyncRun | undefined> {
    if (!isTroveId(id)) return undefined;
    const row = await query('reading a sync run', () =>
      this.db.selectFrom('sync_runs').selectAll().where('id', '=', id).executeTakeFirst(),
    );
    return row && toRun(row);
  }

  /** A page of a source's runs, newest first. */
  async pageRuns(sourceId: string, request: PageRequest = {}): Promise<Page<SyncRun>> {
    const size = pageSize(request.first);
    const base = this.db.selectFrom('sync_runs').where('source_id', '=', sourceId);
    let rows = base
      .selectAll()
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(size + 1);
    if (request.after) {
      const { at, id } = decodeCursor(request.after);
      rows = rows.where(sql<boolean>`(started_at, id) < (${at}::timestamptz, ${id})`);
    }
    const [items, count] = await query('listing sync runs', () =>
      Promise.all([
        rows.execute(),
        base.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
      ]),
    );
    return toPage(items, count, size, (row) => row.started_at, toRun);
  }

  /**
   * Each source's newest run, for listings: one index probe per source (a lateral join), however
   * many runs a source has piled up. Sources never synced are absent.
   */
  async latestRuns(sourceIds: readonly string[]): Promise<Map<string, SyncRun>> {
    const ids = sourceIds.filter(isTroveId);
    if (ids.length === 0) return new Map();
    const { rows } = await query('reading the latest sync runs', () =>
      sql<Selectable<SyncRunsTable>>`select r.* from unnest(${ids}::text[]) as s(id)
        cross join lateral (select * from sync_runs where source_id = s.id
          order by started_at desc, id desc limit 1) r`.execute(this.db),
    );
    return new Map(rows.map((row) => [row.source_id, toRun(row)]));
  }

  /** The source's runs still RUNNING. */
  async runningRuns(sourceId: string): Promise<SyncRun[]> {
    const rows = await query('listing running sync runs', () =>
      this.db
        .selectFrom('sync_runs')
        .selectAll()
        .where('source_id', '=', sourceId)
        .where('status', '=', SyncRunStatus.RUNNING)
        .execute(),
    );
    return rows.map(toRun);
  }

  /** Runs per status (every status present) and when the oldest RUNNING one started (metrics). */
  async runStats(): Promise<{ byState: Record<SyncRunStatus, number>; oldestRunningStartedAt?: Date }> {
    const [counts, oldest] = await query('counting sync runs', () =>
      Promise.all([
        this.db
          .selectFrom('sync_runs')
          .select(['status', (eb) => eb.fn.countAll<string>().as('count')])
          .groupBy('status')
          .execute(),
        this.db
          .selectFrom('sync_runs')
          .select((eb) => eb.fn.min('started_at').as('started'))
          .where('status', '=', SyncRunStatus.RUNNING)
          .executeTakeFirst(),
      ]),
    );
    const byState = Object.fromEntries(Object.values(SyncRunStatus).map((s) => [s, 0])) as Record<
      SyncRunStatus,
      number
    >;
    for (const row of counts)
      if (row.status in byState) byState[row.status as SyncRunStatus] = Number(row.count);
    const started = oldest?.started as Date | string | null | undefined;
    return { byState, ...(started ? { oldestRunningStartedAt: new Date(started) } : {}) };
  }

  /** The ids of every run of a project or source (to remove their scratch files). */
  async runIds(scope: { projectId: string } | { sourceId: string }): Promise<string[]> {
    let q = this.db.selectFrom('sync_runs').select('id');
    q =
      'projectId' in scope
        ? q.where('project_id', '=', scope.projectId)
        : q.where('source_id', '=', scope.sourceId);
    return (await query('listing sync run ids', () => q.execute())).map((r) => r.id);
  }

  async updateRun(id: string, changes: SyncRunChanges): Promise<void> {
    if (!isTroveId(id)) return;
    const set: Updateable<SyncRunsTable> = {};
    const c = changes;
    if (c.mode !== undefined) set.mode = c.mode;
    if (c.checkDeletions !== undefined) set.check_deletions = c.checkDeletions;
    if (c.status !== undefined) set.status = c.status;
    if (c.finishedAt !== undefined) set.finished_at = c.finishedAt;
    if (c.error !== undefined) {
      set.error_code = c.error?.code ?? null;
      set.error_message = c.error?.message ?? null;
    }
    if (c.progress !== undefined) Object.assign(set, progressColumns(c.progress));
    if (c.stage !== undefined) set.stage = c.stage;
    if (c.pagesPlanned !== undefined) set.pages_planned = c.pagesPlanned;
    if (c.recentProgress !== undefined) set.recent_progress = jsonb(c.recentProgress);
    // Any write of progress or stage is movement: a stall is measured from the last one.
    if (c.progress !== undefined || c.stage !== undefined) set.progress_at = new Date().toISOString();
    if (c.skipped !== undefined) set.skipped = jsonb(c.skipped);
    if (c.warnings !== undefined) set.warnings = jsonb(c.warnings);
    if (Object.keys(set).length === 0) return;
    await query('updating a sync run', () =>
      this.db.updateTable('sync_runs').set(set).where('id', '=', id).execute(),
    );
  }
}

function progressColumns(progress: SyncRun['progress']) {
  return {
    pages_seen: progress.pagesSeen,
    pages_ingested: progress.pagesIngested,
    pages_unchanged: progress.pagesUnchanged,
    pages_failed: progress.pagesFailed,
    pages_deleted: progress.pagesDeleted,
    pages_skipped: progress.pagesSkipped,
    api_calls: progress.apiCalls,
    chunks_embedded: progress.chunksEmbedded,
    chunks_reused: progress.chunksReused,
  };
}

function toRow(run: SyncRun): Insertable<SyncRunsTable> {
  return {
    id: run.id,
    source_id: run.sourceId,
    project_id: run.projectId,
    mode: run.mode,
    check_deletions: run.checkDeletions ?? false,
    status: run.status,
    started_at: run.startedAt,
    finished_at: run.finishedAt ?? null,
    error_code: run.error?.code ?? null,
    error_message: run.error?.message ?? null,
    ...progressColumns(run.progress),
    skipped: jsonb(run.skipped ?? []),
    warnings: jsonb(run.warnings ?? []),
    stage: run.stage ?? null,
    pages_planned: run.pagesPlanned ?? null,
    progress_at: run.progressAt ?? null,
    recent_progress: run.recentProgress ? jsonb(run.recentProgress) : null,
  };
}

function toRun(row: Selectable<SyncRunsTable>): SyncRun {
  const run: SyncRun = {
    id: row.id,
    sourceId: row.source_id,
    projectId: row.project_id,
    mode: row.mode as SyncMode,
    status: row.status as SyncRunStatus,
    startedAt: row.started_at.toISOString(),
    progress: {
      pagesSeen: row.pages_seen,
      pagesIngested: row.pages_ingested,
      pagesUnchanged: row.pages_unchanged,
      pagesFailed: row.pages_failed,
      pagesDeleted: row.pages_deleted,
      pagesSkipped: row.pages_skipped,
      apiCalls: row.api_calls,
      chunksEmbedded: row.chunks_embedded,
      chunksReused: row.chunks_reused,
    },
    skipped: row.skipped ?? [],
  };
  if (row.check_deletions) run.checkDeletions = true;
  if (row.finished_at !== null) run.finishedAt = row.finished_at.toISOString();
  if (row.error_code !== null) run.error = { code: row.error_code, message: row.error_message ?? '' };
  if (row.warnings && row.warnings.length > 0) run.warnings = row.warnings;
  if (row.stage !== null) run.stage = row.stage as SyncStage;
  if (row.pages_planned !== null) run.pagesPlanned = row.pages_planned;
  if (row.progress_at !== null) run.progressAt = row.progress_at.toISOString();
  if (row.recent_progress && row.recent_progress.length > 0) run.recentProgress = row.recent_progress;
  return run;
}
