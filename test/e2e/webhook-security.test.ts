import { createHmac } from 'node:crypto';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { type SourceEvent, sourceEventsWorkflowId, type TroveSignals } from '@trove/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultWorkspace, DEFAULT_IDS, NotionEmulator } from '@trove/notion-emulator';
import { expectEventually, TEMPORAL_ADDRESS } from '../support/services';
import { TroveStack } from '../support/stack';

// Replay and flood resistance of the Notion webhook endpoint, against the real api and worker
// and the Notion API emulator (which signs deliveries as Notion does).
const VERIFICATION_WINDOW_MS = 20_000;
const MAX_DELAY_MS = 5_000;
const HISTORY_LIMIT = 300;

/** Shifts the emulator's clock, i.e. the `timestamp` of the events it sends. */
let skewMs = 0;
const emulator = new NotionEmulator(defaultWorkspace(), {
  requestsPerSecond: Infinity,
  now: () => new Date(Date.now() + skewMs),
});
let stack: TroveStack;
let temporal: TemporalClient;
let emulatorUrl: string;
let projectId: string;
let sourceId: string;
let hook: string;
let verificationToken: string;
/** A second source, left unverified until its verification window has passed. */
let lateSource: { id: string; createdAt: number };
/** Child pages of the Onboarding root, one per scenario. */
let leaves: string[];

async function addSource(name: string): Promise<string> {
  const { id } = await stack.addSource({
    projectId,
    name,
    type: 'NOTION',
    config: { token: emulator.token, rootPageIds: [DEFAULT_IDS.onboarding] },
  });
  return id;
}

async function pageDocument(pageId: string) {
  const {
    documents: { nodes: documents },
  } = await stack.query<{ documents: { nodes: { id: string; fileName: string; status: string }[] } }>(
    'query($p: ID!) { documents(projectId: $p, first: 500) { nodes { id fileName status } } }',
    { p: projectId },
  );
  return documents.find((d) => d.fileName === `notion:${pageId}`);
}

async function searchText(query: string): Promise<string[]> {
  const { search } = await stack.query<{ search: { hits: { text: string }[] } }>(
    'query($i: SearchInput!) { search(input: $i) { hits { text } } }',
    { i: { projectId, query, limit: 5, mode: 'KEYWORD' } },
  );
  return search.hits.map((h) => h.text);
}

/** A delivery signed with the main source's token (the emulator remembers only the last one it sent). */
function deliver(event: { type: string; entityId: string }) {
  return emulator.deliverWebhook(hook, event, { verificationToken });
}

/** Posts exact bytes with a valid signature, as an attacker replaying a captured delivery would. */
async function replay(payload: string): Promise<{ status: number; body: string }> {
  const signature = createHmac('sha256', verificationToken).update(payload).digest('hex');
  const response = await fetch(hook, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-notion-signature': `sha256=${signature}` },
    body: payload,
  });
  return { status: response.status, body: await response.text() };
}

async function notionApi<T>(path: string): Promise<T> {
  const response = await fetch(`${emulatorUrl}/v1/${path}`, {
    headers: { Authorization: `Bearer ${emulator.token}`, 'Notion-Version': '2025-09-03' },
  });
  return (await response.json()) as T;
}

async function firstParagraphBlock(pageId: string): Promise<string> {
  const body = await notionApi<{ results: { id: string; type: string }[] }>(`blocks/${pageId}/children`);
  return body.results.find((b) => b.type === 'paragraph')!.id;
}

/** The part of a history event used to walk back a continue-as-new chain. */
interface StartedEvent {
  workflowExecutionStartedEventAttributes?: { continuedExecutionRunId?: string | null } | null;
}

const EVENTS_SIGNAL = 'sourceEvents' satisfies keyof TroveSignals;

/**
 * Every event the api handed to the source's webhook workflow, over all its runs (continue-as-new):
 * the signals in its Temporal histories, newest run first.
 */
