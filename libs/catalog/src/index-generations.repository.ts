import {
  type EmbeddingSettings,
  IndexGenerationStatus,
  type IndexRebuildProgress,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import type { Selectable } from 'kysely';
import type { IndexGenerationRecords, NewIndexGeneration, StoredIndexGeneration } from './catalog.ports';
import type { CatalogDb } from './database';
import { pgCode, PgCode, query } from './database-error';
import type { IndexGenerationsTable } from './tables';
import { jsonb } from './postgres-text';

const LIVE = [IndexGenerationStatus.ACTIVE, IndexGenerationStatus.BUILDING];

function toGeneration(row: Selectable<IndexGenerationsTable>): StoredIndexGeneration {
  return {
    id: row.id,
    indexName: row.index_name,
    status: row.status as IndexGenerationStatus,
    embedding: row.embedding as unknown as EmbeddingSettings,
    hasApiKey: row.api_key_sealed !== null,
    ...(row.api_key_sealed ? { apiKeySealed: row.api_key_sealed } : {}),
    modelId: row.model_id,
    dimensions: row.dimensions,
    ...(row.workflow_id ? { workflowId: row.workflow_id } : {}),
    progress: row.progress as IndexRebuildProgress,
    ...(row.error ? { error: row.error } : {}),
    createdAt: row.created_at.toISOString(),
    ...(row.activated_at ? { activatedAt: row.activated_at.toISOString() } : {}),
    ...(row.finished_at ? { finishedAt: row.finished_at.toISOString() } : {}),
  };
}

/**
 * Generations of the chunk index. The database keeps the invariants (one ACTIVE, at most one
 * BUILDING: a partial unique index), so two api instances asking for a rebuild at once cannot
 * both start one.
 */
export class IndexGenerationRepository implements IndexGenerationRecords {
  constructor(private readonly db: CatalogDb) {}

  /** The ACTIVE and BUILDING generations (what is searched and what is written). */
  async live(): Promise<StoredIndexGeneration[]> {
    const rows = await query('reading index generations', () =>
      this.db.selectFrom('index_generations').selectAll().where('status', 'in', LIVE).orderBy('id').execute(),
    );
    return rows.map(toGeneration);
  }

  async get(id: number): Promise<StoredIndexGeneration | undefined> {
    const row = await query('reading an index generation', () =>
      this.db.selectFrom('index_generations').selectAll().where('id', '=', id).executeTakeFirst(),
    );
    return row ? toGeneration(row) : undefined;
  }

  /** The most recent generations first (history for the API). */
  async recent(limit = 10): Promise<StoredIndexGeneration[]> {
    const rows = await query('listing index generations', () =>
      this.db.selectFrom('index_generations').selectAll().orderBy('id', 'desc').limit(limit).execute(),
    );
    return rows.map(toGeneration);
  }

  /**
   * Records the first generation (the index the configuration has always used) as ACTIVE unless
   * one is; returns the ACTIVE generation either way. Safe to call from every process at start.
   */
  async bootstrap(first: NewIndexGeneration): Promise<StoredIndexGeneration> {
    await query('recording the first index generation', () =>
      this.db
        .insertInto('index_generations')
        .values({
          ...columns(first),
          status: IndexGenerationStatus.ACTIVE,
          activated_at: new Date().toISOString(),
        })
        .onConflict((c) => c.doNothing())
        .execute(),
    );
    const active = (await this.live()).find((g) => g.status === IndexGenerationStatus.ACTIVE);
    if (!active) throw new TroveError(TroveErrorCode.Internal, 'no ACTIVE index generation after bootstrap');
    return active;
  }

  /** A new BUILDING generation; INDEX_REBUILD_IN_PROGRESS when one is building already. */
  async startBuilding(next: NewIndexGeneration): Promise<StoredIndexGeneration> {
    try {
      const row = await this.db
        .insertInto('index_generations')
        .values({ ...columns(next), status: IndexGenerationStatus.BUILDING })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toGeneration(row);
    } catch (error) {
      if (pgCode(error) === PgCode.uniqueViolation) {
        const building = (await this.live()).find((g) => g.status === IndexGenerationStatus.BUILDING);
        throw new TroveError(
          TroveErrorCode.IndexRebuildInProgress,
          building
            ? `the index is already being rebuilt for ${building.modelId} (generation ${building.id}); wait for it or cancel it first`
            : `an index generation named ${next.indexName} exists already`,
          { permanent: true },
        );
      }
      return query('recording an index generation', () => Promise.reject(error));
    }
  }

  async setWorkflow(id: number, workflowId: string): Promise<void> {
    await query('recording a rebuild workflow', () =>
      this.db
        .updateTable('index_generations')
        .set({ workflow_id: workflowId })
        .where('id', '=', id)
        .execute(),
    );
  }

  async setProgress(id: number, progress: IndexRebuildProgress): Promise<void> {
    await query('recording rebuild progress', () =>
      this.db
        .updateTable('index_generations')
        .set({ progress: jsonb(progress) })
        .where('id', '=', id)
        .execute(),
    );
  }

  /**
   * Makes a BUILDING generation the ACTIVE one and retires the previous, in one transaction.
   * Returns the retired generation; fails when `id` is not BUILDING (cancelled meanwhile).
   */
  async activate(id: number): Promise<StoredIndexGeneration | undefined> {
    return query('activating an index generation', () =>
      this.db.transaction().execute(async (tx) => {
        const now = new Date().toISOString();
        const retired = await tx
          .updateTable('index_generations')
          .set({ status: IndexGenerationStatus.RETIRED, finished_at: now })
          .where('status', '=', IndexGenerationStatus.ACTIVE)
          .returningAll()
          .executeTakeFirst();
        const activated = await tx
          .updateTable('index_generations')
          .set({ status: IndexGenerationStatus.ACTIVE, activated_at: now })
          .where('id', '=', id)
          .where('status', '=', IndexGenerationStatus.BUILDING)
          .returning('id')
          .executeTakeFirst();
        if (!activated) {
          throw new TroveError(TroveErrorCode.Internal, `index generation ${id} is not BUILDING`, {
            permanent: true,
          });
        }
        return retired ? toGeneration(retired) : undefined;
      }),
    );
  }

  /** Ends a BUILDING generation as FAILED or CANCELLED; false when it was not BUILDING. */
  async finish(
    id: number,
    status: IndexGenerationStatus.FAILED | IndexGenerationStatus.CANCELLED,
    error?: string,
  ): Promise<boolean> {
    const updated = await query('ending an index rebuild', () =>
      this.db
        .updateTable('index_generations')
        .set({ status, error: error ?? null, finished_at: new Date().toISOString() })
        .where('id', '=', id)
        .where('status', '=', IndexGenerationStatus.BUILDING)
        .returning('id')
        .executeTakeFirst(),
    );
    return updated !== undefined;
  }
}

function columns(g: NewIndexGeneration) {
  return {
    index_name: g.indexName,
    embedding: jsonb(g.embedding),
    api_key_sealed: g.apiKeySealed ?? null,
    model_id: g.modelId,
    dimensions: g.dimensions,
  };
}
