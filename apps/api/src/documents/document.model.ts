import { Field, Float, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { Connection } from '../core/connection.model';
import { type ErrorCode, ErrorCodeEnum } from '../core/error-code.model';
import { DocumentStatus } from '@trove/domain';

registerEnumType(DocumentStatus, { name: 'DocumentStatus' });

@ObjectType('DocumentError')
export class DocumentErrorModel {
  @Field(() => ErrorCodeEnum, { description: 'Stable machine-readable code, e.g. EMPTY_DOCUMENT' })
  code!: ErrorCode;
  @Field({ description: 'Why the document failed, for people' }) message!: string;
}

@ObjectType('StageTimings', { description: 'Milliseconds each pipeline stage took in the last ingest' })
export class StageTimingsModel {
  @Field(() => Int, { nullable: true }) fetchMs?: number;
  @Field(() => Int, { nullable: true }) parseMs?: number;
  @Field(() => Int, { nullable: true }) chunkMs?: number;
  @Field(() => Int, { nullable: true }) embedMs?: number;
  @Field(() => Int, { nullable: true }) upsertMs?: number;
  @Field(() => Int, { nullable: true }) totalMs?: number;
}

@ObjectType('DocumentProgress', { description: 'Where a long ingest stands while the document is INDEXING' })
export class DocumentProgressModel {
  @Field({ description: 'The long stage: ocr (a scan read page by page)' }) stage!: string;
  @Field(() => Int, { description: 'The last page done' }) page!: number;
  @Field(() => Int, { nullable: true, description: "The document's pages, when known" }) pageCount?: number;
  @Field({ description: 'When that page was done' }) at!: string;
}

@ObjectType('Document')
export class DocumentModel {
  @Field(() => ID) id!: string;
  @Field(() => ID) projectId!: string;
  @Field() fileName!: string;
  @Field() mediaType!: string;
  @Field(() => Float) sizeBytes!: number;
  @Field({ nullable: true }) title?: string;
  @Field({ nullable: true, description: 'Dominant script of the text: en, ru, cjk or und' })
  language?: string;
  @Field(() => DocumentStatus) status!: DocumentStatus;
  @Field(() => DocumentErrorModel, { nullable: true }) error?: DocumentErrorModel;
  @Field(() => Int) chunkCount!: number;
  @Field(() => StageTimingsModel) timings!: StageTimingsModel;
  @Field() createdAt!: string;
  @Field() updatedAt!: string;
  @Field({ nullable: true }) indexedAt?: string;
  @Field(() => ID, { nullable: true, description: 'The source the document comes from, if any' })
  sourceId?: string;
  @Field({ nullable: true, description: "The item's id in its source: a Notion page id, a path in a folder" })
  externalId?: string;
  @Field({
    nullable: true,
    description: 'Link to the original: a Notion page, a MkDocs page, or the stored file',
  })
  url?: string;
  @Field(() => Int, { nullable: true, description: 'Pages (PDF)' }) pageCount?: number;
  @Field(() => [String], { description: 'What the parser could not interpret and left as text' })
  warnings!: string[];
  @Field(() => DocumentProgressModel, {
    nullable: true,
    description: 'While INDEXING: how far a long stage got (OCR page N of M); null otherwise',
  })
  progress?: DocumentProgressModel;
}

@ObjectType('DocumentConnection')
export class DocumentConnection extends Connection(DocumentModel, 'Document') {}
