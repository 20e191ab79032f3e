import { type Kysely, sql } from 'kysely';

/**
 * Threads and answers keep their times to the millisecond, as their page cursors do: with
 * PostgreSQL's microseconds, two rows of one millisecond compared unequal to the cursor's time and
 * one of them could fall between two pages. New rows get millisecond defaults (and the repository
 * writes `updated_at` the same way); rows written before are truncated once. Applying it twice
 * changes nothing.
 */
const COLUMNS = [
  ['threads', 'created_at'],
  ['threads', 'updated_at'],
  ['answers', 'created_at'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, column] of COLUMNS) {
    await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} set default date_trunc('milliseconds', now())`.execute(
      db,
    );
    await sql`update ${sql.table(table)} set ${sql.ref(column)} = date_trunc('milliseconds', ${sql.ref(column)})
      where ${sql.ref(column)} <> date_trunc('milliseconds', ${sql.ref(column)})`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [table, column] of COLUMNS)
    await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} set default now()`.execute(db);
}
