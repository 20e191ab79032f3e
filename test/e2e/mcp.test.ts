import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultWorkspace, DEFAULT_IDS, NotionEmulator } from '@trove/notion-emulator';
import { CONVERSATION, uploadConversation } from '../support/conversation';
import { expectEventually, ROOT, uniqueName } from '../support/services';
import { ADMIN_KEY, TroveStack } from '../support/stack';
import { docsSite, StaticSite } from '../support/static-site';

// The MCP server through the SDK's own client, over both transports, against the real api and
// worker: stdio (apps/mcp started as a child process, as an agent starts it) and Streamable HTTP
// (/mcp on the api). Notion is the API emulator, as in notion-sync.test.ts.
const emulator = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: Infinity });
/** The site a web source added by add_source reads. */
const site = new StaticSite(docsSite('Bonsai'));
let stack: TroveStack;
let projectId: string;
let runbookId: string;
let viewerKey: string;
const clients: Record<'stdio' | 'http', Client> = {} as never;
const opened: Client[] = [];

const PROJECT = 'MCP e2e';
/** The MCP reference the README links to (docs/mcp.md): its commands are run as written. */
const MCP_DOC = readFileSync(join(ROOT, 'docs', 'mcp.md'), 'utf8');
const SHIM = join(ROOT, 'apps/mcp/bin/trove-mcp.js');

async function connect(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<Client> {
  const client = new Client({ name: 'trove-e2e', version: '1.0.0' });
  await client.connect(transport);
  opened.push(client);
  return client;
}

function stdio(key: string, command = 'node', args = [SHIM], cwd = ROOT): StdioClientTransport {
  return new StdioClientTransport({
    command,
    args,
    cwd,
    env: { ...getDefaultEnvironment(), TROVE_API_URL: stack.url, TROVE_API_KEY: key },
    stderr: 'pipe',
  });
}

function http(key: string, url = `${stack.url}/mcp`, header = 'X-API-Key'): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { [header]: key } } });
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** A successful call's structured result (fails the test with the tool's error otherwise). */
async function ok<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T & { text: string }> {
  const result = await call(client, name, args);
  const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
  expect(result.isError, text).toBeFalsy();
  return { ...(result.structuredContent as T), text };
}

function errorText(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  return (result.content as { text: string }[])[0].text;
}

async function createKey(role: 'VIEWER' | 'EDITOR', projectIds: string[]): Promise<string> {
  const { createApiKey } = await stack.query<{ createApiKey: { secret: string } }>(
    'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret } }',
    { input: { name: `mcp ${role.toLowerCase()}`, role, projectIds } },
  );
  return createApiKey.secret;
}

/** Runs a process to its end: its exit code and what it wrote to stderr. */
function runToExit(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...getDefaultEnvironment(), ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

/** Runs a bash script in `cwd`: its exit code and stdout. */
function runShell(script: string, cwd: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout }));
  });
}

/** The MCP section of docs/mcp.md (to the next section or the end), with its fenced blocks. */
function readmeSection(): string {
  const start = MCP_DOC.indexOf('## Use it from an agent (MCP)');
  expect(start).toBeGreaterThan(-1);
  const next = MCP_DOC.indexOf('\n## ', start + 1);
  return MCP_DOC.slice(start, next === -1 ? undefined : next);
}

function fenced(section: string, language: string): string[] {
  return [...section.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);
}

beforeAll(async () => {
  const emulatorUrl = await emulator.start();
  await site.start();
  // The web source reads the local site: private networks are allowed for this stack only.
  stack = new TroveStack({
    TROVE_NOTION_API_URL: emulatorUrl,
    TROVE_NOTION_REQUESTS_PER_SECOND: '50',
    TROVE_WEB_ALLOW_PRIVATE_NETWORKS: 'true',
    TROVE_WEB_REQUESTS_PER_SECOND: '50',
  });
  await stack.start();
  projectId = await stack.createProject(PROJECT);
  const ids: string[] = [];
  for (const name of ['deploy-runbook.md', 'search-basics.md', 'interview-notes-ru.md']) {
    const upload = await stack.upload(projectId, name, readFileSync(join(ROOT, 'samples/quickstart', name)));
    expect(upload.status).toBe(202);
    ids.push(upload.body.id as string);
  }
  runbookId = ids[0];
  for (const id of ids) expect((await stack.settled(id)).status).toBe('READY');
  viewerKey = await createKey('VIEWER', [projectId]);
  clients.stdio = await connect(stdio(ADMIN_KEY));
  clients.http = await connect(http(ADMIN_KEY));
});

