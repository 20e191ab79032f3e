import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import {
  type OperationVariables,
  TroveApiError,
  type TroveOperations,
  type TypedDocumentString,
} from '@trove/api-client';
import { createTroveMcpServer, TOOL_NAMES } from './trove-mcp-server';

type Answers = Record<string, (variables: Record<string, unknown>) => unknown>;

/** The API as the tools see it: each operation (by name) answered from `answers`. */
class FakeOperations implements TroveOperations {
  constructor(private readonly answers: Answers) {}

  async request<TResult, TVariables>(
    document: TypedDocumentString<TResult, TVariables>,
    ...[variables]: OperationVariables<TVariables>
  ): Promise<TResult> {
    const name = /(?:query|mutation)\s+(\w+)/.exec(document.toString())![1];
    const answer = this.answers[name];
    if (!answer) throw new Error(`unexpected operation ${name}`);
    return answer((variables ?? {}) as Record<string, unknown>) as TResult;
  }
}

const PROJECT = {
  id: 'p1',
  name: 'Docs',
  status: 'ACTIVE',
  createdAt: 'now',
  stats: { documentCount: 1, chunkCount: 2 },
};

async function connected(answers: Answers, logs: string[] = []): Promise<Client> {
  const server = createTroveMcpServer(new FakeOperations(answers), { log: (line) => logs.push(line) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'spec', version: '1' });
  await client.connect(clientSide);
  return client;
}

describe('createTroveMcpServer', () => {
  it('lists every tool it declares, each with an output schema', async () => {
    const client = await connected({});
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
    expect(tools.every((tool) => tool.outputSchema)).toBe(true);
  });

  it("turns the API's error into a tool error with its code and message", async () => {
    const client = await connected({
      Projects: () => ({ projects: [PROJECT] }),
      Sources: () => ({ sources: [] }),
      SyncSource: () => {
        throw new TroveApiError(
          'this API key (role VIEWER) may not do this: it needs WRITE permission',
          'FORBIDDEN',
          403,
        );
      },
    });
    const result = (await client.callTool({
      name: 'sync_source',
      arguments: { source: '00000000-0000-4000-8000-000000000000' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: 'FORBIDDEN: this API key (role VIEWER) may not do this: it needs WRITE permission',
      },
    ]);
    expect(result._meta).toEqual({
      'trove/error': {
        code: 'FORBIDDEN',
        message: 'this API key (role VIEWER) may not do this: it needs WRITE permission',
      },
    });
  });

  it('adds a source of a type named in any case, and passes the fields an invalid config got wrong', async () => {
    const SOURCE_TYPES = {
      sourceTypes: [
        {
          type: 'WEB',
          label: 'Web site',
          description: 'pages under a URL',
          configSchema: {
            type: 'object',
            properties: { url: { type: 'string', format: 'uri' }, maxPages: { type: 'integer', minimum: 1 } },
            required: ['url'],
          },
          secretFields: [],
          webhook: false,
        },
      ],
    };
    const added: Record<string, unknown>[] = [];
    const client = await connected({
      SourceTypes: () => SOURCE_TYPES,
      Projects: () => ({ projects: [PROJECT] }),
      AddSource: (variables) => {
        const input = variables.input as { config: { maxPages?: number } };
        if (input.config.maxPages === 0) {
          throw new TroveApiError(
            'invalid WEB source configuration: config.maxPages: too small',
            'BAD_REQUEST',
            200,
            [{ field: 'config.maxPages', message: 'too small' }],
          );
        }
        added.push(variables.input as Record<string, unknown>);
        return {
          addSource: {
            id: 's1',
            name: 'Docs',
            type: 'WEB',
            status: 'ACTIVE',
            config: input.config,
            secrets: [],
          },
        };
      },
    });
    const types = (await client.callTool({ name: 'list_source_types', arguments: {} })) as CallToolResult;
    expect(types.structuredContent).toMatchObject({
      types: [
        { type: 'WEB', fields: [{ name: 'url', kind: 'string', required: true }, { name: 'maxPages' }] },
      ],
    });
    const ok = (await client.callTool({
      name: 'add_source',
      arguments: { type: 'web', name: 'Docs', config: { url: 'https://docs.example.com/' } },
    })) as CallToolResult;
    expect(ok.isError).toBeFalsy();
    expect(added).toEqual([
      { projectId: 'p1', type: 'WEB', name: 'Docs', config: { url: 'https://docs.example.com/' } },
    ]);
    const unknown = (await client.callTool({
      name: 'add_source',
      arguments: { type: 'gopher', name: 'Old', config: {} },
    })) as CallToolResult;
    expect((unknown.content as { text: string }[])[0].text).toMatch(
      /^BAD_REQUEST: unknown source type "gopher"; the types are WEB/,
    );
    const invalid = (await client.callTool({
      name: 'add_source',
      arguments: { type: 'WEB', name: 'Docs', config: { url: 'https://docs.example.com/', maxPages: 0 } },
    })) as CallToolResult;
    expect(invalid.isError).toBe(true);
    expect(invalid._meta).toMatchObject({
      'trove/error': { code: 'BAD_REQUEST', problems: [{ field: 'config.maxPages', message: 'too small' }] },
    });
  });

  it('hides an unexpected failure behind INTERNAL and logs it', async () => {
    const logs: string[] = [];
    const client = await connected(
      {
        Projects: () => {
          throw new Error('connect ECONNREFUSED 10.1.2.3:5432 at /srv/trove/secret/path.ts:12');
        },
      },
      logs,
    );
    const result = (await client.callTool({ name: 'list_projects', arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).not.toContain('ECONNREFUSED');
    expect((result.content as { text: string }[])[0].text).toMatch(/^INTERNAL: /);
    expect(logs.join('\n')).toContain('ECONNREFUSED');
  });

  it('refuses set_config for a key that is not ADMIN before asking the API to change anything', async () => {
    let updated = false;
    const client = await connected({
      Me: () => ({
        me: { keyId: 'k', name: 'bot', role: 'EDITOR', permissions: ['READ', 'WRITE'], projectIds: ['p1'] },
      }),
      UpdateRagConfig: () => {
        updated = true;
        return { updateRagConfig: { version: 2, overridden: [], warnings: [] } };
      },
    });
    const result = (await client.callTool({
      name: 'set_config',
      arguments: { answers: { topK: 3 } },
    })) as CallToolResult;
    expect((result.content as { text: string }[])[0].text).toMatch(
      /^FORBIDDEN: set_config needs an ADMIN API key/,
    );
    expect(updated).toBe(false);
  });

  it('caps search at 20 hits and passes the resolved project', async () => {
    let input: Record<string, unknown> = {};
    const client = await connected({
      Projects: () => ({ projects: [PROJECT] }),
      Search: (variables) => {
        input = variables.input as Record<string, unknown>;
        return { search: { tookMs: 1, reranked: false, reranker: null, warnings: [], hits: [] } };
      },
    });
    const tooMany = (await client.callTool({
      name: 'search',
      arguments: { query: 'x', limit: 50 },
    })) as CallToolResult;
    expect(tooMany.isError).toBe(true);
    const result = (await client.callTool({
      name: 'search',
      arguments: { query: 'rollback', project: 'docs' },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(input).toEqual({ projectId: 'p1', query: 'rollback', limit: 5, mode: 'HYBRID', expand: 0 });
    expect(result.structuredContent).toMatchObject({ projectId: 'p1', hits: [] });
  });
});
