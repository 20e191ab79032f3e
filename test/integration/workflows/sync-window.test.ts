import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/activity';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode } from '@temporalio/worker';
import { newSyncRun, SyncMode, SyncRunStatus } from '@trove/domain';
import type { SyncActivities, SyncTally } from '@trove/ingest-activities';
import { syncSource, type SyncSourceInput } from '@trove/workflows';
import { ROOT, TEMPORAL_ADDRESS, uniqueName } from '../../support/services';
import { type FakePageActivities, INSTANT_FAILURE } from './sync-window.workflows';
import { executions, quietLogger, windowAfterTasks } from './workflow-history';
import { LaneWorkers } from '../../../apps/worker/src/lanes';

// The sync workflow's sliding window and continue-as-new, on the local Temporal server, with the
// real syncSource and in-memory stand-ins for its activities and for the page pipeline.
const taskQueue = uniqueName('sync-window');
let env: TestWorkflowEnvironment;
let worker: LaneWorkers;
let running: Promise<void>;

/** When one page's ingest ran (its stand-in activity). */
interface Span {
  documentId: string;
  start: number;
  end?: number;
}

/** A fake sync run: its plan, and everything the workflow asked of the activities. */
interface FakeRun {
  runId: string;
  ids: string[];
  concurrency?: number;
  reads: { offset: number; limit: number }[];
  progress: SyncTally[];
  finished?: SyncTally;
  failure?: { code: string; message: string };
  spans: Span[];
}

const runs = new Map<string, FakeRun>();
const pages = new Map<string, { run: FakeRun; ms: number; fails: boolean }>();

/** A run whose plan has `count` pages; `page(i)` says how long page i takes and whether it fails. */
function newRun(
  label: string,
  count: number,
  concurrency: number,
  page: (i: number) => { ms: number; fails?: boolean | 'instantly' },
): FakeRun {
  const runId = `${taskQueue}-${label}`;
  const run: FakeRun = {
    runId,
    ids: [],
    concurrency,
    reads: [],
    progress: [],
    spans: [],
  };
  for (let i = 0; i < count; i++) {
    const { ms, fails = false } = page(i);
    const documentId = `${runId}-p${i}${fails === 'instantly' ? INSTANT_FAILURE : ''}`;
    run.ids.push(documentId);
    pages.set(documentId, { run, ms, fails: Boolean(fails) });
  }
  runs.set(runId, run);
  return run;
}

function runOf(runId: string): FakeRun {
  const run = runs.get(runId);
  if (!run) throw new Error(`unknown run ${runId}`);
  return run;
}

const syncActivities: SyncActivities = {
  async planSync({ runId }) {
    const run = runOf(runId);
    return { changedKey: runId, changedCount: run.ids.length, concurrency: run.concurrency };
  },
  async readPlanBatch({ changedKey, offset, limit }) {
    const run = runOf(changedKey);
    run.reads.push({ offset, limit });
    return run.ids.slice(offset, offset + limit);
  },
  async recordProgress({ runId, tally }) {
    runOf(runId).progress.push(tally);
  },
  async finishSync({ runId, tally }) {
    runOf(runId).finished = tally;
    const run = newSyncRun({ id: 'source', projectId: 'project' }, SyncMode.FULL);
    return { ...run, id: runId, status: SyncRunStatus.COMPLETED };
  },
  async failSync({ runId, code, message }) {
    runOf(runId).failure = { code, message };
  },
  createScheduledRun: async () => undefined,
  cancelRun: async () => undefined,
  endCancelledSync: async () => undefined,
};

const pageActivities: FakePageActivities = {
  async ingestPage({ documentId }) {
    const page = pages.get(documentId);
    if (!page) throw new Error(`unknown page ${documentId}`);
    const span: Span = { documentId, start: Date.now() };
    page.run.spans.push(span);
    await new Promise((resolve) => setTimeout(resolve, page.ms));
    span.end = Date.now();
    if (page.fails) {
      throw ApplicationFailure.create({
        nonRetryable: true,
        type: 'PARSE_FAILED',
        message: `${documentId} could not be parsed`,
      });
    }
    return { documentId, chunkCount: 3, reusedEmbeddings: 1 };
  },
};

async function sync(run: FakeRun, input: Partial<SyncSourceInput> = {}): Promise<void> {
  await env.client.workflow.execute(syncSource, {
    taskQueue,
    workflowId: `sync-${run.runId}`,
    args: [{ runId: run.runId, ...input }],
  });
}

/** Most pages whose ingest (stand-in activity) ran at the same moment. */
function maxRunning(spans: Span[]): number {
  const changes = spans
    .flatMap((s): [number, number][] => [
      [s.start, 1],
      [s.end!, -1],
    ])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let most = 0;
  for (const [, delta] of changes) {
    now += delta;
    most = Math.max(most, now);
  }
  return most;
}

