import { Inject } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import { Catalog } from '@trove/catalog';
import { HybridSearch } from '@trove/search';
import { CitationLinks } from '../core/citation-links';
import { SearchInput, SearchResultModel } from './search.model';

@Resolver()
export class SearchResolver {
  constructor(
    @Inject(HybridSearch) private readonly hybrid: HybridSearch,
    @Inject(Catalog) private readonly catalog: Catalog,
    @Inject(CitationLinks) private readonly links: CitationLinks,
  ) {}

  @Query(() => SearchResultModel)
  async search(@Args('input') input: SearchInput): Promise<SearchResultModel> {
    const started = Date.now();
    await this.catalog.requireProject(input.projectId);
    const hits = await this.hybrid.search(input);
    return {
      hits: hits.map((hit) => ({ ...hit, citationUrl: this.links.absolute(hit.citationUrl) })),
      tookMs: Date.now() - started,
    };
  }
}
