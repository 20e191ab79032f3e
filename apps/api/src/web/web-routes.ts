/** URL paths of the browser-facing pages, shared by the api and the dashboard's dev server. */
export const PLAYGROUND_PATH = '/playground';

/** Trove's MCP server over Streamable HTTP (mcp/mcp.controller.ts). */
export const MCP_PATH = '/mcp';

/** Signing people in and out: providers, login, callback, session, logout. */
export const AUTH_PATH = '/auth';

/** OAuth 2.0 Protected Resource Metadata (RFC 9728) of the API and of /mcp. */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/** Paths the API itself answers; the dashboard's single-page fallback never shadows them. */
export const API_PATH_PREFIXES = [
  '/graphql',
  '/v1/',
  '/webhooks/',
  MCP_PATH,
  '/healthz',
  '/readyz',
  `${AUTH_PATH}/`,
  '/.well-known/',
] as const;
