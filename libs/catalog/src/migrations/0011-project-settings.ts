import { sql, type Kysely } from 'kysely';

/**
 * Per-project settings (`{ ocr: false }` switches OCR off for the project's documents). Projects
 * created before have none: every setting at its default. `if not exists`: applying it twice
 * changes nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('settings', 'jsonb', (c) =>
      c
        .ifNotExists()
        .notNull()
        .defaultTo(sql`'{}'::jsonb`),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('settings').execute();
}
