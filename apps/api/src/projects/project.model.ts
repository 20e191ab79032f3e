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

@ObjectType('ProjectSettings', {
  description: "A project's own settings (each at its default unless changed)",
})
export class ProjectSettingsModel {
  @Field({
    description:
      'Read scans and images by OCR (default true). Off: a scanned PDF fails with NO_TEXT_LAYER, and an image too. ' +
      'Applies to documents ingested from then on; re-index a document to apply it there.',
  })
  ocr!: boolean;
}

@InputType()
export class ProjectSettingsInput {
  @Field({ nullable: true, description: 'Read scans and images by OCR; unset: unchanged' }) ocr?: boolean;
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
