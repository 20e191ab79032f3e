import { Inject, Injectable } from '@nestjs/common';
import { type AnswerEvent, type AnswerPassage, type AnswerResult, type AskRequest } from '@trove/answering';
import type { AnswerRecords, ProjectReads, SearchScopeReader } from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import { ownerOf, type Principal, TroveError, TroveErrorCode } from '@trove/domain';
import { ANSWER_RECORDS, PROJECT_READS, SEARCH_SCOPES } from '../core/catalog.providers';
import { CitationLinks } from '../core/citation-links';
import { ASKER, CONFIG } from '../core/tokens';
import type { Asker } from '../rag-config/rag-runtime';
import type { SearchFiltersInput } from '../search/search.model';
import { answerHits } from './answer-hits';
import { askRequest, parseStreamBody, withSearchFilters } from './ask-request';
import type { AskInput } from './ask.model';
import { type QuestionThread, ThreadsService } from './threads.service';

/** An answer as `ask` returns it: the answerer's result, the id it was recorded under, its thread. */
export type AskOutcome = AnswerResult & { answerId: string; threadId?: string };

/** The answerer's events, the last one carrying the recorded answer. */
export type AskEvent = Exclude<AnswerEvent, { type: 'done' }> | { type: 'done'; result: AskOutcome };

/**
 * A question about one project as every transport asks it: the input checked, the project
 * required, search filters resolved through the catalog, the thread (when it names one) read for
 * the earlier turns a follow-up is rewritten from, then answered with the current settings and
 * recorded (question, standalone question, answer, citations, and the passages with their
 * reranker features) — as the thread's next turn when it is in one.
 * The record is written before the last event: an answer that cannot be recorded fails (the
 * catalog's error), so every answer a client holds has its id. `signal` stops the work when the
 * caller has gone.
 */
@Injectable()
export class AskService {
  constructor(
    // The current RAG settings' answerer (RagRuntime).
    @Inject(ASKER) private readonly answerer: Asker,
    @Inject(PROJECT_READS) private readonly projects: Pick<ProjectReads, 'requireProject'>,
    @Inject(SEARCH_SCOPES) private readonly scopes: SearchScopeReader,
    @Inject(ANSWER_RECORDS) private readonly answers: Pick<AnswerRecords, 'recordAnswer'>,
    @Inject(CONFIG) private readonly config: Pick<ApiConfig, 'search'>,
    @Inject(CitationLinks) private readonly links: Pick<CitationLinks, 'unsigned'>,
    @Inject(ThreadsService) private readonly threads: Pick<ThreadsService, 'forQuestion'>,
  ) {}

  /** The whole answer at once (GraphQL `ask`). */
  async ask(input: AskInput, asker: Principal, signal?: AbortSignal): Promise<AskOutcome> {
    await this.projects.requireProject(input.projectId);
    const request = await this.withFilters(askRequest(input), input.search?.filters);
    const thread = await this.threads.forQuestion(asker, input.projectId, input, input.question);
    for await (const event of this.answer(request, thread, asker, signal)) {
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
    asker: Principal,
    signal?: AbortSignal,
  ): Promise<AsyncGenerator<AskEvent>> {
    const parsed = parseStreamBody(projectId, body);
    await this.projects.requireProject(projectId);
    const request = await this.withFilters(parsed.request, parsed.filters);
    const thread = await this.threads.forQuestion(asker, projectId, parsed.thread, request.question);
    return this.answer(request, thread, asker, signal);
  }

  private async *answer(
    request: AskRequest,
    thread: QuestionThread,
    asker: Principal,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<AskEvent> {
    let passages: AnswerPassage[] = [];
    const asked = thread.history?.length ? { ...request, history: thread.history } : request;
    for await (const event of this.answerer.stream(asked, { signal })) {
      if (event.type !== 'done') {
        if (event.type === 'retrieval') passages = event.passages;
        yield event;
        continue;
      }
      const answerId = await this.record(request, thread, event.result, passages, asker);
      yield {
        type: 'done',
        result: { ...event.result, answerId, ...(thread.threadId ? { threadId: thread.threadId } : {}) },
      };
    }
  }

  private record(
    request: AskRequest,
    thread: QuestionThread,
    result: AnswerResult,
    passages: AnswerPassage[],
    asker: Principal,
  ): Promise<string> {
    return this.answers.recordAnswer({
      projectId: request.projectId,
      thread: thread.record,
      ...ownerOf(asker),
      question: request.question,
      standaloneQuestion: result.standaloneQuestion,
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
    return withSearchFilters(request, filters, this.scopes, this.config.search.maxFilterDocuments);
  }
}
