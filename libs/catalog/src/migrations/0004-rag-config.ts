import { type Kysely, sql } from 'kysely';

/**
 * Retrieval and answer settings changed through the API: one row of overrides over the
 * environment's values, secrets sealed apart, and a version for optimistic concurrency and for
 * processes to notice a change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rag_config')
    .addColumn('id', 'smallint', (c) =>
      c
        .primaryKey()
        .defaultTo(1)
        .check(sql`id = 1`),
    )
    .addColumn('overrides', 'jsonb', (c) => c.notNull())
    // Setting path (e.g. llm.apiKey) → value sealed with TROVE_SECRET_KEY.
    .addColumn('secrets', 'jsonb', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rag_config').execute();
}