afterAll(async () => {
  for (const client of opened) await client.close().catch(() => undefined);
  await stack?.stop();
  await emulator.stop();
  await site.stop();
});

describe.each(['stdio', 'http'] as const)('MCP over %s', (transport) => {
  it('lists the sixteen tools, ask among them, each with input and output schemas', async () => {
    const { tools } = await clients[transport].listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        'ask',
        'cancel_sync_run',
        'get_chunk',
        'get_config',
        'get_document',
        'get_sync_run',
        'list_documents',
        'list_projects',
        'list_sources',
        'list_source_types',
        'list_threads',
        'add_source',
        'reindex_document',
        'search',
        'set_config',
        'sync_source',
      ].sort(),
    );
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(80);
      expect(tool.outputSchema, tool.name).toBeDefined();
    }
    const search = tools.find((tool) => tool.name === 'search')!;
    expect(search.inputSchema.properties).toMatchObject({ limit: { maximum: 20, default: 5 } });
  });

  it('searches the quick start sample: numbered hits with heading paths and citation URLs', async () => {
    const result = await ok<{
      hits: {
        title: string;
        headingPath: string[];
        citationUrl: string;
        resourceUri: string;
        rank: number;
      }[];
    }>(clients[transport], 'search', { query: 'how do I roll back a release', limit: 3 });
    expect(result.hits.length).toBeGreaterThan(0);
    expect(result.hits.length).toBeLessThanOrEqual(3);
    const top = result.hits[0];
    expect(top).toMatchObject({
      rank: 1,
      title: 'Deploy runbook',
      fileName: 'deploy-runbook.md',
      sourceName: null,
    });
    expect(top.headingPath).toContain('Rolling back');
    expect(top.citationUrl).toMatch(new RegExp(`^${stack.url}/v1/documents/${runbookId}/original\\?sig=`));
    expect(top.resourceUri).toBe(`trove://projects/${projectId}/documents/${runbookId}`);
    // The text rendering: numbered, source › title › heading path, the link, an excerpt.
    expect(result.text).toContain('1. Uploads › Deploy runbook › ');
    expect(result.text).toContain('Rolling back');
    expect(result.text).toContain(top.citationUrl);
  });

  it('takes the project by name, and refuses an unknown one with PROJECT_NOT_FOUND', async () => {
    const byName = await ok<{ projectId: string }>(clients[transport], 'search', {
      query: 'release',
      project: PROJECT,
    });
    expect(byName.projectId).toBe(projectId);
    const unknown = await call(clients[transport], 'search', {
      query: 'release',
      project: 'No such project',
    });
    expect(errorText(unknown)).toMatch(/^PROJECT_NOT_FOUND: /);
  });

  it('answers a question EXTRACTIVE (no model offline) with citations', async () => {
    const answer = await ok<{
      mode: string;
      insufficientContext: boolean;
      citations: { marker: number; citationUrl: string }[];
    }>(clients[transport], 'ask', { question: 'How do I roll back a release?' });
    expect(answer.mode).toBe('EXTRACTIVE');
    expect(answer.insufficientContext).toBe(false);
    expect(answer.citations.length).toBeGreaterThan(0);
    expect(answer.citations[0].citationUrl).toContain('/original?sig=');
    expect(answer.text).toMatch(/\[1\] Deploy runbook/);
  });

  it('reads a document resource: the text in reading order under a title line, overlap written once', async () => {
    const { resources } = await clients[transport].listResources();
    const uri = `trove://projects/${projectId}/documents/${runbookId}`;
    expect(resources.map((resource) => resource.uri)).toContain(uri);
    expect(resources).toHaveLength(3);
    const { contents } = await clients[transport].readResource({ uri });
    const text = (contents[0] as { text: string; mimeType: string }).text;
    expect(contents[0].mimeType).toBe('text/markdown');
    expect(text.startsWith('# Deploy runbook\n\n')).toBe(true);
    const releasing = text.indexOf('Releases go out from');
    const rollback = text.indexOf('deployctl rollback');
    expect(releasing).toBeGreaterThan(-1);
    expect(rollback).toBeGreaterThan(releasing);
    for (const sentence of [
      'Releases go out from',
      'Database migrations are forward-only',
      'deployctl rollback',
    ]) {
      expect(text.split(sentence).length - 1, sentence).toBe(1);
    }
    await expect(
      clients[transport].readResource({
        uri: `trove://projects/${projectId}/documents/00000000-0000-4000-8000-000000000000`,
      }),
    ).rejects.toThrow(/DOCUMENT_NOT_FOUND/);
  });

  it('reports documents and projects', async () => {
    const projects = await ok<{ projects: { id: string; documentCount: number }[] }>(
      clients[transport],
      'list_projects',
    );
    expect(projects.projects.find((p) => p.id === projectId)?.documentCount).toBeGreaterThanOrEqual(3);
    const page = await ok<{ documents: { id: string }[]; nextCursor: string | null; totalCount: number }>(
      clients[transport],
      'list_documents',
      { first: 2 },
    );
    expect(page.documents).toHaveLength(2);
    expect(page.nextCursor).not.toBeNull();
    const next = await ok<{ documents: { id: string }[] }>(clients[transport], 'list_documents', {
      first: 2,
      after: page.nextCursor,
    });
    expect(next.documents.map((d) => d.id)).not.toContain(page.documents[0].id);
    const document = await ok<{ document: { status: string; chunkCount: number } }>(
      clients[transport],
      'get_document',
      {
        document_id: runbookId,
      },
    );
    expect(document.document.status).toBe('READY');
    expect(document.document.chunkCount).toBeGreaterThan(1);
  });
});

