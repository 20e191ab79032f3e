import { type Kysely, sql } from 'kysely';

/**
 * Generations of the chunk index: each is one Elasticsearch index built with one
 * embedding model. One is ACTIVE (searched, behind the alias); while a model change is rebuilt,
 * one more is BUILDING (written alongside the active one, swapped in when complete).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('index_generations')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('index_name', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    // Provider, base URL, profile, model, batch size, timeout: everything but the key.
    .addColumn('embedding', 'jsonb', (c) => c.notNull())
    // The embedding API key, sealed with TROVE_SECRET_KEY; null when the model needs none.
    .addColumn('api_key_sealed', 'text')
    .addColumn('model_id', 'text', (c) => c.notNull())
    .addColumn('dimensions', 'integer', (c) => c.notNull())
    .addColumn('workflow_id', 'text')
    .addColumn('progress', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('activated_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .execute();
  // At most one ACTIVE and one BUILDING generation, enforced by the database.
  await sql`create unique index index_generations_one_active on index_generations ((status)) where status in ('ACTIVE', 'BUILDING')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('index_generations').execute();
}
