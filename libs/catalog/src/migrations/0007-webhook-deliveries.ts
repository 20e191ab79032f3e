import { type Kysely, sql } from 'kysely';

/**
 * What a source's Notion webhook has received (the dashboard's webhook panel): the last
 * accepted event's time and type, and how many deliveries were refused. Neither a payload nor a
 * signature is kept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sources')
    .addColumn('webhook_last_event_at', 'timestamptz')
    .addColumn('webhook_last_event_type', 'text')
    .addColumn('webhook_rejected_count', 'integer', (c) => c.notNull().defaultTo(sql`0`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sources')
    .dropColumn('webhook_last_event_at')
    .dropColumn('webhook_last_event_type')
    .dropColumn('webhook_rejected_count')
    .execute();
}
