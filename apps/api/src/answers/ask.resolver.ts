import { Inject } from '@nestjs/common';
import { Args, Context, Query, Resolver } from '@nestjs/graphql';
import type { Request } from 'express';
import { Answerer } from '@trove/answering';
import { Catalog } from '@trove/catalog';
import { clientAbortSignal } from '../core/client-abort';
import { askRequest } from './ask-request';
import { AnswerModel, AskInput } from './ask.model';

@Resolver()
export class AskResolver {
  constructor(
    @Inject(Answerer) private readonly answerer: Answerer,
    @Inject(Catalog) private readonly catalog: Catalog,
  ) {}

  @Query(() => AnswerModel, {
    description: "Answers a question from the project's documents, with verified citations",
  })
  async ask(@Args('input') input: AskInput, @Context('req') req: Request): Promise<AnswerModel> {
    await this.catalog.requireProject(input.projectId);
    return this.answerer.ask(askRequest(input), { signal: clientAbortSignal(req) });
  }
}
