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
  @Field({
    nullable: true,
    description:
      'Rerank the fused top candidates (true) or not (false); unset: as configured (TROVE_RERANK_PROVIDER)',
  })
  rerank?: boolean;
  @Field(() => Int, { nullable: true, description: 'How many fused hits are reranked, 1 to 100' })
  rerankCandidates?: number;
  @Field({
    nullable: true,
    defaultValue: false,
    description: "Return each hit's explain (legs, fusion, rerank)",
  })
  explain?: boolean;
}

@ObjectType('LegRank', { description: "A hit's place in one retrieval leg before fusion" })
export class LegRankModel {
  @Field(() => Int) rank!: number;
  @Field(() => Float) score!: number;
}

@ObjectType('FeatureContribution', { description: "A learned reranker feature's signed share of the score" })
export class FeatureContributionModel {
  @Field() name!: string;
  @Field(() => Float) contribution!: number;
}

@ObjectType('HitExplain', { description: 'Why a hit ranks where it does: each leg, fusion and the reranker' })
export class HitExplainModel {
  @Field(() => LegRankModel, { nullable: true, description: 'BM25 leg (null: not retrieved by it)' })
  bm25?: LegRankModel;
  @Field(() => LegRankModel, { nullable: true, description: 'kNN leg (null: not retrieved by it)' })
  knn?: LegRankModel;
  @Field(() => Float) fusedScore!: number;
  @Field(() => Float, { nullable: true, description: 'Null when the hit was not reranked' })
  rerankScore?: number;
  @Field(() => [FeatureContributionModel], {
    nullable: true,
    description: 'Learned reranker: the features that moved the score most',
  })
  topFeatures?: FeatureContributionModel[];
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
  @Field(() => Float, { nullable: true, description: "The reranker's score (null when not reranked)" })
  rerankScore?: number;
  @Field(() => HitExplainModel, { nullable: true, description: 'Only when the search asked for explain' })
  explain?: HitExplainModel;
}

@ObjectType('SearchTimings', { description: 'Server-side time per stage, ms' })
export class SearchTimingsModel {
  @Field(() => Float, { description: 'Both legs (query embedding included) and fusion' })
  retrievalMs!: number;
  @Field(() => Float, { nullable: true, description: 'The reranker, when one ran' }) rerankMs?: number;
}

@ObjectType('SearchResult')
export class SearchResultModel {
  @Field(() => [SearchHitModel]) hits!: SearchHitModel[];
  @Field(() => Int) tookMs!: number;
  @Field({ description: "True when the hits are in the reranker's order" }) reranked!: boolean;
  @Field({ nullable: true, description: 'The reranker asked for, e.g. learned:v1' }) reranker?: string;
  @Field(() => [String], { description: 'Degradations that did not fail the search (a failed reranker)' })
  warnings!: string[];
  @Field(() => SearchTimingsModel) timings!: SearchTimingsModel;
}
