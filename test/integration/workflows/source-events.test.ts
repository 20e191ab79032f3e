import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporal } from '@temporalio/proto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { SourceEvent, SourceEventsTiming } from '@trove/domain';
import type { SyncActivities, WebhookActivities } from '@trove/ingest-activities';
import { sourceEvents, sourceEventsSignal } from '@trove/workflows';
import { expectEventually, ROOT, TEMPORAL_BIN, uniqueName } from '../../support/services';
import { LaneWorkers } from '../../../apps/worker/src/lanes';

// The webhook workflow's batching and continue-as-new, on a local Temporal test server, with
// activities that only record what they were given; and the runs of the release that named it
// `notionWebhookEvents` (signal `notionEvents`), which this code must still serve.
const taskQueue = uniqueName('webhook-wf');
let env: TestWorkflowEnvironment;
let bundle: WorkflowBundleWithSourceMap;
let worker: LaneWorkers;
let running: Promise<void>;
/** Every batch applySourceEvents received, with when, per source. */
const applied = new Map<string, { at: number; events: SourceEvent[] }[]>();

/** Sources whose events asked for a sync, each time a run was asked for. */
const scheduled: string[] = [];

const activities: WebhookActivities & Pick<SyncActivities, 'createScheduledRun'> = {
  async applySourceEvents({ sourceId, events }) {
    applied.set(sourceId, [...(applied.get(sourceId) ?? []), { at: Date.now(), events }]);
    await new Promise((resolve) => setTimeout(resolve, 200)); // some work
    // A source named "pushed" gets events no item-level update expresses (a Git push).
    return { ingest: [], removed: 0, ignored: events.length, resync: sourceId === 'pushed' };
  },
  removeDocuments: async () => undefined,
  // The run a schedule would start; none here (as for a source being removed), so nothing syncs.
  async createScheduledRun({ sourceId }) {
    scheduled.push(sourceId);
    return undefined;
  },
};

const quietLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: (message: string) => console.error(message),
};

async function send(sourceId: string, timing: SourceEventsTiming, n: number): Promise<void> {
  const event: SourceEvent = {
    type: 'page.content_updated',
    entityId: `page-${n}`,
    entityType: 'page',
    timestamp: new Date().toISOString(),
  };
  await env.client.workflow.signalWithStart(sourceEvents, {
    taskQueue,
    workflowId: `webhook-${sourceId}`,
    args: [sourceId, [], timing],
    signal: sourceEventsSignal,
    signalArgs: [[event]],
  });
}

function appliedIds(sourceId: string): string[] {
  return (applied.get(sourceId) ?? []).flatMap((batch) => batch.events.map((e) => e.entityId));
}

/** History lengths of every run of a workflow, newest first, following continue-as-new back. */
async function runLengths(workflowId: string): Promise<number[]> {
  const lengths: number[] = [];
  let runId: string | undefined = (await env.client.workflow.getHandle(workflowId).describe()).runId;
  while (runId) {
    const history = await env.client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events: {
      workflowExecutionStartedEventAttributes?: { continuedExecutionRunId?: string | null } | null;
    }[] = history.events ?? [];
    lengths.push(events.length);
    runId = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId ?? undefined;
  }
  return lengths;
}

beforeAll(async () => {
  env = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'existing-path', path: TEMPORAL_BIN } },
  });
  bundle = await bundleWorkflowCode({
    workflowsPath: join(ROOT, 'libs/workflows/src/index.ts'),
    logger: quietLogger,
  });
  worker = await LaneWorkers.create({
    connection: env.nativeConnection,
    taskQueue,
    workflows: { workflowBundle: bundle },
    activities,
    slots: { control: 4, bulk: 4, interactive: 2 },
  });
  running = worker.run();
});

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
});

