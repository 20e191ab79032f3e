import { GraphQLSchemaHost } from '@nestjs/graphql';
import type { Request } from 'express';
import { GraphQLError, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { describe, expect, it } from 'vitest';
import { TypedDocumentString } from '@trove/api-client';
import { graphqlLimitsSchema } from '@trove/config';
import type { GraphqlContext } from '../access/request-principal';
import { InProcessGraphql } from './in-process-operations';

const Query = new GraphQLObjectType<unknown, GraphqlContext>({
  name: 'Query',
  fields: {
    greeting: {
      type: GraphQLString,
      args: { name: { type: GraphQLString, defaultValue: 'world' } },
      resolve: (_, { name }: { name: string }, { req }) => `hello ${name}, from ${req?.path}`,
    },
    forbidden: {
      type: GraphQLString,
      // What the exception filter makes of a TroveError.
      resolve: () => {
        throw new GraphQLError('this API key (role VIEWER) may not do this', {
          extensions: { code: 'FORBIDDEN', status: 403 },
        });
      },
    },
    broken: {
      type: GraphQLString,
      resolve: () => {
        throw new Error('connect ECONNREFUSED 10.0.0.5:9200');
      },
    },
  },
});

function operations() {
  const schemas = new GraphQLSchemaHost();
  schemas.schema = new GraphQLSchema({ query: Query });
  const graphql = new InProcessGraphql(schemas, { graphql: graphqlLimitsSchema.parse({}) });
  return graphql.operationsFor({ path: '/mcp' } as Request);
}

const Greeting = new TypedDocumentString<{ greeting: string }, { name?: string }>(
  'query Greeting($name: String) { greeting(name: $name) }',
);

describe('InProcessGraphql', () => {
  it("runs an operation with the caller's request as its context, variables as JSON carries them", async () => {
    const api = operations();
    expect(await api.request(Greeting, { name: 'Ann' })).toEqual({ greeting: 'hello Ann, from /mcp' });
    // Left out over HTTP, so the argument's default applies (graphql-js alone would pass null).
    expect(await api.request(Greeting, { name: undefined })).toEqual({ greeting: 'hello world, from /mcp' });
  });

  it('throws the code and message a client gets over HTTP; an internal failure is INTERNAL, its details not sent', async () => {
    const api = operations();
    const Forbidden = new TypedDocumentString<{ forbidden: string }, Record<string, never>>(
      'query Forbidden { forbidden }',
    );
    await expect(api.request(Forbidden)).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'this API key (role VIEWER) may not do this',
    });
    const Broken = new TypedDocumentString<{ broken: string }, Record<string, never>>(
      'query Broken { broken }',
    );
    const failure = await api.request(Broken).catch((error: Error) => error);
    expect(failure).toMatchObject({ code: 'INTERNAL', message: 'internal error; see the API logs' });
    expect(JSON.stringify(failure)).not.toContain('10.0.0.5');
  });

  it('refuses a document over the limits of POST /graphql before running it', async () => {
    const aliases = Array.from({ length: 16 }, (_, i) => `g${i}: greeting`).join(' ');
    const TooMany = new TypedDocumentString<object, Record<string, never>>(`query TooMany { ${aliases} }`);
    await expect(operations().request(TooMany)).rejects.toMatchObject({ code: 'QUERY_TOO_COMPLEX' });
  });
});
