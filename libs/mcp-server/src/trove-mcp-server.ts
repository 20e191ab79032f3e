import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { TroveOperations } from '@trove/api-client';
import { registerDocumentResources } from './document.resource';
import type { ToolContext } from './tool-context';
import type { FailureLog } from './tool-result';
import { registerConfigTools } from './tools/config.tools';
import { registerDocumentTools } from './tools/documents.tools';
import { registerProjectTools } from './tools/projects.tools';
import { registerSearchTools } from './tools/search.tools';
import { registerSourceTools } from './tools/sources.tools';

/** The tools the server offers, in the order it lists them. */
export const TOOL_NAMES = [
  'search',
  'ask',
  'list_threads',
  'list_projects',
  'list_sources',
  'list_source_types',
  'add_source',
  'sync_source',
  'get_sync_run',
  'cancel_sync_run',
  'list_documents',
  'get_document',
  'get_chunk',
  'reindex_document',
  'get_config',
  'set_config',
] as const;

/** How the server introduces itself to clients (`serverInfo`). */
export const SERVER_NAME = 'trove';
export const SERVER_VERSION = '0.1.0';

export interface TroveMcpServerOptions {
  /** Where unexpected failures are described (stderr for stdio, the api's logger over HTTP). */
  log?: FailureLog;
}

/**
 * Trove as an MCP server: the tools and the document resources, every call made through the
 * public API with the client's key (so the key's role and projects decide what succeeds). One
 * server per connection; both transports (stdio, Streamable HTTP) build it here.
 */
export function createTroveMcpServer(
  client: TroveOperations,
  options: TroveMcpServerOptions = {},
): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, title: 'Trove knowledge base', version: SERVER_VERSION },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'Trove searches and answers from a team knowledge base (documents, Notion, documentation sites). ' +
        'Start with list_projects when unsure which project to use; search for evidence, read around hits with get_chunk, ' +
        'and cite the citationUrl of what you use. ask answers directly with verified citations.',
    },
  );
  const context: ToolContext = {
    client,
    log: options.log ?? ((message) => console.error(`[trove-mcp] ${message}`)),
  };
  registerSearchTools(server, context);
  registerProjectTools(server, context);
  registerSourceTools(server, context);
  registerDocumentTools(server, context);
  registerConfigTools(server, context);
  registerDocumentResources(server, context);
  return server;
}
