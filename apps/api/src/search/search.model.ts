import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { SearchMode } from '@trove/domain';
import { CitationModel } from './citation.model';

registerEnumType(SearchMode, { name: 'SearchMode' });

export enum FusionMethod {
  RRF = 'RRF',
  CONVEX = 'CONVEX',
}
registerEnumType(FusionMethod, {
  name: 'FusionMethod',
  description: 'How HYBRID merges the BM25 and kNN legs',
  valuesMap: {
    RRF: { description: 'Reciprocal rank fusion: Σ 1 / (k + rank)' },
    CONVEX: { description: 'vectorWeight·norm(kNN score) + (1 − vectorWeight)·norm(BM25 score)' },
  },
});

export enum ScoreNormalization {
  MINMAX = 'MINMAX',
  ZSCORE = 'ZSCORE',
}
registerEnumType(ScoreNormalization, {
  name: 'ScoreNormalization',
  description: "CONVEX: per-query normalisation of each leg's scores over its candidates",
});

@InputType({ description: 'Fusion for this request; unset fields keep the server configuration' })
export class FusionInput {
  @Field(() => FusionMethod) method!: FusionMethod;
  @Field(() => Int, { nullable: true, description: 'RRF k, 1 to 1000' }) k?: number;
  @Field(() => Float, { nullable: true, description: 'CONVEX: weight of the vector leg, 0 to 1' })
  vectorWeight?: number;
  @Field(() => ScoreNormalization, { nullable: true }) normalization?: ScoreNormalization;
}

@InputType()
export class SearchInput {
  @Field(() => ID) projectId!: string;
  @Field() query!: string;
  @Field(() => Int, { defaultValue: 10, description: '1 to 100' }) limit!: number;
  @Field(() => SearchMode, { defaultValue: SearchMode.HYBRID }) mode!: SearchMode;
  @Field(() => FusionInput, { nullable: true, description: 'Overrides the configured fusion' })
  fusion?: FusionInput;
}

@ObjectType('LegRank', { description: "A hit's place in one retrieval leg before fusion" })
export class LegRankModel {
  @Field(() => Int) rank!: number;
  @Field(() => Float) score!: number;
}

@ObjectType('SearchHit')
export class SearchHitModel {
  @Field(() => ID) chunkId!: string;
  @Field(() => ID) documentId!: string;
  @Field() title!: string;
  @Field(() => [String]) headingPath!: string[];
  @Field() text!: string;
  @Field(() => Int) position!: number;
  @Field(() => Float, { description: 'Fused score (RRF or convex combination, as configured or requested)' })
  score!: number;
  @Field({
    nullable: true,
    description:
      'Link to the cited place: a Notion block, a MkDocs page anchor, or the original file (#page=N)',
  })
  citationUrl?: string;
  @Field(() => CitationModel, {
    nullable: true,
    description: 'The cited place as data (null for chunks indexed before it existed)',
  })
  citation?: CitationModel;
  @Field({ nullable: true }) anchor?: string;
  @Field(() => Int, { nullable: true, description: 'PDF: first page of the chunk' }) page?: number;
  @Field(() => Int, { nullable: true, description: 'PDF: last page of the chunk' }) pageEnd?: number;
  @Field({ nullable: true, description: 'EPUB: chapter' }) chapter?: string;
  @Field(() => LegRankModel, { nullable: true, description: 'BM25 leg' }) bm25?: LegRankModel;
  @Field(() => LegRankModel, { nullable: true, description: 'kNN (vector) leg' }) knn?: LegRankModel;
}

@ObjectType('SearchResult')
export class SearchResultModel {
  @Field(() => [SearchHitModel]) hits!: SearchHitModel[];
  @Field(() => Int) tookMs!: number;
}
