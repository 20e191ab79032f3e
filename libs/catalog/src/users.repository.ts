import { randomUUID } from 'node:crypto';
import { type Selectable, sql } from 'kysely';
import {
  type ApiKeyRole,
  type Group,
  type ProjectGrant,
  strongerRole,
  TroveError,
  TroveErrorCode,
  type User,
  type UserAccess,
  UserStatus,
} from '@trove/domain';
import { decodeCursor, encodeCursor, type Page, type PageRequest, pageSize } from './cursor';
import type { CatalogDb } from './database';
import { databaseError, PgCode, pgCode, query } from './database-error';
import type { GroupsTable, ProjectGrantsTable, UsersTable } from './tables';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** Who a provider says signed in (its ID token's or access token's claims, checked). */
export interface SignedInIdentity {
  provider: string;
  issuer: string;
  subject: string;
  email?: string;
  /** Only a verified email links the person to a user made ahead of their first sign-in. */
  emailVerified: boolean;
  name: string;
  pictureUrl?: string;
}

/** What a sign-in found or made: the user, and whether they are new or were linked just now. */
export interface SignInMatch {
  user: User;
  created: boolean;
  linked: boolean;
}

export interface NewUser {
  email: string;
  name: string;
  role?: ApiKeyRole;
}

export interface UserChanges {
  name?: string;
  /** null removes the install-wide role. */
  role?: ApiKeyRole | null;
}

/** A role to give: to a person or to a group. */
export type Grantee = { userId: string } | { groupId: string };

/**
 * People, their groups and the roles they hold per project. `access` is what every authenticated
 * request of a person reads: one query for the user, their groups and their strongest role per
 * project.
 */
export class UserRepository {
  constructor(private readonly db: CatalogDb) {}

