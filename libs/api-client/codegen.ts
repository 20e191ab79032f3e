import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Typed operations of every client (dashboard, CLI, MCP server), from the schema the api prints
 * (apps/api/src/print-schema.ts) into libs/api-client/schema.graphql.
 */
const config: CodegenConfig = {
  schema: 'libs/api-client/schema.graphql',
  documents: ['libs/api-client/src/operations.ts'],
  generates: {
    'libs/api-client/src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: { documentMode: 'string', enumsAsTypes: true, useTypeImports: true, skipTypename: true },
    },
  },
  hooks: { afterAllFileWrite: ['prettier --write'] },
};

export default config;
