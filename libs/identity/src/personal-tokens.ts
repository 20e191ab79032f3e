import type { SessionRepository, UserRepository } from '@trove/catalog';
import {
  CredentialKind,
  normalizeLabel,
  type PersonalTokenRecord,
  type Principal,
  TroveError,
  TroveErrorCode,
  UserStatus,
} from '@trove/domain';
import { newPersonalToken, parsePersonalToken, secretMatches } from './credentials';
import { personPrincipal } from './person-principal';

export type TokenStore = Pick<
  SessionRepository,
  'createToken' | 'getToken' | 'userTokens' | 'revokeToken' | 'touchToken'
>;

/** Longest lifetime a personal token may be given. */
export const MAX_TOKEN_DAYS = 366;
/** Tokens one person may hold open at once. */
export const MAX_OPEN_TOKENS = 50;

/**
 * Personal access tokens: a person makes one to act as themselves from a script or an agent. A
 * token carries no rights of its own: every request with it gets the person's rights as they are
 * at that moment, so it can never do more than its owner, and nothing once its owner is
 * deactivated (deactivating revokes it, too).
 */
export class PersonalTokens {
  constructor(
    private readonly tokens: TokenStore,
    private readonly users: Pick<UserRepository, 'access' | 'get'>,
  ) {}

  /** A new token for the person; its secret is in this answer only. */
  async create(
    owner: Principal,
    input: { name: string; expiresInDays?: number | null },
  ): Promise<{ token: PersonalTokenRecord; secret: string }> {
    const userId = owner.userId;
    if (userId === undefined) {
      throw new TroveError(
        TroveErrorCode.Forbidden,
        'personal tokens belong to people: sign in to make one (API keys cannot)',
      );
    }
    const name = normalizeLabel(input.name, 'a token name');
    const days = input.expiresInDays ?? undefined;
    if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > MAX_TOKEN_DAYS)) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        `expiresInDays is 1 to ${MAX_TOKEN_DAYS} (leave it out for no expiry)`,
      );
    }
    const open = (await this.tokens.userTokens(userId)).filter((t) => !t.revokedAt);
    if (open.length >= MAX_OPEN_TOKENS) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        `you hold ${MAX_OPEN_TOKENS} tokens already: revoke one first`,
      );
    }
    const made = newPersonalToken();
    const token = await this.tokens.createToken({
      id: made.id,
      userId,
      name,
      secretSha256: made.secretSha256,
      ...(days !== undefined && { expiresAt: new Date(Date.now() + days * 86_400_000).toISOString() }),
    });
    return { token, secret: made.token };
  }

  list(owner: Principal): Promise<PersonalTokenRecord[]> {
    if (owner.userId === undefined) return Promise.resolve([]);
    return this.tokens.userTokens(owner.userId);
  }

  /** Revokes one of the person's own tokens; TOKEN_NOT_FOUND for anyone else's. */
  async revoke(owner: Principal, id: string): Promise<PersonalTokenRecord> {
    const token = await this.tokens.getToken(id);
    if (!token || token.userId !== owner.userId) {
      throw new TroveError(TroveErrorCode.TokenNotFound, `personal token ${id} does not exist`);
    }
    return (await this.tokens.revokeToken(id))!;
  }

  /** Whether a presented bearer is in the personal token format (else it is not ours to judge). */
  static recognises(token: string): boolean {
    return token.startsWith('trove_pat_');
  }

  /** The person a token acts as, with their rights now; UNAUTHENTICATED with the reason otherwise. */
  async authenticate(presented: string): Promise<Principal> {
    const parsed = parsePersonalToken(presented);
    const token = parsed && (await this.tokens.getToken(parsed.id));
    if (!parsed || !token || !secretMatches(parsed.secret, token.secretSha256)) {
      throw new TroveError(TroveErrorCode.Unauthenticated, 'the personal token is not valid');
    }
    const access = await this.users.access(token.userId);
    if (!access || access.user.status !== UserStatus.ACTIVE) {
      throw new TroveError(
        TroveErrorCode.Unauthenticated,
        'the owner of this personal token is deactivated: the token no longer works',
      );
    }
    if (token.revokedAt)
      throw new TroveError(TroveErrorCode.Unauthenticated, 'the personal token was revoked');
    if (token.expiresAt && Date.parse(token.expiresAt) <= Date.now()) {
      throw new TroveError(TroveErrorCode.Unauthenticated, 'the personal token has expired');
    }
    void this.tokens.touchToken(token.id).catch(() => undefined);
    return personPrincipal(access, CredentialKind.PERSONAL_TOKEN, token.id);
  }
}
