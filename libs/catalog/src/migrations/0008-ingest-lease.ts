import type { Kysely } from 'kysely';

/**
 * Who is ingesting a document now, and until when: a sync's batch and a per-document ingest of
 * the same document (a webhook edit during a full sync) must never write its chunks at once.
 * A lease past its time is free, so a crashed worker never holds a document for good.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('documents')
    .addColumn('ingest_holder', 'text')
    .addColumn('ingest_lease_until', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('documents')
    .dropColumn('ingest_holder')
    .dropColumn('ingest_lease_until')
    .execute();
}