describe('MCP tools in depth', () => {
  it('get_chunk returns a chunk with its neighbours in reading order', async () => {
    const { chunks } = await stack.query<{ chunks: { id: string; position: number }[] }>(
      'query($d: ID!) { chunks(documentId: $d) { id position } }',
      { d: runbookId },
    );
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    const middle = chunks.find((chunk) => chunk.position === 1)!;
    const result = await ok<{
      chunk: { position: number };
      before: { position: number }[];
      after: { position: number }[];
    }>(clients.http, 'get_chunk', { chunk_id: middle.id, before: 1, after: 5 });
    expect(result.chunk.position).toBe(1);
    expect(result.before.map((c) => c.position)).toEqual([0]);
    expect(result.after.map((c) => c.position)).toEqual(
      chunks
        .filter((c) => c.position > 1 && c.position <= 6)
        .map((c) => c.position)
        .sort((a, b) => a - b),
    );
    expect(result.text).toContain('>>> chunk #1');
  });

  it('adds the Notion emulator source, syncs it with sync_source (stdio) and follows get_sync_run to COMPLETED', async () => {
    const added = await stack.addSource({
      projectId,
      name: 'Team wiki',
      type: 'NOTION',
      config: { token: emulator.token, rootPageIds: [DEFAULT_IDS.onboarding] },
    });
    const sources = await ok<{ sources: { id: string; name: string; type: string }[] }>(
      clients.stdio,
      'list_sources',
    );
    expect(sources.sources).toEqual([
      expect.objectContaining({
        id: added.id,
        name: 'Team wiki',
        type: 'NOTION',
        // What it reads, as the Notion definition summarises its config.
        scope: expect.stringMatching(/^Notion roots [0-9a-f-]{32,36}$/),
      }),
    ]);
    expect(sources.text).not.toContain(emulator.token);

    const started = await ok<{ runId: string; mode: string }>(clients.stdio, 'sync_source', {
      source: 'Team wiki',
      mode: 'FULL',
    });
    expect(started.mode).toBe('FULL');
    const run = await expectEventually(
      async () => {
        const state = await ok<{
          status: string;
          finished: boolean;
          progress: { pagesSeen: number; pagesIngested: number };
        }>(clients.stdio, 'get_sync_run', { run_id: started.runId });
        if (!state.finished) throw new Error('still running');
        return state;
      },
      { timeoutMs: 240_000, intervalMs: 1000 },
    );
    expect(run.status).toBe('COMPLETED');
    expect(run.progress.pagesIngested).toBe(run.progress.pagesSeen);
    expect(run.progress.pagesSeen).toBeGreaterThan(5);

    // Over HTTP, by id, INCREMENTAL: nothing changed.
    const again = await ok<{ runId: string }>(clients.http, 'sync_source', {
      source: added.id,
      mode: 'INCREMENTAL',
    });
    const settled = await stack.runSettled(again.runId);
    expect(settled.status).toBe('COMPLETED');
    const state = await ok<{ status: string; progress: { pagesIngested: number } }>(
      clients.http,
      'get_sync_run',
      { run_id: again.runId },
    );
    expect(state).toMatchObject({ status: 'COMPLETED', progress: { pagesIngested: 0 } });
    // A run that ended cannot be cancelled: the tool says why.
    const late = await call(clients.http, 'cancel_sync_run', { run_id: again.runId });
    expect(errorText(late)).toContain('the sync run already ended (COMPLETED)');

    const hits = await ok<{ hits: { title: string; citationUrl: string }[] }>(clients.http, 'search', {
      query: 'escalation channel on-call contacts',
    });
    expect(hits.hits.some((hit) => hit.citationUrl?.startsWith('https://www.notion.so/'))).toBe(true);
  });

  it('refuses a VIEWER key sync_source (FORBIDDEN) and set_config, over both transports', async () => {
    const { sources } = await stack.query<{ sources: { id: string }[] }>(
      'query($p: ID!) { sources(projectId: $p) { id } }',
      {
        p: projectId,
      },
    );
    for (const client of [await connect(http(viewerKey)), await connect(stdio(viewerKey))]) {
      // Reading is allowed.
      expect(
        (await ok<{ hits: unknown[] }>(client, 'search', { query: 'release' })).hits.length,
      ).toBeGreaterThan(0);
      const sync = await call(client, 'sync_source', { source: sources[0].id, mode: 'INCREMENTAL' });
      expect(errorText(sync)).toMatch(/^FORBIDDEN: .*VIEWER/);
      expect(sync._meta?.['trove/error']).toMatchObject({ code: 'FORBIDDEN' });
      const reindex = await call(client, 'reindex_document', { document_id: runbookId });
      expect(errorText(reindex)).toMatch(/^FORBIDDEN: /);
      const config = await call(client, 'set_config', { answers: { topK: 3 } });
      expect(errorText(config)).toMatch(/^FORBIDDEN: set_config needs an ADMIN API key/);
      // No stack trace in any error.
      expect(JSON.stringify([sync, reindex, config])).not.toMatch(/\bat .+\.(ts|js):\d+/);
    }
  });

  it('get_config never shows a secret that was set; set_config (admin) resets it', async () => {
    const SECRET = 'sk-mcp-e2e-0123456789abcdefghijklmnopqrstuvwxyz';
    const updated = await stack.gql(
      'mutation($input: UpdateRagConfigInput!) { updateRagConfig(input: $input) { version } }',
      {
        input: { llm: { apiKey: SECRET } },
      },
    );
    expect(updated.errors).toBeUndefined();
    for (const client of [clients.stdio, clients.http]) {
      const result = await call(client, 'get_config');
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result)).not.toContain(SECRET);
      expect(JSON.stringify(result)).not.toContain(SECRET.slice(4, -2));
      expect((result.structuredContent as { llm: { apiKey: { set: boolean } } }).llm.apiKey.set).toBe(true);
    }
    const reset = await ok<{ overridden: string[] }>(clients.http, 'set_config', { reset: ['llm.apiKey'] });
    expect(reset.overridden).not.toContain('llm.apiKey');
    const after = await ok<{ llm: { apiKey: { set: boolean } } }>(clients.stdio, 'get_config');
    expect(after.llm.apiKey.set).toBe(false);
  });

  it('reindex_document (admin) starts a re-index the document comes back READY from', async () => {
    const result = await ok<{ documentId: string; status: string }>(clients.http, 'reindex_document', {
      document_id: runbookId,
    });
    expect(result.documentId).toBe(runbookId);
    expect((await stack.settled(runbookId)).status).toBe('READY');
  });
});

