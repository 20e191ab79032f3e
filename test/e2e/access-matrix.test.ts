import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyRole, Permission, roleGrants, strongerRole } from '@trove/domain';
import { buildZip } from '../../libs/parsing/src/archive/zip-fixtures.testing';
import { expectEventually } from '../support/services';
import {
  ensureKeycloak,
  gqlAs,
  identityEnv,
  PROVIDER_ID,
  RealmAdmin,
  type RealmUser,
  signIn,
} from '../support/identity-provider';
import { ADMIN_KEY, TroveStack } from '../support/stack';

// Every operation of the API × every caller (API keys of each role; people with a role from a
// group, a direct grant, a project-only ADMIN role, an install-wide role; with a session, a
// personal token) × a record in the caller's project or in another one. A caller must get, for
// another project's record, exactly the answer a nonexistent id gets.

const folder = mkdtempSync(join(tmpdir(), 'trove-access-folder-'));
writeFileSync(join(folder, 'notes.md'), '# Notes\n\nA folder source for the access matrix.\n');
const stack = new TroveStack({
  TROVE_FOLDER_ROOTS: folder,
  TROVE_WEB_ALLOW_PRIVATE_NETWORKS: 'true',
  ...identityEnv(),
});
const realm = new RealmAdmin();
const people: RealmUser[] = [];

/** The records an operation may name. */
interface Ids {
  project: string;
  document: string;
  source: string;
  run: string;
  chunk: string;
  apiKey: string;
}

/** What a client saw, reduced to what must match between out-of-scope and nonexistent. */
interface Answer {
  kind: 'ok' | 'null' | 'error';
  status: number;
  code?: string;
  message?: string;
}

interface Operation {
  name: string;
  permission: Permission;
  /** Names no project (keys, global settings): project scope does not apply. */
  global?: boolean;
  /** Only people may call it (their own tokens): API keys are FORBIDDEN. */
  people?: boolean;
  /** A nullable lookup: in scope it must find the record, out of scope it answers null. */
  lookup?: boolean;
  /** Fresh records (made with the admin key) for operations that use theirs up, e.g. deletions. */
  fresh?: (projectId: string) => Promise<Partial<Ids>>;
  /** What counts as success when the operation cannot simply succeed here (default: kind ok). */
  succeeded?: (answer: Answer) => boolean;
  run: (key: string, ids: Ids) => Promise<Answer>;
}

/**
 * The headers of a caller's credential: an API key, a personal token (`trove_pat_…`), or a
 * browser session (`session <cookie>|<csrf>`).
 */
function credential(key: string): Record<string, string> {
  if (key.startsWith('trove_pat_')) return { authorization: `Bearer ${key}` };
  if (key.startsWith('session ')) {
    const [cookie, csrf] = key.slice('session '.length).split('|');
    return { cookie, 'x-csrf-token': csrf };
  }
  return { 'X-API-Key': key };
}