async function signalledEvents(): Promise<SourceEvent[]> {
  const workflowId = sourceEventsWorkflowId(sourceId);
  const events: SourceEvent[] = [];
  let runId: string | undefined = (await temporal.workflow.getHandle(workflowId).describe()).runId;
  while (runId) {
    const history = await temporal.workflow.getHandle(workflowId, runId).fetchHistory();
    for (const event of history.events ?? []) {
      const signal = event.workflowExecutionSignaledEventAttributes;
      if (signal?.signalName !== EVENTS_SIGNAL) continue;
      for (const payload of signal.input?.payloads ?? []) {
        events.push(...(JSON.parse(Buffer.from(payload.data!).toString('utf8')) as SourceEvent[]));
      }
    }
    const first: StartedEvent | undefined = history.events?.[0];
    runId = first?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId ?? undefined;
  }
  return events;
}

beforeAll(async () => {
  emulatorUrl = await emulator.start();
  stack = new TroveStack({
    TROVE_NOTION_API_URL: emulatorUrl,
    TROVE_NOTION_REQUESTS_PER_SECOND: '50',
    TROVE_WEBHOOK_VERIFICATION_WINDOW_MS: String(VERIFICATION_WINDOW_MS),
    TROVE_WEBHOOK_MAX_DELAY_MS: String(MAX_DELAY_MS),
    TROVE_WEBHOOK_HISTORY_LIMIT: String(HISTORY_LIMIT),
  });
  await stack.start();
  temporal = new TemporalClient({ connection: await Connection.connect({ address: TEMPORAL_ADDRESS }) });
  projectId = await stack.createProject('Webhook security');
  sourceId = await addSource('Team wiki');
  hook = `${stack.url}/webhooks/notion/${sourceId}`;
  const verification = await emulator.sendVerificationRequest(hook);
  expect(verification.status).toBe(200);
  verificationToken = verification.verificationToken;
  lateSource = { id: await addSource('Verified too late'), createdAt: Date.now() };

  const { syncSource } = await stack.query<{ syncSource: { id: string } }>(
    'mutation($id: ID!) { syncSource(id: $id, mode: FULL) { id } }',
    { id: sourceId },
  );
  expect((await stack.runSettled(syncSource.id)).status).toBe('COMPLETED');
  const children = await notionApi<{ results: { id: string; type: string }[] }>(
    `blocks/${DEFAULT_IDS.onboarding}/children`,
  );
  leaves = children.results.filter((b) => b.type === 'child_page').map((b) => b.id);
  expect(leaves.length).toBeGreaterThanOrEqual(4);
  for (const leaf of leaves.slice(0, 4)) expect((await pageDocument(leaf))?.status).toBe('READY');
});

afterAll(async () => {
  await temporal?.connection.close();
  await stack?.stop();
  await emulator.stop();
});

/** What the dashboard's webhook panel shows for a source. */
async function webhookPanel(id: string) {
  const { sources } = await stack.query<{
    sources: {
      id: string;
      webhook: { lastEventAt: string | null; lastEventType: string | null; rejectedDeliveries: number };
    }[];
  }>(
    'query($p: ID!) { sources(projectId: $p) { id webhook { lastEventAt lastEventType rejectedDeliveries } } }',
    {
      p: projectId,
    },
  );
  return sources.find((s) => s.id === id)!.webhook;
}

describe('Notion webhooks: what the panel shows', () => {
  it('counts refused deliveries (forged, unsigned, stale) and records the last accepted event', async () => {
    const before = await webhookPanel(sourceId);
    const forged = await fetch(hook, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-notion-signature': `sha256=${'0'.repeat(64)}` },
      body: JSON.stringify({ id: 'evt-forged', type: 'page.deleted', timestamp: new Date().toISOString() }),
    });
    expect(forged.status).toBe(401);
    const unsigned = await fetch(hook, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'evt-unsigned', type: 'page.deleted' }),
    });
    expect(unsigned.status).toBe(401);
    try {
      skewMs = -10 * 60_000;
      expect((await deliver({ type: 'page.deleted', entityId: leaves[0] })).status).toBe(400);
    } finally {
      skewMs = 0;
    }
    await expectEventually(async () => {
      expect((await webhookPanel(sourceId)).rejectedDeliveries).toBe(before.rejectedDeliveries + 3);
    });
    // A delivery for a source that does not exist is refused and counted nowhere.
    const unknown = await fetch(`${stack.url}/webhooks/notion/00000000-0000-4000-8000-000000000000`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unknown.status).toBe(401);

    const sentAt = Date.now();
    expect((await deliver({ type: 'page.content_updated', entityId: leaves[0] })).status).toBe(200);
    const after = await webhookPanel(sourceId);
    expect(after.lastEventType).toBe('page.content_updated');
    expect(Date.parse(after.lastEventAt!)).toBeGreaterThanOrEqual(sentAt - 1000);
    expect(after.rejectedDeliveries).toBe(before.rejectedDeliveries + 3);
    // The other source heard nothing.
    expect(await webhookPanel(lateSource.id)).toEqual({
      lastEventAt: null,
      lastEventType: null,
      rejectedDeliveries: 0,
    });
  });
});

