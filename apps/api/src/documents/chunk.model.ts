import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { CitationModel } from '../search/citation.model';

@ObjectType('Chunk', { description: 'A piece of a document as indexed, for inspection' })
export class ChunkModel {
  @Field(() => ID) id!: string;
  @Field(() => ID) documentId!: string;
  @Field(() => Int) position!: number;
  @Field() text!: string;
  @Field() title!: string;
  @Field(() => [String]) headingPath!: string[];
  @Field(() => Int, {
    nullable: true,
    description: 'PDF: the page the chunk starts on (1-based); presentations: the slide',
  })
  page?: number;
  @Field(() => Int, { nullable: true, description: 'PDF: the page the chunk ends on' }) pageEnd?: number;
  @Field({ nullable: true, description: 'EPUB: the chapter (table-of-contents entry)' }) chapter?: string;
  @Field({ nullable: true, description: 'Where the chunk starts in its source (heading id, Notion block)' })
  anchor?: string;
  @Field({ nullable: true, description: 'A link that opens the source at this place' }) citationUrl?: string;
  @Field(() => CitationModel, {
    nullable: true,
    description: 'The cited place as data (null for chunks indexed before it existed)',
  })
  citation?: CitationModel;
  @Field(() => Int, { description: "Size in the embedding model's tokens (calibrated estimate)" })
  tokenCount!: number;
  @Field({ description: 'Dominant script: en, ru, cjk or und' }) language!: string;
  @Field() hasCode!: boolean;
  @Field(() => [String]) codeLanguages!: string[];
}
