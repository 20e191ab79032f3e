import { Inject } from '@nestjs/common';
import { Args, ID, Query, Resolver } from '@nestjs/graphql';
import { ChunkModel } from './chunk.model';
import { ChunksService } from './chunks.service';
import { Permission } from '@trove/domain';
import { chunk, document, Requires } from '../access/access.decorators';

@Resolver(() => ChunkModel)
export class ChunksResolver {
  constructor(@Inject(ChunksService) private readonly service: ChunksService) {}

  @Query(() => [ChunkModel], { description: "A document's chunks in order (at most 10,000)" })
  @Requires(Permission.READ, document('documentId'))
  chunks(@Args('documentId', { type: () => ID }) documentId: string) {
    return this.service.list(documentId);
  }

  @Query(() => ChunkModel, { nullable: true })
  @Requires(Permission.READ, chunk('id', { nullable: true }))
  chunk(@Args('id', { type: () => ID }) id: string) {
    return this.service.get(id);
  }
}
