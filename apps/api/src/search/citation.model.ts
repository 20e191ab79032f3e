import { Field, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import type { Citation } from '@trove/domain';

export enum CitationKind {
  /** An uploaded file: `url` opens the API's copy (signed, expiring) at the page or anchor. */
  original = 'original',
  /** An item of a source: `url` opens it in its system (a Notion block, a site page's heading). */
  source = 'source',
}

registerEnumType(CitationKind, { name: 'CitationKind' });

@ObjectType('Citation', { description: 'Where a chunk comes from, as data; `url` opens it' })
export class CitationModel {
  // The enum's values are the domain's kinds.
  @Field(() => CitationKind) kind!: Citation['kind'];
  @Field(() => ID) documentId!: string;
  @Field(() => Int, {
    nullable: true,
    description: 'PDF: the page the chunk starts on; presentations (PPTX, ODP): the slide',
  })
  page?: number;
  @Field({ nullable: true, description: 'Spreadsheets (XLSX, XLS, ODS): the sheet' }) sheet?: string;
  @Field(() => Int, {
    nullable: true,
    description: "Spreadsheets and CSV files: the first sheet row (CSV: record) of the chunk's table rows",
  })
  rowStart?: number;
  @Field(() => Int, {
    nullable: true,
    description: "Spreadsheets and CSV files: the last row of the chunk's table rows",
  })
  rowEnd?: number;
  @Field({ nullable: true, description: 'Heading or block anchor of the cited place' }) anchor?: string;
  @Field({ nullable: true }) url?: string;
}
