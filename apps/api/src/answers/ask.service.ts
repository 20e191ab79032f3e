import { Inject, Injectable } from '@nestjs/common';
import { Answerer, type AnswerEvent, type AskRequest } from '@trove/answering';
import { Catalog, type ProjectReads } from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import { CONFIG } from '../core/tokens';
import type { Asker } from '../rag-config/rag-runtime';
import type { SearchFiltersInput } from '../search/search.model';
import type { SearchScopeReader } from '../search/search-filters';
import { askRequest, parseStreamBody, withSearchFilters } from './ask-request';
import type { AnswerModel, AskInput } from './ask.model';

/**
 * A question about one project as every transport asks it: the input checked, the project
 * required, search filters resolved through the catalog, then answered with the current settings.
 * `signal` stops the work when the caller has gone.
 */
@Injectable()
export class AskService {
  constructor(
    // The current RAG settings' answerer (RagRuntime).
    @Inject(Answerer) private readonly answerer: Asker,
    @Inject(Catalog) private readonly catalog: Pick<ProjectReads, 'requireProject'> & SearchScopeReader,
    @Inject(CONFIG) private readonly config: Pick<ApiConfig, 'search'>,
  ) {}

  /** The whole answer at once (GraphQL `ask`). */
  async ask(input: AskInput, signal?: AbortSignal): Promise<AnswerModel> {
    await this.catalog.requireProject(input.projectId);
    const request = await this.withFilters(askRequest(input), input.search?.filters);
    return this.answerer.ask(request, { signal });
  }

  /**
   * The answer as it is written (the stream route, whose body is AskInput without projectId).
   * A bad body or an unknown project throws here, before any event.
   */
  async stream(projectId: string, body: unknown, signal?: AbortSignal): Promise<AsyncGenerator<AnswerEvent>> {
    const parsed = parseStreamBody(projectId, body);
    await this.catalog.requireProject(projectId);
    const request = await this.withFilters(parsed.request, parsed.filters);
    return this.answerer.stream(request, { signal });
  }

  private withFilters(request: AskRequest, filters: SearchFiltersInput | null | undefined) {
    return withSearchFilters(request, filters, this.catalog, this.config.search.maxFilterDocuments);
  }
}
