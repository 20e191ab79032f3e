import type { CodegenConfig } from '@graphql-codegen/cli';

/** Typed operations for the CLI and the MCP server, from the schema the api prints (apps/api/src/print-schema.ts). */
const config: CodegenConfig = {
  schema: 'apps/dashboard/schema.graphql',
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
