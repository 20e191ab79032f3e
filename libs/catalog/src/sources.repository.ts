import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Source, SourceBase } from '@trove/domain';
import {
  isTroveId,
  notFoundError,
  sourceWithConfig,
  SourceStatus,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import type { CatalogDb } from './database';
import { pgCode, PgCode, query } from './database-error';
import type { SourcesTable } from './tables';
import { jsonb } from './postgres-text';
import type { ProjectSources, SourceChanges, SourceRecords, SourceRemovals } from './catalog.ports';

export class SourceRepository implements SourceRecords, ProjectSources, SourceRemovals {
  private readonly types?: ReadonlySet<string>;

  constructor(
    private readonly db: CatalogDb,
    /** The registered source types; unset: every stored type is read. */
    types?: readonly string[],
  ) {
    this.types = types && new Set(types);
  }

  async createSource(source: Source): Promise<Source> {
    try {
      await this.db.insertInto('sources').values(toRow(source)).execute();
    } catch (error) {
      if (pgCode(error) === PgCode.foreignKeyViolation) {
        throw new TroveError(TroveErrorCode.ProjectNotFound, `project ${source.projectId} does not exist`, {
          permanent: true,
        });
      }
      return query('creating a source', () => Promise.reject(error));
    }
    return source;
  }

  /** Inserts a source as it was (the one-time import); existing ids are left alone. */
  async import(source: Source): Promise<void> {
    await query('importing a source', () =>
      this.db
        .insertInto('sources')
        .values(toRow(source))
        .onConflict((c) => c.doNothing())
        .execute(),
    );
  }

  async getSource(id: string): Promise<Source | undefined> {
    if (!isTroveId(id)) return undefined;
    const row = await query('reading a source', () =>
      this.db.selectFrom('sources').selectAll().where('id', '=', id).executeTakeFirst(),
    );
    return row && toSource(row, this.types);
  }

  async requireSource(id: string): Promise<Source> {
    const source = await this.getSource(id);
    if (!source) throw notFoundError('source', id);
    return source;
  }

  /** A project's sources, oldest first (a project has few; no paging needed). */
  async listSources(projectId: string): Promise<Source[]> {
    const rows = await query('listing sources', () =>
      this.db
        .selectFrom('sources')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    );
    return rows.map((row) => toSource(row, this.types));
  }

  /**
   * Partial update; `null` clears a field. A missing source is ignored. A source being removed
   * stays REMOVING: an update that sets another status (a sync ending) leaves it alone.
   */
  async updateSource(id: string, changes: SourceChanges): Promise<void> {
    if (!isTroveId(id)) return;
    const keepRemoving = changes.status != null && changes.status !== SourceStatus.REMOVING;
    const set: Updateable<SourcesTable> = { updated_at: new Date().toISOString() };
    const c = changes;
    if (c.name != null) set.name = c.name;
    if (c.status != null) set.status = c.status;
    if (c.webhookToken !== undefined) set.webhook_token = c.webhookToken;
    if (c.webhookVerificationOpenedAt !== undefined)
      set.webhook_verification_opened_at = c.webhookVerificationOpenedAt;
    if (c.watermark !== undefined) set.watermark = c.watermark;
    if (c.lastSyncAt !== undefined) set.last_sync_at = c.lastSyncAt;
    if (c.syncIntervalMinutes !== undefined) set.sync_interval_minutes = c.syncIntervalMinutes;
    if (c.config !== undefined) set.config = jsonb(c.config);
    await query('updating a source', () =>
      this.db
        .updateTable('sources')
        .set(set)
        .where('id', '=', id)
        .$if(keepRemoving, (q) => q.where('status', '!=', SourceStatus.REMOVING))
        .execute(),
    );
  }

  /** Marks the source REMOVING (syncs, webhooks and changes are refused from then on). */
  async markSourceRemoving(id: string): Promise<Source | undefined> {
    const source = await this.getSource(id);
    if (!source) return undefined;
    await this.updateSource(id, { status: SourceStatus.REMOVING });
    return { ...source, status: SourceStatus.REMOVING };
  }

  /** Removes the source; its documents, runs and webhook event ids go with it (cascade). */
  async deleteSource(id: string): Promise<void> {
    if (!isTroveId(id)) return;
    await query('deleting a source', () => this.db.deleteFrom('sources').where('id', '=', id).execute());
  }
}

function toRow(source: Source): Insertable<SourcesTable> {
  return {
    id: source.id,
    project_id: source.projectId,
    type: source.type,
    name: source.name,
    status: source.status ?? SourceStatus.ACTIVE,
    config: jsonb(source.config),
    webhook_token: source.webhookToken ?? null,
    webhook_verification_opened_at: source.webhookVerificationOpenedAt ?? null,
    watermark: source.watermark ?? null,
    last_sync_at: source.lastSyncAt ?? null,
    sync_interval_minutes: source.syncIntervalMinutes ?? null,
    created_at: source.createdAt,
    updated_at: source.updatedAt ?? source.createdAt,
  };
}

function toSource(row: Selectable<SourcesTable>, types: ReadonlySet<string> | undefined): Source {
  // A type with no registered connector (written by a newer version, or a connector removed) is
  // an error, never another type.
  if (types && !types.has(row.type)) {
    throw new TroveError(
      TroveErrorCode.Internal,
      `source ${row.id} has type ${JSON.stringify(row.type)}, which has no registered source definition ` +
        `in this version of Trove (registered: ${[...types].join(', ')})`,
    );
  }
  const common: SourceBase = {
    id: row.id,
    projectId: row.project_id,
    name: row.name,
    status: row.status as SourceStatus,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  if (row.webhook_token !== null) common.webhookToken = row.webhook_token;
  if (row.webhook_verification_opened_at !== null) {
    common.webhookVerificationOpenedAt = row.webhook_verification_opened_at.toISOString();
  }
  if (row.watermark !== null) common.watermark = row.watermark;
  if (row.last_sync_at !== null) common.lastSyncAt = row.last_sync_at.toISOString();
  if (row.sync_interval_minutes !== null) common.syncIntervalMinutes = row.sync_interval_minutes;
  common.webhookDeliveries = {
    rejected: row.webhook_rejected_count,
    ...(row.webhook_last_event_at ? { lastEventAt: row.webhook_last_event_at.toISOString() } : {}),
    ...(row.webhook_last_event_type !== null ? { lastEventType: row.webhook_last_event_type } : {}),
  };
  // The configuration's shape is its type's definition's (checked when it was written).
  return sourceWithConfig({ ...common, type: row.type }, row.config ?? {});
}