describe('conversations', () => {
  it('ask starts a thread, reads a follow-up in it as a standalone question, and list_threads shows its turns', async () => {
    const conversation = await stack.createProject(uniqueName('MCP threads'));
    const ids = await uploadConversation(stack, conversation);
    const client = clients.http;
    const first = await ok<{ threadId: string; answerId: string }>(client, 'ask', {
      question: CONVERSATION.first,
      project: conversation,
      thread: 'new',
    });
    expect(first.threadId).toMatch(/^thr_/);
    expect(first.answerId).toMatch(/^ans_/);
    const followUp = await ok<{ standaloneQuestion: string; citations: { documentId: string }[] }>(
      client,
      'ask',
      { question: CONVERSATION.followUp, project: conversation, thread: first.threadId },
    );
    expect(followUp.standaloneQuestion).toBe(CONVERSATION.standalone);
    expect(followUp.citations[0].documentId).toBe(ids[CONVERSATION.parking.fileName]);
    expect(followUp.text.split('\n')[0]).toBe(`Searched for: ${CONVERSATION.standalone}`);

    const listed = await ok<{
      threads: { id: string; turnCount: number }[];
      thread: { turns: { position: number; standaloneQuestion: string | null }[] };
    }>(clients.stdio, 'list_threads', { project: conversation, thread_id: first.threadId });
    expect(listed.threads).toEqual([expect.objectContaining({ id: first.threadId, turnCount: 2 })]);
    expect(listed.thread.turns.map((t) => [t.position, t.standaloneQuestion])).toEqual([
      [1, null],
      [2, CONVERSATION.standalone],
    ]);
    expect(
      errorText(await call(client, 'ask', { question: 'q', project: conversation, thread: 'yesterday' })),
    ).toMatch(/^BAD_REQUEST: /);
  });
});

