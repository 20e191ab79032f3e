import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DocumentOrigin, DocumentOriginReads, ProjectReads, SearchScopeReader } from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import { type SearchChunk, SearchMode } from '@trove/domain';
import { closedLabel, searchDuration, timed } from '@trove/metrics';
import { type FusionSettings, groupByDocument } from '@trove/search';
import { DOCUMENT_ORIGINS, PROJECT_READS, SEARCH_SCOPES } from '../core/catalog.providers';
import { CitationLinks } from '../core/citation-links';
import { CONFIG, SEARCHER } from '../core/tokens';
import type { Searcher } from '../rag-config/rag-runtime';
import { assertWellFormedQuery } from './query-text';
import { resolveSearchFilters } from './search-filters';
import type { FusionInput, SearchHitModel, SearchInput, SearchResultModel } from './search.model';

/**
 * A search of one project as every transport runs it: the query checked, source and date filters
 * resolved through the catalog, hybrid retrieval with the request's overrides, citations rendered
 * to links, hits grouped by document when asked.
 */
@Injectable()
export class SearchService {
  private readonly logger = new Logger('Search');

  constructor(
    // The current RAG settings' search (RagRuntime).
    @Inject(SEARCHER) private readonly hybrid: Searcher,
    @Inject(PROJECT_READS) private readonly projects: Pick<ProjectReads, 'requireProject'>,
    @Inject(SEARCH_SCOPES) private readonly scopes: SearchScopeReader,
    @Inject(DOCUMENT_ORIGINS) private readonly originReads: DocumentOriginReads,
    @Inject(CitationLinks) private readonly links: Pick<CitationLinks, 'render'>,
    @Inject(CONFIG) private readonly config: Pick<ApiConfig, 'search'>,
  ) {}

  /** `signal` stops the work when the caller has gone. */
  search(input: SearchInput, signal?: AbortSignal): Promise<SearchResultModel> {
    const mode = closedLabel(input.mode ?? SearchMode.HYBRID, Object.values(SearchMode));
    return timed(searchDuration, { mode }, () => this.searchNow(input, signal));
  }

  private async searchNow(input: SearchInput, signal?: AbortSignal): Promise<SearchResultModel> {
    const started = Date.now();
    assertWellFormedQuery(input.query, 'the search query');
    await this.projects.requireProject(input.projectId);
    const {
      fusion,
      filters,
      minScore,
      mmr,
      mmrLambda,
      maxPerDocument,
      groupByDocument: group,
      expand,
      rerank,
      rerankCandidates,
      explain,
      ...request
    } = input;
    const outcome = await this.hybrid.searchWithReport(
      {
        ...request,
        filters: await resolveSearchFilters(
          this.scopes,
          input.projectId,
          filters,
          this.config.search.maxFilterDocuments,
        ),
        results: {
          minScore: minScore ?? undefined,
          mmr: mmr ?? undefined,
          mmrLambda: mmrLambda ?? undefined,
          maxPerDocument: maxPerDocument ?? undefined,
          expand: expand ?? undefined,
        },
      },
      {
        signal,
        fusion: fusion && fusionSettings(fusion),
        rerank: rerank ?? undefined,
        rerankCandidates: rerankCandidates ?? undefined,
        explain: explain ?? false,
      },
    );
    if (outcome.rerank.warning) this.logger.warn(outcome.rerank.warning);
    const origins = await this.origins(input.projectId, outcome.hits);
    const shown = outcome.hits.map((hit) => ({
      ...this.linked(hit),
      ...originFields(origins.get(hit.documentId)),
      context: hit.context?.map((c) => this.linked(c)),
    }));
    return {
      hits: shown,
      groups: group
        ? groupByDocument(shown).map((g) => ({ ...g, passages: g.passages.map((p) => this.linked(p)) }))
        : undefined,
      tookMs: Date.now() - started,
      reranked: outcome.rerank.reranked,
      reranker: outcome.rerank.reranker,
      warnings: outcome.rerank.warning ? [outcome.rerank.warning] : [],
      timings: outcome.timings,
    };
  }

  /**
   * Where the hits' documents come from, read once for the distinct documents. The catalog
   * answers for the project's own documents only, so a hit can never name another project's source.
   */
  private async origins(projectId: string, hits: { documentId: string }[]) {
    const ids = [...new Set(hits.map((hit) => hit.documentId))];
    const origins = ids.length ? await this.originReads.documentOrigins(projectId, ids) : [];
    return new Map(origins.map((origin) => [origin.documentId, origin]));
  }

  /** Renders a chunk's (or passage's) citation to links the client can open. */
  private linked<T extends Pick<SearchChunk, 'citation' | 'citationUrl'>>(chunk: T): T {
    return {
      ...chunk,
      citationUrl: this.links.render(chunk.citation, chunk.citationUrl),
      citation: chunk.citation && { ...chunk.citation, url: this.links.render(chunk.citation) },
    };
  }
}

/** A hit's file and source names (none when its document has left the catalog since it was indexed). */
function originFields(
  origin: DocumentOrigin | undefined,
): Pick<SearchHitModel, 'fileName' | 'sourceId' | 'sourceName' | 'sourceType'> {
  if (!origin) return {};
  return {
    fileName: origin.fileName,
    sourceId: origin.source?.id,
    sourceName: origin.source?.name,
    sourceType: origin.source?.type,
  };
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
