import { NestFactory } from '@nestjs/core';
import { GraphQLSchemaBuilderModule, GraphQLSchemaFactory } from '@nestjs/graphql';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { ApiKeysResolver } from './api-keys/api-keys.resolver';
import { AskResolver } from './answers/ask.resolver';
import { ChunksResolver } from './documents/chunks.resolver';
import { DocumentsResolver } from './documents/documents.resolver';
import { IndexGenerationsResolver } from './index-generations/index-generations.resolver';
import { ProjectsResolver } from './projects/projects.resolver';
import { RagConfigResolver } from './rag-config/rag-config.resolver';
import { SearchResolver } from './search/search.resolver';
import { SourcesResolver } from './sources/sources.resolver';
import { SyncRunResolver } from './sources/sync-run.resolver';

/** Every resolver the API mounts (app.module.ts spreads this list); the schema is built from their metadata. */
export const RESOLVERS = [
  ApiKeysResolver,
  AskResolver,
  ChunksResolver,
  DocumentsResolver,
  IndexGenerationsResolver,
  ProjectsResolver,
  RagConfigResolver,
  SearchResolver,
  SourcesResolver,
  SyncRunResolver,
];

/** The API's schema as SDL, sorted as the running API sorts it (`sortSchema: true`). */
export async function printApiSchema(): Promise<string> {
  const app = await NestFactory.create(GraphQLSchemaBuilderModule, { logger: false });
  await app.init();
  try {
    const schema = await app.get(GraphQLSchemaFactory).create(RESOLVERS);
    return `${printSchema(lexicographicSortSchema(schema))}\n`;
  } finally {
    await app.close();
  }
}
