import type { Kysely } from 'kysely';

/**
 * What a running sync shows besides its counters: its stage, the pages its plan holds, when its
 * progress last moved (how a stall is noticed) and a few recent samples (its current rate).
 * Runs recorded before have none of them. `if not exists`: applying it twice changes nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sync_runs')
    .addColumn('stage', 'text', (c) => c.ifNotExists())
    .addColumn('pages_planned', 'integer', (c) => c.ifNotExists())
    .addColumn('progress_at', 'timestamptz', (c) => c.ifNotExists())
    .addColumn('recent_progress', 'jsonb', (c) => c.ifNotExists())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sync_runs')
    .dropColumn('stage')
    .dropColumn('pages_planned')
    .dropColumn('progress_at')
    .dropColumn('recent_progress')
    .execute();
}