async function gql(key: string, query: string, variables: Record<string, unknown> = {}): Promise<Answer> {
  const response = await fetch(`${stack.url}/graphql`, {
    method: 'POST',
    headers: { ...credential(key), 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as {
    data?: Record<string, unknown> | null;
    errors?: { message: string; extensions?: { code?: string } }[];
  };
  const error = body.errors?.[0];
  if (error)
    return { kind: 'error', status: response.status, code: error.extensions?.code, message: error.message };
  const value = Object.values(body.data ?? {})[0];
  return { kind: value === null ? 'null' : 'ok', status: response.status };
}

async function rest(key: string, method: string, path: string, body?: FormData | string): Promise<Answer> {
  const headers: Record<string, string> = credential(key);
  if (typeof body === 'string') headers['content-type'] = 'application/json';
  const response = await fetch(`${stack.url}${path}`, { method, headers, body });
  const text = await response.text();
  if (response.ok) return { kind: 'ok', status: response.status };
  const error = (JSON.parse(text) as { error?: { code: string; message: string } }).error;
  return { kind: 'error', status: response.status, code: error?.code, message: error?.message };
}

/** A JSON-RPC request to /mcp (stateless Streamable HTTP). */
async function mcp(key: string, method: string, params: Record<string, unknown>): Promise<Response> {
  return fetch(`${stack.url}/mcp`, {
    method: 'POST',
    headers: {
      ...credential(key),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
}

/** `POST /mcp` itself: admitted or refused before any MCP work (REST-shaped error). */
async function mcpEndpoint(key: string): Promise<Answer> {
  const response = await mcp(key, 'tools/list', {});
  if (response.ok) return { kind: 'ok', status: response.status };
  const error = ((await response.json()) as { error?: { code: string; message: string } }).error;
  return { kind: 'error', status: response.status, code: error?.code, message: error?.message };
}

/** An MCP tool call: a tool error carries the API's code and message (`CODE: message`). */
async function mcpTool(key: string, name: string, args: Record<string, unknown>): Promise<Answer> {
  const response = await mcp(key, 'tools/call', { name, arguments: args });
  const body = (await response.json()) as {
    result: { isError?: boolean; _meta?: { 'trove/error'?: { code: string; message: string } } };
  };
  const error = body.result.isError ? body.result._meta?.['trove/error'] : undefined;
  if (error) return { kind: 'error', status: response.status, code: error.code, message: error.message };
  return { kind: 'ok', status: response.status };
}

function form(fileName: string, content: string | Buffer): FormData {
  const data = new FormData();
  data.append('file', new Blob([content]), fileName);
  return data;
}

let counter = 0;
const unique = (label: string) => `${label}-${++counter}-${randomUUID().slice(0, 8)}`;

async function admin<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  return stack.query<T>(query, variables);
}

const freshDocument = async (projectId: string) => {
  const upload = await stack.upload(projectId, `${unique('doc')}.md`, '# Fresh\n\nA document to use up.\n');
  expect(upload.status).toBe(202);
  return { document: upload.body.id as string };
};
const freshNotionSource = async (projectId: string) => {
  const { id } = await stack.addSource({
    projectId,
    name: unique('notion'),
    type: 'NOTION',
    config: { token: `ntn_${'x'.repeat(40)}` },
  });
  return { source: id };
};
const freshFolderSource = async (projectId: string) => {
  const { id } = await stack.addSource({
    projectId,
    name: unique('folder'),
    type: 'FOLDER',
    config: { path: folder },
  });
  return { source: id };
};

/** The table: adding an operation to the API means adding its line here. */
const OPERATIONS: Operation[] = [
  // --- projects
  { name: 'projects', permission: Permission.READ, global: true, run: (k) => gql(k, '{ projects { id } }') },
  {
    name: 'project',
    permission: Permission.READ,
    lookup: true,
    run: (k, ids) => gql(k, 'query($id: ID!) { project(id: $id) { id } }', { id: ids.project }),
  },
  {
    name: 'createProject',
    permission: Permission.ADMIN,
    global: true,
    run: (k) =>
      gql(k, 'mutation($name: String!) { createProject(input: {name: $name}) { id } }', {
        name: unique('p'),
      }),
  },
  {
    name: 'deleteProject',
    permission: Permission.ADMIN,
    fresh: async () => ({ project: await stack.createProject(unique('doomed')) }),
    run: (k, ids) => gql(k, 'mutation($id: ID!) { deleteProject(id: $id) }', { id: ids.project }),
  },
  {
    name: 'updateProjectSettings',
    permission: Permission.WRITE,
    run: (k, ids) =>
      gql(
        k,
        'mutation($p: ID!) { updateProjectSettings(projectId: $p, input: { ocr: true }) { settings { ocr } } }',
        { p: ids.project },
      ),
  },
  // --- documents and chunks
  {
    name: 'documents',
    permission: Permission.READ,
    run: (k, ids) => gql(k, 'query($p: ID!) { documents(projectId: $p) { totalCount } }', { p: ids.project }),
  },
  {
    name: 'document',
    permission: Permission.READ,
    lookup: true,
    run: (k, ids) => gql(k, 'query($id: ID!) { document(id: $id) { id } }', { id: ids.document }),
  },
  {
    name: 'deleteDocument',
    permission: Permission.WRITE,
    fresh: freshDocument,
    run: (k, ids) => gql(k, 'mutation($id: ID!) { deleteDocument(id: $id) }', { id: ids.document }),
  },
  {
    name: 'reindexDocument',
    permission: Permission.WRITE,
    fresh: freshDocument,
    run: (k, ids) => gql(k, 'mutation($id: ID!) { reindexDocument(id: $id) { id } }', { id: ids.document }),
  },
  {
    name: 'chunks',
    permission: Permission.READ,
    run: (k, ids) => gql(k, 'query($id: ID!) { chunks(documentId: $id) { id } }', { id: ids.document }),
  },
  {
    name: 'chunk',
    permission: Permission.READ,
    lookup: true,
    run: (k, ids) => gql(k, 'query($id: ID!) { chunk(id: $id) { id } }', { id: ids.chunk }),
  },
  {
    name: 'POST /v1/projects/:id/documents',
    permission: Permission.WRITE,
    run: (k, ids) =>
      rest(k, 'POST', `/v1/projects/${ids.project}/documents`, form(`${unique('up')}.md`, '# Up\n\nText.\n')),
  },
  {
    name: 'GET /v1/documents/:id/original',
    permission: Permission.READ,
    run: (k, ids) => rest(k, 'GET', `/v1/documents/${ids.document}/original`),
  },
  // --- search and answers
  {
    name: 'search',
    permission: Permission.READ,
    run: (k, ids) =>
      gql(k, 'query($input: SearchInput!) { search(input: $input) { tookMs } }', {
        input: { projectId: ids.project, query: 'access matrix' },
      }),
  },
  {
    name: 'ask',
    permission: Permission.READ,
    run: (k, ids) =>
      gql(k, 'query($input: AskInput!) { ask(input: $input) { answer } }', {
        input: { projectId: ids.project, question: 'What is the access matrix?' },
      }),
  },
  {
    name: 'POST /v1/projects/:id/ask/stream',
    permission: Permission.READ,
    run: (k, ids) =>
      rest(k, 'POST', `/v1/projects/${ids.project}/ask/stream`, JSON.stringify({ question: 'What is it?' })),
  },
  {
    name: 'threads',
    permission: Permission.READ,
    run: (k, ids) =>
      gql(k, 'query($id: ID!) { threads(projectId: $id) { totalCount } }', { id: ids.project }),
  },
  {
    name: 'ask in a new thread',
    permission: Permission.READ,
    run: (k, ids) =>
      gql(k, 'query($input: AskInput!) { ask(input: $input) { threadId } }', {
        input: { projectId: ids.project, question: 'What does the access matrix cover?', newThread: true },
      }),
  },
  // --- feedback
  {
    name: 'myFeedback',
    permission: Permission.READ,
    run: (k, ids) =>
      gql(k, 'query($p: ID!) { myFeedback(projectId: $p, answerIds: []) { id } }', { p: ids.project }),
  },
  {
    name: 'contentGaps',
    permission: Permission.ADMIN,
    run: (k, ids) =>
      gql(k, 'query($p: ID!) { contentGaps(projectId: $p) { totalCount } }', { p: ids.project }),
  },
  {
    name: 'GET /v1/projects/:id/feedback.jsonl',
    permission: Permission.ADMIN,
    run: (k, ids) => rest(k, 'GET', `/v1/projects/${ids.project}/feedback.jsonl`),
  },
  // --- sources, syncs and webhooks
  {
    name: 'sources',
    permission: Permission.READ,
    run: (k, ids) => gql(k, 'query($p: ID!) { sources(projectId: $p) { id } }', { p: ids.project }),
  },
  {
    name: 'sourceTypes',
    permission: Permission.READ,
    global: true,
    run: (k) => gql(k, '{ sourceTypes { type } }'),
  },
  {
    name: 'addSource',
    permission: Permission.WRITE,
    run: (k, ids) =>
      gql(k, 'mutation($input: AddSourceInput!) { addSource(input: $input) { id } }', {
        input: {
          projectId: ids.project,
          type: 'WEB',
          name: unique('s'),
          config: { url: 'http://127.0.0.1:9/docs/' },
        },
      }),
  },
  // The deprecated per-type aliases (removed after 2027-06-30) are operations too: their access is
  // checked here until they go; that they still work is source-definitions.test.ts's to check.
  {
    name: 'addNotionSource',
    permission: Permission.WRITE,
    run: (k, ids) =>
      gql(k, 'mutation($input: AddNotionSourceInput!) { addNotionSource(input: $input) { id } }', {
        input: { projectId: ids.project, name: unique('n'), token: `ntn_${'y'.repeat(40)}`, roots: [] },
      }),
  },
  {
    name: 'addFolderSource',
    permission: Permission.WRITE,
    run: (k, ids) =>
      gql(k, 'mutation($input: AddFolderSourceInput!) { addFolderSource(input: $input) { id } }', {
        input: { projectId: ids.project, name: unique('f'), path: folder },
      }),
  },
  {
    name: 'addWebSource',
    permission: Permission.WRITE,
    run: (k, ids) =>
      gql(k, 'mutation($input: AddWebSourceInput!) { addWebSource(input: $input) { id } }', {
        input: { projectId: ids.project, name: unique('w'), url: 'http://127.0.0.1:9/docs/' },
      }),
  },
  {
    name: 'POST /v1/projects/:id/archives',
    permission: Permission.WRITE,
    run: async (k, ids) =>
      rest(
        k,
        'POST',
        `/v1/projects/${ids.project}/archives`,
        form(`${unique('site')}.zip`, await buildZip([{ path: 'a.md', data: '# A\n\nArchived.\n' }])),
      ),
  },
  {
    name: 'updateSource',
    permission: Permission.WRITE,
    run: (k, ids) =>
      gql(k, 'mutation($id: ID!) { updateSource(id: $id, input: {name: "renamed"}) { id } }', {
        id: ids.source,
      }),
  },
  {
    name: 'removeSource',
    permission: Permission.WRITE,
    fresh: freshNotionSource,
    run: (k, ids) => gql(k, 'mutation($id: ID!) { removeSource(id: $id) }', { id: ids.source }),
  },
  {
    name: 'syncSource',
    permission: Permission.WRITE,
    fresh: freshFolderSource,
    run: (k, ids) => gql(k, 'mutation($id: ID!) { syncSource(id: $id) { id } }', { id: ids.source }),
  },
  {
    name: 'cancelSyncRun',
    permission: Permission.WRITE,
    // The matrix's run has ended: past the access check, the service refuses to cancel it.
    succeeded: (a) => a.kind === 'ok' || a.code === 'BAD_REQUEST',
    run: (k, ids) => gql(k, 'mutation($id: ID!) { cancelSyncRun(id: $id) { id } }', { id: ids.run }),
  },
  {
    name: 'setSyncSchedule',
    permission: Permission.WRITE,
    run: (k, ids) =>
      gql(k, 'mutation($id: ID!) { setSyncSchedule(sourceId: $id, intervalMinutes: 1440) { id } }', {
        id: ids.source,
      }),
  },
  {
    name: 'triggerSyncSchedule',
    permission: Permission.WRITE,
    run: (k, ids) => gql(k, 'mutation($id: ID!) { triggerSyncSchedule(sourceId: $id) }', { id: ids.source }),
  },
  {
    name: 'notionWebhookVerificationToken',
    permission: Permission.WRITE,
    // A source without a token answers null in scope; what matters is that it is not refused.
    succeeded: (a) => a.kind !== 'error',
    run: (k, ids) =>
      gql(k, 'query($id: ID!) { notionWebhookVerificationToken(sourceId: $id) }', { id: ids.source }),
  },
  {
    name: 'resetNotionWebhook',
    permission: Permission.WRITE,
    run: (k, ids) => gql(k, 'mutation($id: ID!) { resetNotionWebhook(sourceId: $id) }', { id: ids.source }),
  },
  {
    name: 'webhookVerificationToken',
    permission: Permission.WRITE,
    succeeded: (a) => a.kind !== 'error',
    run: (k, ids) =>
      gql(k, 'query($id: ID!) { webhookVerificationToken(sourceId: $id) }', { id: ids.source }),
  },
  {
    name: 'resetWebhookVerification',
    permission: Permission.WRITE,
    run: (k, ids) =>
      gql(k, 'mutation($id: ID!) { resetWebhookVerification(sourceId: $id) }', { id: ids.source }),
  },
  {
    name: 'syncRuns',
    permission: Permission.READ,
    run: (k, ids) => gql(k, 'query($id: ID!) { syncRuns(sourceId: $id) { totalCount } }', { id: ids.source }),
  },
  {
    name: 'syncRun',
    permission: Permission.READ,
    lookup: true,
    run: (k, ids) => gql(k, 'query($id: ID!) { syncRun(id: $id) { id } }', { id: ids.run }),
  },
  // --- global settings
  {
    name: 'ragConfig',
    permission: Permission.ADMIN,
    global: true,
    run: (k) => gql(k, '{ ragConfig { version } }'),
  },
  {
    name: 'updateRagConfig',
    permission: Permission.ADMIN,
    global: true,
    run: (k) => gql(k, 'mutation { updateRagConfig(input: {search: {rrfK: 60}}) { version } }'),
  },
  {
    name: 'embeddingIndex',
    permission: Permission.ADMIN,
    global: true,
    run: (k) => gql(k, '{ embeddingIndex { active { id } } }'),
  },
  {
    name: 'changeEmbeddingModel',
    permission: Permission.ADMIN,
    global: true,
    // Let through, then refused for its input: a real model change would rebuild the index.
    succeeded: (a) => a.kind === 'error' && a.code === 'BAD_REQUEST',
    run: (k) =>
      gql(
        k,
        'mutation { changeEmbeddingModel(input: {provider: "openai", baseUrl: "http://127.0.0.1:9/v1", profile: "no-such-profile"}) { id } }',
      ),
  },
  {
    name: 'cancelIndexRebuild',
    permission: Permission.ADMIN,
    global: true,
    succeeded: (a) => a.kind !== 'error',
    run: (k) => gql(k, 'mutation { cancelIndexRebuild { id } }'),
  },
  // --- people, groups, project access, tokens, the audit log
  {
    name: 'users',
    permission: Permission.ADMIN,
    global: true,
    run: (k) => gql(k, '{ users { totalCount } }'),
  },
  {
    name: 'createUser',
    permission: Permission.ADMIN,
    global: true,
    run: (k) => {
      const name = unique('invitee');
      return gql(k, 'mutation($input: CreateUserInput!) { createUser(input: $input) { id } }', {
        input: { email: `${name}@trove.test`, name },
      });
    },
  },
  { name: 'groups', permission: Permission.ADMIN, global: true, run: (k) => gql(k, '{ groups { id } }') },
  {
    name: 'createGroup',
    permission: Permission.ADMIN,
    global: true,
    run: (k) => gql(k, 'mutation($n: String!) { createGroup(name: $n) { id } }', { n: unique('group') }),
  },
  {
    name: 'projectAccess',
    permission: Permission.ADMIN,
    run: (k, ids) => gql(k, 'query($p: ID!) { projectAccess(projectId: $p) { id } }', { p: ids.project }),
  },
  {
    name: 'grantProjectRole',
    permission: Permission.ADMIN,
    run: (k, ids) =>
      gql(k, 'mutation($input: GrantProjectRoleInput!) { grantProjectRole(input: $input) { id } }', {
        input: {
          projectId: ids.project,
          groupName: unique('granted'),
          groupProvider: PROVIDER_ID,
          role: 'VIEWER',
        },
      }),
  },
  {
    name: 'revokeProjectRole',
    permission: Permission.ADMIN,
    // No such group: refused for its input once let through.
    succeeded: (a) => a.kind === 'error' && a.code === 'GROUP_NOT_FOUND',
    run: (k, ids) =>
      gql(k, 'mutation($input: GranteeInput!) { revokeProjectRole(input: $input) }', {
        input: { projectId: ids.project, groupId: ids.apiKey },
      }),
  },
  {
    name: 'auditEvents',
    permission: Permission.ADMIN,
    global: true,
    run: (k) => gql(k, '{ auditEvents(first: 1) { totalCount } }'),
  },
  {
    name: 'queryCounts',
    permission: Permission.ADMIN,
    global: true,
    run: (k) => gql(k, '{ queryCounts { searches } }'),
  },
  {
    name: 'GET /v1/audit.jsonl',
    permission: Permission.ADMIN,
    global: true,
    run: (k) => rest(k, 'GET', '/v1/audit.jsonl?action=project.created'),
  },
  {
    name: 'personalTokens',
    permission: Permission.READ,
    global: true,
    people: true,
    run: (k) => gql(k, '{ personalTokens { id } }'),
  },
  // --- API keys
  // --- MCP: /mcp admits any valid key; each tool is then authorized as the GraphQL operations it runs
  { name: 'POST /mcp', permission: Permission.READ, global: true, run: (k) => mcpEndpoint(k) },
  {
    name: 'mcp tool search',
    permission: Permission.READ,
    run: (k, ids) => mcpTool(k, 'search', { query: 'access matrix', project: ids.project }),
  },
  {
    name: 'mcp tool sync_source',
    permission: Permission.WRITE,
    fresh: freshFolderSource,
    run: (k, ids) => mcpTool(k, 'sync_source', { source: ids.source, mode: 'FULL' }),
  },
  {
    name: 'mcp tool add_source',
    permission: Permission.WRITE,
    run: (k, ids) =>
      mcpTool(k, 'add_source', {
        type: 'WEB',
        name: unique('mcp'),
        config: { url: 'http://127.0.0.1:9/docs/' },
        project: ids.project,
      }),
  },
  { name: 'me', permission: Permission.READ, global: true, run: (k) => gql(k, '{ me { role } }') },
  { name: 'apiKeys', permission: Permission.ADMIN, global: true, run: (k) => gql(k, '{ apiKeys { id } }') },
  {
    name: 'createApiKey',
    permission: Permission.ADMIN,
    global: true,
    run: (k) =>
      gql(k, 'mutation($name: String!) { createApiKey(input: {name: $name, role: VIEWER}) { secret } }', {
        name: unique('key'),
      }),
  },
  {
    name: 'revokeApiKey',
    permission: Permission.ADMIN,
    global: true,
    fresh: async () => ({ apiKey: (await createKey(unique('revocable'), ApiKeyRole.VIEWER)).id }),
    run: (k, ids) => gql(k, 'mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id: ids.apiKey }),
  },
];

interface Caller {
  label: string;
  /** The role for operations that name no project (a person without an install-wide role: VIEWER). */
  role: ApiKeyRole;
  allProjects: boolean;
  key: string;
  /** A person's role in project A beyond `role` (a grant to them or their group). */
  projectRole?: ApiKeyRole;
  person?: boolean;
}

async function createKey(name: string, role: ApiKeyRole, projectIds?: string[]) {
  const { createApiKey } = await admin<{ createApiKey: { apiKey: { id: string }; secret: string } }>(
    `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { apiKey { id } secret } }`,
    { input: { name, role, projectIds } },
  );
  return { id: createApiKey.apiKey.id, secret: createApiKey.secret };
}

const fixtures: Record<'A' | 'B', Ids> = {} as Record<'A' | 'B', Ids>;
const GHOST: Ids = {
  project: randomUUID(),
  document: randomUUID(),
  source: randomUUID(),
  run: randomUUID(),
  chunk: `${randomBytes(16).toString('hex')}-0-${randomBytes(6).toString('hex')}`,
  apiKey: randomUUID(),
};
const callers: Caller[] = [];

async function projectFixture(label: string): Promise<Ids> {
  const project = await stack.createProject(unique(`project-${label}`));
  const upload = await stack.upload(
    project,
    'guide.md',
    '# Guide\n\nThe access matrix covers every operation.\n',
  );
  const document = upload.body.id as string;
  expect((await stack.settled(document)).status).toBe('READY');
  const { chunks } = await admin<{ chunks: { id: string }[] }>(
    'query($id: ID!) { chunks(documentId: $id) { id } }',
    { id: document },
  );
  const archive = await stack.uploadArchive(
    project,
    'site.zip',
    await buildZip([{ path: 'index.md', data: '# Site\n\nArchived page.\n' }]),
  );
  const source = archive.body.source!.id;
  await stack.runSettled(archive.body.run!.id);
  // A schedule to trigger (removed again after the tests).
  await admin('mutation($id: ID!) { setSyncSchedule(sourceId: $id, intervalMinutes: 1440) { id } }', {
    id: source,
  });
  return { project, document, source, run: archive.body.run!.id, chunk: chunks[0].id, apiKey: GHOST.apiKey };
}

/** A person of the provider signed in; their user id and session credential. */
async function person(label: string, groups: string[]): Promise<{ userId: string; session: string }> {
  const user = await realm.user(label, groups);
  people.push(user);
  const browser = await signIn(stack.url, user);
  const me = await gqlAs<{ me: { userId: string } }>(stack.url, browser.headers(), '{ me { userId } }');
  return { userId: me.data!.me.userId, session: `session ${browser.jar.header()}|${browser.csrf}` };
}

/** A personal token of a signed-in person. */
async function personalToken(session: string): Promise<string> {
  const made = await gqlAs<{ createPersonalToken: { secret: string } }>(
    stack.url,
    credential(session),
    'mutation { createPersonalToken(input: { name: "matrix" }) { secret } }',
  );
  return made.data!.createPersonalToken.secret;
}

beforeAll(async () => {
  ensureKeycloak();
  await stack.start();
  fixtures.A = await projectFixture('a');
  fixtures.B = await projectFixture('b');
  const adminKey = await createKey('matrix admin', ApiKeyRole.ADMIN);
  const editor = await createKey('matrix editor of A', ApiKeyRole.EDITOR, [fixtures.A.project]);
  const viewer = await createKey('matrix viewer of A', ApiKeyRole.VIEWER, [fixtures.A.project]);
  callers.push(
    { label: 'bootstrap admin key', role: ApiKeyRole.ADMIN, allProjects: true, key: ADMIN_KEY },
    { label: 'ADMIN key', role: ApiKeyRole.ADMIN, allProjects: true, key: adminKey.secret },
    { label: 'EDITOR of A', role: ApiKeyRole.EDITOR, allProjects: false, key: editor.secret },
    { label: 'VIEWER of A', role: ApiKeyRole.VIEWER, allProjects: false, key: viewer.secret },
  );
  const grant = (input: Record<string, unknown>) =>
    admin('mutation($input: GrantProjectRoleInput!) { grantProjectRole(input: $input) { id } }', {
      input: { projectId: fixtures.A.project, ...input },
    });
  const editors = unique('matrix-editors');
  const admins = unique('matrix-admins');
  await grant({ groupName: editors, groupProvider: PROVIDER_ID, role: 'EDITOR' });
  await grant({ groupName: admins, groupProvider: PROVIDER_ID, role: 'ADMIN' });
  const editorPerson = await person('editor', [editors]);
  const viewerPerson = await person('viewer', []);
  await grant({ userId: viewerPerson.userId, role: 'VIEWER' });
  const projectAdmin = await person('projadmin', [admins]);
  // An install-wide ADMIN made ahead of their first sign-in (trove admin create), linked by email.
  const installAdmin = await realm.user('installadmin', []);
  people.push(installAdmin);
  await admin('mutation($input: CreateUserInput!) { createUser(input: $input) { id } }', {
    input: { email: installAdmin.email, name: 'install admin', role: 'ADMIN' },
  });
  const installSession = await signIn(stack.url, installAdmin);
  callers.push(
    {
      label: 'person EDITOR of A through a group (session)',
      role: ApiKeyRole.VIEWER,
      projectRole: ApiKeyRole.EDITOR,
      allProjects: false,
      key: editorPerson.session,
      person: true,
    },
    {
      label: 'person VIEWER of A by a grant (personal token)',
      role: ApiKeyRole.VIEWER,
      projectRole: ApiKeyRole.VIEWER,
      allProjects: false,
      key: await personalToken(viewerPerson.session),
      person: true,
    },
    {
      label: 'person ADMIN of A only (session)',
      role: ApiKeyRole.VIEWER,
      projectRole: ApiKeyRole.ADMIN,
      allProjects: false,
      key: projectAdmin.session,
      person: true,
    },
    {
      label: 'person install-wide ADMIN (personal token)',
      role: ApiKeyRole.ADMIN,
      allProjects: true,
      key: await personalToken(`session ${installSession.jar.header()}|${installSession.csrf}`),
      person: true,
    },
  );
}, 600_000);
afterAll(async () => {
  for (const ids of Object.values(fixtures)) {
    await admin('mutation($id: ID!) { setSyncSchedule(sourceId: $id, intervalMinutes: 0) { id } }', {
      id: ids.source,
    }).catch(() => undefined);
  }
  for (const user of people) await realm.deleteUser(user.id).catch(() => undefined);
  await stack.stop();
});

/** Ids in messages differ between the record asked for and a nonexistent one; nothing else may. */
const IDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32}(-\d+-[0-9a-f]{12})?/gi;
const comparable = (answer: Answer) => ({ ...answer, message: answer.message?.replace(IDS, '<id>') });

const ROLES = [
  'bootstrap admin key',
  'ADMIN key',
  'EDITOR of A',
  'VIEWER of A',
  'person EDITOR of A through a group (session)',
  'person VIEWER of A by a grant (personal token)',
  'person ADMIN of A only (session)',
  'person install-wide ADMIN (personal token)',
];

describe.each(OPERATIONS)('$name', (operation) => {
  describe.each(ROLES)('as %s', (label) => {
    it.each(['in', 'out of'] as const)('%s scope', async (scope) => {
      const caller = callers.find((c) => c.label === label)!;
      const base = scope === 'in' ? fixtures.A : fixtures.B;
      const ids = { ...base, ...(await operation.fresh?.(base.project)) };
      const answer = await operation.run(caller.key, ids);
      // The role that decides: install-wide for an operation naming no project; the strongest held
      // anywhere before the record is looked up, then the role in the record's project.
      const inA = strongerRole(caller.role, caller.projectRole)!;
      const deciding = operation.global ? caller.role : inA;
      if ((operation.people && !caller.person) || !roleGrants(deciding, operation.permission)) {
        expect(answer, 'refused for its role').toMatchObject({ kind: 'error', code: 'FORBIDDEN' });
        if (operation.name.includes('/')) expect(answer.status).toBe(403);
        return;
      }
      // A fresh project (deleteProject's) is in no project-scoped caller's reach.
      const reached = scope === 'in' && ids.project === fixtures.A.project;
      if (!operation.global && reached && !caller.allProjects && !roleGrants(inA, operation.permission)) {
        expect(answer, 'refused for its role in the project').toMatchObject({
          kind: 'error',
          code: 'FORBIDDEN',
        });
        return;
      }
      if (operation.global || reached || caller.allProjects) {
        const succeeded = operation.succeeded?.(answer) ?? answer.kind === 'ok';
        expect(succeeded, `succeeds: ${JSON.stringify(answer)}`).toBe(true);
        return;
      }
      // Another project's record: the very answer a record that does not exist gets.
      const ghost = await operation.run(caller.key, GHOST);
      expect(comparable(answer)).toEqual(comparable(ghost));
      if (operation.lookup) expect(answer.kind).toBe('null');
      else expect(answer).toMatchObject({ kind: 'error', code: expect.stringMatching(/NOT_FOUND$/) });
      if (operation.name.includes('/')) expect(answer.status).toBe(404);
    });
  });
});

describe('listing and keys', () => {
  it('a scoped key lists only its projects; an all-projects key lists them all', async () => {
    const list = async (key: string) => {
      const response = await fetch(`${stack.url}/graphql`, {
        method: 'POST',
        headers: { 'X-API-Key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ projects { id } }' }),
      });
      return ((await response.json()) as { data: { projects: { id: string }[] } }).data.projects.map(
        (p) => p.id,
      );
    };
    const viewer = callers.find((c) => c.label === 'VIEWER of A')!;
    expect(await list(viewer.key)).toEqual([fixtures.A.project]);
    const { data } = await stack.gql<{ me: Record<string, unknown> }>(
      '{ me { keyId name role permissions projectIds } }',
      {},
      { 'X-API-Key': viewer.key },
    );
    expect(data?.me).toMatchObject({
      name: 'matrix viewer of A',
      role: 'VIEWER',
      permissions: ['READ'],
      projectIds: [fixtures.A.project],
    });
    const all = await list(ADMIN_KEY);
    expect(all).toEqual(expect.arrayContaining([fixtures.A.project, fixtures.B.project]));
  });

  it('shows a secret once: lists carry a masked prefix, the use, and never the secret', async () => {
    const key = await createKey('listed', ApiKeyRole.VIEWER, [fixtures.A.project]);
    expect(key.secret).toMatch(/^trove_[0-9a-f]{32}_[\w-]{43}$/);
    expect(await gql(key.secret, '{ projects { id } }')).toMatchObject({ kind: 'ok' });
    const listed = await expectEventually(async () => {
      const { apiKeys } = await admin<{ apiKeys: Record<string, unknown>[] }>(
        '{ apiKeys { id name role projectIds prefix createdBy createdAt lastUsedAt revokedAt } }',
      );
      const found = apiKeys.find((k) => k.id === key.id)!;
      expect(found.lastUsedAt).not.toBeNull();
      return { found, all: JSON.stringify(apiKeys) };
    });
    expect(listed.found).toMatchObject({
      name: 'listed',
      role: 'VIEWER',
      projectIds: [fixtures.A.project],
      prefix: `trove_${key.id.replace(/-/g, '').slice(0, 8)}…`,
      createdBy: 'admin key (TROVE_ADMIN_API_KEY)',
      revokedAt: null,
    });
    expect(listed.all).not.toContain(key.secret.slice(-43));
  });

  it('a revoked key is refused at once, like a key that never existed', async () => {
    const key = await createKey('short-lived', ApiKeyRole.EDITOR);
    expect(await gql(key.secret, '{ projects { id } }')).toMatchObject({ kind: 'ok' });
    await admin('mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }', { id: key.id });
    const revoked = await gql(key.secret, '{ projects { id } }');
    expect(revoked).toMatchObject({ kind: 'error', status: 401, code: 'UNAUTHENTICATED' });
    const forged = `${key.secret.slice(0, -4)}AAAA`;
    expect(comparable(await gql(forged, '{ projects { id } }'))).toEqual(comparable(revoked));
    expect(await rest(key.secret, 'GET', `/v1/documents/${fixtures.A.document}/original`)).toMatchObject({
      status: 401,
      code: 'UNAUTHENTICATED',
    });
  });

  it('refuses an ADMIN key limited to projects, an empty scope, and an unknown project', async () => {
    const create = (role: string, projectIds: string[]) =>
      gql(ADMIN_KEY, 'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret } }', {
        input: { name: 'bad', role, projectIds },
      });
    expect(await create('ADMIN', [fixtures.A.project])).toMatchObject({ code: 'BAD_REQUEST' });
    expect(await create('VIEWER', [])).toMatchObject({ code: 'BAD_REQUEST' });
    expect(await create('VIEWER', [GHOST.project])).toMatchObject({ code: 'PROJECT_NOT_FOUND' });
  });

  it('a signed link to an original opens without a key, whatever project it is in', async () => {
    const { document } = await admin<{ document: { url: string } }>(
      'query($id: ID!) { document(id: $id) { url } }',
      { id: fixtures.B.document },
    );
    const response = await fetch(document.url);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('access matrix');
  });
});

describe('CORS by default', () => {
  it('answers no other origin: a preflight from another site gets no CORS headers', async () => {
    const response = await fetch(`${stack.url}/graphql`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://elsewhere.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-api-key',
      },
    });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('access-control-allow-headers')).toBeNull();
  });
});
