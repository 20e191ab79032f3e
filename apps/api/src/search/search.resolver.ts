import { Inject } from '@nestjs/common';
import { Args, Context, Query, Resolver } from '@nestjs/graphql';
import type { Request } from 'express';
import { Catalog } from '@trove/catalog';
import { type FusionSettings, HybridSearch } from '@trove/search';
import { CitationLinks } from '../core/citation-links';
import { clientAbortSignal } from '../core/client-abort';
import { type FusionInput, SearchInput, SearchResultModel } from './search.model';

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
    const { fusion, ...request } = input;
    const hits = await this.hybrid.search(request, {
      signal: clientAbortSignal(req),
      fusion: fusion && fusionSettings(fusion),
    });
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

/** GraphQL's enum values to the search lib's; k and weight are range-checked by HybridSearch. */
export function fusionSettings(input: FusionInput): Partial<FusionSettings> {
  return {
    method: input.method === 'CONVEX' ? 'convex' : 'rrf',
    k: input.k ?? undefined,
    vectorWeight: input.vectorWeight ?? undefined,
    normalization: input.normalization && (input.normalization === 'ZSCORE' ? 'zscore' : 'minmax'),
  };
}
