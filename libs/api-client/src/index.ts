export * from './api-error';
export * from './ask-stream';
export * from './trove-client';
// The typed operations (`ProjectsDocument`, `SearchDocument`, …) with their result and variable
// types (`ProjectsQuery`, `SearchQueryVariables`, …), generated from ./operations.ts.
export * from './gql/graphql';
export * from './source-config-fields';
