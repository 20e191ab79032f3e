import { Inject } from '@nestjs/common';
import { Args, ID, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { AuditAction, Permission, type Principal, UserStatus } from '@trove/domain';
import { CurrentPrincipal, project, Requires } from '../access/access.decorators';
import {
  CreateUserInput,
  GranteeInput,
  GrantProjectRoleInput,
  GroupModel,
  ProjectGrantModel,
  UpdateUserInput,
  UserConnection,
  UserModel,
} from './people.model';
import { PeopleService } from './people.service';

/**
 * People and groups (install-wide ADMINs), and the roles given in a project (that project's
 * ADMINs): the access rules decide for people exactly as for keys.
 */
@Resolver(() => GroupModel)
export class PeopleResolver {
  constructor(@Inject(PeopleService) private readonly people: PeopleService) {}

  @Query(() => UserConnection, { description: 'People, newest first; search matches name or email' })
  @Requires(Permission.ADMIN)
  users(
    @Args('first', { type: () => Int, defaultValue: 50 }) first: number,
    @Args('after', { type: () => String, nullable: true }) after?: string,
    @Args('search', { type: () => String, nullable: true }) search?: string,
  ) {
    return this.people.users(first, after ?? undefined, search ?? undefined);
  }

  @Query(() => UserModel, { nullable: true })
  @Requires(Permission.ADMIN)
  user(@Args('id', { type: () => ID }) id: string) {
    return this.people.user(id);
  }

  @Mutation(() => UserModel, {
    description:
      'A person made ahead of their first sign-in (linked then by their verified email): e.g. the first ADMIN',
  })
  @Requires(Permission.ADMIN, undefined, { audit: AuditAction.UserCreated })
  createUser(@Args('input') input: CreateUserInput) {
    return this.people.create(input);
  }

  @Mutation(() => UserModel, { description: 'Renames a person, or changes their install-wide role' })
  @Requires(Permission.ADMIN, undefined, { audit: AuditAction.UserUpdated })
  updateUser(
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: UpdateUserInput,
    @CurrentPrincipal() caller: Principal,
  ) {
    return this.people.update(caller, id, input);
  }

  @Mutation(() => UserModel, {
    description:
      'Deactivates a person at once: their next request is refused, their sessions, tokens and subscriptions end',
  })
  @Requires(Permission.ADMIN, undefined, { audit: AuditAction.UserDeactivated })
  deactivateUser(@Args('id', { type: () => ID }) id: string, @CurrentPrincipal() caller: Principal) {
    return this.people.setStatus(caller, id, UserStatus.DEACTIVATED);
  }

  @Mutation(() => UserModel, {
    description: 'Lets a deactivated person sign in again (their old tokens stay revoked)',
  })
  @Requires(Permission.ADMIN, undefined, { audit: AuditAction.UserReactivated })
  reactivateUser(@Args('id', { type: () => ID }) id: string, @CurrentPrincipal() caller: Principal) {
    return this.people.setStatus(caller, id, UserStatus.ACTIVE);
  }

  @Query(() => [GroupModel], {
    description: "Every group: providers' (from the groups claim) and local ones",
  })
  @Requires(Permission.ADMIN)
  groups() {
    return this.people.groups();
  }

  @ResolveField(() => [UserModel])
  members(@Parent() group: GroupModel) {
    return this.people.groupMembers(group.id);
  }

  @Mutation(() => GroupModel, { description: 'A local group (its members added here, not by a provider)' })
  @Requires(Permission.ADMIN, undefined, { audit: AuditAction.GroupCreated })
  createGroup(@Args('name') name: string) {
    return this.people.createGroup(name);
  }

  @Mutation(() => GroupModel, { description: 'Deletes a group and the project roles given to it' })
  @Requires(Permission.ADMIN, undefined, { audit: AuditAction.GroupDeleted })
  deleteGroup(@Args('id', { type: () => ID }) id: string) {
    return this.people.deleteGroup(id);
  }

  @Mutation(() => GroupModel, {
    description: "Adds a person to a local group (a provider's group follows its claim)",
  })
  @Requires(Permission.ADMIN, undefined, { audit: AuditAction.GroupMemberAdded })
  addGroupMember(
    @Args('groupId', { type: () => ID }) groupId: string,
    @Args('userId', { type: () => ID }) userId: string,
  ) {
    return this.people.addMember(groupId, userId);
  }

  @Mutation(() => GroupModel, {
    description: 'Removes a person from a local group: it counts from their next request',
  })
  @Requires(Permission.ADMIN, undefined, { audit: AuditAction.GroupMemberRemoved })
  removeGroupMember(
    @Args('groupId', { type: () => ID }) groupId: string,
    @Args('userId', { type: () => ID }) userId: string,
  ) {
    return this.people.removeMember(groupId, userId);
  }

  @Query(() => [ProjectGrantModel], { description: 'The roles given in a project (its ADMINs)' })
  @Requires(Permission.ADMIN, project('projectId'))
  projectAccess(@Args('projectId', { type: () => ID }) projectId: string) {
    return this.people.projectAccess(projectId);
  }

  @Mutation(() => ProjectGrantModel, {
    description: 'Gives a person or a group a role in the project (replacing one given before)',
  })
  @Requires(Permission.ADMIN, project('input.projectId'), { audit: AuditAction.RoleGranted })
  grantProjectRole(@Args('input') input: GrantProjectRoleInput, @CurrentPrincipal() caller: Principal) {
    return this.people.grant(caller, input, input.role);
  }

  @Mutation(() => Boolean, {
    description: 'Takes a role in the project away (false when none was given): from the next request',
  })
  @Requires(Permission.ADMIN, project('input.projectId'), { audit: AuditAction.RoleRevoked })
  revokeProjectRole(@Args('input') input: GranteeInput) {
    return this.people.revoke(input);
  }
}
