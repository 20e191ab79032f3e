import { Inject } from '@nestjs/common';
import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { EmbeddingIndexModel, EmbeddingModelInput, IndexGenerationModel } from './index-generation.model';
import { IndexGenerationsService } from './index-generations.service';
import { AuditAction, Permission } from '@trove/domain';
import { Requires } from '../access/access.decorators';

@Resolver()
export class IndexGenerationsResolver {
  constructor(@Inject(IndexGenerationsService) private readonly generations: IndexGenerationsService) {}

  @Query(() => EmbeddingIndexModel, {
    description: 'The embedding model the chunk index is built with, and a rebuild under way',
  })
  @Requires(Permission.ADMIN)
  embeddingIndex() {
    return this.generations.status();
  }

  @Mutation(() => IndexGenerationModel, {
    description:
      'Rebuilds the chunk index for another embedding model in the background and swaps it in when ' +
      'complete; searches keep using the current model meanwhile. Follow it with `embeddingIndex`.',
  })
  @Requires(Permission.ADMIN, undefined, { audit: AuditAction.SettingsChanged })
  changeEmbeddingModel(@Args('input') input: EmbeddingModelInput) {
    return this.generations.change(input);
  }

  @Mutation(() => IndexGenerationModel, {
    nullable: true,
    description: 'Cancels the rebuild under way (null when none is); the current model stays',
  })
  @Requires(Permission.ADMIN, undefined, { audit: AuditAction.SettingsChanged })
  cancelIndexRebuild() {
    return this.generations.cancel();
  }
}
