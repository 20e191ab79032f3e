import { TroveError, TroveErrorCode } from '@trove/domain';
import type { RagConfigRecords, StoredRagConfig } from './catalog.ports';
import type { CatalogDb } from './database';
import { query } from './database-error';
import { jsonb } from './postgres-text';

export class RagConfigRepository implements RagConfigRecords {
  constructor(private readonly db: CatalogDb) {}

  async get(): Promise<StoredRagConfig> {
    const row = await query('reading the RAG settings', () =>
      this.db.selectFrom('rag_config').selectAll().where('id', '=', 1).executeTakeFirst(),
    );
    if (!row) return { overrides: {}, secrets: {}, version: 0 };
    return {
      overrides: row.overrides,
      secrets: row.secrets,
      version: row.version,
      updatedAt: row.updated_at.toISOString(),
    };
  }

  /**
   * Stores new overrides if nobody changed them since `expectedVersion` was read (two admins
   * saving at once: the second is refused rather than silently undoing the first).
   */
  async save(
    expectedVersion: number,
    overrides: StoredRagConfig['overrides'],
    secrets: StoredRagConfig['secrets'],
  ): Promise<StoredRagConfig> {
    const values = {
      overrides: jsonb(overrides),
      secrets: jsonb(secrets),
      version: expectedVersion + 1,
      updated_at: new Date().toISOString(),
    };
    const saved = await query('saving the RAG settings', () =>
      expectedVersion === 0
        ? this.db
            .insertInto('rag_config')
            .values({ id: 1, ...values })
            .onConflict((c) => c.doNothing())
            .returningAll()
            .executeTakeFirst()
        : this.db
            .updateTable('rag_config')
            .set(values)
            .where('id', '=', 1)
            .where('version', '=', expectedVersion)
            .returningAll()
            .executeTakeFirst(),
    );
    if (!saved) {
      throw new TroveError(
        TroveErrorCode.SettingsConflict,
        'the settings were changed by someone else meanwhile; read them again and retry',
      );
    }
    return { overrides, secrets, version: saved.version, updatedAt: saved.updated_at.toISOString() };
  }
}