describe('adding a source with add_source', () => {
  it('lists the source types with their fields, refuses a bad config field by field, adds a web source that syncs', async () => {
    const types = await ok<{
      types: { type: string; fields: { name: string; kind: string; required: boolean; secret: boolean }[] }[];
    }>(clients.http, 'list_source_types');
    const web = types.types.find((info) => info.type === 'WEB')!;
    expect(web.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'url', kind: 'string', required: true }),
        expect.objectContaining({ name: 'maxPages', kind: 'integer', required: false }),
      ]),
    );
    expect(types.types.find((info) => info.type === 'NOTION')!.fields).toContainEqual(
      expect.objectContaining({ name: 'token', secret: true }),
    );
    expect(types.text).toMatch(/^WEB — Web site: /m);

    const unknown = await call(clients.http, 'add_source', { type: 'gopher', name: 'Old', config: {} });
    expect(errorText(unknown)).toMatch(/^BAD_REQUEST: unknown source type "gopher"; the types are .*WEB/);
    const invalid = await call(clients.stdio, 'add_source', {
      type: 'web',
      name: 'Bonsai site',
      config: { url: 'not a url', maxPages: 0, colour: 'green' },
      project: PROJECT,
    });
    expect(errorText(invalid)).toMatch(/^BAD_REQUEST: invalid WEB source configuration: /);
    const problems = (invalid._meta?.['trove/error'] as { problems: { field: string }[] }).problems;
    expect(problems.map((problem) => problem.field).sort()).toEqual([
      'config.colour',
      'config.maxPages',
      'config.url',
    ]);

    const added = await ok<{ id: string; type: string; config: { url: string; maxPages: number } }>(
      clients.stdio,
      'add_source',
      {
        type: 'web',
        name: 'Bonsai site',
        config: { url: `${site.url}/docs/`, maxPages: 10 },
        project: PROJECT,
      },
    );
    expect(added).toMatchObject({ type: 'WEB', config: { url: `${site.url}/docs/`, maxPages: 10 } });
    expect(added.text).toContain('sync_source');
    const started = await ok<{ runId: string }>(clients.stdio, 'sync_source', {
      source: added.id,
      mode: 'FULL',
    });
    const run = await stack.runSettled(started.runId);
    expect(run.status).toBe('COMPLETED');
    const state = await ok<{ progress: { pagesIngested: number } }>(clients.stdio, 'get_sync_run', {
      run_id: started.runId,
    });
    expect(state.progress.pagesIngested).toBe(2);
    const hits = await ok<{ hits: { title: string }[] }>(clients.http, 'search', {
      query: 'watering the bonsai with rainwater',
      project: PROJECT,
    });
    expect(hits.hits.map((hit) => hit.title)).toContain('Bonsai care');
  });

  it('refuses add_source to a VIEWER key (FORBIDDEN)', async () => {
    const viewer = await connect(http(viewerKey));
    const refused = await call(viewer, 'add_source', {
      type: 'WEB',
      name: 'Not allowed',
      config: { url: `${site.url}/docs/` },
    });
    expect(errorText(refused)).toMatch(/^FORBIDDEN: .*VIEWER/);
  });
});

