import { Field, ID, InputType, ObjectType } from '@nestjs/graphql';

@ObjectType('Project')
export class ProjectModel {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field() createdAt!: string;
}

@InputType()
export class CreateProjectInput {
  @Field() name!: string;
}
