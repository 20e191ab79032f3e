import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_IDS, DEFAULT_TOKEN, defaultWorkspace } from './default-workspace';
import { NotionEmulator } from './emulator';
import { apiClient, UUID_RE } from './spec-client';

describe('Notion emulator: headers, auth and errors', () => {
  let emulator: NotionEmulator;
  let base: string;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    emulator = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: Infinity });
    base = await emulator.start();
    api = apiClient(base);
  });
  afterAll(() => emulator.stop());

  it('listens on a loopback base URL and serves /v1/users/me as the bot', async () => {
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const { status, body } = await api.get('/v1/users/me');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      object: 'user',
      type: 'bot',
      name: 'Trove Sync',
      bot: { owner: { type: 'workspace', workspace: true }, workspace_name: 'Trove Demo' },
    });
    expect(body.id).toMatch(UUID_RE);
  });

  it('answers 401 unauthorized without a token, with a wrong token and after revocation', async () => {
    const missing = await api.request('GET', '/v1/users/me', undefined, { authorization: undefined });
    const wrong = await apiClient(base, 'ntn_wrong').get('/v1/users/me');
    for (const res of [missing, wrong]) {
      expect(res.status).toBe(401);
      expect(Object.keys(res.body)).toEqual(['object', 'status', 'code', 'message', 'request_id']);
      expect(res.body).toMatchObject({
        object: 'error',
        status: 401,
        code: 'unauthorized',
        message: 'API token is invalid.',
      });
      expect(res.body.request_id).toMatch(UUID_RE);
    }
    expect(missing.body.request_id).not.toBe(wrong.body.request_id);
  });

  it('requires the Notion-Version header and rejects other versions', async () => {
    const missing = await api.request('GET', '/v1/users/me', undefined, { 'notion-version': undefined });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      object: 'error',
      status: 400,
      code: 'missing_version',
      message:
        'Notion-Version header failed validation: Notion-Version header should be defined, instead was `undefined`.',
    });
    const unknown = await api.request('GET', '/v1/users/me', undefined, { 'notion-version': '2099-01-01' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('validation_error');
  });

  it('accepts ids with or without dashes, in any case, and answers with dashed lowercase ids', async () => {
    const id = DEFAULT_IDS.hub;
    for (const variant of [id, id.replace(/-/g, ''), id.toUpperCase(), id.replace(/-/g, '').toUpperCase()]) {
      const { status, body } = await api.get(`/v1/pages/${variant}`);
      expect(status).toBe(200);
      expect(body.id).toBe(id);
    }
  });

  it('answers 400 validation_error for ids that are not UUIDs and invalid_request_url for unknown routes', async () => {
    const bad = await api.get('/v1/pages/not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_error');
    expect(bad.body.message).toContain('path.page_id should be a valid uuid');
    const unknown = await api.get('/v1/nothing-here');
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('invalid_request_url');
    const oldEndpoint = await api.post(`/v1/databases/${DEFAULT_IDS.questionsDatabase}/query`, {});
    expect(oldEndpoint.body.code).toBe('invalid_request_url');
  });

  it('answers 400 invalid_json for a malformed body', async () => {
    const res = await api.request('POST', '/v1/search', '{"query": ');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_json');
  });

  it('answers 404 object_not_found with Notion’s message for unknown ids', async () => {
    const id = '0f6a3c1e-6d0b-4c6b-9d0e-4a8d7c2e1b3a';
    const res = await api.get(`/v1/pages/${id}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      object: 'error',
      status: 404,
      code: 'object_not_found',
      message: `Could not find page with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`,
    });
    expect((await api.get(`/v1/blocks/${id}`)).body.message).toContain('Could not find block with ID');
    expect((await api.get(`/v1/databases/${id}`)).body.message).toContain('Could not find database with ID');
  });

  it('answers 500 internal_server_error (and 503) when faults are injected, then recovers', async () => {
    emulator.failNextRequests(1);
    const failed = await api.get('/v1/users/me');
    expect(failed.status).toBe(500);
    expect(failed.body).toMatchObject({ object: 'error', code: 'internal_server_error' });
    emulator.failNextRequests(1, 503);
    expect((await api.get('/v1/users/me')).body.code).toBe('service_unavailable');
    expect((await api.get('/v1/users/me')).status).toBe(200);
  });

  it('lists users, and answers 403 restricted_resource without the user information capability', async () => {
    const users = await api.get('/v1/users');
    expect(users.status).toBe(200);
    expect(users.body).toMatchObject({ object: 'list', type: 'user', user: {}, has_more: false });
    expect(users.body.results.map((u: { name: string }) => u.name)).toContain('Анна Смирнова');

    const workspace = defaultWorkspace();
    workspace.integration.userInformation = 'none';
    const restricted = new NotionEmulator(workspace, { requestsPerSecond: Infinity });
    const restrictedApi = apiClient(await restricted.start(), DEFAULT_TOKEN);
    try {
      const res = await restrictedApi.get('/v1/users');
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('restricted_resource');
    } finally {
      await restricted.stop();
    }
  });

  it('revokeToken makes every later call 401', async () => {
    const workspace = defaultWorkspace();
    const other = new NotionEmulator(workspace, { requestsPerSecond: Infinity });
    const otherApi = apiClient(await other.start());
    try {
      expect((await otherApi.get('/v1/users/me')).status).toBe(200);
      other.revokeToken();
      const res = await otherApi.get(`/v1/pages/${DEFAULT_IDS.hub}`);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthorized');
    } finally {
      await other.stop();
    }
  });
});
