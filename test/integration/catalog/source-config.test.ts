import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openCatalog, type CatalogRepositories, migrateCatalog, openCatalogDb } from '@trove/catalog';
import { maskSecret, SecretBox } from '@trove/config';
import { sourceWithConfig, SourceStatus } from '@trove/domain';
import { createSourceDefinitions, registeredSourceTypes } from '@trove/source-definitions';
import { FOLDER_SOURCE_TYPE } from '@trove/connector-folder';
import { GIT_SOURCE_TYPE } from '@trove/connector-git';
import { NOTION_SOURCE_TYPE, type NotionSource } from '@trove/connector-notion';
import { DATABASE_URL, dropTestData, schemaName, TEST_SECRET_KEY, uniqueName } from '../../support/services';

/**
 * A source's configuration is one JSON value its type's definition shapes, secrets sealed: the
 * migration moves existing rows there (Notion's token included, not re-encrypted), and a
 * configuration made by the definitions round-trips through the catalog.
 */
const box = new SecretBox(TEST_SECRET_KEY);
const seal = (plain: string) => ({ sealed: box.encrypt(plain), hint: maskSecret(plain) });
const names: string[] = [];
const catalogs: CatalogRepositories[] = [];
const settings = { folders: { roots: [], cacheDir: '/nonexistent' } };
/** The registry's types but Git's: a version of Trove without the Git connector. */
const withoutGit = registeredSourceTypes(settings).filter((type) => type !== GIT_SOURCE_TYPE);

function fresh(label: string, sourceTypes: readonly string[] = registeredSourceTypes(settings)) {
  const name = uniqueName(label);
  names.push(name);
  const catalog = openCatalog({ url: DATABASE_URL, schema: schemaName(name), sourceTypes });
  catalogs.push(catalog);
  return { name, schema: schemaName(name), catalog };
}

afterAll(async () => {
  for (const catalog of catalogs) await catalog.lifecycle.close();
  for (const name of names) await dropTestData(name);
});

describe('0010 moves each source configuration into one JSON column', () => {
  it('keeps every type’s settings and the sealed Notion token, and refuses a type it does not know', async () => {
    const { schema, catalog } = fresh('source-config-0010');
    const db = openCatalogDb({ url: DATABASE_URL, schema });
    const token = `ntn_${'z'.repeat(46)}`;
    const sealedToken = box.encrypt(token);
    try {
      await sql`create schema ${sql.id(schema)}`.execute(db);
      await migrateCatalog(db, schema, '0009-sync-run-stage');
      const now = new Date().toISOString();
      await sql`insert into projects (id, name, name_key, status, created_at)
                values ('p', 'P', 'p', 'ACTIVE', ${now})`.execute(db);
      const source = (id: string, type: string, scope: unknown, tokenColumns?: [string, string]) =>
        sql`insert into sources (id, project_id, type, name, status, scope, encrypted_token, token_hint,
              webhook_token, created_at, updated_at)
            values (${id}, 'p', ${type}, ${id}, 'ACTIVE', ${JSON.stringify(scope)}, ${tokenColumns?.[0] ?? null},
              ${tokenColumns?.[1] ?? null}, ${type === 'NOTION' ? 'sealed-webhook' : null}, ${now}, ${now})`.execute(
          db,
        );
      const ids = { notion: randomUUID(), folder: randomUUID(), web: randomUUID(), gopher: randomUUID() };
      await source(
        ids.notion,
        'NOTION',
        { notion: { everything: false, rootPageIds: ['r1'], rootDatabaseIds: ['d1'] } },
        [sealedToken, maskSecret(token)],
      );
      await source(ids.folder, 'FOLDER', {
        folder: {
          format: 'MKDOCS',
          archiveBlobKey: 'archives/x/h',
          archiveHash: 'h',
          archiveFileName: 'site.zip',
        },
      });
      await source(ids.web, 'WEB', { web: { url: 'https://docs.example.test/', maxPages: 50 } });
      await source(ids.gopher, 'GOPHER', { gopher: { hole: 'deep' } });

      // 0010 first, then any later migration.
      expect((await catalog.lifecycle.ensure()).migrations[0]).toBe('0010-source-config');

      const notion = (await catalog.sources.requireSource(ids.notion)) as NotionSource;
      expect(notion).toMatchObject({
        type: NOTION_SOURCE_TYPE,
        webhookToken: 'sealed-webhook',
        config: {
          everything: false,
          rootPageIds: ['r1'],
          rootDatabaseIds: ['d1'],
          token: { sealed: sealedToken, hint: maskSecret(token) },
        },
      });
      expect(box.decrypt(notion.config.token.sealed)).toBe(token);
      expect(await catalog.sources.requireSource(ids.folder)).toMatchObject({
        type: FOLDER_SOURCE_TYPE,
        config: { format: 'MKDOCS', archiveBlobKey: 'archives/x/h', archiveFileName: 'site.zip' },
      });
      expect((await catalog.sources.requireSource(ids.web)).config).toEqual({
        url: 'https://docs.example.test/',
        maxPages: 50,
      });
      // Never read as another type: an error that names the type.
      await expect(catalog.sources.getSource(ids.gopher)).rejects.toMatchObject({
        code: 'INTERNAL',
        message: expect.stringContaining('"GOPHER", which has no registered source definition'),
      });
      const columns = await sql<{ column_name: string }>`
        select column_name from information_schema.columns
        where table_schema = ${schema} and table_name = 'sources'`.execute(db);
      const names = columns.rows.map((r) => r.column_name);
      expect(names).toContain('config');
      expect(names).not.toContain('scope');
      expect(names).not.toContain('encrypted_token');
    } finally {
      await db.destroy();
    }
  });
});

