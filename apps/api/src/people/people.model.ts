import { Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiKeyRole, CredentialKind, UserStatus } from '@trove/domain';
import { Connection } from '../core/connection.model';

registerEnumType(UserStatus, {
  name: 'UserStatus',
  valuesMap: {
    ACTIVE: { description: 'May sign in and use Trove' },
    DEACTIVATED: { description: 'Refused from the next request on; sessions and tokens ended' },
  },
});

registerEnumType(CredentialKind, {
  name: 'CredentialKind',
  description: 'What a request authenticated with',
});

@ObjectType('User', {
  description: 'A person: who their identity provider says they are, and their install-wide role',
})
export class UserModel {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) email?: string;
  @Field(() => String, { nullable: true, description: 'An https:// picture from the provider' })
  pictureUrl?: string;
  @Field(() => String, {
    nullable: true,
    description: 'The provider that signs them in; null until their first sign-in',
  })
  provider?: string;
  @Field(() => ApiKeyRole, {
    nullable: true,
    description: 'An install-wide role (every project); null: only their project roles',
  })
  role?: ApiKeyRole;
  @Field(() => UserStatus) status!: UserStatus;
  @Field() createdAt!: string;
  @Field(() => String, { nullable: true }) lastSeenAt?: string;
  @Field(() => String, { nullable: true }) deactivatedAt?: string;
}

@ObjectType('UserConnection')
export class UserConnection extends Connection(UserModel, 'User') {}

@ObjectType('Group', {
  description: "A group of people: a provider's (from the groups claim) or a local one",
})
export class GroupModel {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field(() => String, {
    nullable: true,
    description: 'The provider whose groups claim names it; null: a local group',
  })
  provider?: string;
  @Field(() => Int) memberCount!: number;
  @Field() createdAt!: string;
}

@ObjectType('ProjectGrant', { description: 'A role in a project, given to a person or to a group' })
export class ProjectGrantModel {
  @Field(() => ID) id!: string;
  @Field(() => ID) projectId!: string;
  @Field(() => UserModel, { nullable: true }) user?: UserModel;
  @Field(() => GroupModel, { nullable: true }) group?: GroupModel;
  @Field(() => ApiKeyRole) role!: ApiKeyRole;
  @Field() createdBy!: string;
  @Field() createdAt!: string;
}

@ObjectType('ProjectRole', { description: 'What the caller may do in one project' })
export class ProjectRoleModel {
  @Field(() => ID) projectId!: string;
  @Field(() => ApiKeyRole) role!: ApiKeyRole;
}

@InputType()
export class CreateUserInput {
  @Field({
    description:
      'Their email at the identity provider: their first sign-in (with that email verified) links them',
  })
  email!: string;
  @Field({ description: 'Shown until their first sign-in brings the provider’s' })
  name!: string;
  @Field(() => ApiKeyRole, {
    nullable: true,
    description: 'An install-wide role; ADMIN for an administrator',
  })
  role?: ApiKeyRole | null;
}

@InputType()
export class UpdateUserInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => ApiKeyRole, {
    nullable: true,
    description: 'The install-wide role (set clearRole to remove it)',
  })
  role?: ApiKeyRole | null;
  @Field(() => Boolean, { nullable: true, description: 'Removes the install-wide role' })
  clearRole?: boolean | null;
}

@InputType({
  description:
    'Who gets (or loses) a role in a project: one of user, email, group, or a provider group by name',
})
export class GranteeInput {
  @Field(() => ID) projectId!: string;
  @Field(() => ID, { nullable: true }) userId?: string | null;
  @Field(() => String, { nullable: true, description: 'A person by email' }) email?: string | null;
  @Field(() => ID, { nullable: true }) groupId?: string | null;
  @Field(() => String, {
    nullable: true,
    description:
      "A provider's group by its name in the groups claim (made if nobody in it has signed in yet); with groupProvider",
  })
  groupName?: string | null;
  @Field(() => String, { nullable: true, description: 'The provider of groupName' }) groupProvider?:
    string | null;
}

@InputType()
export class GrantProjectRoleInput extends GranteeInput {
  @Field(() => ApiKeyRole) role!: ApiKeyRole;
}

@ObjectType('PersonalToken', {
  description: 'A personal access token; its secret is shown once, when it is made',
})
export class PersonalTokenModel {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field({ description: 'The start of the token, to recognise it (trove_pat_0123abcd…)' }) prefix!: string;
  @Field() createdAt!: string;
  @Field(() => String, { nullable: true }) expiresAt?: string;
  @Field(() => String, { nullable: true, description: 'Updated at most once a minute' }) lastUsedAt?: string;
  @Field(() => String, { nullable: true }) revokedAt?: string;
}

@ObjectType('CreatedPersonalToken')
export class CreatedPersonalTokenModel {
  @Field(() => PersonalTokenModel) token!: PersonalTokenModel;
  @Field({ description: 'Send as Authorization: Bearer; shown only now' }) secret!: string;
}

@InputType()
export class CreatePersonalTokenInput {
  @Field({ description: '1-200 characters: what uses it' }) name!: string;
  @Field(() => Int, { nullable: true, description: 'Days until it expires (1-366); leave out for none' })
  expiresInDays?: number | null;
}
