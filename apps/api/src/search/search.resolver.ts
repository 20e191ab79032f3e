import { Inject } from '@nestjs/common';
import { Args, Context, Query, Resolver } from '@nestjs/graphql';
import type { Request } from 'express';
import { Catalog } from '@trove/catalog';
import { HybridSearch } from '@trove/search';
import { CitationLinks } from '../core/citation-links';
import { clientAbortSignal } from '../core/client-abort';
import { SearchInput, SearchResultModel } from './search.model';

@Resolver()
export class SearchResolver {
  constructor(
    @Inject(HybridSearch) private readonly hybrid: HybridSearch,
    @Inject(Catalog) private readonly catalog: Catalog,
    @Inject(CitationLinks) private readonly links: CitationLinks,
  ) {}

  @Query(() => SearchResultModel)
  async search(@Args('input') input: SearchInput, @Context('req') req: Request): Promise<SearchResultModel> {
    const started = Date.now();
    await this.catalog.requireProject(input.projectId);
    const hits = await this.hybrid.search(input, { signal: clientAbortSignal(req) });
    return {
      hits: hits.map((hit) => ({
        ...hit,
        citationUrl: this.links.render(hit.citation, hit.citationUrl),
        citation: hit.citation && { ...hit.citation, url: this.links.render(hit.citation) },
      })),
      tookMs: Date.now() - started,
    };
  }
}
