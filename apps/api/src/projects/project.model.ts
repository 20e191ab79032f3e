import { Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { ProjectStatus } from '@trove/domain';

registerEnumType(ProjectStatus, { name: 'ProjectStatus' });

@ObjectType('Project')
export class ProjectModel {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field(() => ProjectStatus, {
    description: 'DELETING from the moment deleteProject is called until the project is gone.',
  })
  status!: ProjectStatus;
  @Field() createdAt!: string;
}

@ObjectType('ProjectStats')
export class ProjectStatsModel {
  @Field(() => Int) documentCount!: number;
  @Field(() => Int, { description: 'Chunks indexed, summed over the documents' })
  chunkCount!: number;
}

@ObjectType('DocumentTypeCount', { description: 'A media type of the documents of a project' })
export class DocumentTypeCountModel {
  @Field({ description: 'As in Document.mediaType, and as SearchFiltersInput.mediaTypes takes it' })
  mediaType!: string;
  @Field({ description: 'What a person calls it: "PDF", "Markdown", "Pages (Notion, MkDocs)"' })
  label!: string;
  @Field(() => Int) documentCount!: number;
}

@InputType()
export class CreateProjectInput {
  @Field({
    description:
      'NFC-normalised and trimmed; 1-200 characters without control or invisible characters; unique ignoring case.',
  })
  name!: string;
}
