import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import { type ApiKeyRole, isTroveId } from '@trove/domain';
import type { ApiKeyLookup, NewApiKey, StoredApiKey } from './catalog.ports';
import type { CatalogDb } from './database';
import { query } from './database-error';
import type { ApiKeysTable } from './tables';

/** How often last-used-at is written per key at most: a busy key must not write on every request. */
export const API_KEY_TOUCH_INTERVAL_MS = 60_000;

export class ApiKeyRepository implements ApiKeyLookup {
  constructor(private readonly db: CatalogDb) {}

  async create(key: NewApiKey): Promise<StoredApiKey> {
    const row = await query('creating an API key', () =>
      this.db
        .insertInto('api_keys')
        .values({
          id: key.id,
          name: key.name,
          role: key.role,
          project_ids: key.projectIds,
          secret_sha256: key.secretSha256,
          created_by: key.createdBy,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return toApiKey(row);
  }

  async get(id: string): Promise<StoredApiKey | undefined> {
    if (!isTroveId(id)) return undefined;
    const row = await query('reading an API key', () =>
      this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst(),
    );
    return row && toApiKey(row);
  }

  /** Every key, revoked ones included, newest first. */
  async list(): Promise<StoredApiKey[]> {
    const rows = await query('listing API keys', () =>
      this.db.selectFrom('api_keys').selectAll().orderBy('created_at', 'desc').orderBy('id').execute(),
    );
    return rows.map(toApiKey);
  }

  /** Revokes the key (a second call keeps the first time); undefined when it does not exist. */
  async revoke(id: string): Promise<StoredApiKey | undefined> {
    if (!isTroveId(id)) return undefined;
    const row = await query('revoking an API key', () =>
      this.db
        .updateTable('api_keys')
        .set({ revoked_at: sql<string>`coalesce(revoked_at, now())` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    );
    return row && toApiKey(row);
  }

  /**
   * Records a use of the key, unless one was recorded within the last minute (so several api
   * instances write at most once a minute per key between them). True when it wrote.
   */
  async touch(id: string, at: Date = new Date()): Promise<boolean> {
    const before = new Date(at.getTime() - API_KEY_TOUCH_INTERVAL_MS);
    const result = await query('recording an API key use', () =>
      this.db
        .updateTable('api_keys')
        .set({ last_used_at: at.toISOString() })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', before)]))
        .executeTakeFirst(),
    );
    return Number(result.numUpdatedRows) > 0;
  }
}

function toApiKey(row: Selectable<ApiKeysTable>): StoredApiKey {
  return {
    id: row.id,
    name: row.name,
    role: row.role as ApiKeyRole,
    projectIds: row.project_ids,
    secretSha256: row.secret_sha256,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString(),
    revokedAt: row.revoked_at?.toISOString(),
  };
}
