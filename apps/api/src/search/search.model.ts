import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { FusionMethod, ScoreNormalization, SearchMode } from '@trove/domain';
import { CitationModel } from './citation.model';

registerEnumType(SearchMode, { name: 'SearchMode' });

registerEnumType(FusionMethod, {
  name: 'FusionMethod',
  description: 'How HYBRID merges the BM25 and kNN legs',
  valuesMap: {
    RRF: { description: 'Reciprocal rank fusion: Σ 1 / (k + rank)' },
    CONVEX: { description: 'vectorWeight·norm(kNN score) + (1 − vectorWeight)·norm(BM25 score)' },
  },
});
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

@InputType({
  description:
    'Filters applied inside both legs (the kNN leg still returns its k nearest among matching chunks). ' +
    'Every filter given must hold; a filter that matches no document gives no hits.',
})
export class SearchFiltersInput {
  @Field(() => [ID], {
    nullable: true,
    description:
      'Only documents of these sources; each must be a source of the project (else SOURCE_NOT_FOUND)',
  })
  sourceIds?: string[];
  @Field(() => [ID], { nullable: true, description: 'Only these documents' }) documentIds?: string[];
  @Field(() => [String], {
    nullable: true,
    description: 'Only documents of these media types (Document.mediaType, listed in Project.documentTypes)',
  })
  mediaTypes?: string[];
  @Field(() => [String], {
    nullable: true,
    description: "Only chunks in these languages, as detected per chunk: 'en', 'ru', 'cjk', 'und'",
  })
  languages?: string[];
  @Field({ nullable: true, description: 'Only chunks with (true) or without (false) a code block' })
  hasCode?: boolean;
  @Field({
    nullable: true,
    description: "ISO 8601: only documents whose last update (the document's updatedAt) is at or after this",
  })
  updatedFrom?: string;
  @Field({ nullable: true, description: 'ISO 8601: only documents last updated before this' })
  updatedTo?: string;
}