  /**
   * The user a provider's sign-in names: the one with that issuer and subject, else (email
   * verified) the one made ahead for that email, which is linked now; else a new one when
   * `provision` allows, else undefined. Name, email and picture follow the provider's.
   */
  async matchSignIn(identity: SignedInIdentity, provision: boolean): Promise<SignInMatch | undefined> {
    return query('matching a signed-in person', async () => {
      const known = await this.db
        .updateTable('users')
        .set({
          provider: identity.provider,
          email: identity.email ?? null,
          name: identity.name,
          picture_url: identity.pictureUrl ?? null,
          last_seen_at: new Date().toISOString(),
        })
        .where('issuer', '=', identity.issuer)
        .where('subject', '=', identity.subject)
        .returningAll()
        .executeTakeFirst();
      if (known) return { user: toUser(known), created: false, linked: false };
      if (identity.email && identity.emailVerified) {
        const linked = await this.db
          .updateTable('users')
          .set({
            provider: identity.provider,
            issuer: identity.issuer,
            subject: identity.subject,
            name: identity.name,
            picture_url: identity.pictureUrl ?? null,
            last_seen_at: new Date().toISOString(),
          })
          .where('subject', 'is', null)
          .where(sql`lower(email)`, '=', identity.email.toLowerCase())
          .returningAll()
          .executeTakeFirst();
        if (linked) return { user: toUser(linked), created: false, linked: true };
      }
      if (!provision) return undefined;
      try {
        const created = await this.db
          .insertInto('users')
          .values({
            id: randomUUID(),
            provider: identity.provider,
            issuer: identity.issuer,
            subject: identity.subject,
            email: identity.email ?? null,
            name: identity.name,
            picture_url: identity.pictureUrl ?? null,
            role: null,
            last_seen_at: new Date().toISOString(),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return { user: toUser(created), created: true, linked: false };
      } catch (error) {
        // Two first sign-ins of one person at once: the other made the record.
        if (pgCode(error) !== PgCode.uniqueViolation) throw error;
        const raced = await this.db
          .selectFrom('users')
          .selectAll()
          .where('issuer', '=', identity.issuer)
          .where('subject', '=', identity.subject)
          .executeTakeFirstOrThrow();
        return { user: toUser(raced), created: false, linked: false };
      }
    });
  }

  /** A person made ahead of their first sign-in (found then by their verified email). */
  async create(user: NewUser): Promise<User> {
    try {
      const row = await this.db
        .insertInto('users')
        .values({
          id: randomUUID(),
          provider: null,
          issuer: null,
          subject: null,
          email: user.email,
          name: user.name,
          picture_url: null,
          role: user.role ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toUser(row);
    } catch (error) {
      if (pgCode(error) === PgCode.uniqueViolation) {
        throw new TroveError(
          TroveErrorCode.BadRequest,
          `a person with the email ${user.email} is already waiting for their first sign-in`,
        );
      }
      throw databaseError(error, 'creating a user');
    }
  }

  async get(id: string): Promise<User | undefined> {
    if (!isUuid(id)) return undefined;
    const row = await query('reading a user', () =>
      this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),
    );
    return row && toUser(row);
  }

  async require(id: string): Promise<User> {
    const user = await this.get(id);
    if (!user) throw new TroveError(TroveErrorCode.UserNotFound, `user ${id} does not exist`);
    return user;
  }

  /** People by name, newest first; `search` matches name or email. */
  async list(request: PageRequest & { search?: string }): Promise<Page<User>> {
    const size = pageSize(request.first);
    return query('listing users', async () => {
      let base = this.db.selectFrom('users');
      if (request.search) {
        const pattern = `%${request.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        base = base.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('email', 'ilike', pattern)]));
      }
      let rows = base
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(size + 1);
      if (request.after) {
        const { at, id } = decodeCursor(request.after);
        rows = rows.where((eb) =>
          eb.or([
            eb('created_at', '<', new Date(at)),
            eb.and([eb('created_at', '=', new Date(at)), eb('id', '<', id)]),
          ]),
        );
      }
      const [found, count] = await Promise.all([
        rows.execute(),
        base.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
      ]);
      const page = found.slice(0, size);
      const last = page.at(-1);
      return {
        items: page.map(toUser),
        totalCount: Number(count.count),
        endCursor: last && encodeCursor(last.created_at, last.id),
        hasNextPage: found.length > size,
      };
    });
  }

  async update(id: string, changes: UserChanges): Promise<User> {
    await this.require(id);
    const row = await query('changing a user', () =>
      this.db
        .updateTable('users')
        .set({
          ...(changes.name !== undefined && { name: changes.name }),
          ...(changes.role !== undefined && { role: changes.role }),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return toUser(row);
  }

  /** Deactivates or reactivates; deactivating also ends every session and token of the person. */
  async setStatus(id: string, status: UserStatus): Promise<User> {
    await this.require(id);
    return query('changing a user status', () =>
      this.db.transaction().execute(async (tx) => {
        const row = await tx
          .updateTable('users')
          .set({
            status,
            deactivated_at:
              status === UserStatus.DEACTIVATED ? sql<string>`coalesce(deactivated_at, now())` : null,
          })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        if (status === UserStatus.DEACTIVATED) {
          await tx
            .updateTable('sessions')
            .set({ revoked_at: sql<string>`now()` })
            .where('user_id', '=', id)
            .where('revoked_at', 'is', null)
            .execute();
          await tx
            .updateTable('personal_tokens')
            .set({ revoked_at: sql<string>`now()` })
            .where('user_id', '=', id)
            .where('revoked_at', 'is', null)
            .execute();
        }
        return toUser(row);
      }),
    );
  }

  /** When the person was last seen (sign-in, or a request at most once a minute). */
  async touch(id: string, at: Date = new Date()): Promise<void> {
    const before = new Date(at.getTime() - 60_000).toISOString();
    await query('recording a user as seen', () =>
      this.db
        .updateTable('users')
        .set({ last_seen_at: at.toISOString() })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<=', new Date(before))]))
        .execute(),
    );
  }

  /**
   * The person as the access rules see them now: their record, their strongest role in each
   * project (given to them or to a group they are in) and their groups. Undefined when missing.
   */
  async access(userId: string): Promise<UserAccess | undefined> {
    if (!isUuid(userId)) return undefined;
    return query('reading what a user may do', async () => {
      const row = await sql<
        Selectable<UsersTable> & {
          grants: { project_id: string; role: ApiKeyRole }[] | null;
          group_names: string[] | null;
        }
      >`
        select u.*,
          (select json_agg(json_build_object('project_id', g.project_id, 'role', g.role))
             from project_grants g
            where g.user_id = u.id
               or g.group_id in (select m.group_id from group_members m where m.user_id = u.id)) as grants,
          (select array_agg(gr.name order by gr.name)
             from group_members m join groups gr on gr.id = m.group_id
            where m.user_id = u.id) as group_names
        from users u where u.id = ${userId}`.execute(this.db);
      const found = row.rows[0];
      if (!found) return undefined;
      const projectRoles: Record<string, ApiKeyRole> = {};
      for (const grant of found.grants ?? []) {
        projectRoles[grant.project_id] = strongerRole(projectRoles[grant.project_id], grant.role)!;
      }
      return { user: toUser(found), projectRoles, groups: found.group_names ?? [] };
    });
  }

  // --- groups --------------------------------------------------------------------------------

  /**
   * Makes the person's membership in the provider's groups exactly `names` (the groups claim of
   * their latest sign-in or refresh), creating groups not seen before. Local groups are untouched.
   */
  async syncProviderGroups(userId: string, provider: string, names: readonly string[]): Promise<void> {
    const unique = [...new Set(names.filter((name) => name.length > 0 && name.length <= 200))].slice(0, 500);
    await query('recording a person’s groups', () =>
      this.db.transaction().execute(async (tx) => {
        if (unique.length > 0) {
          await sql`
            insert into groups (id, name, provider)
            select gen_random_uuid(), n, ${provider} from unnest(${unique}::text[]) as n
            on conflict (coalesce(provider, ''), name) do nothing`.execute(tx);
        }
        await sql`
          delete from group_members m using groups g
           where m.group_id = g.id and m.user_id = ${userId} and g.provider = ${provider}
             and not (g.name = any(${unique}::text[]))`.execute(tx);
        if (unique.length > 0) {
          await sql`
            insert into group_members (group_id, user_id)
            select g.id, ${userId} from groups g where g.provider = ${provider} and g.name = any(${unique}::text[])
            on conflict do nothing`.execute(tx);
        }
      }),
    );
  }

  async listGroups(): Promise<Group[]> {
    const rows = await query('listing groups', () =>
      this.db
        .selectFrom('groups as g')
        .leftJoin('group_members as m', 'm.group_id', 'g.id')
        .select(['g.id', 'g.name', 'g.provider', 'g.created_at'])
        .select((eb) => eb.fn.count<string>('m.user_id').as('members'))
        .groupBy(['g.id', 'g.name', 'g.provider', 'g.created_at'])
        .orderBy('g.name')
        .execute(),
    );
    return rows.map((row) => toGroup(row, Number(row.members)));
  }

  async getGroup(id: string): Promise<Group | undefined> {
    if (!isUuid(id)) return undefined;
    return (await this.listGroups()).find((group) => group.id === id);
  }

  async requireGroup(id: string): Promise<Group> {
    const group = await this.getGroup(id);
    if (!group) throw new TroveError(TroveErrorCode.GroupNotFound, `group ${id} does not exist`);
    return group;
  }

  /** A group of the provider's claim (made if missing), e.g. to grant a role before anyone signed in. */
  async ensureProviderGroup(provider: string, name: string): Promise<Group> {
    await query('creating a group', () =>
      sql`insert into groups (id, name, provider) values (${randomUUID()}, ${name}, ${provider})
          on conflict (coalesce(provider, ''), name) do nothing`.execute(this.db),
    );
    return (await this.listGroups()).find((group) => group.provider === provider && group.name === name)!;
  }

  async createLocalGroup(name: string): Promise<Group> {
    try {
      const row = await this.db
        .insertInto('groups')
        .values({ id: randomUUID(), name, provider: null })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toGroup(row, 0);
    } catch (error) {
      if (pgCode(error) === PgCode.uniqueViolation) {
        throw new TroveError(TroveErrorCode.BadRequest, `a local group named ${name} exists already`);
      }
      throw databaseError(error, 'creating a group');
    }
  }

  async deleteGroup(id: string): Promise<Group> {
    const group = await this.requireGroup(id);
    await query('deleting a group', () => this.db.deleteFrom('groups').where('id', '=', id).execute());
    return group;
  }

  /** Members of a group, by name. */
  async groupMembers(groupId: string): Promise<User[]> {
    if (!isUuid(groupId)) return [];
    const rows = await query('listing group members', () =>
      this.db
        .selectFrom('users as u')
        .innerJoin('group_members as m', 'm.user_id', 'u.id')
        .selectAll('u')
        .where('m.group_id', '=', groupId)
        .orderBy('u.name')
        .execute(),
    );
    return rows.map(toUser);
  }

  /** Adds a person to a local group (a provider's group follows its claim only). */
  async addMember(groupId: string, userId: string): Promise<void> {
    const group = await this.requireGroup(groupId);
    await this.require(userId);
    localOnly(group);
    await query('adding a group member', () =>
      this.db
        .insertInto('group_members')
        .values({ group_id: groupId, user_id: userId })
        .onConflict((oc) => oc.doNothing())
        .execute(),
    );
  }

  async removeMember(groupId: string, userId: string): Promise<void> {
    const group = await this.requireGroup(groupId);
    localOnly(group);
    await query('removing a group member', () =>
      this.db
        .deleteFrom('group_members')
        .where('group_id', '=', groupId)
        .where('user_id', '=', userId)
        .execute(),
    );
  }

  // --- project grants ------------------------------------------------------------------------

  /** Gives the grantee `role` in the project (replacing a role given before). */
  async grant(
    projectId: string,
    grantee: Grantee,
    role: ApiKeyRole,
    createdBy: string,
  ): Promise<ProjectGrant> {
    const values = {
      id: randomUUID(),
      project_id: projectId,
      user_id: 'userId' in grantee ? grantee.userId : null,
      group_id: 'groupId' in grantee ? grantee.groupId : null,
      role,
      created_by: createdBy,
    };
    const row = await query('granting a project role', async () => {
      const existing = await this.grantOf(projectId, grantee);
      if (existing) {
        return this.db
          .updateTable('project_grants')
          .set({ role, created_by: createdBy })
          .where('id', '=', existing.id)
          .returningAll()
          .executeTakeFirstOrThrow();
      }
      return this.db.insertInto('project_grants').values(values).returningAll().executeTakeFirstOrThrow();
    });
    return toGrant(row);
  }

  /** Takes the grantee's role in the project away; the grant taken, or undefined. */
  async revoke(projectId: string, grantee: Grantee): Promise<ProjectGrant | undefined> {
    const existing = await this.grantOf(projectId, grantee);
    if (!existing) return undefined;
    await query('revoking a project role', () =>
      this.db.deleteFrom('project_grants').where('id', '=', existing.id).execute(),
    );
    return toGrant(existing);
  }

  async projectGrants(projectId: string): Promise<ProjectGrant[]> {
    const rows = await query('listing project grants', () =>
      this.db
        .selectFrom('project_grants')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    );
    return rows.map(toGrant);
  }

  private async grantOf(
    projectId: string,
    grantee: Grantee,
  ): Promise<Selectable<ProjectGrantsTable> | undefined> {
    let rows = this.db.selectFrom('project_grants').selectAll().where('project_id', '=', projectId);
    rows =
      'userId' in grantee
        ? rows.where('user_id', '=', grantee.userId)
        : rows.where('group_id', '=', grantee.groupId);
    return rows.executeTakeFirst();
  }
}

function localOnly(group: Group): void {
  if (group.provider !== undefined) {
    throw new TroveError(
      TroveErrorCode.BadRequest,
      `${group.name} is a group of the ${group.provider} provider: its members come from their sign-ins (the groups claim); change them there`,
    );
  }
}

export function toUser(row: Selectable<UsersTable>): User {
  return {
    id: row.id,
    ...(row.provider !== null && { provider: row.provider }),
    ...(row.issuer !== null && { issuer: row.issuer }),
    ...(row.subject !== null && { subject: row.subject }),
    ...(row.email !== null && { email: row.email }),
    name: row.name,
    ...(row.picture_url !== null && { pictureUrl: row.picture_url }),
    ...(row.role !== null && { role: row.role as ApiKeyRole }),
    status: row.status as UserStatus,
    createdAt: new Date(row.created_at).toISOString(),
    ...(row.last_seen_at && { lastSeenAt: new Date(row.last_seen_at).toISOString() }),
    ...(row.deactivated_at && { deactivatedAt: new Date(row.deactivated_at).toISOString() }),
  };
}

function toGroup(
  row: Pick<Selectable<GroupsTable>, 'id' | 'name' | 'provider' | 'created_at'>,
  members: number,
): Group {
  return {
    id: row.id,
    name: row.name,
    ...(row.provider !== null && { provider: row.provider }),
    createdAt: row.created_at.toISOString(),
    memberCount: members,
  };
}

function toGrant(row: Selectable<ProjectGrantsTable>): ProjectGrant {
  return {
    id: row.id,
    projectId: row.project_id,
    ...(row.user_id !== null && { userId: row.user_id }),
    ...(row.group_id !== null && { groupId: row.group_id }),
    role: row.role as ApiKeyRole,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
  };
}
