// The browser-safe core of the client (no Node built-ins): the dashboard imports this, and the
// Node client (./index.ts, for the CLI and the MCP server) builds on it.
export * from './api-error';
export * from './ask-stream';
export * from './feedback-export';
export * from './graphql-request';
export * from './hit-origin';
// The typed operations (`ProjectsDocument`, `SearchDocument`, …) with their result and variable
// types (`ProjectsQuery`, `SearchQueryVariables`, …), generated from ./operations.ts.
export * from './gql/graphql';
export * from './source-config-fields';
// What an upload may be: the dashboard's file picker and its hint name the formats the api reads.
export { supportedFormatsText, UPLOAD_ACCEPT } from '@trove/domain';
