import { Inject, Logger } from '@nestjs/common';
import { Args, Context, Query, Resolver } from '@nestjs/graphql';
import type { Request } from 'express';
import { Catalog } from '@trove/catalog';
import { type FusionSettings, HybridSearch } from '@trove/search';
import { CitationLinks } from '../core/citation-links';
import { clientAbortSignal } from '../core/client-abort';
import { type FusionInput, SearchInput, SearchResultModel } from './search.model';

@Resolver()
export class SearchResolver {
  private readonly logger = new Logger(SearchResolver.name);

  constructor(
    @Inject(HybridSearch) private readonly hybrid: HybridSearch,
    @Inject(Catalog) private readonly catalog: Catalog,
    @Inject(CitationLinks) private readonly links: CitationLinks,
  ) {}

  @Query(() => SearchResultModel)
  async search(@Args('input') input: SearchInput, @Context('req') req: Request): Promise<SearchResultModel> {
    const started = Date.now();
    await this.catalog.requireProject(input.projectId);
    const { fusion, rerank, rerankCandidates, explain, ...request } = input;
    const outcome = await this.hybrid.searchWithReport(request, {
      signal: clientAbortSignal(req),
      fusion: fusion && fusionSettings(fusion),
      rerank: rerank ?? undefined,
      rerankCandidates: rerankCandidates ?? undefined,
      explain: explain ?? false,
    });
    const { hits } = outcome;
    if (outcome.rerank.warning) this.logger.warn(outcome.rerank.warning);
    return {
      hits: hits.map((hit) => ({
        ...hit,
        citationUrl: this.links.render(hit.citation, hit.citationUrl),
        citation: hit.citation && { ...hit.citation, url: this.links.render(hit.citation) },
      })),
      tookMs: Date.now() - started,
      reranked: outcome.rerank.reranked,
      reranker: outcome.rerank.reranker,
      warnings: outcome.rerank.warning ? [outcome.rerank.warning] : [],
      timings: outcome.timings,
    };
  }
}

/** GraphQL's enum values to the search lib's; k and weight are range-checked by HybridSearch. */
function fusionSettings(input: FusionInput): Partial<FusionSettings> {
  return {
    method: input.method === 'CONVEX' ? 'convex' : 'rrf',
    k: input.k ?? undefined,
    vectorWeight: input.vectorWeight ?? undefined,
    normalization: input.normalization && (input.normalization === 'ZSCORE' ? 'zscore' : 'minmax'),
  };
}
