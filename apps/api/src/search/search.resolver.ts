import { Inject } from '@nestjs/common';
import { Args, Context, Query, Resolver } from '@nestjs/graphql';
import type { Request } from 'express';
import { Permission } from '@trove/domain';
import { project, Requires } from '../access/access.decorators';
import { clientAbortSignal } from '../core/client-abort';
import { SearchInput, SearchResultModel } from './search.model';
import { SearchService } from './search.service';

@Resolver()
export class SearchResolver {
  constructor(@Inject(SearchService) private readonly searches: SearchService) {}

  @Query(() => SearchResultModel)
  @Requires(Permission.READ, project('input.projectId'), {
    countsAs: { kind: 'search', text: 'input.query' },
  })
  search(@Args('input') input: SearchInput, @Context('req') req: Request): Promise<SearchResultModel> {
    return this.searches.search(input, clientAbortSignal(req));
  }
}
