import { type Kysely, sql } from 'kysely';

/**
 * Feedback on answers: a vote (+1 or −1, with an optional comment) on a recorded answer or on one
 * of its passages. One vote per (answer, key, target, passage): voting again replaces the vote
 * (the unique index treats the bootstrap admin key's null key id, and an answer vote's null
 * passage, as values). Votes go with their answer, and with it with their project.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('feedback')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('answer_id', 'text', (c) => c.notNull().references('answers.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    // Null: the bootstrap admin key from configuration.
    .addColumn('api_key_id', 'text')
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('chunk_id', 'text')
    .addColumn('vote', 'smallint', (c) => c.notNull())
    .addColumn('comment', 'text')
    // When the key first voted, and when it last changed its vote (the export's order is the first).
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('feedback_target', sql`target in ('answer', 'passage')`)
    .addCheckConstraint('feedback_passage_chunk', sql`(target = 'passage') = (chunk_id is not null)`)
    .addCheckConstraint('feedback_vote', sql`vote in (1, -1)`)
    .addCheckConstraint('feedback_comment_length', sql`char_length(comment) <= 2000`)
    .execute();
  await sql`create unique index if not exists feedback_one_vote on feedback
    (answer_id, (coalesce(api_key_id, '')), target, (coalesce(chunk_id, '')))`.execute(db);
  // The export pages a project's votes oldest first; content gaps join them by answer.
  await db.schema
    .createIndex('feedback_project_created')
    .ifNotExists()
    .on('feedback')
    .columns(['project_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('feedback').ifExists().execute();
}
