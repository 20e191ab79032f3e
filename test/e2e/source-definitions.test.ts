import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually } from '../support/services';
import { TroveStack } from '../support/stack';

/**
 * Every source type through one mutation: `addSource(type, config)` validated by the type's
 * definition (errors name the field, secrets never come back), `sourceTypes` describing each
 * config for forms, and one webhook route per source. The one place that checks the deprecated
 * per-type operations and views still work until they are removed (REMOVAL below); every other
 * test uses the generic ones.
 */
const scratch = mkdtempSync(join(tmpdir(), 'trove-sourcedefs-e2e-'));
const docs = join(scratch, 'handbook');
mkdirSync(docs);
writeFileSync(join(docs, 'tides.md'), '# Tides\n\nThe harbour gate closes two hours before low tide.\n');
const stack = new TroveStack({
  TROVE_FOLDER_ROOTS: scratch,
  TROVE_FOLDER_CACHE_DIR: join(scratch, 'cache'),
  TROVE_WEB_ALLOW_PRIVATE_NETWORKS: 'true',
});
const TOKEN = `ntn_${'k'.repeat(46)}`;
const PAGE_ID = '0123456789abcdef0123456789abcdef';
let projectId: string;

/** The parts of a JSON Schema the assertions read. */
interface JsonSchema {
  properties: Record<string, { enum?: string[] }>;
}

/** When the deprecated aliases go (LEGACY_REMOVAL in apps/api/src/sources/legacy-source-aliases.resolver.ts). */
const REMOVAL = '2027-06-30';

const SOURCE_FIELDS = 'id type name status config summary tokenHint secrets { field hint }';
/** The deprecated per-type views of a source's config. */
const LEGACY_FIELDS = `${SOURCE_FIELDS} notion { everything rootPageIds } folder { path format } web { url maxPages }`;

interface SourceView {
  id: string;
  type: string;
  name: string;
  status: string;
  config: Record<string, unknown>;
  summary: string;
  tokenHint: string | null;
  secrets: { field: string; hint: string }[];
}

interface LegacySourceView extends SourceView {
  notion: { everything: boolean; rootPageIds: string[] } | null;
  folder: { path: string; format: string } | null;
  web: { url: string; maxPages: number } | null;
}

function addSource(type: string, name: string, config: unknown) {
  return stack.gql<{ addSource: SourceView }>(
    `mutation($input: AddSourceInput!) { addSource(input: $input) { ${SOURCE_FIELDS} } }`,
    { input: { projectId, type, name, config } },
  );
}

async function added(type: string, name: string, config: unknown): Promise<SourceView> {
  const body = await addSource(type, name, config);
  if (body.errors?.length) throw new Error(JSON.stringify(body.errors));
  return body.data!.addSource;
}