describe('a configuration made by the source definitions', () => {
  it('round-trips through the catalog, secrets sealed, and an update keeps what it leaves out', async () => {
    const { catalog } = fresh('source-config-roundtrip');
    await catalog.lifecycle.ensure();
    const project = await catalog.projects.createProject('round trip');
    const definitions = createSourceDefinitions(settings, {});
    const token = `secret_${'q'.repeat(43)}`;
    const config = await definitions.configure(
      NOTION_SOURCE_TYPE,
      { token, rootPageIds: ['0123456789abcdef0123456789abcdef'] },
      seal,
    );
    const now = new Date().toISOString();
    const created = await catalog.sources.createSource(
      sourceWithConfig(
        {
          id: randomUUID(),
          projectId: project.id,
          type: NOTION_SOURCE_TYPE,
          name: 'wiki',
          status: SourceStatus.ACTIVE,
          createdAt: now,
          updatedAt: now,
        },
        config,
      ),
    );

    const read = (await catalog.sources.requireSource(created.id)) as NotionSource;
    expect(read.config).toMatchObject({
      everything: false,
      rootPageIds: ['01234567-89ab-cdef-0123-456789abcdef'],
      rootDatabaseIds: [],
      token: { hint: maskSecret(token) },
    });
    // Sealed in the database: the plain token is nowhere in the row.
    const row = await sql<{ config: unknown }>`select config from sources where id = ${created.id}`.execute(
      catalog.lifecycle.db,
    );
    expect(JSON.stringify(row.rows[0].config)).not.toContain(token);
    expect(box.decrypt(read.config.token.sealed)).toBe(token);
    expect(definitions.publicConfig(NOTION_SOURCE_TYPE, read.config)).not.toHaveProperty('token');

    const changed = await definitions.configure(NOTION_SOURCE_TYPE, { rootPageIds: [] }, seal, read.config);
    await catalog.sources.updateSource(created.id, { config: changed });
    const updated = (await catalog.sources.requireSource(created.id)) as NotionSource;
    expect(updated.config).toMatchObject({ everything: true, rootPageIds: [], token: read.config.token });
  });
});

describe('source types the registry adds', () => {
  it('reads a GIT source where the registry lists GIT, refuses it where it does not, and reads it unchecked where no registry is given', async () => {
    const { name, catalog: gitless } = fresh('source-config-open-types', withoutGit);
    await gitless.lifecycle.ensure();
    const registered = openCatalog({
      url: DATABASE_URL,
      schema: schemaName(name),
      sourceTypes: registeredSourceTypes(settings),
    });
    catalogs.push(registered);
    const project = await registered.projects.createProject('git docs');
    // No DNS lookup of the remote's host in a test.
    const config = await createSourceDefinitions(settings, {
      TROVE_GIT_ALLOW_PRIVATE_NETWORKS: 'true',
    }).configure(GIT_SOURCE_TYPE, { url: 'https://github.com/o/r.git', token: 'ghp_round_trip_token' }, seal);
    const now = new Date().toISOString();
    const common = {
      projectId: project.id,
      type: GIT_SOURCE_TYPE,
      name: 'repo',
      status: SourceStatus.ACTIVE,
    };
    const created = await registered.sources.createSource(
      sourceWithConfig({ id: randomUUID(), ...common, createdAt: now, updatedAt: now }, config),
    );
    expect((await registered.sources.requireSource(created.id)).config).toMatchObject({
      url: 'https://github.com/o/r.git',
      token: { hint: maskSecret('ghp_round_trip_token') },
    });
    await expect(gitless.sources.getSource(created.id)).rejects.toMatchObject({
      code: 'INTERNAL',
      message: expect.stringContaining('"GIT", which has no registered source definition'),
    });
    const unchecked = openCatalog({ url: DATABASE_URL, schema: schemaName(name) });
    catalogs.push(unchecked);
    expect(await unchecked.sources.requireSource(created.id)).toMatchObject({ type: GIT_SOURCE_TYPE });
  });
});