describe('Notion webhooks: replays', () => {
  it('refuses a signed event whose timestamp is outside the window (too old or in the future)', async () => {
    const live = leaves[0];
    try {
      skewMs = -10 * 60_000;
      const old = await deliver({ type: 'page.deleted', entityId: live });
      expect(old.status).toBe(400);
      expect(JSON.parse(old.body).error.code).toBe('WEBHOOK_EXPIRED');
      skewMs = 5 * 60_000;
      const future = await deliver({ type: 'page.deleted', entityId: live });
      expect(future.status).toBe(400);
    } finally {
      skewMs = 0;
    }
    const fresh = await deliver({ type: 'page.content_updated', entityId: live });
    expect(fresh.status).toBe(200);
    expect(JSON.parse(fresh.body)).toEqual({ status: 'accepted' });
  });

  it('acknowledges a replayed event id without applying it again: a re-created page survives', async () => {
    const page = leaves[1];
    emulator.trashPage(page);
    const deleted = await deliver({ type: 'page.deleted', entityId: page });
    expect(deleted.status).toBe(200);
    await expectEventually(
      async () => {
        if (await pageDocument(page)) throw new Error('not removed yet');
      },
      { timeoutMs: 60_000 },
    );

    // The page comes back (restored in Notion) and is indexed again.
    emulator.restorePage(page);
    expect((await deliver({ type: 'page.undeleted', entityId: page })).status).toBe(200);
    await expectEventually(
      async () => {
        if ((await pageDocument(page))?.status !== 'READY') throw new Error('not re-indexed yet');
      },
      { timeoutMs: 60_000 },
    );

    // The captured page.deleted, replayed byte for byte within the window.
    const deletes = async () =>
      (await signalledEvents()).filter((e) => e.type === 'page.deleted' && e.entityId === page);
    expect(await deletes()).toHaveLength(1);
    const again = await replay(deleted.payload);
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body)).toEqual({ status: 'duplicate' });
    // Seen and dropped: an accepted event is signalled before its answer is sent, and the replay
    // added no signal, so the workflow never got it to apply.
    expect(await deletes()).toHaveLength(1);
    expect((await pageDocument(page))?.status).toBe('READY');
  });

  it('page.deleted for a page that is live in Notion does not delete it; the page is re-read', async () => {
    const page = leaves[2];
    const block = await firstParagraphBlock(page);
    emulator.editBlockText(block, 'Quokka protocol: the page is alive and well after a bogus delete event.');
    expect((await deliver({ type: 'page.deleted', entityId: page })).status).toBe(200);
    await expectEventually(
      async () => {
        const texts = await searchText('Quokka protocol alive bogus delete');
        if (!texts.some((t) => t.includes('Quokka'))) throw new Error('not re-read yet');
        expect((await pageDocument(page))?.status).toBe('READY');
      },
      { timeoutMs: 60_000 },
    );
  });
});

describe('Notion webhooks: verification', () => {
  it('refuses the unsigned verification request once the window after creation has passed, until reset', async () => {
    const lateHook = `${stack.url}/webhooks/notion/${lateSource.id}`;
    const wait = lateSource.createdAt + VERIFICATION_WINDOW_MS + 1_000 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const late = await fetch(lateHook, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ verification_token: 'secret_attacker_chosen_token' }),
    });
    expect(late.status).toBe(401);
    const token = () =>
      stack.query<{ webhookVerificationToken: string | null }>(
        'query($s: ID!) { webhookVerificationToken(sourceId: $s) }',
        { s: lateSource.id },
      );
    expect((await token()).webhookVerificationToken).toBeNull();

    // resetWebhookVerification opens a new window: Notion's verification is accepted again.
    await stack.query('mutation($s: ID!) { resetWebhookVerification(sourceId: $s) }', { s: lateSource.id });
    const verification = await emulator.sendVerificationRequest(lateHook);
    expect(verification.status).toBe(200);
    expect((await token()).webhookVerificationToken).toBe(verification.verificationToken);
  });
});

