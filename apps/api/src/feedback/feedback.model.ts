import { Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { Connection } from '../core/connection.model';

export enum FeedbackVoteValue {
  UP = 'UP',
  DOWN = 'DOWN',
}
registerEnumType(FeedbackVoteValue, { name: 'FeedbackVote', description: 'Thumbs up or down' });

export enum FeedbackTargetValue {
  ANSWER = 'ANSWER',
  PASSAGE = 'PASSAGE',
}
registerEnumType(FeedbackTargetValue, {
  name: 'FeedbackTarget',
  description: 'What a vote is about: the answer as a whole, or one of its passages',
});

@InputType({
  description:
    "A vote on an answer (or one of its passages) the key was given; voting again replaces the key's vote",
})
export class GiveFeedbackInput {
  @Field(() => ID, { description: 'The `answerId` of the answer (`ans_…`)' })
  answerId!: string;
  @Field(() => ID, {
    nullable: true,
    description: "A passage of the answer (one of its citations' chunks); unset: the answer as a whole",
  })
  chunkId?: string;
  @Field(() => FeedbackVoteValue) vote!: FeedbackVoteValue;
  @Field(() => String, { nullable: true, description: 'Why, in a few words (at most 2000 characters)' })
  comment?: string;
}

@ObjectType('Feedback', { description: 'A vote as recorded' })
export class FeedbackModel {
  @Field(() => ID) id!: string;
  @Field(() => ID) answerId!: string;
  @Field(() => FeedbackTargetValue) target!: FeedbackTargetValue;
  @Field(() => ID, { nullable: true, description: 'The voted passage (target PASSAGE)' })
  chunkId?: string;
  @Field(() => FeedbackVoteValue) vote!: FeedbackVoteValue;
  @Field(() => String, { nullable: true }) comment?: string;
  @Field({ description: 'When this key first voted here' }) createdAt!: string;
  @Field({ description: 'When it last voted here (vote and comment are from then)' }) updatedAt!: string;
}

@ObjectType('ContentGap', {
  description:
    'A question left unanswered (INSUFFICIENT_CONTEXT) or voted down: content the project is missing',
})
export class ContentGapModel {
  @Field({
    description: 'The question normalised (case, spacing, end punctuation): what answers are grouped by',
  })
  key!: string;
  @Field({ description: 'The question as last asked (a follow-up as rewritten)' }) question!: string;
  @Field(() => Int, {
    description:
      'Answers given to it (spellings that differ only in case, spacing or end punctuation count as one question)',
  })
  askCount!: number;
  @Field(() => Int, { description: 'Of those, answered INSUFFICIENT_CONTEXT' }) unansweredCount!: number;
  @Field(() => Int, { description: 'Down votes on its answers' }) downVoteCount!: number;
  @Field() lastAskedAt!: string;
  @Field(() => [String], { description: 'The latest comments of its down votes, newest first (at most 3)' })
  comments!: string[];
  @Field(() => [String], {
    description:
      "Who asked it: the people's names, the API keys' names ('admin key' for the bootstrap key); at most 20. " +
      'Content gaps are for ADMINs only, so only they see this',
  })
  askedBy!: string[];
}

@ObjectType('ContentGapConnection')
export class ContentGapConnection extends Connection(ContentGapModel, 'ContentGap') {}
