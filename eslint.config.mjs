import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import vitest from '@vitest/eslint-plugin';
import eslintComments from '@eslint-community/eslint-plugin-eslint-comments';
import { builtinModules } from 'node:module';

const boundaries = (allow = []) => ({
  enforceBuildableLibDependency: false,
  allow,
  depConstraints: [
    // Axis 1: who may use whom by layer.
    {
      sourceTag: 'type:app',
      onlyDependOnLibsWithTags: [
        'type:feature',
        'type:provider',
        'type:workflow',
        'type:domain',
        'type:util',
      ],
    },
    { sourceTag: 'type:workflow', onlyDependOnLibsWithTags: ['type:domain', 'type:feature'] },
    {
      sourceTag: 'type:feature',
      onlyDependOnLibsWithTags: ['type:feature', 'type:provider', 'type:domain', 'type:util'],
    },
    {
      sourceTag: 'type:provider',
      onlyDependOnLibsWithTags: ['type:provider', 'type:domain', 'type:util'],
    },
    { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:domain', 'type:util'] },
    { sourceTag: 'type:domain', onlyDependOnLibsWithTags: [] },
    // Development tools (benchmarks, evals, demos, the test support they share) may use any lib.
    {
      sourceTag: 'type:tool',
      onlyDependOnLibsWithTags: [
        'type:tool',
        'type:feature',
        'type:provider',
        'type:workflow',
        'type:domain',
        'type:util',
      ],
    },
    // Axis 2: which app's code may reach which scope.
    { sourceTag: 'scope:api', onlyDependOnLibsWithTags: ['scope:api', 'scope:shared'] },
    { sourceTag: 'scope:worker', onlyDependOnLibsWithTags: ['scope:worker', 'scope:shared'] },
    { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
    // The MCP server and the CLI reach Trove through its public API (@trove/api-client), never its internals;
    // the CLI's operator commands `backup` and `restore` alone run beside the server, through @trove/backup.
    { sourceTag: 'scope:mcp', onlyDependOnLibsWithTags: ['scope:mcp', 'scope:shared'] },
    { sourceTag: 'scope:cli', onlyDependOnLibsWithTags: ['scope:cli', 'scope:shared'] },
    // The dashboard runs in the browser: it talks to the api over GraphQL only, never through its code.
    { sourceTag: 'scope:dashboard', onlyDependOnLibsWithTags: ['scope:dashboard'] },
    // Development tools (tools/*, test/support, the Notion API emulator, the benchmarks' embedder stub) reach
    // the shared and the worker's libs; nothing in the product may depend on them (no other scope lists scope:dev).
    { sourceTag: 'scope:dev', onlyDependOnLibsWithTags: ['scope:dev', 'scope:shared', 'scope:worker'] },
  ],
});

export default [
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.trove/**',
      '.nx/**',
      'infra/**',
      'libs/api-client/src/gql/**',
    ],
  },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    // Nx's preset names the checkout's absolute path as tsconfigRootDir for every file, which puts
    // the path in each file's settings hash and so voids ESLint's cache in any other checkout
    // (scripts/static-check.sh keeps it per machine). Only libs/workflows reads types (below, with
    // its own root); elsewhere a fixed absolute path stands in, which nothing reads.
    languageOptions: { parserOptions: { tsconfigRootDir: '/' } },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', boundaries()],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Non-null assertions mark invariants the code establishes just above them.
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['apps/dashboard/src/**/*.tsx', 'apps/dashboard/src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Specs may run the product's development tools (the Notion API emulator) as a fake service.
    files: ['**/*.spec.ts'],
    rules: { '@nx/enforce-module-boundaries': ['error', boundaries(['@trove/notion-emulator'])] },
  },
  {
    // The test stacks start the api and the worker as the scripts do (scripts/app-entry.js, plain
    // JavaScript the shell scripts and the CLI's binary run too).
    files: ['test/support/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': ['error', boundaries(['../../scripts/app-entry'])] },
  },
  {
    // The benchmarks and evals run the worker in this process through its composition root (as the
    // integration tests do), and the Notion benchmarks serve the Notion API emulator; their stacks
    // start the apps as the scripts do.
    files: ['tools/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        boundaries(['@trove/worker', '@trove/notion-emulator', '../../scripts/app-entry']),
      ],
    },
  },
  {
    // Every test runs on every `npm test`: no focused, skipped, conditional or todo tests. A test
    // that must be skipped says why, next to it: `// eslint-disable-next-line <rule> -- reason`
    // (and in test/allowed-skips.json, which scripts/test.sh checks the run against).
    files: ['**/*.spec.ts', '**/*.spec.tsx', '**/*.test.ts', 'test/**/*.ts'],
    plugins: { '@vitest': vitest, '@eslint-community/eslint-comments': eslintComments },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@vitest/no-focused-tests': ['error', { fixable: false }],
      '@vitest/no-disabled-tests': 'error',
      '@vitest/warn-todo': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'MemberExpression[object.name=/^(it|test|describe|suite|bench)$/][property.name=/^(skipIf|runIf)$/]',
          message: 'a conditional test is skipped silently when its condition fails; make it always run',
        },
        {
          // Unit specs share a worker's module cache (vitest.config.ts): a module mock does not
          // reach a module another spec loaded first, so the spec would test the real thing.
          selector: 'CallExpression[callee.object.name="vi"][callee.property.name=/^(mock|doMock)$/]',
          message:
            'spec files share their modules: inject the fake (a constructor argument, a function) instead of vi.mock',
        },
      ],
      '@eslint-community/eslint-comments/require-description': 'error',
    },
  },
  {
    // Workflow code is replayed deterministically in a sandbox: no Node built-ins, no runtime
    // imports of activity code (types only), and no promise may be left floating.
    files: ['libs/workflows/src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            ...builtinModules
              .flatMap((m) => [m, `node:${m}`])
              .map((name) => ({ name, message: 'no Node built-ins in workflow code' })),
            {
              name: '@trove/ingest-activities',
              message: 'import activity types only (import type)',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
];
