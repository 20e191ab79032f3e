import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog, type CatalogRepositories } from '@trove/catalog';
import { ApiKeyRole } from '@trove/domain';
import { DATABASE_URL, dropTestData, schemaName, uniqueName } from '../../support/services';

// The API key table against the real PostgreSQL, in a schema of its own.
const name = uniqueName('apikeys');
let catalog: CatalogRepositories;

const sha = (text: string) => createHash('sha256').update(text).digest();

beforeAll(async () => {
  catalog = openCatalog({ url: DATABASE_URL, schema: schemaName(name) });
  await catalog.lifecycle.ensure();
});
afterAll(async () => {
  await catalog.lifecycle.close();
  await dropTestData(name);
});

describe('API keys in the catalog', () => {
  it('stores role, scope, creator and the secret hash, lists newest first, never loses the hash bytes', async () => {
    const project = randomUUID();
    const first = await catalog.apiKeys.create({
      id: randomUUID(),
      name: 'ci reader',
      role: ApiKeyRole.VIEWER,
      projectIds: [project],
      secretSha256: sha('one'),
      createdBy: 'bootstrap',
    });
    const second = await catalog.apiKeys.create({
      id: randomUUID(),
      name: 'admin two',
      role: ApiKeyRole.ADMIN,
      projectIds: null,
      secretSha256: sha('two'),
      createdBy: 'ci reader',
    });
    const stored = await catalog.apiKeys.get(first.id);
    expect(stored).toMatchObject({
      name: 'ci reader',
      role: 'VIEWER',
      projectIds: [project],
      createdBy: 'bootstrap',
    });
    expect(stored!.secretSha256.equals(sha('one'))).toBe(true);
    expect(stored!.lastUsedAt).toBeUndefined();
    expect(stored!.revokedAt).toBeUndefined();
    const listed = (await catalog.apiKeys.list()).map((k) => k.id);
    expect(listed.indexOf(second.id)).toBeLessThan(listed.indexOf(first.id));
    expect(await catalog.apiKeys.get('not-an-id')).toBeUndefined();
  });

  it('records a use at most once a minute per key', async () => {
    const key = await catalog.apiKeys.create({
      id: randomUUID(),
      name: 'busy',
      role: ApiKeyRole.EDITOR,
      projectIds: null,
      secretSha256: sha('busy'),
      createdBy: 'bootstrap',
    });
    const t0 = new Date('2026-01-01T10:00:00Z');
    expect(await catalog.apiKeys.touch(key.id, t0)).toBe(true);
    expect(await catalog.apiKeys.touch(key.id, new Date(t0.getTime() + 30_000))).toBe(false);
    expect((await catalog.apiKeys.get(key.id))!.lastUsedAt).toBe(t0.toISOString());
    const later = new Date(t0.getTime() + 61_000);
    expect(await catalog.apiKeys.touch(key.id, later)).toBe(true);
    expect((await catalog.apiKeys.get(key.id))!.lastUsedAt).toBe(later.toISOString());
  });

  it('revokes once: a second revocation keeps the first time; an unknown id is undefined', async () => {
    const key = await catalog.apiKeys.create({
      id: randomUUID(),
      name: 'leaked',
      role: ApiKeyRole.VIEWER,
      projectIds: null,
      secretSha256: sha('leaked'),
      createdBy: 'bootstrap',
    });
    const revoked = await catalog.apiKeys.revoke(key.id);
    expect(revoked!.revokedAt).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await catalog.apiKeys.revoke(key.id))!.revokedAt).toBe(revoked!.revokedAt);
    expect(await catalog.apiKeys.revoke(randomUUID())).toBeUndefined();
  });
});
