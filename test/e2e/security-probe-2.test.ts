import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { ingestWorkflowId, syncWorkflowId } from '@trove/domain';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildZip } from '../../libs/parsing/src/archive/zip-fixtures.testing';
import { longMarkdown } from '../support/markdown';
import { expectEventually, TEMPORAL_ADDRESS } from '../support/services';
import { addSourceMutation, type NewSource } from '../support/sources';
import { ADMIN_KEY, TroveStack } from '../support/stack';

// The second penetration probe's smaller findings, as stories through the public API of the real
// api and worker: source names, forged webhook floods, MCP batches, framing, and what Temporal
// keeps of a removed source.
const REFUSALS_PER_ADDRESS = 20;
const REFUSALS_PER_SOURCE = 40;
const REFUSAL_WINDOW_SECONDS = 30;

let stack: TroveStack;
let temporal: TemporalClient;
let projectId: string;

beforeAll(async () => {
  stack = new TroveStack({
    TROVE_WEBHOOK_REFUSALS_PER_ADDRESS: String(REFUSALS_PER_ADDRESS),
    TROVE_WEBHOOK_REFUSALS_PER_SOURCE: String(REFUSALS_PER_SOURCE),
    TROVE_WEBHOOK_REFUSAL_WINDOW_SECONDS: String(REFUSAL_WINDOW_SECONDS),
    // A page of more than 4 chunks leaves its sync batch for its own ingest workflow.
    TROVE_SYNC_BATCH_MAX_CHUNKS: '4',
  });
  await stack.start();
  temporal = new TemporalClient({ connection: await Connection.connect({ address: TEMPORAL_ADDRESS }) });
  projectId = await stack.createProject('Security probe 2');
});

afterAll(async () => {
  await temporal?.connection.close();
  await stack?.stop();
});

const NOTION_TOKEN = 'ntn_e2e_token_0123456789abcdefghijklmnop';

function addSource(name: string, type: string, config: NewSource['config']) {
  return stack.gql<{ addSource: { id: string; name: string } }>(addSourceMutation('id name'), {
    input: { projectId, name, type, config },
  });
}

const addNotion = (name: string) => addSource(name, 'NOTION', { token: NOTION_TOKEN });

async function sourceNames(): Promise<string[]> {
  const { sources } = await stack.query<{ sources: { name: string }[] }>(
    'query($p: ID!) { sources(projectId: $p) { name } }',
    { p: projectId },
  );
  return sources.map((s) => s.name).sort();
}

/** Names the probe sent, each of which made a source before. */
const BAD_NAMES: Record<string, string> = {
  'a right-to-left override': 'invoice\u202Efdp.exe',
  'a zero-width space': 'Team\u200Bwiki',
  'a line feed': 'Team wiki\nINFO forged log line',
  'a NUL': 'Team\u0000wiki',
  '5,000 characters': 'x'.repeat(5_000),
  'only spaces': '   ',
};

function expectBadName(errors: { message: string; extensions?: Record<string, unknown> }[] | undefined) {
  expect(errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
  expect(errors?.[0]?.message).toMatch(/^a source name (needs 1 to 200 characters|cannot contain)/);
}

describe('source names follow the rules of project names', () => {
  it('addSource refuses invisible, control and overlong names with BAD_REQUEST, for a Notion, a folder and a web source', async () => {
    const before = await sourceNames();
    for (const [what, name] of Object.entries(BAD_NAMES)) {
      const notion = await addNotion(name);
      expect(notion.data, what).toBeNull();
      expectBadName(notion.errors);
      const folder = await addSource(name, 'FOLDER', { path: '/tmp', format: 'AUTO' });
      expectBadName(folder.errors);
      const web = await addSource(name, 'WEB', { url: 'https://example.com/' });
      expectBadName(web.errors);
    }
    expect(await sourceNames()).toEqual(before);
  });

  it('a readable name is stored in NFC and trimmed; updateSource refuses bad names and keeps the old one', async () => {
    const added = await addNotion('  Cafe\u0301 wiki ');
    expect(added.errors).toBeUndefined();
    expect(added.data!.addSource.name).toBe('Café wiki');
    const id = added.data!.addSource.id;
    for (const [what, name] of Object.entries(BAD_NAMES)) {
      const updated = await stack.gql(
        'mutation($id: ID!, $input: UpdateSourceInput!) { updateSource(id: $id, input: $input) { name } }',
        { id, input: { name } },
      );
      expect(updated.data, what).toBeNull();
      expectBadName(updated.errors);
    }
    expect(await sourceNames()).toContain('Café wiki');
    const renamed = await stack.query<{ updateSource: { name: string } }>(
      'mutation($id: ID!, $input: UpdateSourceInput!) { updateSource(id: $id, input: $input) { name } }',
      { id, input: { name: 'Team wiki (2026)' } },
    );
    expect(renamed.updateSource.name).toBe('Team wiki (2026)');
  });

  it("the archive upload's name field: a NUL or a bidi override is a 400 BAD_REQUEST, not a 500; nothing is created", async () => {
    const before = await sourceNames();
    const zip = await buildZip([{ path: 'index.md', data: '# Archived\n\nA page.\n' }]);
    for (const name of [
      BAD_NAMES['a NUL'],
      BAD_NAMES['a right-to-left override'],
      BAD_NAMES['5,000 characters'],
    ]) {
      const upload = await stack.uploadArchive(projectId, 'site.zip', zip, { name });
      expect(upload.status).toBe(400);
      expect(upload.body.error?.code).toBe('BAD_REQUEST');
      expect(upload.body.error?.message).toMatch(/^a source name/);
    }
    expect(await sourceNames()).toEqual(before);
  });
});

/** A delivery from a chosen loopback address (Linux answers all of 127.0.0.0/8). */
async function postFrom(
  address: string,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; retryAfter: string | null; body: string }> {
  const dispatcher = new Agent({ localAddress: address });
  try {
    const response = await undiciFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      dispatcher,
    });
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: await response.text(),
    };
  } finally {
    await dispatcher.close();
  }
}

