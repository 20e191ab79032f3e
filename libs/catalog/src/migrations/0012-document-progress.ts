import type { Kysely } from 'kysely';

/**
 * Where a long ingest stands while the document is INDEXING (a scan read by OCR page by page).
 * `if not exists`: applying it twice changes nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('documents')
    .addColumn('progress', 'jsonb', (c) => c.ifNotExists())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('documents').dropColumn('progress').execute();
}