describe('MCP access', () => {
  it('answers 401 on /mcp without a key or with a bad one, before any MCP work', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const attempts: Record<string, string>[] = [
      {},
      { 'X-API-Key': 'trove_not_a_key' },
      { Authorization: 'Bearer wrong' },
    ];
    for (const extra of attempts) {
      const response = await fetch(`${stack.url}/mcp`, {
        method: 'POST',
        headers: { ...headers, ...extra },
        body,
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    }
    const get = await fetch(`${stack.url}/mcp`, {
      headers: { 'X-API-Key': ADMIN_KEY, accept: 'text/event-stream' },
    });
    expect(get.status).toBe(405);
    expect(get.headers.get('content-security-policy')).toContain("default-src 'none'");
    // Bearer works as well as X-API-Key.
    const client = await connect(http(`Bearer ${ADMIN_KEY}`, `${stack.url}/mcp`, 'Authorization'));
    expect((await client.listTools()).tools.length).toBe(16);
  });

  it("a key scoped to one project gets, for another project's records, the answer a nonexistent one gets", async () => {
    const otherId = await stack.createProject('MCP other');
    const upload = await stack.upload(
      otherId,
      'other.md',
      '# Other\n\nA page of another project about releases.\n',
    );
    const otherDocument = upload.body.id as string;
    expect((await stack.settled(otherDocument)).status).toBe('READY');
    const viewer = await connect(http(viewerKey));
    const projects = await ok<{ projects: { id: string }[] }>(viewer, 'list_projects');
    expect(projects.projects.map((p) => p.id)).toEqual([projectId]);
    expect(errorText(await call(viewer, 'search', { query: 'releases', project: otherId }))).toMatch(
      /^PROJECT_NOT_FOUND: /,
    );
    const ghost = '00000000-0000-4000-8000-000000000000';
    for (const id of [otherDocument, ghost]) {
      expect(errorText(await call(viewer, 'get_document', { document_id: id }))).toBe(
        `DOCUMENT_NOT_FOUND: no document ${id}`,
      );
      await expect(
        viewer.readResource({ uri: `trove://projects/${otherId}/documents/${id}` }),
      ).rejects.toThrow(/DOCUMENT_NOT_FOUND/);
    }
    const { resources } = await viewer.listResources();
    expect(resources.every((resource) => resource.uri.startsWith(`trove://projects/${projectId}/`))).toBe(
      true,
    );
    // The admin key now reaches two projects: a call without `project` asks which, naming both.
    const which = errorText(await call(clients.http, 'search', { query: 'releases' }));
    expect(which).toMatch(/^BAD_REQUEST: .*"MCP e2e".*"MCP other"|^BAD_REQUEST: .*"MCP other".*"MCP e2e"/);
  });

  it('trove-mcp exits with a clear message when the key is missing (2) or refused (4)', async () => {
    const missing = await runToExit('node', [SHIM], { TROVE_API_URL: stack.url, TROVE_API_KEY: '' });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('TROVE_API_KEY is not set');
    const refused = await runToExit('node', [SHIM], {
      TROVE_API_URL: stack.url,
      TROVE_API_KEY: 'trove_wrong',
    });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('refused TROVE_API_KEY (UNAUTHENTICATED');
  });
});

describe('the MCP snippets of docs/mcp.md', () => {
  const section = readmeSection();
  /** The README's commands read the admin key from .trove/admin-api-key in the working folder. */
  function keyFolder(): string {
    const folder = mkdtempSync(join(tmpdir(), 'mcp-readme-'));
    mkdirSync(join(folder, '.trove'));
    writeFileSync(join(folder, '.trove/admin-api-key'), ADMIN_KEY);
    return folder;
  }
  const atStack = (url: string) => url.replace('http://127.0.0.1:4000', stack.url);

  /**
   * The argv `claude` receives when the README's line is pasted into bash in a folder holding
   * `.trove/admin-api-key` (a stand-in `claude` prints it), so quoting and substitutions count.
   */
  async function claudeArgv(prefix: string): Promise<string[]> {
    const line = fenced(section, 'bash')[0]
      .split('\n')
      .find((candidate) => candidate.startsWith(prefix));
    expect(line, prefix).toBeDefined();
    const standIn = `claude() { node -e 'console.log(JSON.stringify(process.argv.slice(1)))' -- "$@"; }`;
    const { code, stdout } = await runShell(`${standIn}\n${line}`, keyFolder());
    expect(code).toBe(0);
    return JSON.parse(stdout) as string[];
  }

  it('Claude Code over stdio: `claude mcp add trove --env … -- npx trove-mcp` starts a working server', async () => {
    const argv = await claudeArgv('claude mcp add trove ');
    const dashes = argv.indexOf('--');
    expect(argv.slice(0, 3)).toEqual(['mcp', 'add', 'trove']);
    const env: Record<string, string> = {};
    for (let i = 3; i < dashes; i += 2) {
      expect(argv[i]).toBe('--env');
      const [name, ...value] = argv[i + 1].split('=');
      env[name] = value.join('=');
    }
    expect(env).toEqual({ TROVE_API_URL: 'http://127.0.0.1:4000', TROVE_API_KEY: ADMIN_KEY });
    const [command, ...args] = argv.slice(dashes + 1);
    expect([command, ...args]).toEqual(['npx', 'trove-mcp']);
    const client = await connect(
      new StdioClientTransport({
        command,
        args,
        cwd: ROOT,
        env: { ...getDefaultEnvironment(), ...env, TROVE_API_URL: atStack(env.TROVE_API_URL) },
        stderr: 'pipe',
      }),
    );
    expect(
      (await ok<{ hits: unknown[] }>(client, 'search', { query: 'rollback', project: PROJECT })).hits.length,
    ).toBeGreaterThan(0);
  });

  it('Claude Code over HTTP: the URL and header of `claude mcp add --transport http` work', async () => {
    const argv = await claudeArgv('claude mcp add --transport http ');
    expect(argv.slice(0, 6)).toEqual([
      'mcp',
      'add',
      '--transport',
      'http',
      'trove',
      'http://127.0.0.1:4000/mcp',
    ]);
    expect(argv[6]).toBe('--header');
    const [header, value] = argv[7].split(': ');
    expect(value).toBe(ADMIN_KEY);
    const client = await connect(http(value, atStack(argv[5]), header));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('ask');
  });

  it('Claude Desktop: the claude_desktop_config.json entry starts from any folder', async () => {
    const config = JSON.parse(fenced(section, 'json')[0]) as {
      mcpServers: { trove: { command: string; args: string[]; env: Record<string, string> } };
    };
    const server = config.mcpServers.trove;
    expect(Object.keys(server.env).sort()).toEqual(['TROVE_API_KEY', 'TROVE_API_URL']);
    const client = await connect(
      new StdioClientTransport({
        command: server.command,
        args: server.args.map((arg) => arg.replace('/path/to/trove', ROOT)),
        cwd: tmpdir(),
        env: {
          ...getDefaultEnvironment(),
          TROVE_API_URL: atStack(server.env.TROVE_API_URL),
          TROVE_API_KEY: ADMIN_KEY,
        },
        stderr: 'pipe',
      }),
    );
    expect((await ok<{ projects: unknown[] }>(client, 'list_projects')).projects.length).toBeGreaterThan(0);
  });

  it('a generic client: the curl example lists the tools', async () => {
    const curl = fenced(section, 'bash')[1].trim();
    expect(curl.startsWith('curl ')).toBe(true);
    const { code, stdout } = await runShell(atStack(curl), keyFolder());
    expect(code).toBe(0);
    const answer = JSON.parse(stdout) as { result: { tools: { name: string }[] } };
    expect(answer.result.tools.map((tool) => tool.name)).toContain('search');
  });
});
