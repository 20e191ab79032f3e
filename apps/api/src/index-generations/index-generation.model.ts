import { Field, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { IndexGenerationStatus } from '@trove/domain';

registerEnumType(IndexGenerationStatus, { name: 'IndexGenerationStatus' });

@ObjectType('EmbeddingModel', {
  description: 'How a generation’s vectors are made. The API key is never returned.',
})
export class EmbeddingModelModel {
  @Field({ description: 'openai (any OpenAI-compatible server) or ollama' }) provider!: string;
  @Field() baseUrl!: string;
  @Field({ description: 'Model profile: dimensions and query/passage prefixes' }) profile!: string;
  @Field({ nullable: true, description: 'The server’s model name, when it differs from the profile’s' })
  model?: string;
  @Field(() => Int) batchSize!: number;
  @Field(() => Int) timeoutMs!: number;
}

@ObjectType('IndexRebuildProgress')
export class IndexRebuildProgressModel {
  @Field(() => Int, { nullable: true, description: 'Chunks in the active index when the copy began' })
  chunksTotal?: number;
  @Field(() => Int, { nullable: true }) chunksCopied?: number;
  @Field(() => Int, { nullable: true, description: 'Embedded with the new model' }) chunksEmbedded?: number;
  @Field(() => Int, {
    nullable: true,
    description: 'Vector taken over (same model) or found for the same text',
  })
  chunksReused?: number;
  @Field(() => Int, {
    nullable: true,
    description: 'Written by an ingest during the rebuild, or gone meanwhile',
  })
  chunksSkipped?: number;
  @Field(() => Int, { nullable: true, description: 'Stale chunks removed by the final reconciliation' })
  chunksRemoved?: number;
}

@ObjectType('IndexGeneration', {
  description: 'One build of the chunk index with one embedding model; the ACTIVE one is searched.',
})
export class IndexGenerationModel {
  @Field(() => Int) id!: number;
  @Field(() => IndexGenerationStatus) status!: IndexGenerationStatus;
  @Field() indexName!: string;
  @Field() modelId!: string;
  @Field(() => Int) dimensions!: number;
  @Field(() => EmbeddingModelModel) embedding!: EmbeddingModelModel;
  @Field({ description: 'An API key is stored (sealed) for this model; the key is never returned' })
  hasApiKey!: boolean;
  @Field(() => IndexRebuildProgressModel) progress!: IndexRebuildProgressModel;
  @Field({ nullable: true }) error?: string;
  @Field() createdAt!: string;
  @Field({ nullable: true }) activatedAt?: string;
  @Field({ nullable: true }) finishedAt?: string;
}

@ObjectType('EmbeddingIndex')
export class EmbeddingIndexModel {
  @Field(() => IndexGenerationModel, { description: 'The generation searches use' })
  active!: IndexGenerationModel;
  @Field(() => IndexGenerationModel, { nullable: true, description: 'A rebuild under way, if any' })
  building?: IndexGenerationModel;
  @Field(() => [IndexGenerationModel], { description: 'The latest generations, newest first' })
  history!: IndexGenerationModel[];
}

@InputType()
export class EmbeddingModelInput {
  @Field({ description: 'openai (any OpenAI-compatible server) or ollama' }) provider!: string;
  @Field({
    description: 'e.g. http://127.0.0.1:8089/v1 (OpenAI-compatible) or http://127.0.0.1:11434 (Ollama)',
  })
  baseUrl!: string;
  @Field({ description: 'Model profile (dimensions, prefixes), e.g. multilingual-e5-base, bge-m3' })
  profile!: string;
  @Field({ nullable: true, description: 'The server’s model name, when it differs from the profile’s' })
  model?: string;
  @Field({ nullable: true, description: 'Stored sealed (needs TROVE_SECRET_KEY); never returned' })
  apiKey?: string;
  @Field(() => Int, { nullable: true }) batchSize?: number;
  @Field(() => Int, { nullable: true }) timeoutMs?: number;
}
