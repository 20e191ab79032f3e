import { type Kysely, sql } from 'kysely';

/**
 * People, not only keys: users (a provider's issuer and subject, or an email until their first
 * sign-in), groups (a provider's, filled from the groups claim, or local), project roles given to
 * a user or a group, server-side browser sessions, personal access tokens, sign-ins under way, an
 * append-only audit log and per-person query counts. Threads, answers and votes gain the user
 * who made them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('provider', 'text')
    .addColumn('issuer', 'text')
    .addColumn('subject', 'text')
    .addColumn('email', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('picture_url', 'text')
    // Null: no install-wide role (only what project grants give).
    .addColumn('role', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('ACTIVE'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz')
    .addColumn('deactivated_at', 'timestamptz')
    .addCheckConstraint('users_status', sql`status in ('ACTIVE', 'DEACTIVATED')`)
    .addCheckConstraint('users_identity', sql`(issuer is null) = (subject is null)`)
    .execute();
  await sql`create unique index users_issuer_subject on users (issuer, subject) where subject is not null`.execute(
    db,
  );
  // A person made ahead of their first sign-in is found by email then.
  await sql`create unique index users_pending_email on users (lower(email)) where subject is null`.execute(
    db,
  );

  await db.schema
    .createTable('groups')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    // Null: a local group; else the provider whose groups claim names it.
    .addColumn('provider', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index groups_provider_name on groups (coalesce(provider, ''), name)`.execute(db);

  await db.schema
    .createTable('group_members')
    .addColumn('group_id', 'uuid', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('added_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'user_id'])
    .execute();
  await db.schema.createIndex('group_members_user').on('group_members').column('user_id').execute();

  await db.schema
    .createTable('project_grants')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('group_id', 'uuid', (c) => c.references('groups.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('project_grants_one_grantee', sql`(user_id is null) <> (group_id is null)`)
    .addCheckConstraint('project_grants_role', sql`role in ('ADMIN', 'EDITOR', 'VIEWER')`)
    .execute();
  await sql`create unique index project_grants_user on project_grants (project_id, user_id) where user_id is not null`.execute(
    db,
  );
  await sql`create unique index project_grants_group on project_grants (project_id, group_id) where group_id is not null`.execute(
    db,
  );
  await db.schema.createIndex('project_grants_by_user').on('project_grants').column('user_id').execute();
  await db.schema.createIndex('project_grants_by_group').on('project_grants').column('group_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('secret_sha256', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revalidate_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('refresh_token_sealed', 'text')
    .addColumn('id_token_sealed', 'text')
    .addColumn('address', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('personal_tokens')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_sha256', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz')
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('personal_tokens_user').on('personal_tokens').column('user_id').execute();

  await db.schema
    .createTable('login_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('return_to', 'text', (c) => c.notNull())
    .addColumn('binding_sha256', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('consumed_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('login_transactions_created')
    .on('login_transactions')
    .column('created_at')
    .execute();

  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`clock_timestamp()`))
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('credential', 'text')
    .addColumn('credential_id', 'text')
    .addColumn('address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_kind', 'text')
    .addColumn('target_id', 'text')
    .addColumn('project_id', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('code', 'text')
    .addColumn('detail', 'jsonb')
    .execute();
  await db.schema.createIndex('audit_events_at').on('audit_events').columns(['at', 'id']).execute();
  await db.schema.createIndex('audit_events_actor').on('audit_events').columns(['actor_id', 'id']).execute();
  await db.schema.createIndex('audit_events_action').on('audit_events').columns(['action', 'id']).execute();
  await db.schema
    .createIndex('audit_events_project')
    .on('audit_events')
    .columns(['project_id', 'id'])
    .execute();
  // Append-only: no entry is ever changed, and entries are removed only by the retention purge,
  // which says so for its own transaction (`set local trove.audit_purge = 'on'`).
  await sql`
    create or replace function audit_events_append_only() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' and coalesce(current_setting('trove.audit_purge', true), '') = 'on' then
        return old;
      end if;
      raise exception 'the audit log is append-only (% refused)', tg_op using errcode = 'insufficient_privilege';
    end $$`.execute(db);
  await sql`
    create trigger audit_events_append_only before update or delete on audit_events
    for each row execute function audit_events_append_only()`.execute(db);
  await sql`
    create trigger audit_events_no_truncate before truncate on audit_events
    for each statement execute function audit_events_append_only()`.execute(db);

  await db.schema
    .createTable('query_counts')
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    // '' for the bootstrap admin key (a primary key has no nulls).
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('searches', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('asks', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('query_counts_pk', ['day', 'actor_kind', 'actor_id', 'project_id'])
    .execute();

  // What people make belongs to them, whichever session or token they used.
  await db.schema.alterTable('threads').addColumn('user_id', 'text').execute();
  await db.schema.alterTable('answers').addColumn('user_id', 'text').execute();
  await db.schema.alterTable('feedback').addColumn('user_id', 'text').execute();
  await sql`drop index if exists feedback_one_vote`.execute(db);
  await sql`create unique index feedback_one_vote on feedback
    (answer_id, (coalesce(user_id, '')), (coalesce(api_key_id, '')), target, (coalesce(chunk_id, '')))`.execute(
    db,
  );
  await sql`create index threads_project_user_updated on threads (project_id, user_id, updated_at, id)
    where user_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists threads_project_user_updated`.execute(db);
  await sql`drop index if exists feedback_one_vote`.execute(db);
  await sql`delete from feedback where user_id is not null`.execute(db);
  await sql`create unique index feedback_one_vote on feedback
    (answer_id, (coalesce(api_key_id, '')), target, (coalesce(chunk_id, '')))`.execute(db);
  await db.schema.alterTable('feedback').dropColumn('user_id').execute();
  await db.schema.alterTable('answers').dropColumn('user_id').execute();
  await db.schema.alterTable('threads').dropColumn('user_id').execute();
  for (const table of [
    'query_counts',
    'audit_events',
    'login_transactions',
    'personal_tokens',
    'sessions',
    'project_grants',
    'group_members',
    'groups',
    'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await sql`drop function if exists audit_events_append_only()`.execute(db);
}
