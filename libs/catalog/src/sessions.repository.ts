import { type Selectable, sql } from 'kysely';
import type { LoginTransaction, PersonalTokenRecord, SessionRecord } from '@trove/domain';
import type { CatalogDb } from './database';
import { query } from './database-error';
import type { LoginTransactionsTable, PersonalTokensTable, SessionsTable } from './tables';
import { isUuid } from './users.repository';

export type NewSession = Omit<SessionRecord, 'createdAt' | 'lastSeenAt' | 'revokedAt'>;
export type NewLoginTransaction = Omit<LoginTransaction, 'createdAt' | 'consumedAt'>;
export type NewPersonalToken = Omit<PersonalTokenRecord, 'createdAt' | 'lastUsedAt' | 'revokedAt'>;

/** What a consumed sign-in says: the transaction, or why it cannot be used. */
export type ConsumedTransaction =
  { ok: true; transaction: LoginTransaction } | { ok: false; reason: 'unknown' | 'used' | 'expired' };

/**
 * Browser sessions, sign-ins under way and personal access tokens: all server-side, so each can be
 * ended at once (a sign-out, a revocation, a deactivated person).
 */
export class SessionRepository {
  constructor(private readonly db: CatalogDb) {}

  async createSession(session: NewSession): Promise<SessionRecord> {
    const row = await query('creating a session', () =>
      this.db
        .insertInto('sessions')
        .values({
          id: session.id,
          user_id: session.userId,
          provider: session.provider,
          secret_sha256: session.secretSha256,
          expires_at: session.expiresAt,
          revalidate_at: session.revalidateAt,
          refresh_token_sealed: session.refreshTokenSealed ?? null,
          id_token_sealed: session.idTokenSealed ?? null,
          address: session.address ?? null,
          user_agent: session.userAgent ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return toSession(row);
  }

  async getSession(id: string): Promise<SessionRecord | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await query('reading a session', () =>
      this.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst(),
    );
    return row && toSession(row);
  }

  /** A person's sessions that are still open, newest first. */
  async openSessions(userId: string): Promise<SessionRecord[]> {
    const rows = await query('listing sessions', () =>
      this.db
        .selectFrom('sessions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', new Date())
        .orderBy('created_at', 'desc')
        .execute(),
    );
    return rows.map(toSession);
  }

  /** After a refresh with the provider: its new tokens, and when to ask it again. */
  async refreshed(
    id: string,
    changes: Pick<SessionRecord, 'revalidateAt'> &
      Partial<Pick<SessionRecord, 'refreshTokenSealed' | 'idTokenSealed'>>,
  ): Promise<void> {
    await query('updating a session', () =>
      this.db
        .updateTable('sessions')
        .set({
          revalidate_at: changes.revalidateAt,
          ...(changes.refreshTokenSealed !== undefined && {
            refresh_token_sealed: changes.refreshTokenSealed,
          }),
          ...(changes.idTokenSealed !== undefined && { id_token_sealed: changes.idTokenSealed }),
        })
        .where('id', '=', id)
        .execute(),
    );
  }

  /** Records a use, at most once a minute. */
  async touchSession(id: string, at: Date = new Date()): Promise<void> {
    const before = new Date(at.getTime() - 60_000);
    await query('recording a session use', () =>
      this.db
        .updateTable('sessions')
        .set({ last_seen_at: at.toISOString() })
        .where('id', '=', id)
        .where('last_seen_at', '<=', before)
        .execute(),
    );
  }

  /** Ends the session (a second call keeps the first time); the session as it was, or undefined. */
  async revokeSession(id: string): Promise<SessionRecord | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await query('ending a session', () =>
      this.db
        .updateTable('sessions')
        .set({ revoked_at: sql<string>`coalesce(revoked_at, now())` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    );
    return row && toSession(row);
  }

  /** Removes sessions that ended before `before` (their records serve nothing any more). */
  async deleteSessionsEndedBefore(before: Date): Promise<number> {
    const result = await query('removing ended sessions', () =>
      this.db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before)]))
        .executeTakeFirst(),
    );
    return Number(result.numDeletedRows);
  }

  // --- sign-ins under way ------------------------------------------------------------------------

  async startLogin(transaction: NewLoginTransaction): Promise<void> {
    await query('recording a sign-in', () =>
      this.db
        .insertInto('login_transactions')
        .values({
          id: transaction.id,
          provider: transaction.provider,
          nonce: transaction.nonce,
          code_verifier: transaction.codeVerifier,
          return_to: transaction.returnTo,
          binding_sha256: transaction.bindingSha256,
        })
        .execute(),
    );
  }

  /**
   * Takes the sign-in named by `id` for its callback, once: a second callback with the same state
   * finds it used. Older than `maxAgeMs`: expired.
   */
  async consumeLogin(id: string, maxAgeMs: number): Promise<ConsumedTransaction> {
    return query('completing a sign-in', async () => {
      const row = await this.db
        .updateTable('login_transactions')
        .set({ consumed_at: sql<string>`now()` })
        .where('id', '=', id)
        .where('consumed_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (!row) {
        const exists = await this.db
          .selectFrom('login_transactions')
          .select('id')
          .where('id', '=', id)
          .executeTakeFirst();
        return { ok: false, reason: exists ? 'used' : 'unknown' };
      }
      if (Date.now() - row.created_at.getTime() > maxAgeMs) return { ok: false, reason: 'expired' };
      return { ok: true, transaction: toTransaction(row) };
    });
  }

  async deleteLoginsBefore(before: Date): Promise<number> {
    const result = await query('removing old sign-ins', () =>
      this.db.deleteFrom('login_transactions').where('created_at', '<', before).executeTakeFirst(),
    );
    return Number(result.numDeletedRows);
  }

  // --- personal access tokens --------------------------------------------------------------------

  async createToken(token: NewPersonalToken): Promise<PersonalTokenRecord> {
    const row = await query('creating a personal token', () =>
      this.db
        .insertInto('personal_tokens')
        .values({
          id: token.id,
          user_id: token.userId,
          name: token.name,
          secret_sha256: token.secretSha256,
          expires_at: token.expiresAt ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return toToken(row);
  }

  async getToken(id: string): Promise<PersonalTokenRecord | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await query('reading a personal token', () =>
      this.db.selectFrom('personal_tokens').selectAll().where('id', '=', id).executeTakeFirst(),
    );
    return row && toToken(row);
  }

  /** A person's tokens, newest first (revoked ones too). */
  async userTokens(userId: string): Promise<PersonalTokenRecord[]> {
    const rows = await query('listing personal tokens', () =>
      this.db
        .selectFrom('personal_tokens')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute(),
    );
    return rows.map(toToken);
  }

  async revokeToken(id: string): Promise<PersonalTokenRecord | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await query('revoking a personal token', () =>
      this.db
        .updateTable('personal_tokens')
        .set({ revoked_at: sql<string>`coalesce(revoked_at, now())` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    );
    return row && toToken(row);
  }

  async touchToken(id: string, at: Date = new Date()): Promise<void> {
    const before = new Date(at.getTime() - 60_000);
    await query('recording a personal token use', () =>
      this.db
        .updateTable('personal_tokens')
        .set({ last_used_at: at.toISOString() })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', before)]))
        .execute(),
    );
  }
}

function iso(value: Date | null): string | undefined {
  return value ? new Date(value).toISOString() : undefined;
}

function toSession(row: Selectable<SessionsTable>): SessionRecord {
  return {
    id: row.id,
    userId: row.user_id,
    provider: row.provider,
    secretSha256: row.secret_sha256,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    lastSeenAt: row.last_seen_at.toISOString(),
    revalidateAt: row.revalidate_at.toISOString(),
    ...(row.revoked_at && { revokedAt: iso(row.revoked_at) }),
    ...(row.refresh_token_sealed !== null && { refreshTokenSealed: row.refresh_token_sealed }),
    ...(row.id_token_sealed !== null && { idTokenSealed: row.id_token_sealed }),
    ...(row.address !== null && { address: row.address }),
    ...(row.user_agent !== null && { userAgent: row.user_agent }),
  };
}

function toTransaction(row: Selectable<LoginTransactionsTable>): LoginTransaction {
  return {
    id: row.id,
    provider: row.provider,
    nonce: row.nonce,
    codeVerifier: row.code_verifier,
    returnTo: row.return_to,
    bindingSha256: row.binding_sha256,
    createdAt: row.created_at.toISOString(),
    ...(row.consumed_at && { consumedAt: iso(row.consumed_at) }),
  };
}

function toToken(row: Selectable<PersonalTokensTable>): PersonalTokenRecord {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    secretSha256: row.secret_sha256,
    createdAt: row.created_at.toISOString(),
    ...(row.expires_at && { expiresAt: iso(row.expires_at) }),
    ...(row.last_used_at && { lastUsedAt: iso(row.last_used_at) }),
    ...(row.revoked_at && { revokedAt: iso(row.revoked_at) }),
  };
}