@InputType()
export class SearchInput {
  @Field(() => ID) projectId!: string;
  @Field() query!: string;
  @Field(() => Int, { defaultValue: 10, description: '1 to 100' }) limit!: number;
  @Field(() => SearchMode, { defaultValue: SearchMode.HYBRID }) mode!: SearchMode;
  @Field(() => FusionInput, { nullable: true, description: 'Overrides the configured fusion' })
  fusion?: FusionInput;
  // Search results: all optional; the defaults change nothing.
  @Field(() => SearchFiltersInput, { nullable: true }) filters?: SearchFiltersInput;
  @Field(() => Float, {
    nullable: true,
    description:
      "Drops hits whose final score is below this. The scale is the fusion's (also in KEYWORD and VECTOR " +
      'mode, over one leg): RRF scores are Σ 1/(k + rank) over the legs, so at most 2/(k+1) (≈0.033 at k=60) ' +
      'for a chunk first in both legs and at most 1/(k+1) for one found by a single leg; CONVEX scores are ' +
      'vectorWeight·norm(kNN) + (1 − vectorWeight)·norm(BM25), between 0 and 1 under MINMAX and unbounded ' +
      'z-scores under ZSCORE. When a reranker runs, its score is the final score.',
  })
  minScore?: number;
  @Field({
    nullable: true,
    description:
      'Diversify with maximal marginal relevance over the stored vectors (default TROVE_SEARCH_MMR)',
  })
  mmr?: boolean;
  @Field(() => Float, {
    nullable: true,
    description:
      "MMR's λ, 0 to 1: 1 keeps the relevance order, 0 only spreads (default TROVE_SEARCH_MMR_LAMBDA)",
  })
  mmrLambda?: number;
  @Field(() => Int, { nullable: true, description: 'At most this many hits per document (after MMR)' })
  maxPerDocument?: number;
  @Field({
    defaultValue: false,
    description: 'Also return `groups`: hits per document, neighbouring chunks merged into passages',
  })
  groupByDocument!: boolean;
  @Field(() => Int, {
    defaultValue: 0,
    description:
      'Each hit carries its ±expand neighbouring chunks in `context` (0 to TROVE_SEARCH_MAX_EXPAND)',
  })
  expand!: number;
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

@ObjectType('LegRank', {
  description:
    "A hit's place in one retrieval leg before fusion: its rank and score among the candidates that leg scored (under convex fusion with completed scores, every fused candidate)",
})
export class LegRankModel {
  @Field(() => Int) rank!: number;
  @Field(() => Float) score!: number;
}

@ObjectType('SearchChunk', { description: 'A chunk shown around a hit (context expansion)' })
export class SearchChunkModel {
  @Field(() => ID) chunkId!: string;
  @Field(() => ID) documentId!: string;
  @Field() title!: string;
  @Field(() => [String]) headingPath!: string[];
  @Field() text!: string;
  @Field(() => Int) position!: number;
  @Field({ nullable: true }) citationUrl?: string;
  @Field(() => CitationModel, { nullable: true }) citation?: CitationModel;
  @Field({ nullable: true }) anchor?: string;
  @Field(() => Int, { nullable: true }) page?: number;
  @Field(() => Int, { nullable: true }) pageEnd?: number;
  @Field({ nullable: true }) chapter?: string;
}

@ObjectType('FeatureContribution', { description: "A learned reranker feature's signed share of the score" })
export class FeatureContributionModel {
  @Field() name!: string;
  @Field(() => Float) contribution!: number;
}

@ObjectType('HitExplain', { description: 'Why a hit ranks where it does: each leg, fusion and the reranker' })
export class HitExplainModel {
  @Field(() => LegRankModel, {
    nullable: true,
    description: 'BM25 leg (null: the mode did not run it, or it did not score this chunk)',
  })
  bm25?: LegRankModel;
  @Field(() => LegRankModel, {
    nullable: true,
    description: 'kNN leg (null: the mode did not run it, or it did not score this chunk)',
  })
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
  @Field({
    nullable: true,
    description:
      "The document's file name (for folder and Git sources its path); null when the document has left the catalog since it was indexed",
  })
  fileName?: string;
  @Field(() => ID, { nullable: true, description: 'The source of the document (null: an uploaded file)' })
  sourceId?: string;
  @Field({ nullable: true, description: "That source's name, to show beside the document's title" })
  sourceName?: string;
  @Field({
    nullable: true,
    description: "That source's type, one of those sourceTypes lists (e.g. FOLDER, NOTION)",
  })
  sourceType?: string;
  @Field(() => Float, { description: 'Fused score (RRF or convex combination, as configured or requested)' })
  score!: number;
  @Field({
    nullable: true,
    description:
      'Link to the cited place: a Notion block, a MkDocs page anchor, or the original file (#page=N, #sheet=S&row=A-B)',
  })
  citationUrl?: string;
  @Field(() => CitationModel, {
    nullable: true,
    description: 'The cited place as data (null for chunks indexed before it existed)',
  })
  citation?: CitationModel;
  @Field({ nullable: true }) anchor?: string;
  @Field(() => Int, { nullable: true, description: 'PDF: first page of the chunk; presentations: the slide' })
  page?: number;
  @Field(() => Int, { nullable: true, description: 'PDF: last page of the chunk' }) pageEnd?: number;
  @Field({ nullable: true, description: 'EPUB: chapter' }) chapter?: string;
  @Field({
    nullable: true,
    description: "The chunk's text was (partly) recognised by OCR from a scan or an image (null: not OCR'd)",
  })
  ocr?: boolean;
  @Field(() => Float, { nullable: true, description: 'OCR: mean recognition confidence, 0 to 100' })
  ocrConfidence?: number;
  @Field(() => LegRankModel, { nullable: true, description: 'BM25 leg' }) bm25?: LegRankModel;
  @Field(() => LegRankModel, { nullable: true, description: 'kNN (vector) leg' }) knn?: LegRankModel;
  @Field(() => [SearchChunkModel], {
    nullable: true,
    description: 'With `expand: N`: the neighbouring chunks (±N positions) in reading order, without the hit',
  })
  context?: SearchChunkModel[];
  @Field(() => Float, { nullable: true, description: "The reranker's score (null when not reranked)" })
  rerankScore?: number;
  @Field(() => HitExplainModel, { nullable: true, description: 'Only when the search asked for explain' })
  explain?: HitExplainModel;
}

@ObjectType('Passage', { description: 'Neighbouring chunks of one document merged in reading order' })
export class PassageModel {
  @Field(() => [ID]) chunkIds!: string[];
  @Field(() => [ID], { description: 'The merged chunks that were hits (the others came from `expand`)' })
  hitChunkIds!: string[];
  @Field(() => Int) positionStart!: number;
  @Field(() => Int) positionEnd!: number;
  @Field({ description: 'The chunks’ text, the overlap between consecutive chunks written once' })
  text!: string;
  @Field(() => [String]) headingPath!: string[];
  @Field(() => Float, { description: 'The best score among its hits' }) score!: number;
  @Field(() => Int, { nullable: true, description: 'PDF: first page' }) page?: number;
  @Field(() => Int, { nullable: true, description: 'PDF: last page' }) pageEnd?: number;
  @Field(() => [String], { description: 'Distinct anchors of its chunks, in reading order' })
  anchors!: string[];
  @Field({ nullable: true, description: 'Link to where the passage starts' }) citationUrl?: string;
  @Field(() => CitationModel, { nullable: true }) citation?: CitationModel;
}

@ObjectType('SearchGroup', { description: "One document's results" })
export class SearchGroupModel {
  @Field(() => ID) documentId!: string;
  @Field() title!: string;
  @Field(() => Float, {
    description: 'Its best hit’s score; groups come in the rank order of their best hits',
  })
  score!: number;
  @Field(() => [SearchHitModel], { description: 'Its hits in rank order' }) hits!: SearchHitModel[];
  @Field(() => [PassageModel], { description: 'Its hits (and their context) merged, in reading order' })
  passages!: PassageModel[];
}

@ObjectType('SearchTimings', {
  description: 'Server-side time per stage, ms (the legs run concurrently, so their times overlap)',
})
export class SearchTimingsModel {
  @Field(() => Float, { nullable: true, description: 'Embedding the query (null: cached or KEYWORD)' })
  embedMs?: number;
  @Field(() => Float, { nullable: true, description: 'The BM25 leg' }) keywordMs?: number;
  @Field(() => Float, { nullable: true, description: 'The kNN leg, after the embedding' }) vectorMs?: number;
  @Field(() => Float, { nullable: true, description: 'Fusing the legs' }) fusionMs?: number;
  @Field(() => Float, {
    nullable: true,
    description: 'Both legs (query embedding included) and fusion; null when filters matched nothing',
  })
  retrievalMs?: number;
  @Field(() => Float, { nullable: true, description: 'The reranker, when one ran' }) rerankMs?: number;
  @Field(() => Float, { nullable: true, description: 'Threshold, MMR, per-document cap and expansion' })
  resultsMs?: number;
  @Field(() => Float, { nullable: true, description: 'The whole search in the search service' })
  totalMs?: number;
}

@ObjectType('SearchResult')
export class SearchResultModel {
  @Field(() => [SearchHitModel]) hits!: SearchHitModel[];
  @Field(() => [SearchGroupModel], { nullable: true, description: 'With `groupByDocument: true`' })
  groups?: SearchGroupModel[];
  @Field(() => Int) tookMs!: number;
  @Field({ description: "True when the hits are in the reranker's order" }) reranked!: boolean;
  @Field({ nullable: true, description: 'The reranker asked for, e.g. learned:v1' }) reranker?: string;
  @Field(() => [String], { description: 'Degradations that did not fail the search (a failed reranker)' })
  warnings!: string[];
  @Field(() => SearchTimingsModel) timings!: SearchTimingsModel;
}
