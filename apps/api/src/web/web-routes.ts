/** URL paths of the browser-facing pages, shared by the api and the dashboard's dev server. */
export const PLAYGROUND_PATH = '/playground';

/** Trove's MCP server over Streamable HTTP (mcp/mcp.controller.ts). */
export const MCP_PATH = '/mcp';

/** Paths the API itself answers; the dashboard's single-page fallback never shadows them. */
export const API_PATH_PREFIXES = ['/graphql', '/v1/', '/webhooks/', MCP_PATH, '/healthz', '/readyz'] as const;
