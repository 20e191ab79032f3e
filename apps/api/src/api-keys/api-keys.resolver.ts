import { Inject } from '@nestjs/common';
import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Permission, type Principal } from '@trove/domain';
import { CurrentPrincipal, Requires } from '../access/access.decorators';
import { ApiKeyModel, CreateApiKeyInput, CreatedApiKeyModel } from './api-key.model';
import { ApiKeysService } from './api-keys.service';

@Resolver(() => ApiKeyModel)
export class ApiKeysResolver {
  constructor(@Inject(ApiKeysService) private readonly service: ApiKeysService) {}

  @Query(() => [ApiKeyModel], {
    description: 'Every API key, newest first (revoked ones too); never a secret',
  })
  @Requires(Permission.ADMIN)
  apiKeys() {
    return this.service.list();
  }

  @Mutation(() => CreatedApiKeyModel, { description: 'A new API key; the secret is in this answer only' })
  @Requires(Permission.ADMIN)
  createApiKey(@Args('input') input: CreateApiKeyInput, @CurrentPrincipal() principal: Principal) {
    return this.service.create(input, principal);
  }

  @Mutation(() => ApiKeyModel, { description: 'Revokes the key at once (a second call changes nothing)' })
  @Requires(Permission.ADMIN)
  revokeApiKey(@Args('id', { type: () => ID }) id: string) {
    return this.service.revoke(id);
  }
}
