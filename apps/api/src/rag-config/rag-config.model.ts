import { Field, Float, InputType, Int, ObjectType } from '@nestjs/graphql';
import { EmbeddingIndexModel, EmbeddingModelInput } from '../index-generations/index-generation.model';
import type { RagSettings } from '@trove/rag-config';
import type { Holds, SameKeys } from '@trove/domain';

@ObjectType('MaskedSecret', {
  description: 'A secret setting: whether it is set, and its shape without its value',
})
export class MaskedSecretModel {
  @Field() set!: boolean;
  @Field({
    nullable: true,
    description: 'First and last characters and the length, e.g. `sk-a…9f (51 chars)`',
  })
  masked?: string;
}

@ObjectType('RagFusionSettings')
export class RagFusionSettingsModel {
  @Field({ description: 'rrf or convex' }) fusion!: string;
  @Field(() => Int) rrfK!: number;
  @Field(() => Float) convexVectorWeight!: number;
  @Field({ description: 'minmax or zscore' }) convexNormalization!: string;
}

@ObjectType('RagRerankSettings')
export class RagRerankSettingsModel {
  @Field({ description: 'none, learned, http or llm' }) provider!: string;
  @Field(() => Int) candidates!: number;
  @Field({ nullable: true }) url?: string;
  @Field({ nullable: true }) model?: string;
  @Field(() => MaskedSecretModel) apiKey!: MaskedSecretModel;
  @Field(() => Int) timeoutMs!: number;
  @Field(() => Int) maxChars!: number;
}

@ObjectType('RagLlmSettings')
export class RagLlmSettingsModel {
  @Field({ description: 'none, openai (any OpenAI-compatible server) or ollama' }) provider!: string;
  @Field({ nullable: true }) baseUrl?: string;
  @Field({ nullable: true }) model?: string;
  @Field(() => MaskedSecretModel) apiKey!: MaskedSecretModel;
  @Field(() => Float) temperature!: number;
  @Field(() => Int) maxTokens!: number;
  @Field(() => Int) timeoutMs!: number;
  @Field(() => Int) idleTimeoutMs!: number;
  @Field(() => Int) retries!: number;
  @Field(() => Int) contextTokens!: number;
}

@ObjectType('RagAnswerSettings')
export class RagAnswerSettingsModel {
  @Field(() => Int) topK!: number;
  @Field(() => Float) threshold!: number;
  @Field({ description: 'EXTRACTIVE, TOP_1 or INSUFFICIENT_CONTEXT' }) fallbackMode!: string;
  @Field(() => Int) contextTokens!: number;
  @Field(() => Float) supportMinLexical!: number;
  @Field(() => Float) supportMinSemantic!: number;
  @Field(() => Int) extractiveSentences!: number;
  @Field(() => Int) extractiveChunks!: number;
  @Field(() => Int, {
    description: 'LLM answers: longest the model may write for; past it the answer is extractive, labelled',
  })
  llmBudgetMs!: number;
  @Field(() => Int, {
    description: "A follow-up's rewrite by the model: past this the rules rewrite it instead",
  })
  rewriteTimeoutMs!: number;
}

@ObjectType('RagChunkingSettings', { description: 'Applied to documents ingested after a change' })
export class RagChunkingSettingsModel {
  @Field(() => Int) targetTokens!: number;
  @Field(() => Int) overlapTokens!: number;
  @Field(() => Int) minTokens!: number;
}

@ObjectType('RagConfig', {
  description:
    'Retrieval and answer settings: the environment’s, overlaid with changes made through updateRagConfig. Secrets are masked.',
})
export class RagConfigModel {
  @Field(() => Int, { description: '0 until the first change' }) version!: number;
  @Field({ nullable: true }) updatedAt?: string;
  @Field(() => RagFusionSettingsModel) search!: RagFusionSettingsModel;
  @Field(() => RagRerankSettingsModel) rerank!: RagRerankSettingsModel;
  @Field(() => RagLlmSettingsModel) llm!: RagLlmSettingsModel;
  @Field(() => RagAnswerSettingsModel) answers!: RagAnswerSettingsModel;
  @Field(() => RagChunkingSettingsModel) chunking!: RagChunkingSettingsModel;
  @Field(() => EmbeddingIndexModel, { description: 'The embedding model and index generations' })
  embedding!: EmbeddingIndexModel;
  @Field(() => [String], {
    description: 'Settings changed through the API (section.setting); the rest come from the environment',
  })
  overridden!: string[];
  @Field(() => [String], {
    description: 'Why stored settings are not in force (e.g. a key this api cannot open)',
  })
  warnings!: string[];
}

@InputType()
export class RagFusionSettingsInput {
  @Field({ nullable: true }) fusion?: string;
  @Field(() => Int, { nullable: true }) rrfK?: number;
  @Field(() => Float, { nullable: true }) convexVectorWeight?: number;
  @Field({ nullable: true }) convexNormalization?: string;
}

