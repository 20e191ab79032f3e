import { Inject, Injectable } from '@nestjs/common';
import {
  encodeCursor,
  type Grantee,
  type ProjectReads,
  type UserRepository,
  type WriteChecks,
} from '@trove/catalog';
import {
  ApiKeyRole,
  type Group,
  normalizeLabel,
  type Principal,
  type ProjectGrant,
  TroveError,
  TroveErrorCode,
  type User,
  UserStatus,
} from '@trove/domain';
import { PROJECT_READS, USERS, WRITE_CHECKS } from '../core/catalog.providers';
import { toConnection } from '../core/connection.model';
import type {
  CreateUserInput,
  GranteeInput,
  GroupModel,
  ProjectGrantModel,
  UpdateUserInput,
  UserModel,
} from './people.model';

const EMAIL = /^[^\s@]{1,200}@[^\s@]{1,200}$/;

/** People, groups and project roles as ADMINs manage them. */
@Injectable()
export class PeopleService {
  constructor(
    @Inject(USERS) private readonly records: UserRepository,
    @Inject(PROJECT_READS) private readonly projects: Pick<ProjectReads, 'requireProject'>,
    @Inject(WRITE_CHECKS) private readonly writeChecks: Pick<WriteChecks, 'requireActiveProject'>,
  ) {}

  async users(first: number, after: string | undefined, search: string | undefined) {
    const page = await this.records.list({ first, after, search: search?.trim() || undefined });
    return toConnection(page, (user) => encodeCursor(new Date(user.createdAt), user.id));
  }

  user(id: string): Promise<User | undefined> {
    return this.records.get(id);
  }

  /** A person made ahead of their first sign-in (`trove admin create`, the users page). */
  async create(input: CreateUserInput): Promise<UserModel> {
    const email = input.email.trim();
    if (!EMAIL.test(email)) throw new TroveError(TroveErrorCode.BadRequest, 'email is not an email address');
    return this.records.create({
      email,
      name: normalizeLabel(input.name, 'a name'),
      ...(input.role && { role: input.role }),
    });
  }

  async update(caller: Principal, id: string, input: UpdateUserInput): Promise<UserModel> {
    if (id === caller.userId && (input.clearRole || (input.role && input.role !== ApiKeyRole.ADMIN))) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        'you cannot lower your own install-wide role: ask another ADMIN',
      );
    }
    return this.records.update(id, {
      ...(input.name && { name: normalizeLabel(input.name, 'a name') }),
      ...(input.clearRole ? { role: null } : input.role ? { role: input.role } : {}),
    });
  }

  /** Deactivates at once: their next request is refused, their sessions and tokens end. */
  async setStatus(caller: Principal, id: string, status: UserStatus): Promise<UserModel> {
    if (id === caller.userId && status === UserStatus.DEACTIVATED) {
      throw new TroveError(TroveErrorCode.BadRequest, 'you cannot deactivate yourself: ask another ADMIN');
    }
    return this.records.setStatus(id, status);
  }

  groups(): Promise<GroupModel[]> {
    return this.records.listGroups();
  }

  async createGroup(name: string): Promise<GroupModel> {
    return this.records.createLocalGroup(normalizeLabel(name, 'a group name'));
  }

  deleteGroup(id: string): Promise<GroupModel> {
    return this.records.deleteGroup(id);
  }

  groupMembers(id: string): Promise<UserModel[]> {
    return this.records.groupMembers(id);
  }

  async addMember(groupId: string, userId: string): Promise<GroupModel> {
    await this.records.addMember(groupId, userId);
    return this.records.requireGroup(groupId);
  }

  async removeMember(groupId: string, userId: string): Promise<GroupModel> {
    await this.records.removeMember(groupId, userId);
    return this.records.requireGroup(groupId);
  }

  /** The roles given in a project, with who holds them. */
  async projectAccess(projectId: string): Promise<ProjectGrantModel[]> {
    await this.projects.requireProject(projectId);
    const grants = await this.records.projectGrants(projectId);
    return this.withGrantees(grants);
  }

  async grant(caller: Principal, input: GranteeInput, role: ApiKeyRole): Promise<ProjectGrantModel> {
    if (!Object.values(ApiKeyRole).includes(role)) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        `role must be one of ${Object.values(ApiKeyRole).join(', ')}`,
      );
    }
    await this.writeChecks.requireActiveProject(input.projectId);
    const grantee = await this.grantee(input, true);
    const grant = await this.records.grant(input.projectId, grantee, role, caller.name);
    return (await this.withGrantees([grant]))[0];
  }

  async revoke(input: GranteeInput): Promise<boolean> {
    await this.projects.requireProject(input.projectId);
    const grantee = await this.grantee(input, false);
    return (await this.records.revoke(input.projectId, grantee)) !== undefined;
  }

  /** The one grantee an input names. */
  private async grantee(input: GranteeInput, create: boolean): Promise<Grantee> {
    const named = [input.userId, input.email, input.groupId, input.groupName].filter(
      (v) => v != null && v !== '',
    );
    if (named.length !== 1) {
      throw new TroveError(
        TroveErrorCode.BadRequest,
        'name exactly one of userId, email, groupId or groupName',
      );
    }
    if (input.userId) return { userId: (await this.records.require(input.userId)).id };
    if (input.groupId) return { groupId: (await this.records.requireGroup(input.groupId)).id };
    if (input.email) {
      const email = input.email.trim().toLowerCase();
      const found = (await this.records.list({ first: 500, search: email })).items.find(
        (user) => user.email?.toLowerCase() === email,
      );
      if (!found)
        throw new TroveError(
          TroveErrorCode.UserNotFound,
          `nobody with the email ${input.email} has a Trove account`,
        );
      return { userId: found.id };
    }
    const provider = input.groupProvider?.trim();
    if (!provider)
      throw new TroveError(TroveErrorCode.BadRequest, 'groupName needs groupProvider (the provider id)');
    const name = normalizeLabel(input.groupName!, 'a group name');
    if (!create) {
      const group = (await this.records.listGroups()).find((g) => g.provider === provider && g.name === name);
      if (!group)
        throw new TroveError(TroveErrorCode.GroupNotFound, `group ${name} of ${provider} does not exist`);
      return { groupId: group.id };
    }
    return { groupId: (await this.records.ensureProviderGroup(provider, name)).id };
  }

  private async withGrantees(grants: ProjectGrant[]): Promise<ProjectGrantModel[]> {
    const groups = new Map<string, Group>((await this.records.listGroups()).map((g) => [g.id, g]));
    return Promise.all(
      grants.map(async (grant) => ({
        ...grant,
        ...(grant.userId && { user: await this.records.get(grant.userId) }),
        ...(grant.groupId && { group: groups.get(grant.groupId) }),
      })),
    );
  }
}
