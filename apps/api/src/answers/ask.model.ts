import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { AnswerMode } from '@trove/answering';
import { AskMode, type AskStreamRequest, type Holds, type SameFields, SearchMode } from '@trove/domain';
import { FusionInput, SearchFiltersInput } from '../search/search.model';

registerEnumType(AnswerMode, {
  name: 'AnswerMode',
  description: 'How an answer was made',
  valuesMap: {
    LLM: { description: 'Written by the configured language model; citations verified' },
    EXTRACTIVE: {
      description: 'No model: the best supporting sentences of the top passages, quoted with citations',
    },
    TOP_1: { description: 'No model: the most relevant passage, as it is' },
    INSUFFICIENT_CONTEXT: {
      description: 'Nothing relevant enough: the knowledge base does not hold the answer',
    },
  },
});

registerEnumType(AskMode, {
  name: 'AskMode',
  description: 'The answer wanted: AUTO is LLM when a model is configured, else the configured fallback',
});

@InputType({ description: 'How passages are retrieved; the same options as SearchInput' })
export class AskSearchInput {
  @Field(() => SearchMode, { defaultValue: SearchMode.HYBRID }) mode!: SearchMode;
  @Field(() => FusionInput, { nullable: true, description: 'Overrides the configured fusion' })
  fusion?: FusionInput;
  @Field(() => SearchFiltersInput, {
    nullable: true,
    description: 'Only passages these filters let through, as in SearchInput.filters',
  })
  filters?: SearchFiltersInput;
}

@InputType()
export class AskInput {
  @Field(() => ID) projectId!: string;
  @Field() question!: string;
  @Field(() => ID, {
    nullable: true,
    description:
      "Continue this thread (one of the key's own): a follow-up is rewritten into a standalone question from its turns before retrieval, and the answer is its next turn",
  })
  threadId?: string;
  @Field({
    defaultValue: false,
    description: 'Start a thread with this question; the answer carries its threadId. Not with threadId.',
  })
  newThread?: boolean;
  @Field(() => Int, { nullable: true, description: 'Passages retrieved, 1 to 50 (TROVE_ANSWER_TOP_K)' })
  topK?: number;
  @Field(() => Float, {
    nullable: true,
    description:
      "Least cosine between the question's and a passage's embeddings, -1 to 1 (TROVE_ANSWER_THRESHOLD); " +
      'when no passage reaches it the answer is INSUFFICIENT_CONTEXT',
  })
  threshold?: number;
  @Field(() => AskMode, { defaultValue: AskMode.AUTO }) mode!: AskMode;
  @Field(() => AskSearchInput, { nullable: true }) search?: AskSearchInput;
}

@ObjectType('AnswerCitation', { description: 'What a marker [n] of the answer cites' })
export class AnswerCitationModel {
  @Field(() => Int) marker!: number;
  @Field(() => ID) chunkId!: string;
  @Field(() => ID) documentId!: string;
  @Field() title!: string;
  @Field(() => [String]) headingPath!: string[];
  @Field({
    nullable: true,
    description: 'Opens the cited place (Notion block, site anchor, PDF page, original file)',
  })
  citationUrl?: string;
  @Field({ description: 'The sentence(s) of the chunk that support what cites it' }) quote!: string;
  @Field(() => Int, { nullable: true, description: 'PDF, scanned image: the page the cited chunk starts on' })
  page?: number;
  @Field({ nullable: true, description: "The cited text was (partly) recognised by OCR (null: not OCR'd)" })
  ocr?: boolean;
  @Field(() => Float, { nullable: true, description: 'OCR: mean recognition confidence, 0 to 100' })
  ocrConfidence?: number;
}

@ObjectType('SentenceSupport', { description: 'A cited sentence of the answer checked against its chunks' })
export class SentenceSupportModel {
  @Field() sentence!: string;
  @Field(() => [Int]) markers!: number[];
  @Field(() => Float, { description: 'Best share of its content words found in a cited chunk' })
  lexicalOverlap!: number;
  @Field(() => Float, {
    nullable: true,
    description: "Best cosine of its embedding with a cited chunk's stored vector (when words fell short)",
  })
  semanticSimilarity?: number;
  @Field() supported!: boolean;
}

@ObjectType('AnswerVerification')
export class AnswerVerificationModel {
  @Field(() => [Int], { description: 'Markers of the answer that name a passage given to the model' })
  validMarkers!: number[];
  @Field(() => [Int], { description: 'Markers naming no passage, removed from the answer' })
  invalidMarkers!: number[];
  @Field({ description: 'The answer cites nothing' }) missingMarkers!: boolean;
  @Field({ description: 'Asked again with a stricter prompt after invalid or missing markers' })
  retried!: boolean;
  @Field(() => Int, { description: 'Sentences checked (LLM answers: uncited ones too, which fail)' })
  checkedSentences!: number;
  @Field(() => [SentenceSupportModel], {
    description: 'Sentences their passages do not support, or (LLM) citing none: flagged, not removed',
  })
  unsupportedSentences!: SentenceSupportModel[];
}

@ObjectType('AnswerTimings', { description: 'Milliseconds per stage; null when the stage did not run' })
export class AnswerTimingsModel {
  @Field(() => Float, { nullable: true, description: 'Rewriting a follow-up into a standalone question' })
  rewriteMs?: number;
  @Field(() => Float, { nullable: true }) embedMs?: number;
  @Field(() => Float, { nullable: true }) searchMs?: number;
  @Field(() => Float, { nullable: true }) rerankMs?: number;
  @Field(() => Float, { nullable: true }) generateMs?: number;
  @Field(() => Float, { nullable: true }) verifyMs?: number;
  @Field(() => Float) totalMs!: number;
}

@ObjectType('Answer')
export class AnswerModel {
  @Field(() => ID, {
    description: 'The id the answer is recorded under (`ans_…`): what feedback on it names',
  })
  answerId!: string;
  @Field(() => ID, {
    nullable: true,
    description: 'The thread the question was asked in (continued or started)',
  })
  threadId?: string;
  @Field(() => String, {
    nullable: true,
    description:
      'What retrieval searched for, when the question was a follow-up rewritten from its thread; null when it was used as asked',
  })
  standaloneQuestion?: string;
  @Field() answer!: string;
  @Field(() => AnswerMode) mode!: AnswerMode;
  @Field() insufficientContext!: boolean;
  @Field({ description: "The answer's language (the question's): en, ru or zh" }) language!: string;
  @Field({ nullable: true, description: 'The prompt template version (LLM answers)' }) promptId?: string;
  @Field({
    nullable: true,
    description: 'The model that wrote the answer, or whose answer was replaced (see fallbackReason)',
  })
  model?: string;
  @Field({
    nullable: true,
    description:
      "Why the configured model's answer was replaced by this extractive one (its time budget passed, it failed, or nothing it wrote was supported); null otherwise",
  })
  fallbackReason?: string;
  @Field(() => [AnswerCitationModel]) citations!: AnswerCitationModel[];
  @Field(() => AnswerVerificationModel) verification!: AnswerVerificationModel;
  @Field(() => AnswerTimingsModel) timings!: AnswerTimingsModel;
}

/**
 * `AskInput` is the stream's body (`askRequestSchema`, libs/domain) plus `projectId`: a field
 * added to, removed from or retyped on one side only fails to compile here.
 */
export type AskInputMatchesSchema = Holds<SameFields<Omit<AskInput, 'projectId'>, AskStreamRequest>>;
