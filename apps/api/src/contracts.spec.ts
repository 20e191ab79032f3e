import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, type GraphQLInputObjectType, type GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { askRequestSchema } from '@trove/domain';
import { RAG_SECTION_SCHEMAS, RAG_SECTIONS } from '@trove/rag-config';
import { graphqlContractShape, zodContractShape } from '@trove/testing';

// The committed SDL is the api's schema as it runs (schema.spec.ts fails when they differ), so
// reading it here checks the GraphQL types without booting Nest.
const schema = buildSchema(readFileSync(join(__dirname, '../../../libs/api-client/schema.graphql'), 'utf8'));
const inputType = (name: string) => schema.getType(name) as GraphQLInputObjectType;
const objectType = (name: string) => schema.getType(name) as GraphQLObjectType;

describe('each contract, defined once in zod, and its GraphQL types', () => {
  it("AskInput is the stream's body (askRequestSchema) plus projectId: every field, its kind and whether it is required", () => {
    expect(graphqlContractShape(inputType('AskInput'), true, ['projectId'])).toEqual(
      zodContractShape(askRequestSchema),
    );
    expect(inputType('AskInput').getFields().projectId).toBeDefined();
  });

  it('RagConfig and UpdateRagConfigInput have one section per settings schema, each naming its settings', () => {
    const output = objectType('RagConfig').getFields();
    const input = inputType('UpdateRagConfigInput').getFields();
    expect(Object.keys(input).sort()).toEqual([...RAG_SECTIONS, 'embedding', 'reset'].sort());
    for (const section of RAG_SECTIONS) {
      const settings = zodContractShape(RAG_SECTION_SCHEMAS[section], false);
      expect({ section, output: graphqlContractShape(output[section].type, false) }).toEqual({
        section,
        output: settings,
      });
      expect({ section, input: graphqlContractShape(input[section].type, false) }).toEqual({
        section,
        input: settings,
      });
    }
  });
});