function forged(address: string, hook: string) {
  const body = JSON.stringify({
    id: randomUUID(),
    type: 'page.deleted',
    timestamp: new Date().toISOString(),
  });
  return postFrom(address, hook, body, { 'x-notion-signature': `sha256=${'0'.repeat(64)}` });
}

async function rejectedDeliveries(sourceId: string): Promise<number> {
  const { sources } = await stack.query<{
    sources: { id: string; webhook: { rejectedDeliveries: number } }[];
  }>('query($p: ID!) { sources(projectId: $p) { id webhook { rejectedDeliveries } } }', { p: projectId });
  return sources.find((s) => s.id === sourceId)!.webhook.rejectedDeliveries;
}

function webhookWarnings(): string[] {
  return readFileSync(join(stack.logDir, 'api.log'), 'utf8')
    .split('\n')
    .filter((line) => line.includes('"level":"warn"') && line.includes('"context":"SourceWebhook"'));
}

describe('forged webhook deliveries are throttled', () => {
  it('a flood gets 429 past the budget, logs a bounded number of lines, keeps the count; a signed delivery still gets through', async () => {
    const source = (await addNotion('Flooded wiki')).data!.addSource.id;
    const other = (await addNotion('Quiet wiki')).data!.addSource.id;
    const hook = `${stack.url}/webhooks/notion/${source}`;
    const verificationToken = `secret_${randomUUID().replace(/-/g, '')}`;
    const verification = await postFrom(
      '127.0.0.1',
      hook,
      JSON.stringify({ verification_token: verificationToken }),
      {},
    );
    expect(verification.status).toBe(200);
    const warningsBefore = webhookWarnings().length;

    // One address: its budget of refusals, then 429 without any further work.
    const statuses: number[] = [];
    for (let i = 0; i < 300; i++) statuses.push((await forged('127.0.0.2', hook)).status);
    expect(statuses.slice(0, REFUSALS_PER_ADDRESS)).toEqual(Array(REFUSALS_PER_ADDRESS).fill(401));
    expect(statuses.slice(REFUSALS_PER_ADDRESS)).toEqual(Array(300 - REFUSALS_PER_ADDRESS).fill(429));
    const throttled = await forged('127.0.0.2', hook);
    expect(throttled.status).toBe(429);
    expect(JSON.parse(throttled.body).error.code).toBe('RATE_LIMITED');
    expect(Number(throttled.retryAfter)).toBeGreaterThan(0);

    // Many addresses: the source's budget caps what is counted one by one and logged.
    const spread: number[] = [];
    for (let a = 3; a < 8; a++)
      for (let i = 0; i < 10; i++) spread.push((await forged(`127.0.0.${a}`, hook)).status);
    const remaining = REFUSALS_PER_SOURCE - REFUSALS_PER_ADDRESS;
    expect(spread.slice(0, remaining)).toEqual(Array(remaining).fill(401));
    expect(spread.slice(remaining)).toEqual(Array(spread.length - remaining).fill(429));
    const refused = 300 + 1 + spread.length;

    // A correctly signed delivery to the flooded source, from another address, is accepted…
    const payload = JSON.stringify({
      id: randomUUID(),
      type: 'page.viewed',
      timestamp: new Date().toISOString(),
    });
    const signature = createHmac('sha256', verificationToken).update(payload).digest('hex');
    const signed = await postFrom('127.0.0.9', hook, payload, {
      'x-notion-signature': `sha256=${signature}`,
    });
    expect(signed.status).toBe(200);
    expect(JSON.parse(signed.body)).toEqual({ status: 'ignored' });
    // …and another source's budget is its own.
    expect((await forged('127.0.0.10', `${stack.url}/webhooks/notion/${other}`)).status).toBe(401);

    // Each window logs a source's first refusal and summarises the rest in one line; the
    // counter holds every refusal.
    const firstLines = () =>
      webhookWarnings().filter((l) => l.includes(`refused a webhook delivery for source ${source}:`));
    const summarised = () =>
      webhookWarnings()
        .map((l) => new RegExp(`source ${source}: (\\d+) more webhook deliveries refused`).exec(l)?.[1])
        .reduce((sum, n) => sum + Number(n ?? 0), 0);
    await expectEventually(
      async () => {
        expect(await rejectedDeliveries(source)).toBe(refused);
        expect(firstLines().length + summarised()).toBe(refused);
      },
      { timeoutMs: (REFUSAL_WINDOW_SECONDS + 30) * 1000, intervalMs: 1000 },
    );
    expect(await rejectedDeliveries(other)).toBe(1);
    // A few windows at most passed: a first line and a summary per window, and the other source's line.
    const lines = webhookWarnings().slice(warningsBefore);
    expect(lines.length).toBeLessThanOrEqual(8);
  });
});

