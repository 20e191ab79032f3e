import { ApolloServer } from '@apollo/server';
import { buildSchema, getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlLimitsSchema } from '@trove/config';
import { checkDocument, formatGraphqlError, graphqlProtection } from './graphql-limits';

const typeDefs = `
  type Query { search(query: String!): [Hit!]! projects: [Project!]! project(id: ID!): Project broken: String! }
  type Hit { text: String score: Float }
  type Project { id: ID! name: String documents: [Document!]! }
  type Document { id: ID! project: Project! }
`;
const project = { id: 'p', name: 'P', documents: () => [{ id: 'd', project }] };
const resolvers = {
  Query: {
    search: () => [{ text: 't', score: 1 }],
    projects: () => [project],
    project: () => project,
    broken: () => {
      throw new Error('connect ECONNREFUSED http://10.0.0.5:9200/trove-projects/_doc/');
    },
  },
};

const logged: string[] = [];
const server = new ApolloServer({
  typeDefs,
  resolvers,
  ...graphqlProtection(graphqlLimitsSchema.parse({})),
  formatError: (formatted, error) => formatGraphqlError(formatted, error, (line) => logged.push(line)),
});
beforeAll(() => server.start());
afterAll(() => server.stop());

async function run(query: string) {
  const response = await server.executeOperation({ query });
  const body = response.body.kind === 'single' ? response.body.singleResult : undefined;
  return { status: response.http.status, errors: body?.errors, data: body?.data };
}

/** 10 aliases per level over __schema → types → fields → type, as in the attack probe. */
export function introspectionBomb(): string {
  const ten = (alias: string, field: string) =>
    Array.from({ length: 10 }, (_, i) => `${alias}${i}: ${field}`).join(' ');
  return [
    `query { ${ten('s', '__schema { ...S }')} }`,
    `fragment S on __Schema { ${ten('t', 'types { ...T }')} }`,
    `fragment T on __Type { ${ten('f', 'fields { ...F }')} }`,
    `fragment F on __Field { ${ten('y', 'type { name kind }')} }`,
  ].join(' ');
}

const aliasedSearches = (n: number) =>
  `{ ${Array.from({ length: n }, (_, i) => `s${i}: search(query: "q") { text }`).join(' ')} }`;

describe('graphqlProtection', () => {
  it('lets ordinary queries and the standard introspection query through', async () => {
    expect((await run('{ projects { id name documents { id } } }')).errors).toBeUndefined();
    expect(
      (await run('{ a: search(query: "x") { text } b: search(query: "y") { score } }')).errors,
    ).toBeUndefined();
    expect((await run(getIntrospectionQuery({ descriptions: true }))).errors).toBeUndefined();
  });

  it('refuses the aliased introspection fragment bomb with 400 QUERY_TOO_COMPLEX', async () => {
    const bomb = introspectionBomb();
    expect(bomb.length).toBeLessThan(1000);
    const { status, errors, data } = await run(bomb);
    expect(status).toBe(400);
    expect(data).toBeUndefined();
    expect(errors?.[0]).toMatchObject({
      message: 'Aliases limit of 15 exceeded, found 11110.',
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
  });

  it('refuses aliased searches beyond the alias limit, and a thousand of them at the token limit', async () => {
    const sixteen = await run(aliasedSearches(16));
    expect(sixteen.status).toBe(400);
    expect(sixteen.errors?.map((e) => e.extensions?.code)).toContain('QUERY_TOO_COMPLEX');
    const thousand = await run(aliasedSearches(1000));
    expect(thousand.status).toBe(400);
    expect(thousand.errors).toEqual([
      { message: 'Token limit of 1000 exceeded.', extensions: { code: 'QUERY_TOO_COMPLEX' } },
    ]);
  });

  it('refuses deep nesting', async () => {
    const deep = `{ project(id: "p") { ${'documents { project { '.repeat(5)} id ${'} } '.repeat(5)} } }`;
    const { status, errors } = await run(deep);
    expect(status).toBe(400);
    expect(errors?.[0]).toMatchObject({
      message: expect.stringMatching(/^Query depth limit of 8 exceeded/),
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
  });

  it('refuses nested introspection lists (graphql-js MaxIntrospectionDepthRule)', async () => {
    const { status, errors } = await run(
      '{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }',
    );
    expect(status).toBe(400);
    expect(errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('refuses documents over the token limit', async () => {
    const { status, errors } = await run(`{ projects { ${'id '.repeat(2000)} } }`);
    expect(status).toBe(400);
    expect(errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
  });

  it('caps root fields over all operations of a document, fragments included', async () => {
    const manyOperations = Array.from({ length: 11 }, (_, i) => `query q${i} { projects { id } }`).join(' ');
    const many = await run(manyOperations);
    expect(many.status).toBe(400);
    expect(many.errors?.[0]).toMatchObject({
      message: 'Operations limit of 10 root fields per request exceeded, found 11.',
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
    const viaFragments = await run(
      `{ ...A ...B } fragment A on Query { ${Array.from({ length: 6 }, (_, i) => `a${i}: projects { id }`).join(' ')} }
       fragment B on Query { ${Array.from({ length: 6 }, (_, i) => `b${i}: projects { name }`).join(' ')} }`,
    );
    expect(viaFragments.errors?.map((e) => e.message)).toContain(
      'Operations limit of 10 root fields per request exceeded, found 12.',
    );
  });

  it('hides field suggestions', async () => {
    const { status, errors } = await run('{ projectz { id } }');
    expect(status).toBe(400);
    expect(errors?.[0].message).toContain('Cannot query field "projectz"');
    expect(errors?.[0].message).not.toContain('Did you mean');
    expect(errors?.[0].message).not.toContain('projects');
  });

  it('answers unknown failures with INTERNAL and a generic message, details in one log line', async () => {
    logged.length = 0;
    const { errors } = await run('{ broken }');
    expect(errors).toEqual([
      { message: 'internal error; see the API logs', path: ['broken'], extensions: { code: 'INTERNAL' } },
    ]);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('ECONNREFUSED');
    expect(logged[0]).not.toContain('\n');
  });
});

describe('checkDocument (GraphQL over WebSocket)', () => {
  const schema = buildSchema(typeDefs);
  const protection = graphqlProtection(graphqlLimitsSchema.parse({}));
  const refusals = (query: string) => {
    const checked = checkDocument(schema, query, protection);
    return 'errors' in checked ? checked.errors.map((e) => [e.extensions.code, e.message]) : [];
  };

  it.each([
    ['the introspection bomb', introspectionBomb()],
    ['16 aliased searches', aliasedSearches(16)],
    ['1,000 aliased searches', aliasedSearches(1000)],
    ['deep nesting', `{ project(id: "p") { ${'documents { project { '.repeat(5)} id ${'} } '.repeat(5)} } }`],
    ['eleven operations', Array.from({ length: 11 }, (_, i) => `query q${i} { projects { id } }`).join(' ')],
    ['a field suggestion', '{ projectz { id } }'],
    ['a syntax error', '{ projects { id }'],
  ])('refuses %s exactly as Apollo does over HTTP', async (_name, query) => {
    const mine = refusals(query);
    const { errors } = await run(query);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine).toEqual(errors?.map((e) => [e.extensions?.code, e.message]));
  });

  it('passes what Apollo passes', () => {
    expect(refusals('{ projects { id name documents { id } } }')).toEqual([]);
    expect(refusals(getIntrospectionQuery({ descriptions: true }))).toEqual([]);
  });
});