describe('sourceEvents workflow', () => {
  it('starts an INCREMENTAL run when the connector says the events need one', async () => {
    await send('pushed', { quietMs: 100, maxDelayMs: 1_000, historyLimit: 4_000 }, 0);
    await expectEventually(async () => expect(scheduled).toEqual(['pushed']), { timeoutMs: 20_000 });
    await send('quiet-page', { quietMs: 100, maxDelayMs: 1_000, historyLimit: 4_000 }, 0);
    await expectEventually(async () => expect(appliedIds('quiet-page')).toHaveLength(1), {
      timeoutMs: 20_000,
    });
    expect(scheduled).toEqual(['pushed']);
  });

  it('under a steady stream, applies events within the maximum delay instead of waiting for quiet', async () => {
    const timing = { quietMs: 1_000, maxDelayMs: 3_000, historyLimit: 4_000 };
    const started = Date.now();
    const count = 50;
    for (let i = 0; i < count; i++) {
      const due = started + i * 200; // 5 a second for 10 s: never a quiet second
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      await send('steady', timing, i);
    }
    const ended = Date.now();
    const first = applied.get('steady')?.[0];
    // A batch was applied while events still came, holding part of them: a debounce alone would
    // have waited for the stream to end and applied all of them at once.
    expect(first).toBeDefined();
    expect(first!.at).toBeLessThan(ended);
    expect(first!.events.length).toBeLessThan(count);
    await expectEventually(async () => expect(appliedIds('steady')).toHaveLength(count), {
      timeoutMs: 20_000,
    });
    expect(new Set(appliedIds('steady')).size).toBe(count);
  });

  it('continues as new at the history limit, carrying every pending event, no run growing past it', async () => {
    const timing = { quietMs: 500, maxDelayMs: 2_000, historyLimit: 100 };
    const count = 150;
    for (let i = 0; i < count; i++) {
      await send('busy', timing, i);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await expectEventually(async () => expect(appliedIds('busy')).toHaveLength(count), { timeoutMs: 30_000 });
    expect(new Set(appliedIds('busy')).size).toBe(count); // none lost, none applied twice
    const lengths = await runLengths('webhook-busy');
    expect(lengths.length).toBeGreaterThan(2);
    // A run checks its limit between steps, so signals arriving during one step (more on a loaded
    // machine) take it somewhat past the limit; without continue-as-new one run would hold them all.
    for (const length of lengths) expect(length).toBeLessThan(3 * timing.historyLimit);
    expect(Math.max(...lengths)).toBeLessThan(lengths.reduce((sum, length) => sum + length, 0) / 2);
  });

  it('serves a run of the previous release: its workflow type, its signal, and the new signal', async () => {
    const timing = { quietMs: 100, maxDelayMs: 1_000, historyLimit: 4_000 };
    const event = (n: number): SourceEvent => ({
      type: 'page.content_updated',
      entityId: `page-${n}`,
      entityType: 'page',
      timestamp: new Date().toISOString(),
    });
    // As the previous release's api started it: by type name, with the old signal.
    const handle = await env.client.workflow.signalWithStart('notionWebhookEvents', {
      taskQueue,
      workflowId: 'webhook-previous-release',
      args: ['previous-release', [], timing],
      signal: 'notionEvents',
      signalArgs: [[event(0)]],
    });
    await expectEventually(async () => expect(appliedIds('previous-release')).toEqual(['page-0']), {
      timeoutMs: 20_000,
    });
    // This release's api signals the same workflow id while that run is still open.
    await handle.signal(sourceEventsSignal, [event(1)]);
    await expectEventually(async () => expect(appliedIds('previous-release')).toEqual(['page-0', 'page-1']), {
      timeoutMs: 20_000,
    });
    expect((await handle.describe()).type).toBe('notionWebhookEvents');
  });

  it('replays a history the previous release recorded (signals, debounce timers, activity, continue-as-new)', async () => {
    // Recorded with the workflow code before the rename: type notionWebhookEvents, signal
    // notionEvents, 30 events, one run closed by continue-as-new at its history limit. Stored as
    // the encoded protobuf History (the SDK's JSON reader fails with this protobufjs install).
    const history = temporal.api.history.v1.History.decode(
      readFileSync(join(__dirname, 'histories', 'notion-webhook-events.history.pb')),
    );
    await expect(Worker.runReplayHistory({ workflowBundle: bundle }, history)).resolves.toBeUndefined();
  });
});