beforeAll(async () => {
  env = await TestWorkflowEnvironment.createFromExistingServer({ address: TEMPORAL_ADDRESS });
  const bundle = await bundleWorkflowCode({
    workflowsPath: join(ROOT, 'test/integration/workflows/sync-window.workflows.ts'),
    logger: quietLogger,
  });
  worker = await LaneWorkers.create({
    connection: env.nativeConnection,
    taskQueue,
    workflows: { workflowBundle: bundle },
    activities: { ...syncActivities, ...pageActivities },
    slots: { control: 100, bulk: 100, interactive: 2 },
  });
  running = worker.run();
});

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
});

describe('syncSource sliding window (real Temporal, stand-in pages)', () => {
  it('keeps all four slots busy while one page is slow', async () => {
    const slowMs = 15_000;
    const fastMs = 200;
    const count = 40;
    const run = newRun('slow', count, 4, (i) => ({ ms: i === 0 ? slowMs : fastMs }));
    await sync(run);

    expect(run.finished).toMatchObject({ ready: count, failedCount: 0 });
    expect(run.spans).toHaveLength(count);
    // After every workflow task, as long as pages were waiting, four children were in flight:
    // one finishing is replaced at once (batches of four would drop to three, two, one).
    const [history] = await executions(env.client, `sync-${run.runId}`);
    const window = windowAfterTasks(history).filter((w) => w.started > 0);
    expect(Math.max(...window.map((w) => w.open))).toBe(4);
    expect(window.filter((w) => w.started < count).every((w) => w.open === 4)).toBe(true);
    expect(maxRunning(run.spans)).toBeLessThanOrEqual(4);
    // How soon the other pages end next to the slow one is left to the clock and the machine's
    // load; the history above is what shows the slots were never left waiting for it.
    // Plan ids are read in large pages, not one read per window.
    expect(run.reads).toEqual([{ offset: 0, limit: count }]);
  });

  it('across continue-as-new, ingests every page exactly once and carries the tally', async () => {
    const pagesPerExecution = 10;
    const failing = new Set([3, 17]);
    // Uneven durations, so pages finish out of order and some are in flight at each boundary.
    const run = newRun('continue', 25, 4, (i) => ({ ms: 100 + ((i * 7) % 5) * 150, fails: failing.has(i) }));
    await sync(run, { pagesPerExecution });

    const runsPerPage = new Map<string, number>();
    for (const span of run.spans)
      runsPerPage.set(span.documentId, (runsPerPage.get(span.documentId) ?? 0) + 1);
    expect([...runsPerPage.keys()].sort()).toEqual([...run.ids].sort()); // none skipped
    expect([...runsPerPage.values()].every((n) => n === 1)).toBe(true); // none twice
    expect(run.failure).toBeUndefined();
    expect(run.finished).toMatchObject({ ready: 23, failedCount: 2 });
    expect(run.finished!.failed.map((f) => f.documentId).sort()).toEqual([run.ids[3], run.ids[17]].sort());

    // Three executions of 10, 10 and 5 pages, each reading its ids once, each finishing all its
    // pages before continuing as new (nothing open after its last task).
    const histories = await executions(env.client, `sync-${run.runId}`);
    const windows = histories.map(windowAfterTasks);
    expect(windows.map((w) => w.at(-1)!.started)).toEqual([10, 10, 5]);
    expect(windows.map((w) => w.at(-1)!.open)).toEqual([0, 0, 0]);
    expect(Math.max(...windows.flat().map((w) => w.open))).toBe(4);
    expect(
      histories.slice(0, -1).every((h) => h.at(-1)?.workflowExecutionContinuedAsNewEventAttributes),
    ).toBe(true);
    expect(run.reads).toEqual([
      { offset: 0, limit: 10 },
      { offset: 10, limit: 10 },
      { offset: 20, limit: 5 },
    ]);
    // Progress is written before each continue-as-new, with the counts so far.
    const done = run.progress.map((t) => t.ready + t.failedCount);
    expect(done).toContain(10);
    expect(done).toContain(20);
  });

  it('counts failures past the 200 kept details exactly, and writes progress now and then, not per page', async () => {
    // 220 failing pages and 10 succeeding ones, 16 at a time (the plan's concurrency).
    const count = 230;
    const run = newRun('failures', count, 16, (i) => ({ ms: 50, fails: i % 23 !== 0 && 'instantly' }));
    const started = Date.now();
    await sync(run);
    const elapsed = Date.now() - started;

    expect(run.finished).toMatchObject({ ready: 10, failedCount: 220 });
    expect(run.finished!.failed).toHaveLength(200);
    expect(run.spans).toHaveLength(10);
    const [history] = await executions(env.client, `sync-${run.runId}`);
    const window = windowAfterTasks(history);
    expect(Math.max(...window.map((w) => w.open))).toBe(16);
    // The first page at once, then at most one write per 100 pages or per 2 s of workflow time
    // (per window of 4 it was 58).
    expect(run.progress.length).toBeLessThanOrEqual(1 + Math.floor(count / 100) + Math.ceil(elapsed / 2_000));
    const counts = run.progress.map((t) => t.ready + t.failedCount);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(run.progress.every((t) => t.failed.length === Math.min(200, t.failedCount))).toBe(true);
  });
});