describe('Notion webhooks: a steady stream of events', () => {
  const FLOOD = 250;
  const flood = { startedAt: 0, endedAt: 0, removedAt: 0 };

  it('applies a delete sent first while the stream is still going, and the last event after it', async () => {
    const gone = leaves[3];
    const goneDocument = (await pageDocument(gone))!;
    const last = leaves[0];
    emulator.trashPage(gone);
    flood.startedAt = Date.now();
    expect((await deliver({ type: 'page.deleted', entityId: gone })).status).toBe(200);
    const watcher = (async () => {
      while (Date.now() - flood.startedAt < 120_000) {
        if (!(await stack.document(goneDocument.id))) {
          flood.removedAt = Date.now();
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    // ~10 events a second for about 25 seconds, about a page outside the source's scope: each
    // costs the workflow history and an applySourceEvents call, but no ingest (which would
    // only add the time of one page ingest to how far a run may overshoot its history limit).
    const outside = DEFAULT_IDS.meetings;
    expect(await pageDocument(outside)).toBeUndefined();
    for (let i = 0; i < FLOOD; i++) {
      const due = flood.startedAt + (i + 1) * 100;
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      expect((await deliver({ type: 'page.content_updated', entityId: outside })).status).toBe(200);
    }
    emulator.editBlockText(await firstParagraphBlock(last), 'Wombat rule: the last event of a flood counts.');
    expect((await deliver({ type: 'page.content_updated', entityId: last })).status).toBe(200);
    flood.endedAt = Date.now();
    await watcher;

    const streamSeconds = (flood.endedAt - flood.startedAt) / 1000;
    const removedAfter = (flood.removedAt - flood.startedAt) / 1000;
    console.log(
      `flood of ${FLOOD} events took ${streamSeconds} s; the delete was applied after ${removedAfter} s`,
    );
    expect(streamSeconds).toBeGreaterThan(20);
    expect(flood.removedAt).toBeGreaterThan(0);
    // Applied while the stream was still going: the maximum delay (5 s) caps how long a steady
    // stream can hold a batch back, where a pure debounce would wait for the stream to end.
    expect(flood.removedAt).toBeLessThan(flood.endedAt);

    // Nothing is lost across batches and continue-as-new: the final edit arrives too.
    await expectEventually(
      async () => {
        const texts = await searchText('Wombat rule last event flood');
        if (!texts.some((t) => t.includes('Wombat'))) throw new Error('last event not applied yet');
      },
      { timeoutMs: 90_000 },
    );
  });

  it("keeps the webhook workflow's history bounded: it continues as new, every run stays small", async () => {
    const workflowId = sourceEventsWorkflowId(sourceId);
    const lengths: number[] = [];
    let runId: string | undefined = (await temporal.workflow.getHandle(workflowId).describe()).runId;
    while (runId && lengths.length < 100) {
      const history = await temporal.workflow.getHandle(workflowId, runId).fetchHistory();
      const events: StartedEvent[] = history.events ?? [];
      lengths.push(events.length);
      runId = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId ?? undefined;
    }
    const total = lengths.reduce((a, b) => a + b, 0);
    console.log(`webhook workflow runs (newest first): ${lengths.join(', ')} events; ${total} in all`);
    // The flood alone needs far more events than one run may hold.
    expect(total).toBeGreaterThan(2 * HISTORY_LIMIT);
    expect(lengths.length).toBeGreaterThan(2);
    // A run stops at the limit, plus what arrives while its last step (a batch's activity, or a
    // few page ingests) runs.
    for (const length of lengths) expect(length).toBeLessThan(2 * HISTORY_LIMIT);
  });
});
