import { type Kysely, sql } from 'kysely';

/**
 * The catalog: projects own sources and documents; sources own their documents and sync runs.
 * Deleting a project or source cascades to its records (chunks and files are removed by the
 * deletion workflow before that).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('ACTIVE'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // A deleting project frees its name at once.
  await db.schema
    .createIndex('projects_active_name_key')
    .on('projects')
    .column('name_key')
    .unique()
    .where(sql.ref('status'), '=', 'ACTIVE')
    .execute();
  await db.schema.createIndex('projects_created').on('projects').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('sources')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('scope', 'jsonb', (c) => c.notNull())
    .addColumn('encrypted_token', 'text')
    .addColumn('token_hint', 'text')
    .addColumn('webhook_token', 'text')
    .addColumn('webhook_verification_opened_at', 'timestamptz')
    .addColumn('watermark', 'text')
    .addColumn('last_sync_at', 'timestamptz')
    .addColumn('sync_interval_minutes', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sources_project')
    .on('sources')
    .columns(['project_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('source_id', 'text', (c) => c.references('sources.id').onDelete('cascade'))
    .addColumn('external_id', 'text')
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('content_hash', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('blob_key', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('title', 'text')
    .addColumn('language', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('chunk_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('timings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('url', 'text')
    .addColumn('breadcrumb', 'jsonb')
    .addColumn('external_edited_at', 'text')
    .addColumn('external_version', 'text')
    .addColumn('page_count', 'integer')
    .addColumn('warnings', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('indexed_at', 'timestamptz')
    .addCheckConstraint(
      'documents_source_item',
      sql`(source_id is null and external_id is null) or (source_id is not null and external_id is not null)`,
    )
    .execute();
  // Uploads: one document per file name in a project. Source items: one per item of a source.
  await db.schema
    .createIndex('documents_upload_name')
    .on('documents')
    .columns(['project_id', 'file_name'])
    .unique()
    .where(sql.ref('source_id'), 'is', null)
    .execute();
  await db.schema
    .createIndex('documents_source_item')
    .on('documents')
    .columns(['source_id', 'external_id'])
    .unique()
    .execute();
  // The lists the API serves, in creation order, filtered by status or source.
  await db.schema
    .createIndex('documents_project_created')
    .on('documents')
    .columns(['project_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('documents_project_status_created')
    .on('documents')
    .columns(['project_id', 'status', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('documents_source_created')
    .on('documents')
    .columns(['source_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('sync_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('source_id', 'text', (c) => c.notNull().references('sources.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('check_deletions', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('finished_at', 'timestamptz')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('pages_seen', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pages_ingested', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pages_unchanged', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pages_failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pages_deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pages_skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('api_calls', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('chunks_embedded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('chunks_reused', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('warnings', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
  await db.schema
    .createIndex('sync_runs_source_started')
    .on('sync_runs')
    .columns(['source_id', 'started_at desc', 'id desc'])
    .execute();
  await db.schema.createIndex('sync_runs_project').on('sync_runs').column('project_id').execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('source_id', 'text', (c) => c.notNull().references('sources.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('webhook_events_pk', ['source_id', 'event_id'])
    .execute();
  await db.schema.createIndex('webhook_events_received').on('webhook_events').column('received_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['webhook_events', 'sync_runs', 'documents', 'sources', 'projects']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
