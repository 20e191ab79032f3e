import type { Kysely } from 'kysely';

/** Search filters by date resolve to document ids through this index (project, last update). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('documents_project_updated')
    .on('documents')
    .columns(['project_id', 'updated_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('documents_project_updated').execute();
}
