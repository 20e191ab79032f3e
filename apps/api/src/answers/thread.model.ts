import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { AnswerMode } from '@trove/answering';
import { Connection } from '../core/connection.model';
import { AnswerCitationModel } from './ask.model';

@ObjectType('ThreadTurn', { description: 'A question of a thread and the answer it got, as recorded' })
export class ThreadTurnModel {
  @Field(() => ID, { description: 'The recorded answer (`Answer.answerId` when it was given)' })
  answerId!: string;
  @Field(() => Int, { description: 'The turn number, from 1' }) position!: number;
  @Field({ description: 'The question as asked' }) question!: string;
  @Field(() => String, {
    nullable: true,
    description: 'What retrieval searched for when the question was rewritten as a follow-up',
  })
  standaloneQuestion?: string;
  @Field(() => AnswerMode) mode!: string;
  @Field() answer!: string;
  @Field(() => [AnswerCitationModel]) citations!: AnswerCitationModel[];
  @Field() createdAt!: string;
}

@ObjectType('Thread', {
  description:
    "A conversation: one API key's questions about a project, kept as turns so follow-ups can be read in their light",
})
export class ThreadModel {
  @Field(() => ID) id!: string;
  @Field(() => ID) projectId!: string;
  @Field({ description: 'The first question, shortened, until renamed' }) title!: string;
  @Field(() => Int) turnCount!: number;
  @Field() createdAt!: string;
  @Field({ description: 'When the last turn was asked (or the thread renamed)' }) updatedAt!: string;
  @Field(() => [ThreadTurnModel], { description: 'The turns, in order' }) turns?: ThreadTurnModel[];
}

@ObjectType('ThreadConnection')
export class ThreadConnection extends Connection(ThreadModel, 'Thread') {}
