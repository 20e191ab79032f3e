import type { CodegenConfig } from '@graphql-codegen/cli';

/** Typed operations for the dashboard, from the schema the api prints (apps/api/src/print-schema.ts). */
const config: CodegenConfig = {
  schema: 'apps/dashboard/schema.graphql',
  documents: ['apps/dashboard/src/**/*.{ts,tsx}', '!apps/dashboard/src/gql/**'],
  generates: {
    'apps/dashboard/src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: { documentMode: 'string', enumsAsTypes: true, useTypeImports: true, skipTypename: true },
    },
  },
  hooks: { afterAllFileWrite: ['prettier --write'] },
};

export default config;
