import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { MeDocument, TroveApiError, TroveClient } from '@trove/api-client';
import { createTroveMcpServer, SERVER_VERSION } from '@trove/mcp-server';

// stdout carries the protocol: everything for people goes to stderr.
const say = (message: string) => process.stderr.write(`[trove-mcp] ${message}\n`);

const DEFAULT_API_URL = 'http://127.0.0.1:4000';

async function main(): Promise<void> {
  const apiUrl = process.env.TROVE_API_URL?.trim() || DEFAULT_API_URL;
  const apiKey = process.env.TROVE_API_KEY?.trim();
  if (!apiKey) {
    say(
      'TROVE_API_KEY is not set: give the server an API key (the admin key in .trove/admin-api-key, or one made with createApiKey).',
    );
    process.exit(2);
  }
  const client = new TroveClient({ apiUrl, apiKey, userAgent: `trove-mcp/${SERVER_VERSION}` });
  try {
    const { me } = await client.request(MeDocument);
    const scope = me.projectIds ? `${me.projectIds.length} project(s)` : 'every project';
    say(`connected to ${client.apiUrl} as "${me.name}" (${me.role}, ${scope})`);
  } catch (error) {
    if (!(error instanceof TroveApiError)) throw error;
    if (error.kind === 'auth') {
      say(`the API at ${client.apiUrl} refused TROVE_API_KEY (${error.code}: ${error.message})`);
      process.exit(4);
    }
    // The API may start after the agent: serve anyway, each tool call reports what fails.
    say(`cannot check the key yet (${error.code}: ${error.message}); serving, tools will retry`);
  }
  const server = createTroveMcpServer(client, { log: say });
  await server.connect(new StdioServerTransport());
}

main().catch((error: unknown) => {
  say(`fatal: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
