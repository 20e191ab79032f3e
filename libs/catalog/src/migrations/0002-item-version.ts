import { type Kysely, sql } from 'kysely';

/**
 * One version column for every kind of source item: Notion's edit time and a folder item's hash
 * were two columns for the same idea (what was fetched last; unchanged version, nothing to do).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update documents set external_version = external_edited_at
            where external_version is null and external_edited_at is not null`.execute(db);
  await db.schema.alterTable('documents').dropColumn('external_edited_at').execute();
  await db.schema.alterTable('documents').renameColumn('external_version', 'version').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('documents').renameColumn('version', 'external_version').execute();
  await db.schema.alterTable('documents').addColumn('external_edited_at', 'text').execute();
}
