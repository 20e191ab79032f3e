import { type Kysely, sql } from 'kysely';

/**
 * Answers and conversations: every answer `ask` gave (the question, the rewritten
 * standalone question of a follow-up, the answer, its citations and the passages it was built on
 * with their reranker features), and threads that group a key's turns. Both go with their project;
 * a thread's turns go with the thread. Kept for TROVE_ANSWER_RETENTION_DAYS.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('threads')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    // Null: the bootstrap admin key from configuration.
    .addColumn('api_key_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // A key's threads of a project, most recently used first.
  await db.schema
    .createIndex('threads_project_key_updated')
    .ifNotExists()
    .on('threads')
    .columns(['project_id', 'api_key_id', 'updated_at', 'id'])
    .execute();
  await db.schema.createIndex('threads_updated').ifNotExists().on('threads').column('updated_at').execute();

  await db.schema
    .createTable('answers')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('thread_id', 'text', (c) => c.references('threads.id').onDelete('cascade'))
    .addColumn('position', 'integer')
    .addColumn('api_key_id', 'text')
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('standalone_question', 'text')
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('citations', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('hits', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('answers_thread_position', sql`(thread_id is null) = (position is null)`)
    .execute();
  await db.schema
    .createIndex('answers_project_created')
    .ifNotExists()
    .on('answers')
    .columns(['project_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('answers_thread_position')
    .ifNotExists()
    .on('answers')
    .columns(['thread_id', 'position'])
    .unique()
    .execute();
  await db.schema.createIndex('answers_created').ifNotExists().on('answers').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('answers').ifExists().execute();
  await db.schema.dropTable('threads').ifExists().execute();
}
