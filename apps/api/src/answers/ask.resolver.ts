import { Inject } from '@nestjs/common';
import { Args, Context, Query, Resolver } from '@nestjs/graphql';
import type { Request } from 'express';
import { AskMode, Permission, type Principal } from '@trove/domain';
import { askDuration, closedLabel, timed } from '@trove/metrics';
import { CurrentPrincipal, project, Requires } from '../access/access.decorators';
import { clientAbortSignal } from '../core/client-abort';
import { AnswerModel, AskInput } from './ask.model';
import { AskService } from './ask.service';

@Resolver()
export class AskResolver {
  constructor(@Inject(AskService) private readonly asks: AskService) {}

  @Query(() => AnswerModel, {
    description: "Answers a question from the project's documents, with verified citations",
  })
  @Requires(Permission.READ, project('input.projectId'), {
    countsAs: { kind: 'ask', text: 'input.question' },
  })
  ask(
    @Args('input') input: AskInput,
    @Context('req') req: Request,
    @CurrentPrincipal() principal: Principal,
  ): Promise<AnswerModel> {
    const mode = closedLabel(input.mode ?? AskMode.AUTO, Object.values(AskMode));
    return timed(askDuration, { mode, transport: 'graphql' }, () =>
      this.asks.ask(input, principal, clientAbortSignal(req)),
    );
  }
}
