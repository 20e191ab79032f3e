import { type Selectable, sql } from 'kysely';
import {
  type AuditEvent,
  type AuditFilter,
  type AuditActor,
  type NewAuditEvent,
  type QueryCount,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import { pageSize } from './cursor';
import type { CatalogDb } from './database';
import { query } from './database-error';
import type { AuditEventsTable, QueryCountsTable } from './tables';

/** A page of the audit log, newest first: `after` is the id of the last entry of the previous page. */
export interface AuditPage {
  items: AuditEvent[];
  totalCount: number;
  endCursor?: string;
  hasNextPage: boolean;
}

/**
 * The audit log: appended to, read and exported, never changed (a trigger refuses updates and
 * deletes); entries older than the retention are purged by `purgeBefore` alone.
 */
export class AuditRepository {
  constructor(private readonly db: CatalogDb) {}

  async append(event: NewAuditEvent): Promise<void> {
    await query('appending to the audit log', () =>
      this.db
        .insertInto('audit_events')
        .values({
          actor_kind: event.actor.kind,
          actor_id: event.actor.id,
          actor_name: event.actor.name,
          credential: event.actor.credential,
          credential_id: event.actor.credentialId,
          address: event.address,
          user_agent: event.userAgent,
          action: event.action,
          target_kind: event.target?.kind ?? null,
          target_id: event.target?.id ?? null,
          project_id: event.projectId,
          outcome: event.outcome,
          code: event.code,
          detail: event.detail === null ? null : JSON.stringify(event.detail),
        })
        .execute(),
    );
  }

  /** Entries matching the filter, newest first. */
  async page(filter: AuditFilter, request: { first?: number; after?: string }): Promise<AuditPage> {
    const size = pageSize(request.first);
    if (request.after !== undefined && !/^\d+$/.test(request.after)) {
      throw new TroveError(TroveErrorCode.BadRequest, 'the cursor is not one this API handed out');
    }
    return query('reading the audit log', async () => {
      const base = this.filtered(filter);
      let rows = base
        .selectAll()
        .orderBy('id', 'desc')
        .limit(size + 1);
      if (request.after !== undefined) rows = rows.where('id', '<', Number(request.after));
      const [found, count] = await Promise.all([
        rows.execute(),
        base.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
      ]);
      const page = found.slice(0, size).map(toEvent);
      return {
        items: page,
        totalCount: Number(count.count),
        endCursor: page.at(-1)?.id,
        hasNextPage: found.length > size,
      };
    });
  }

  /** Every matching entry, oldest first, a batch at a time (the JSON Lines export). */
  async *each(filter: AuditFilter, batch = 500): AsyncGenerator<AuditEvent> {
    let after = 0;
    for (;;) {
      const rows = await query('exporting the audit log', () =>
        this.filtered(filter).selectAll().where('id', '>', after).orderBy('id').limit(batch).execute(),
      );
      for (const row of rows) yield toEvent(row);
      if (rows.length < batch) return;
      after = Number(rows.at(-1)!.id);
    }
  }

  /** Removes entries older than `before` (the retention): the one delete the log allows. */
  async purgeBefore(before: Date): Promise<number> {
    return query('purging the audit log', () =>
      this.db.transaction().execute(async (tx) => {
        await sql`set local trove.audit_purge = 'on'`.execute(tx);
        const result = await tx.deleteFrom('audit_events').where('at', '<', before).executeTakeFirst();
        return Number(result.numDeletedRows);
      }),
    );
  }

  /** Counts a search or an ask of the actor in the project today. */
  async countQuery(actor: AuditActor, projectId: string, kind: 'search' | 'ask'): Promise<void> {
    const column = kind === 'search' ? 'searches' : 'asks';
    await query('counting a query', () =>
      this.db
        .insertInto('query_counts')
        .values({
          day: sql<string>`current_date` as unknown as string,
          actor_kind: actor.kind,
          actor_id: actor.id ?? '',
          actor_name: actor.name,
          project_id: projectId,
          [column]: 1,
        })
        .onConflict((oc) =>
          oc.columns(['day', 'actor_kind', 'actor_id', 'project_id']).doUpdateSet({
            [column]: sql<number>`query_counts.${sql.ref(column)} + 1`,
            actor_name: actor.name,
          }),
        )
        .execute(),
    );
  }

  /** Counts per actor and project and day, newest day first, from `from` (a date) on. */
  async queryCounts(
    filter: { projectId?: string; from?: string; to?: string },
    limit = 1000,
  ): Promise<QueryCount[]> {
    const rows = await query('reading query counts', () => {
      let rows = this.db.selectFrom('query_counts').selectAll();
      if (filter.projectId) rows = rows.where('project_id', '=', filter.projectId);
      if (filter.from) rows = rows.where('day', '>=', new Date(filter.from));
      if (filter.to) rows = rows.where('day', '<=', new Date(filter.to));
      return rows.orderBy('day', 'desc').orderBy('actor_name').limit(limit).execute();
    });
    return rows.map(toCount);
  }

  async purgeCountsBefore(before: Date): Promise<void> {
    await query('purging query counts', () =>
      this.db.deleteFrom('query_counts').where('day', '<', before).execute(),
    );
  }

  private filtered(filter: AuditFilter) {
    let rows = this.db.selectFrom('audit_events');
    if (filter.actorId) rows = rows.where('actor_id', '=', filter.actorId);
    if (filter.actorKind) rows = rows.where('actor_kind', '=', filter.actorKind);
    if (filter.action) rows = rows.where('action', '=', filter.action);
    if (filter.actionPrefix) {
      rows = rows.where('action', 'like', `${filter.actionPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    }
    if (filter.outcome) rows = rows.where('outcome', '=', filter.outcome);
    if (filter.projectId) rows = rows.where('project_id', '=', filter.projectId);
    if (filter.from) rows = rows.where('at', '>=', new Date(filter.from) as never);
    if (filter.to) rows = rows.where('at', '<', new Date(filter.to) as never);
    return rows;
  }
}

function toEvent(row: Selectable<AuditEventsTable>): AuditEvent {
  return {
    id: String(row.id),
    at: row.at.toISOString(),
    actor: {
      kind: row.actor_kind as AuditActor['kind'],
      id: row.actor_id,
      name: row.actor_name,
      credential: row.credential as AuditActor['credential'],
      credentialId: row.credential_id,
    },
    address: row.address,
    userAgent: row.user_agent,
    action: row.action as AuditEvent['action'],
    target:
      row.target_kind !== null && row.target_id !== null
        ? { kind: row.target_kind, id: row.target_id }
        : null,
    projectId: row.project_id,
    outcome: row.outcome as AuditEvent['outcome'],
    code: row.code,
    detail: row.detail,
  };
}

function toCount(row: Selectable<QueryCountsTable>): QueryCount {
  const day = new Date(row.day);
  return {
    day: `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`,
    actor: {
      kind: row.actor_kind as AuditActor['kind'],
      id: row.actor_id === '' ? null : row.actor_id,
      name: row.actor_name,
      credential: null,
      credentialId: null,
    },
    projectId: row.project_id,
    searches: row.searches,
    asks: row.asks,
  };
}
