import { Field, ID, InputType, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ApiKeyRole, CredentialKind, Permission } from '@trove/domain';
import { ProjectRoleModel } from '../people/people.model';

registerEnumType(ApiKeyRole, {
  name: 'ApiKeyRole',
  valuesMap: {
    ADMIN: {
      description: 'Everything in every project: keys, global settings, creating and deleting projects',
    },
    EDITOR: { description: 'Read and write content and sources of its projects' },
    VIEWER: { description: 'Search and read its projects' },
  },
});

registerEnumType(Permission, {
  name: 'Permission',
  valuesMap: {
    READ: { description: 'Search and read' },
    WRITE: { description: 'Write content and sources' },
    ADMIN: { description: 'API keys, global settings, creating and deleting projects' },
  },
});

@ObjectType('Caller', {
  description:
    'Who a request is made by (an API key, or a person with their session or token): what they may do, and where',
})
export class CallerModel {
  @Field(() => ID, {
    nullable: true,
    description: 'The API key; null for the admin key from configuration and for people',
  })
  keyId?: string;
  @Field(() => ID, { nullable: true, description: 'The person; null for API keys' })
  userId?: string;
  @Field(() => CredentialKind, { description: 'What the request authenticated with' })
  credential!: CredentialKind;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) email?: string;
  @Field(() => String, { nullable: true, description: 'A person’s picture from their provider (https)' })
  pictureUrl?: string;
  @Field(() => ApiKeyRole, {
    description:
      'The role everywhere (a person without an install-wide role: VIEWER, for listing what they reach)',
  })
  role!: ApiKeyRole;
  @Field(() => [Permission], { description: 'Permissions of `role`, for operations that name no project' })
  permissions!: Permission[];
  @Field(() => [ID], { nullable: true, description: 'The projects the caller reaches; null: every project' })
  projectIds!: string[] | null;
  @Field(() => [ProjectRoleModel], {
    description: 'A person’s role in each project given to them or their groups',
  })
  projectRoles!: ProjectRoleModel[];
  @Field(() => [String], { description: 'A person’s groups' })
  groups!: string[];
}

@ObjectType('ApiKey', { description: 'An API key; its secret is shown once, when it is created' })
export class ApiKeyModel {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field(() => ApiKeyRole) role!: ApiKeyRole;
  @Field(() => [ID], { nullable: true, description: 'The projects the key reaches; null: every project' })
  projectIds!: string[] | null;
  @Field({ description: 'The start of the key, to recognise it (trove_0123abcd…); never the secret' })
  prefix!: string;
  @Field({ description: 'The key that created it' })
  createdBy!: string;
  @Field() createdAt!: string;
  @Field(() => String, { nullable: true, description: 'Updated at most once a minute' })
  lastUsedAt?: string;
  @Field(() => String, { nullable: true })
  revokedAt?: string;
}

@ObjectType('CreatedApiKey')
export class CreatedApiKeyModel {
  @Field(() => ApiKeyModel) apiKey!: ApiKeyModel;
  @Field({ description: 'The key to send as X-API-Key; shown only now, store it safely' })
  secret!: string;
}

@InputType()
export class CreateApiKeyInput {
  @Field({ description: '1-200 characters, for people: who or what uses the key' })
  name!: string;
  @Field(() => ApiKeyRole)
  role!: ApiKeyRole;
  @Field(() => [ID], {
    nullable: true,
    description:
      'The projects the key reaches; leave out for every project (ADMIN keys always reach every project)',
  })
  projectIds?: string[] | null;
}