describe('MCP batches are bounded', () => {
  const mcp = (body: unknown) =>
    fetch(`${stack.url}/mcp`, {
      method: 'POST',
      headers: {
        'X-API-Key': ADMIN_KEY,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(body),
    });
  const pings = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'ping' }));

  it('a batch of more than 20 messages is a JSON-RPC Invalid Request; a small one is answered', async () => {
    const small = await mcp(pings(20));
    expect(small.status).toBe(200);
    expect(await small.json()).toHaveLength(20);
    // The SDK's own cap is 100 messages; ours is lower.
    const large = await mcp(pings(21));
    expect(large.status).toBe(400);
    expect(await large.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: expect.stringMatching(/at most 20 messages/) },
      id: null,
    });
  });
});

describe('framing is denied everywhere', () => {
  it('the dashboard, the playground and an API answer all send X-Frame-Options: DENY', async () => {
    const answers = {
      dashboard: await fetch(`${stack.url}/`, { headers: { accept: 'text/html' } }),
      playground: await fetch(`${stack.url}/playground`, { headers: { accept: 'text/html' } }),
      graphql: await fetch(`${stack.url}/graphql`, {
        method: 'POST',
        headers: { 'X-API-Key': ADMIN_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      }),
      health: await fetch(`${stack.url}/healthz`),
    };
    for (const [what, answer] of Object.entries(answers)) {
      expect(answer.status, what).toBeLessThan(500);
      expect(answer.headers.get('x-frame-options'), what).toBe('DENY');
    }
  });
});

describe("Temporal keeps nothing of a removed source's work", () => {
  it("after removeSource the source's closed sync and ingest executions are deleted", async () => {
    const zip = await buildZip([
      { path: 'index.md', data: '# Retention\n\nA page about retention.\n' },
      // Larger than a sync batch takes (TROVE_SYNC_BATCH_MAX_CHUNKS): ingested by its own workflow.
      { path: 'other.md', data: longMarkdown('Other', 6) },
    ]);
    const upload = await stack.uploadArchive(projectId, 'retention.zip', zip, { name: 'Retention site' });
    expect(upload.status).toBe(202);
    const sourceId = upload.body.source!.id;
    expect((await stack.runSettled(upload.body.run!.id)).status).toBe('COMPLETED');
    const { documents } = await stack.query<{
      documents: { nodes: { id: string; sourceId: string | null; fileName: string }[] };
    }>('query($p: ID!) { documents(projectId: $p, first: 100) { nodes { id sourceId fileName } } }', {
      p: projectId,
    });
    const ofSource = documents.nodes.filter((d) => d.sourceId === sourceId);
    expect(ofSource).toHaveLength(2);
    const other = ofSource.find((d) => d.fileName.endsWith('other.md'))!;
    const small = ofSource.find((d) => d.fileName.endsWith('index.md'))!;
    // The sync's history (batches: their page ids and failures) and the large page's own ingest.
    const ids = [syncWorkflowId(sourceId), ingestWorkflowId(other.id), ingestWorkflowId(small.id)];
    const query = `WorkflowId IN (${ids.map((id) => `'${id}'`).join(', ')})`;
    const executions = async () => {
      const found: string[] = [];
      for await (const execution of temporal.workflow.list({ query })) found.push(execution.workflowId);
      return found;
    };
    await expectEventually(async () =>
      expect((await executions()).sort()).toEqual(
        [syncWorkflowId(sourceId), ingestWorkflowId(other.id)].sort(),
      ),
    );

    const removed = await stack.query<{ removeSource: boolean }>(
      'mutation($id: ID!) { removeSource(id: $id) }',
      {
        id: sourceId,
      },
    );
    expect(removed.removeSource).toBe(true);
    await expectEventually(async () => expect(await executions()).toEqual([]), { timeoutMs: 60_000 });
  });
});
