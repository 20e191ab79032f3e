import { Inject } from '@nestjs/common';
import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { RagConfigModel, UpdateRagConfigInput } from './rag-config.model';
import { RagConfigService } from './rag-config.service';
import { AuditAction, Permission } from '@trove/domain';
import { Requires } from '../access/access.decorators';

@Resolver()
export class RagConfigResolver {
  constructor(@Inject(RagConfigService) private readonly service: RagConfigService) {}

  @Query(() => RagConfigModel, { description: 'Retrieval and answer settings in effect (secrets masked)' })
  @Requires(Permission.ADMIN)
  ragConfig() {
    return this.service.get();
  }

  @Mutation(() => RagConfigModel, {
    description:
      'Changes retrieval and answer settings without a restart (every api and worker picks them up within ' +
      'TROVE_INDEX_GENERATIONS_TTL_MS); an embedding model starts a background index rebuild',
  })
  @Requires(Permission.ADMIN, undefined, { audit: AuditAction.SettingsChanged })
  updateRagConfig(@Args('input') input: UpdateRagConfigInput) {
    return this.service.update(input);
  }
}
