import { type Kysely, sql } from 'kysely';

/**
 * A source's configuration as one JSON value whose shape its type's definition owns, secrets
 * included (sealed). Before, the configuration sat under a key named for the type in `scope`
 * (`{"notion": {…}}`) and Notion's token had columns of its own: both move into `config`, the
 * token as `{"sealed": <the same ciphertext>, "hint": <the same mask>}` (nothing is re-encrypted).
 * Applying it to a schema that has it already changes nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sources')
    .addColumn('config', 'jsonb', (c) =>
      c
        .notNull()
        .defaultTo(sql`'{}'::jsonb`)
        .ifNotExists(),
    )
    .execute();
  await sql`
    do $$
    begin
      if exists (
        select 1 from information_schema.columns
        where table_schema = current_schema() and table_name = 'sources' and column_name = 'scope'
      ) then
        update sources set config =
          coalesce(scope -> lower(type), '{}'::jsonb)
          || case when encrypted_token is null then '{}'::jsonb
             else jsonb_build_object('token',
               jsonb_build_object('sealed', encrypted_token, 'hint', coalesce(token_hint, '(set)')))
             end;
        alter table sources drop column scope, drop column encrypted_token, drop column token_hint;
      end if;
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sources')
    .addColumn('scope', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('encrypted_token', 'text')
    .addColumn('token_hint', 'text')
    .execute();
  await sql`
    update sources set
      scope = jsonb_build_object(lower(type), config - 'token'),
      encrypted_token = config -> 'token' ->> 'sealed',
      token_hint = config -> 'token' ->> 'hint'`.execute(db);
  await db.schema.alterTable('sources').dropColumn('config').execute();
}
