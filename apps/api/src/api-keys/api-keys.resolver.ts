import { Inject } from '@nestjs/common';
import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { UserRepository } from '@trove/catalog';
import { AuditAction, CredentialKind, Permission, type Principal, roleGrants } from '@trove/domain';
import { CurrentPrincipal, Requires } from '../access/access.decorators';
import { USERS } from '../core/catalog.providers';
import { ApiKeyModel, CallerModel, CreateApiKeyInput, CreatedApiKeyModel } from './api-key.model';
import { ApiKeysService } from './api-keys.service';

@Resolver(() => ApiKeyModel)
export class ApiKeysResolver {
  constructor(
    @Inject(ApiKeysService) private readonly service: ApiKeysService,
    @Inject(USERS) private readonly users: Pick<UserRepository, 'access'>,
  ) {}

  @Query(() => CallerModel, {
    description:
      'The key this request is made with: its role, permissions and projects (what a client may show)',
  })
  @Requires(Permission.READ)
  async me(@CurrentPrincipal() principal: Principal): Promise<CallerModel> {
    const access = principal.userId !== undefined ? await this.users.access(principal.userId) : undefined;
    return {
      keyId: principal.keyId,
      userId: principal.userId,
      credential: principal.credential ?? CredentialKind.API_KEY,
      name: access?.user.name ?? principal.name,
      email: access?.user.email,
      pictureUrl: access?.user.pictureUrl,
      role: principal.role,
      permissions: Object.values(Permission).filter((permission) => roleGrants(principal.role, permission)),
      projectIds: principal.projects === 'ALL' ? null : [...principal.projects],
      projectRoles: Object.entries(principal.projectRoles ?? {}).map(([projectId, role]) => ({
        projectId,
        role,
      })),
      groups: access?.groups ?? [],
    };
  }

  @Query(() => [ApiKeyModel], {
    description: 'Every API key, newest first (revoked ones too); never a secret',
  })
  @Requires(Permission.ADMIN)
  apiKeys() {
    return this.service.list();
  }

  @Mutation(() => CreatedApiKeyModel, { description: 'A new API key; the secret is in this answer only' })
  @Requires(Permission.ADMIN, undefined, { audit: AuditAction.ApiKeyCreated })
  createApiKey(@Args('input') input: CreateApiKeyInput, @CurrentPrincipal() principal: Principal) {
    return this.service.create(input, principal);
  }

  @Mutation(() => ApiKeyModel, { description: 'Revokes the key at once (a second call changes nothing)' })
  @Requires(Permission.ADMIN, undefined, { audit: AuditAction.ApiKeyRevoked })
  revokeApiKey(@Args('id', { type: () => ID }) id: string) {
    return this.service.revoke(id);
  }
}
