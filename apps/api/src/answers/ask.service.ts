import { Inject, Injectable } from '@nestjs/common';
import {
  Answerer,
  type AnswerEvent,
  type AnswerPassage,
  type AnswerResult,
  type AskRequest,
} from '@trove/answering';
import { type AnswerRecords, Catalog, type ProjectReads } from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import { type Principal, TroveError, TroveErrorCode } from '@trove/domain';
import { CitationLinks } from '../core/citation-links';
import { CONFIG } from '../core/tokens';
import type { Asker } from '../rag-config/rag-runtime';
import type { SearchFiltersInput } from '../search/search.model';
import type { SearchScopeReader } from '../search/search-filters';
import { answerHits } from './answer-hits';
import { askRequest, parseStreamBody, withSearchFilters } from './ask-request';
import type { AskInput } from './ask.model';

/** An answer as `ask` returns it: the answerer's result and the id it was recorded under. */
export type AskOutcome = AnswerResult & { answerId: string };

/** The answerer's events, the last one carrying the recorded answer. */
export type AskEvent = Exclude<AnswerEvent, { type: 'done' }> | { type: 'done'; result: AskOutcome };

/** The catalog as asking uses it. */
export type AskCatalog = Pick<ProjectReads, 'requireProject'> &
  SearchScopeReader &
  Pick<AnswerRecords, 'recordAnswer'>;

/**
 * A question about one project as every transport asks it: the input checked, the project
 * required, search filters resolved through the catalog, then answered with the current settings
 * and recorded (question, answer, citations, and the passages with their reranker features).
 * The record is written before the last event: an answer that cannot be recorded fails (the
 * catalog's error), so every answer a client holds has its id. `signal` stops the work when the
 * caller has gone.
 */
@Injectable()
export class AskService {
  constructor(
    // The current RAG settings' answerer (RagRuntime).
    @Inject(Answerer) private readonly answerer: Asker,
    @Inject(Catalog) private readonly catalog: AskCatalog,
    @Inject(CONFIG) private readonly config: Pick<ApiConfig, 'search'>,
    @Inject(CitationLinks) private readonly links: Pick<CitationLinks, 'unsigned'>,
  ) {}

  /** The whole answer at once (GraphQL `ask`). */
  async ask(input: AskInput, asker: Principal | undefined, signal?: AbortSignal): Promise<AskOutcome> {
    await this.catalog.requireProject(input.projectId);
    const request = await this.withFilters(askRequest(input), input.search?.filters);
    for await (const event of this.answer(request, asker, signal)) {
      if (event.type === 'done') return event.result;
    }
    throw new TroveError(TroveErrorCode.Internal, 'the answer stream ended without a result');
  }

  /**
   * The answer as it is written (the stream route, whose body is AskInput without projectId).
   * A bad body or an unknown project throws here, before any event.
   */
  async stream(
    projectId: string,
    body: unknown,
    asker: Principal | undefined,
    signal?: AbortSignal,
  ): Promise<AsyncGenerator<AskEvent>> {
    const parsed = parseStreamBody(projectId, body);
    await this.catalog.requireProject(projectId);
    const request = await this.withFilters(parsed.request, parsed.filters);
    return this.answer(request, asker, signal);
  }

  private async *answer(
    request: AskRequest,
    asker: Principal | undefined,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<AskEvent> {
    let passages: AnswerPassage[] = [];
    for await (const event of this.answerer.stream(request, { signal })) {
      if (event.type !== 'done') {
        if (event.type === 'retrieval') passages = event.passages;
        yield event;
        continue;
      }
      const answerId = await this.record(request, event.result, passages, asker);
      yield { type: 'done', result: { ...event.result, answerId } };
    }
  }

  private record(
    request: AskRequest,
    result: AnswerResult,
    passages: AnswerPassage[],
    asker: Principal | undefined,
  ): Promise<string> {
    return this.catalog.recordAnswer({
      projectId: request.projectId,
      apiKeyId: asker?.keyId,
      question: request.question,
      mode: result.mode,
      answer: result.answer,
      // Links to originals are kept unsigned: a signature is for the moment it is served.
      citations: result.citations.map((citation) => ({
        ...citation,
        citationUrl: this.links.unsigned(citation.citationUrl),
      })),
      hits: answerHits(passages),
    });
  }

  private withFilters(request: AskRequest, filters: SearchFiltersInput | null | undefined) {
    return withSearchFilters(request, filters, this.catalog, this.config.search.maxFilterDocuments);
  }
}
