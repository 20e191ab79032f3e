import { Inject } from '@nestjs/common';
import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { AuditAction, Permission, type Principal } from '@trove/domain';
import { answer, CurrentPrincipal, project, Requires } from '../access/access.decorators';
import { PageArgs } from '../core/connection.model';
import { ContentGapConnection, FeedbackModel, GiveFeedbackInput } from './feedback.model';
import { FeedbackService } from './feedback.service';

@Resolver(() => FeedbackModel)
export class FeedbackResolver {
  constructor(@Inject(FeedbackService) private readonly feedback: FeedbackService) {}

  @Mutation(() => FeedbackModel, {
    description:
      'Thumbs up or down on an answer the key was given, or on one of its passages, with an optional comment; ' +
      "voting again replaces the key's vote. Votes become training data for the learned reranker (docs/ask.md)",
  })
  @Requires(Permission.READ, answer('input.answerId'), { audit: AuditAction.FeedbackGiven })
  giveFeedback(@Args('input') input: GiveFeedbackInput, @CurrentPrincipal() principal: Principal) {
    return this.feedback.give(input, principal);
  }

  @Query(() => [FeedbackModel], { description: "The calling key's votes on these answers of the project" })
  @Requires(Permission.READ, project('projectId'))
  myFeedback(
    @Args('projectId', { type: () => ID }) projectId: string,
    @Args('answerIds', { type: () => [ID] }) answerIds: string[],
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.feedback.mine(projectId, answerIds, principal);
  }

  @Query(() => ContentGapConnection, {
    description:
      "The project's content gaps (ADMIN keys): questions answered INSUFFICIENT_CONTEXT or voted down, " +
      'grouped by question, most recently asked first',
  })
  @Requires(Permission.ADMIN, project('projectId'))
  contentGaps(@Args('projectId', { type: () => ID }) projectId: string, @Args() page: PageArgs) {
    return this.feedback.gaps(projectId, page);
  }
}