@InputType()
export class RagRerankSettingsInput {
  @Field({ nullable: true }) provider?: string;
  @Field(() => Int, { nullable: true }) candidates?: number;
  @Field({ nullable: true }) url?: string;
  @Field({ nullable: true }) model?: string;
  @Field({ nullable: true, description: 'Stored sealed (TROVE_SECRET_KEY); never returned' }) apiKey?: string;
  @Field(() => Int, { nullable: true }) timeoutMs?: number;
  @Field(() => Int, { nullable: true }) maxChars?: number;
}

@InputType()
export class RagLlmSettingsInput {
  @Field({ nullable: true }) provider?: string;
  @Field({ nullable: true }) baseUrl?: string;
  @Field({ nullable: true }) model?: string;
  @Field({ nullable: true, description: 'Stored sealed (TROVE_SECRET_KEY); never returned' }) apiKey?: string;
  @Field(() => Float, { nullable: true }) temperature?: number;
  @Field(() => Int, { nullable: true }) maxTokens?: number;
  @Field(() => Int, { nullable: true }) timeoutMs?: number;
  @Field(() => Int, { nullable: true }) idleTimeoutMs?: number;
  @Field(() => Int, { nullable: true }) retries?: number;
  @Field(() => Int, { nullable: true }) contextTokens?: number;
}

@InputType()
export class RagAnswerSettingsInput {
  @Field(() => Int, { nullable: true }) topK?: number;
  @Field(() => Float, { nullable: true }) threshold?: number;
  @Field({ nullable: true }) fallbackMode?: string;
  @Field(() => Int, { nullable: true }) contextTokens?: number;
  @Field(() => Float, { nullable: true }) supportMinLexical?: number;
  @Field(() => Float, { nullable: true }) supportMinSemantic?: number;
  @Field(() => Int, { nullable: true }) extractiveSentences?: number;
  @Field(() => Int, { nullable: true }) extractiveChunks?: number;
  @Field(() => Int, { nullable: true }) llmBudgetMs?: number;
  @Field(() => Int, { nullable: true }) rewriteTimeoutMs?: number;
}

@InputType()
export class RagChunkingSettingsInput {
  @Field(() => Int, { nullable: true }) targetTokens?: number;
  @Field(() => Int, { nullable: true }) overlapTokens?: number;
  @Field(() => Int, { nullable: true }) minTokens?: number;
}

@InputType({
  description:
    'Settings to change; a field given as null goes back to the environment’s value. All of it applies, or none.',
})
export class UpdateRagConfigInput {
  @Field(() => RagFusionSettingsInput, { nullable: true }) search?: RagFusionSettingsInput;
  @Field(() => RagRerankSettingsInput, { nullable: true }) rerank?: RagRerankSettingsInput;
  @Field(() => RagLlmSettingsInput, { nullable: true }) llm?: RagLlmSettingsInput;
  @Field(() => RagAnswerSettingsInput, { nullable: true }) answers?: RagAnswerSettingsInput;
  @Field(() => RagChunkingSettingsInput, { nullable: true }) chunking?: RagChunkingSettingsInput;
  @Field(() => EmbeddingModelInput, {
    nullable: true,
    description: 'Another embedding model: rebuilds the index in the background (see embeddingIndex)',
  })
  embedding?: EmbeddingModelInput;
  @Field(() => [String], {
    nullable: true,
    description: 'Settings (`llm.apiKey`) or whole sections (`llm`) back to the environment’s values',
  })
  reset?: string[];
}

/**
 * Each section's model and input name exactly the settings of its schema (libs/config, through
 * @trove/rag-config); the service checks the values with `satisfies`. A setting added to or removed
 * from a schema fails to compile here until the GraphQL models follow.
 */
export type RagModelsMatchSchemas = [
  Holds<SameKeys<RagFusionSettingsModel, RagSettings['search']>>,
  Holds<SameKeys<RagRerankSettingsModel, RagSettings['rerank']>>,
  Holds<SameKeys<RagLlmSettingsModel, RagSettings['llm']>>,
  Holds<SameKeys<RagAnswerSettingsModel, RagSettings['answers']>>,
  Holds<SameKeys<RagChunkingSettingsModel, RagSettings['chunking']>>,
  Holds<SameKeys<RagFusionSettingsInput, RagSettings['search']>>,
  Holds<SameKeys<RagRerankSettingsInput, RagSettings['rerank']>>,
  Holds<SameKeys<RagLlmSettingsInput, RagSettings['llm']>>,
  Holds<SameKeys<RagAnswerSettingsInput, RagSettings['answers']>>,
  Holds<SameKeys<RagChunkingSettingsInput, RagSettings['chunking']>>,
];