async function refusal(type: string, config: unknown) {
  const body = await addSource(type, `refused-${Math.random()}`, config);
  expect(body.data?.addSource ?? null).toBeNull();
  expect(body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
  return body.errors![0].message;
}

beforeAll(async () => {
  await stack.start();
  projectId = await stack.createProject('source definitions');
});
afterAll(() => stack.stop());

describe('sourceTypes', () => {
  it('lists every type with the JSON Schema of its config, secrets marked writeOnly', async () => {
    const { sourceTypes } = await stack.query<{
      sourceTypes: {
        type: string;
        secretFields: string[];
        webhook: boolean;
        configSchema: JsonSchema;
        webhookSetup: {
          path: string;
          instructions: string;
          steps: string[];
          verificationHandshake: boolean;
        } | null;
      }[];
    }>(
      '{ sourceTypes { type label description secretFields webhook configSchema webhookSetup { path instructions steps verificationHandshake } } }',
    );
    // These four at least; a connector lib registered since adds its own.
    expect(sourceTypes.map((t) => t.type)).toEqual(
      expect.arrayContaining(['FOLDER', 'GIT', 'NOTION', 'WEB']),
    );
    const byType = Object.fromEntries(sourceTypes.map((t) => [t.type, t]));
    expect(byType.NOTION).toMatchObject({ secretFields: ['token'], webhook: true });
    expect(byType.NOTION.configSchema).toMatchObject({
      type: 'object',
      required: ['token'],
      additionalProperties: false,
      properties: { token: { type: 'string', writeOnly: true } },
    });
    expect(byType.FOLDER.configSchema.properties.format.enum).toEqual([
      'AUTO',
      'MKDOCS',
      'COMBINED_MARKDOWN',
      'FILES',
    ]);
    expect(byType.WEB).toMatchObject({ secretFields: [], webhook: false });
    expect(byType.GIT).toMatchObject({
      secretFields: ['token', 'deployKey', 'webhookSecret'],
      webhook: true,
    });
    // What an operator sets up comes from each type's definition: Notion's handshake, Git's secret.
    expect(byType.NOTION.webhookSetup).toMatchObject({
      path: '/webhooks/{sourceId}',
      verificationHandshake: true,
    });
    expect(byType.GIT.webhookSetup).toMatchObject({
      path: '/webhooks/{sourceId}',
      verificationHandshake: false,
    });
    expect(byType.GIT.webhookSetup!.instructions).not.toMatch(/notion/i);
    expect(byType.WEB.webhookSetup).toBeNull();
    expect(byType.FOLDER.webhookSetup).toBeNull();
  });
});

describe('addSource', () => {
  it('adds a Notion source: the token is sealed, shown masked, never returned', async () => {
    const source = await added('NOTION', 'wiki', { token: TOKEN, rootPageIds: [PAGE_ID] });
    expect(source).toMatchObject({
      type: 'NOTION',
      status: 'ACTIVE',
      config: {
        everything: false,
        rootPageIds: ['01234567-89ab-cdef-0123-456789abcdef'],
        rootDatabaseIds: [],
      },
      summary: 'Notion roots 01234567-89ab-cdef-0123-456789abcdef',
      secrets: [{ field: 'token', hint: 'ntn_…kk (50 chars)' }],
      tokenHint: 'ntn_…kk (50 chars)',
    });
    expect(JSON.stringify(source)).not.toContain(TOKEN);
    expect(source.config).not.toHaveProperty('token');
    const { sources } = await stack.query<{ sources: SourceView[] }>(
      `query($p: ID!) { sources(projectId: $p) { ${SOURCE_FIELDS} } }`,
      { p: projectId },
    );
    expect(JSON.stringify(sources)).not.toContain(TOKEN);
  });

  it('adds a folder source and syncs it through the worker', async () => {
    const source = await added('FOLDER', 'handbook', { path: docs });
    expect(source).toMatchObject({ config: { path: docs, format: 'AUTO' } });
    const { syncSource } = await stack.query<{ syncSource: { id: string } }>(
      'mutation($id: ID!) { syncSource(id: $id, mode: FULL) { id } }',
      { id: source.id },
    );
    const run = await stack.runSettled(syncSource.id);
    expect(run).toMatchObject({ status: 'COMPLETED', progress: { pagesIngested: 1 } });
  });

  it('adds a web source with the default page limit', async () => {
    const source = await added('WEB', 'site', { url: 'http://127.0.0.1:9/docs/' });
    expect(source.config).toEqual({ url: 'http://127.0.0.1:9/docs/', maxPages: 1000 });
    expect(source.summary).toBe('web pages under http://127.0.0.1:9/docs/ (at most 1000)');
  });

  it('refuses an invalid config with BAD_REQUEST naming each field, never echoing a secret', async () => {
    expect(await refusal('WEB', { url: 'ftp://example.test/', maxPages: 0, colour: 'red' })).toMatch(
      /^invalid WEB source configuration: .*config\.url: must be an http\(s\) URL.*config\.maxPages: /,
    );
    expect(await refusal('WEB', { url: 'https://example.test/', colour: 'red' })).toContain(
      'config.colour: unknown field',
    );
    const short = 'ntn_tooshort';
    const message = await refusal('NOTION', { token: short });
    expect(message).toContain('config.token: the Notion token looks too short');
    expect(message).not.toContain(short);
    expect(await refusal('NOTION', { token: TOKEN, rootPageIds: ['not an id'] })).toContain(
      'config.rootPageIds.0: not a Notion page or database id or URL',
    );
    expect(await refusal('FOLDER', { path: '/etc' })).toMatch(
      /config\.path: \/etc is not an existing file or folder inside the folders sources may read/,
    );
    expect(await refusal('FOLDER', 'a string')).toContain('config: must be a JSON object');
    // The type is a String checked against the registered definitions: an unknown one is
    // BAD_REQUEST naming the types there are.
    const body = await addSource('GOPHER', 'hole', {});
    expect(body.errors?.[0]?.message).toMatch(/GOPHER/);
    const { sourceTypes } = await stack.query<{ sourceTypes: { type: string }[] }>(
      '{ sourceTypes { type } }',
    );
    expect(body.errors?.[0]?.extensions).toEqual({
      code: 'BAD_REQUEST',
      problems: [
        {
          field: 'type',
          message: `unknown source type; one of ${sourceTypes.map((t) => t.type).join(', ')}`,
        },
      ],
    });
    // Each field at fault is in the error's extensions too, for forms to show beside the field.
    const invalid = await addSource('WEB', 'fields', { url: 'ftp://example.test/', colour: 'red' });
    const problems = invalid.errors?.[0]?.extensions?.problems as { field: string }[];
    expect(problems).toHaveLength(2);
    expect(problems).toEqual(
      expect.arrayContaining([
        { field: 'config.url', message: 'must be an http(s) URL' },
        { field: 'config.colour', message: 'unknown field' },
      ]),
    );
  });
});

describe('updateSource', () => {
  it('changes the fields given, keeps a secret left out, and seals a new one', async () => {
    const web = await added('WEB', 'site to change', { url: 'http://127.0.0.1:9/a/', maxPages: 5 });
    const { updateSource } = await stack.query<{ updateSource: SourceView }>(
      `mutation($id: ID!, $input: UpdateSourceInput!) { updateSource(id: $id, input: $input) { ${SOURCE_FIELDS} } }`,
      { id: web.id, input: { config: { maxPages: 7 } } },
    );
    expect(updateSource.config).toEqual({ url: 'http://127.0.0.1:9/a/', maxPages: 7 });
    const refused = await stack.gql(
      'mutation($id: ID!, $input: UpdateSourceInput!) { updateSource(id: $id, input: $input) { id } }',
      { id: web.id, input: { config: { maxPages: 'many' } } },
    );
    expect(refused.errors?.[0]?.message).toMatch(/config\.maxPages: /);

    const notion = await added('NOTION', 'wiki to change', { token: TOKEN });
    const renamed = await stack.query<{ updateSource: SourceView }>(
      `mutation($id: ID!, $input: UpdateSourceInput!) { updateSource(id: $id, input: $input) { ${SOURCE_FIELDS} } }`,
      { id: notion.id, input: { name: 'wiki renamed', config: { rootPageIds: [PAGE_ID] } } },
    );
    expect(renamed.updateSource).toMatchObject({
      name: 'wiki renamed',
      tokenHint: notion.tokenHint,
      config: { everything: false },
    });
    const newToken = `secret_${'n'.repeat(43)}`;
    const rotated = await stack.query<{ updateSource: SourceView }>(
      `mutation($id: ID!, $input: UpdateSourceInput!) { updateSource(id: $id, input: $input) { ${SOURCE_FIELDS} } }`,
      { id: notion.id, input: { token: newToken } },
    );
    expect(rotated.updateSource.tokenHint).toBe('secr…nn (50 chars)');
    expect(JSON.stringify(rotated)).not.toContain(newToken);
  });
});

describe(`the deprecated aliases, kept until their removal after ${REMOVAL}`, () => {
  it('addNotionSource, addFolderSource and addWebSource add the same sources as addSource', async () => {
    const { addNotionSource } = await stack.query<{ addNotionSource: LegacySourceView }>(
      `mutation($input: AddNotionSourceInput!) { addNotionSource(input: $input) { ${LEGACY_FIELDS} } }`,
      { input: { projectId, name: 'old notion', token: TOKEN, roots: [PAGE_ID], databaseRoots: [] } },
    );
    expect(addNotionSource).toMatchObject({
      type: 'NOTION',
      notion: { everything: false, rootPageIds: ['01234567-89ab-cdef-0123-456789abcdef'] },
      tokenHint: 'ntn_…kk (50 chars)',
    });
    const { addFolderSource } = await stack.query<{ addFolderSource: LegacySourceView }>(
      `mutation($input: AddFolderSourceInput!) { addFolderSource(input: $input) { ${LEGACY_FIELDS} } }`,
      { input: { projectId, name: 'old folder', path: docs, format: 'FILES' } },
    );
    expect(addFolderSource).toMatchObject({ type: 'FOLDER', folder: { path: docs, format: 'FILES' } });
    const { addWebSource } = await stack.query<{ addWebSource: LegacySourceView }>(
      `mutation($input: AddWebSourceInput!) { addWebSource(input: $input) { ${LEGACY_FIELDS} } }`,
      { input: { projectId, name: 'old web', url: 'http://127.0.0.1:9/old/', maxPages: 3 } },
    );
    expect(addWebSource).toMatchObject({ type: 'WEB', web: { url: 'http://127.0.0.1:9/old/', maxPages: 3 } });
    const refused = await stack.gql(
      `mutation($input: AddWebSourceInput!) { addWebSource(input: $input) { id } }`,
      { input: { projectId, name: 'old web refused', url: 'http://127.0.0.1:9/', maxPages: 0 } },
    );
    expect(refused.errors?.[0]?.message).toMatch(/config\.maxPages: /);
  });

  it("Source.notion, .folder and .web show the config of sources added with addSource, each on its own type's source", async () => {
    const legacy = (type: string, name: string, config: unknown) =>
      stack.addSource<LegacySourceView>({ projectId, name, type, config }, LEGACY_FIELDS);
    const notion = await legacy('NOTION', 'viewed notion', { token: TOKEN, rootPageIds: [PAGE_ID] });
    expect(notion).toMatchObject({
      notion: { everything: false, rootPageIds: ['01234567-89ab-cdef-0123-456789abcdef'] },
      folder: null,
      web: null,
    });
    expect(JSON.stringify(notion.notion)).not.toContain(TOKEN);
    const folder = await legacy('FOLDER', 'viewed folder', { path: docs });
    expect(folder).toMatchObject({ notion: null, folder: { path: docs, format: 'AUTO' }, web: null });
    const web = await legacy('WEB', 'viewed web', { url: 'http://127.0.0.1:9/viewed/' });
    expect(web).toMatchObject({
      notion: null,
      folder: null,
      web: { url: 'http://127.0.0.1:9/viewed/', maxPages: 1000 },
    });
  });

  it('notionWebhookVerificationToken and resetNotionWebhook read and reset the generic verification', async () => {
    const notion = await stack.addSource({
      projectId,
      name: 'old hooked wiki',
      type: 'NOTION',
      config: { token: TOKEN },
    });
    const handshake = await fetch(`${stack.url}/webhooks/${notion.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ verification_token: 'verify-old-1' }),
    });
    expect(handshake.status).toBe(200);
    const tokens = () =>
      stack.query<{ webhookVerificationToken: string | null; notionWebhookVerificationToken: string | null }>(
        'query($s: ID!) { webhookVerificationToken(sourceId: $s) notionWebhookVerificationToken(sourceId: $s) }',
        { s: notion.id },
      );
    expect(await tokens()).toEqual({
      webhookVerificationToken: 'verify-old-1',
      notionWebhookVerificationToken: 'verify-old-1',
    });
    const { resetNotionWebhook } = await stack.query<{ resetNotionWebhook: boolean }>(
      'mutation($s: ID!) { resetNotionWebhook(sourceId: $s) }',
      { s: notion.id },
    );
    expect(resetNotionWebhook).toBe(true);
    expect(await tokens()).toEqual({ webhookVerificationToken: null, notionWebhookVerificationToken: null });
  });
});

describe('/webhooks/<source id>', () => {
  it("hands a delivery to the source's definition: Notion's handshake, signatures; no webhook for others", async () => {
    const notion = await added('NOTION', 'hooked wiki', { token: TOKEN });
    const post = (id: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${stack.url}/webhooks/${id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    const handshake = await post(notion.id, JSON.stringify({ verification_token: 'verify-me-123' }));
    expect(handshake.status).toBe(200);
    expect(await handshake.json()).toEqual({ status: 'verification token stored' });
    const { webhookVerificationToken } = await stack.query<{ webhookVerificationToken: string }>(
      'query($s: ID!) { webhookVerificationToken(sourceId: $s) }',
      { s: notion.id },
    );
    expect(webhookVerificationToken).toBe('verify-me-123');
    const event = JSON.stringify({
      id: 'evt-1',
      type: 'page.content_updated',
      timestamp: new Date().toISOString(),
      entity: { id: PAGE_ID, type: 'page' },
    });
    expect((await post(notion.id, event, { 'x-notion-signature': 'sha256=00' })).status).toBe(401);
    // The address Notion subscriptions were given before is the same webhook.
    expect((await post(`notion/${notion.id}`, event, { 'x-notion-signature': 'sha256=00' })).status).toBe(
      401,
    );
    const webhooks = async () => {
      const { sources } = await stack.query<{
        sources: { id: string; webhook: { rejectedDeliveries: number } | null }[];
      }>('query($p: ID!) { sources(projectId: $p) { id webhook { rejectedDeliveries } } }', { p: projectId });
      return new Map(sources.map((s) => [s.id, s.webhook]));
    };
    // Refusals are counted in the background.
    await expectEventually(async () => {
      expect((await webhooks()).get(notion.id)?.rejectedDeliveries).toBe(2);
    });
    // Another type's older address is no address of a source: answered as an unknown one, even
    // with its handshake window open; its own type's address takes the handshake.
    const fresh = await added('NOTION', 'typed route wiki', { token: TOKEN });
    const freshHandshake = JSON.stringify({ verification_token: 'verify-fresh-1' });
    expect((await post(`git/${fresh.id}`, freshHandshake)).status).toBe(401);
    expect((await post(`notion/${fresh.id}`, freshHandshake)).status).toBe(200);

    const web = await added('WEB', 'unhooked site', { url: 'http://127.0.0.1:9/hook/' });
    expect((await post(web.id, JSON.stringify({ verification_token: 'x' }))).status).toBe(401);
    expect((await webhooks()).get(web.id)).toBeNull();
  });
});
