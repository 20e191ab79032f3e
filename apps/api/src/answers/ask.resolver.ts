import { Inject } from '@nestjs/common';
import { Args, Context, Query, Resolver } from '@nestjs/graphql';
import type { Request } from 'express';
import { Answerer } from '@trove/answering';
import { Catalog } from '@trove/catalog';
import type { ApiConfig } from '@trove/config';
import { clientAbortSignal } from '../core/client-abort';
import { CONFIG } from '../core/tokens';
import type { Asker } from '../rag-config/rag-runtime';
import { askRequest, withSearchFilters } from './ask-request';
import { AnswerModel, AskInput, AskMode } from './ask.model';
import { Permission } from '@trove/domain';
import { askDuration, closedLabel, timed } from '@trove/metrics';
import { project, Requires } from '../access/access.decorators';

@Resolver()
export class AskResolver {
  constructor(
    @Inject(Answerer) private readonly answerer: Asker,
    @Inject(Catalog) private readonly catalog: Catalog,
    @Inject(CONFIG) private readonly config: Pick<ApiConfig, 'search'>,
  ) {}

  @Query(() => AnswerModel, {
    description: "Answers a question from the project's documents, with verified citations",
  })
  @Requires(Permission.READ, project('input.projectId'))
  ask(@Args('input') input: AskInput, @Context('req') req: Request): Promise<AnswerModel> {
    const mode = closedLabel(input.mode ?? AskMode.AUTO, Object.values(AskMode));
    return timed(askDuration, { mode, transport: 'graphql' }, () => this.askNow(input, req));
  }

  private async askNow(input: AskInput, req: Request): Promise<AnswerModel> {
    await this.catalog.requireProject(input.projectId);
    const request = await withSearchFilters(
      askRequest(input),
      input.search?.filters,
      this.catalog,
      this.config.search.maxFilterDocuments,
    );
    return this.answerer.ask(request, { signal: clientAbortSignal(req) });
  }
}
