import type { Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { NestFactory } from '@nestjs/core';
import { GraphQLSchemaBuilderModule, GraphQLSchemaFactory, RESOLVER_TYPE_METADATA } from '@nestjs/graphql';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { FEATURE_MODULES } from './features';

/**
 * Every resolver the API mounts: those its feature modules provide. The printed schema is built
 * from their metadata, so it cannot miss one a module adds.
 */
export const RESOLVERS = FEATURE_MODULES.flatMap(
  (module): unknown[] => Reflect.getMetadata(MODULE_METADATA.PROVIDERS, module) ?? [],
).filter(
  (provider): provider is Type =>
    typeof provider === 'function' && Reflect.hasMetadata(RESOLVER_TYPE_METADATA, provider),
);

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
