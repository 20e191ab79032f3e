import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/activity';
import { CancelledFailure, WorkflowFailedError } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode } from '@temporalio/worker';
import {
  ingestPriority,
  ingestWorkflowId,
  newSyncRun,
  SyncMode,
  SyncRunStatus,
  syncWorkflowId,
  TroveErrorCode,
} from '@trove/domain';
import type { ScheduledRun, SyncActivities, SyncTally } from '@trove/ingest-activities';
import { scheduledSync, syncSource, type SyncSourceInput } from '@trove/workflows';
import { expectEventually, ROOT, TEMPORAL_BIN, uniqueName } from '../../support/services';
import type { FakePageActivities } from './sync-window.workflows';
import { executions, type HistoryEvent, quietLogger } from './workflow-history';
import { LaneWorkers } from '../../../apps/worker/src/lanes';

// syncSource's decisions — which pages it ingests, across continue-as-new; how a page's failure
// counts (gone, failed) or ends the run (a rejected token); how a failed plan ends it; what reaches
// finishSync — on a Temporal dev server of its own, with the real workflow, recording stand-ins
// for its activities, and a stand-in page pipeline (sync-window.workflows.ts) whose outcome each
// test scripts per page.
const taskQueue = uniqueName('sync-source');
let env: TestWorkflowEnvironment;
let worker: LaneWorkers;
let running: Promise<void>;

/** How a page's stand-in ingest ends: after `ms`, READY or failing with a failure `type`. */
interface PageScript {
  ms?: number;
  fails?: string;
}

/** A scripted sync run and everything the workflow asked of its activities. */
interface FakeRun {
  runId: string;
  ids: string[];
  watermark?: string;
  concurrency?: number;
  /** planSync throws this instead of returning the plan. */
  planFailure?: ApplicationFailure;
  plans: number;
  reads: { offset: number; limit: number }[];
  progress: SyncTally[];
  finished?: { tally: SyncTally; watermark?: string };
  failure?: { code: string; message: string; at: number };
  /** When endCancelledSync recorded the run's end. */
  cancelledAt?: number;
  /** Each page ingest the stand-in ran: which page, when it started and ended. */
  ingests: { documentId: string; start: number; end?: number }[];
}

const runs = new Map<string, FakeRun>();
const pages = new Map<string, { run: FakeRun; script: PageScript }>();
/**
 * What createScheduledRun answers per source: the run and its project, or a bare run id (what it
 * answered before it named the project, as a history recorded then replays it).
 */
const scheduled = new Map<string, ScheduledRun | string>();

function newRun(
  label: string,
  count: number,
  options: Partial<Pick<FakeRun, 'watermark' | 'concurrency' | 'planFailure'>> = {},
  script: (i: number) => PageScript = () => ({}),
): FakeRun {
  const runId = `${taskQueue}-${label}`;
  const run: FakeRun = { runId, ids: [], plans: 0, reads: [], progress: [], ingests: [], ...options };
  for (let i = 0; i < count; i++) {
    const documentId = `${runId}-p${i}`;
    run.ids.push(documentId);
    pages.set(documentId, { run, script: script(i) });
  }
  runs.set(runId, run);
  return run;
}

function runOf(runId: string): FakeRun {
  const run = runs.get(runId);
  if (!run) throw new Error(`unknown run ${runId}`);
  return run;
}

type FakeSyncActivities = Omit<SyncActivities, 'createScheduledRun'> & {
  createScheduledRun(input: { sourceId: string }): Promise<ScheduledRun | string | undefined>;
};

const syncActivities: FakeSyncActivities = {
  async planSync({ runId }) {
    const run = runOf(runId);
    run.plans++;
    if (run.planFailure) throw run.planFailure;
    return {
      changedKey: runId,
      changedCount: run.ids.length,
      concurrency: run.concurrency,
      ...(run.watermark ? { watermark: run.watermark } : {}),
    };
  },
  async readPlanBatch({ changedKey, offset, limit }) {
    const run = runOf(changedKey);
    run.reads.push({ offset, limit });
    return run.ids.slice(offset, offset + limit);
  },
  async recordProgress({ runId, tally }) {
    runOf(runId).progress.push(tally);
  },
  async finishSync({ runId, tally, watermark }) {
    runOf(runId).finished = { tally, watermark };
    const run = newSyncRun({ id: 'source', projectId: 'project' }, SyncMode.FULL);
    return { ...run, id: runId, status: SyncRunStatus.COMPLETED };
  },
  async failSync({ runId, code, message }) {
    runOf(runId).failure = { code, message, at: Date.now() };
  },
  createScheduledRun: async ({ sourceId }) => scheduled.get(sourceId),
  cancelRun: async () => undefined,
  async endCancelledSync({ runId }) {
    runOf(runId).cancelledAt = Date.now();
  },
};

const pageActivities: FakePageActivities = {
  async ingestPage({ documentId }) {
    const page = pages.get(documentId);
    if (!page) throw new Error(`unknown page ${documentId}`);
    const ingest: FakeRun['ingests'][number] = { documentId, start: Date.now() };
    page.run.ingests.push(ingest);
    await new Promise((resolve) => setTimeout(resolve, page.script.ms ?? 20));
    ingest.end = Date.now();
    if (page.script.fails) {
      throw ApplicationFailure.create({
        nonRetryable: true,
        type: page.script.fails,
        message: `${documentId}: ${page.script.fails}`,
      });
    }
    return { documentId, chunkCount: 3, reusedEmbeddings: 1 };
  },
};

/** Runs the sync to its end; resolves with how the workflow ended (its failure, if it failed). */
async function sync(
  run: FakeRun,
  input: Partial<SyncSourceInput> = {},
  priority?: { fairnessKey: string },
): Promise<unknown> {
  return env.client.workflow
    .execute(syncSource, {
      taskQueue,
      workflowId: `sync-${run.runId}`,
      args: [{ runId: run.runId, ...input }],
      ...(priority ? { priority } : {}),
    })
    .then(
      () => undefined,
      (error: unknown) => error,
    );
}

/** How many times each page was ingested. */
function ingestsPerPage(run: FakeRun): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { documentId } of run.ingests) counts.set(documentId, (counts.get(documentId) ?? 0) + 1);
  return counts;
}

beforeAll(async () => {
  env = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'existing-path', path: TEMPORAL_BIN } },
  });
  const bundle = await bundleWorkflowCode({
    workflowsPath: join(ROOT, 'test/integration/workflows/sync-window.workflows.ts'),
    logger: quietLogger,
  });
  worker = await LaneWorkers.create({
    connection: env.nativeConnection,
    taskQueue,
    workflows: { workflowBundle: bundle },
    activities: { ...syncActivities, ...pageActivities },
    slots: { control: 4, bulk: 4, interactive: 2 },
  });
  running = worker.run();
});

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
});

describe('syncSource', () => {
  it("continues as new every few pages, ingesting each page once, and finishes with the whole tally and the plan's watermark", async () => {
    const run = newRun('continue', 8, { concurrency: 2, watermark: '2026-05-01T10:00:00.000Z' });

    expect(await sync(run, { pagesPerExecution: 3 }, ingestPriority('project-continue'))).toBeUndefined();

    expect([...ingestsPerPage(run).keys()].sort()).toEqual([...run.ids].sort()); // none skipped
    expect([...ingestsPerPage(run).values()].every((n) => n === 1)).toBe(true); // none twice
    expect(run.finished).toEqual({
      tally: {
        ready: 8,
        chunksEmbedded: 16,
        chunksReused: 8,
        busy: 0,
        failedCount: 0,
        failed: [],
        gone: [],
      },
      watermark: '2026-05-01T10:00:00.000Z',
    });
    expect(run.failure).toBeUndefined();
    // Planned once (the plan is carried over), its ids read one execution's worth at a time.
    expect(run.plans).toBe(1);
    expect(run.reads).toEqual([
      { offset: 0, limit: 3 },
      { offset: 3, limit: 3 },
      { offset: 6, limit: 2 },
    ]);
    const histories = await executions(env.client, `sync-${run.runId}`);
    expect(histories).toHaveLength(3);
    expect(
      histories.slice(0, -1).every((h) => h.at(-1)?.workflowExecutionContinuedAsNewEventAttributes),
    ).toBe(true);
    // The project's fairness key outlives continue-as-new and reaches the page ingests (children).
    const priorityOf = async (workflowId: string) =>
      (await env.client.workflow.getHandle(workflowId).describe()).priority?.fairnessKey;
    expect(await priorityOf(`sync-${run.runId}`)).toBe('project-continue');
    expect(await priorityOf(ingestWorkflowId(run.ids[7]))).toBe('project-continue');
  });

  it("runs a scheduled sync with its project as the fairness key (a history's bare run id: without one)", async () => {
    const priorityOf = async (sourceId: string) =>
      (await env.client.workflow.getHandle(syncWorkflowId(sourceId)).describe()).priority?.fairnessKey;
    for (const [sourceId, answer] of [
      ['scheduled-source', (run: FakeRun) => ({ runId: run.runId, projectId: 'project-scheduled' })],
      ['legacy-source', (run: FakeRun) => run.runId],
    ] as const) {
      const run = newRun(sourceId, 2);
      scheduled.set(sourceId, answer(run));
      await env.client.workflow.execute(scheduledSync, {
        taskQueue,
        workflowId: `scheduled-${sourceId}`,
        args: [sourceId],
      });
      expect(run.finished?.tally.ready, sourceId).toBe(2);
    }
    expect(await priorityOf('scheduled-source')).toBe('project-scheduled');
    expect(await priorityOf('legacy-source')).toBeFalsy();
  });

  it('hands the watermark to finishSync when nothing changed', async () => {
    const run = newRun('unchanged', 0, { watermark: '2026-05-02T00:00:00.000Z' });
    expect(await sync(run)).toBeUndefined();
    expect(run.finished).toMatchObject({ tally: { ready: 0 }, watermark: '2026-05-02T00:00:00.000Z' });
    expect(run.reads).toEqual([]);
  });

  it('counts a page whose item is gone as gone, other page failures as failed, and still finishes', async () => {
    const outcomes: Record<number, string> = {
      1: TroveErrorCode.SourceItemGone,
      3: TroveErrorCode.ParseFailed,
      4: TroveErrorCode.EmptyDocument,
      5: 'SomeBug', // not a domain code: recorded as INTERNAL, without its message
    };
    const run = newRun('failures', 7, { concurrency: 3 }, (i) => ({ fails: outcomes[i] }));

    expect(await sync(run)).toBeUndefined();

    expect(run.failure).toBeUndefined();
    const { tally } = run.finished!;
    expect(tally).toMatchObject({ ready: 3, failedCount: 3, busy: 0 });
    expect(tally.gone).toEqual([{ documentId: run.ids[1], reason: `${run.ids[1]}: SOURCE_ITEM_GONE` }]);
    const failed = [...tally.failed].sort((a, b) => a.documentId.localeCompare(b.documentId));
    expect(failed).toEqual([
      { documentId: run.ids[3], reason: `${run.ids[3]}: PARSE_FAILED` },
      { documentId: run.ids[4], reason: `${run.ids[4]}: EMPTY_DOCUMENT` },
      { documentId: run.ids[5], reason: expect.stringContaining('internal error') },
    ]);
  });

  it('ends the run when the source rejects the token: no page starts after, the pages in flight finish first', async () => {
    const run = newRun('unauthorized', 8, { concurrency: 2 }, (i) =>
      i === 0 ? { ms: 3_000 } : i === 1 ? { ms: 50, fails: TroveErrorCode.SourceUnauthorized } : {},
    );

    const failure = await sync(run);

    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect((failure as WorkflowFailedError).cause).toBeInstanceOf(ApplicationFailure);
    expect((failure as WorkflowFailedError).cause).toMatchObject({
      type: TroveErrorCode.SourceUnauthorized,
      nonRetryable: true,
    });
    expect(run.failure).toMatchObject({
      code: TroveErrorCode.SourceUnauthorized,
      message: `${run.ids[1]}: SOURCE_UNAUTHORIZED`,
    });
    expect(run.finished).toBeUndefined();
    // No child workflow was started once the rejected one had failed…
    const [history] = await executions(env.client, `sync-${run.runId}`);
    const failedAt = history.findIndex((e: HistoryEvent) => e.childWorkflowExecutionFailedEventAttributes);
    expect(failedAt).toBeGreaterThan(0);
    expect(history.slice(failedAt).some((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)).toBe(
      false,
    );
    expect(run.ingests.length).toBeLessThan(run.ids.length);
    // …and the one in flight finished before the run was marked failed: nothing outlives the run.
    const slow = run.ingests.find((i) => i.documentId === run.ids[0])!;
    expect(slow.end).toBeDefined();
    expect(slow.end!).toBeLessThanOrEqual(run.failure!.at);
  });

  it.each([
    [TroveErrorCode.BadRequest, 'the folder does not exist'],
    [TroveErrorCode.SourceUnauthorized, 'the token was revoked'],
  ])(
    'a plan failing for good with %s fails the run with that code, ingesting nothing',
    async (code, message) => {
      const run = newRun(`plan-${code}`, 3, {
        planFailure: ApplicationFailure.create({ nonRetryable: true, type: code, message }),
      });

      const failure = await sync(run);

      expect(failure).toBeInstanceOf(WorkflowFailedError);
      expect((failure as WorkflowFailedError).cause).toMatchObject({ type: code });
      expect(run.failure).toMatchObject({ code, message });
      expect(run.plans).toBe(1); // not retried
      expect(run.ingests).toEqual([]);
      expect(run.finished).toBeUndefined();
    },
  );

  it('a cancelled run cancels the page ingests in flight, records its end and starts no more pages', async () => {
    const run = newRun('cancel', 6, { concurrency: 2 }, (i) => (i < 2 ? {} : { ms: 2_000 }));
    const handle = await env.client.workflow.start(syncSource, {
      taskQueue,
      workflowId: `sync-${run.runId}`,
      args: [{ runId: run.runId }],
    });
    // Two quick pages done, two slow ones in flight.
    await expectEventually(async () => expect(run.ingests.length).toBe(4));

    await handle.cancel();
    const failure = await handle.result().then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect((failure as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
    expect(run.cancelledAt).toBeDefined();
    expect(run.finished).toBeUndefined();
    expect(run.failure).toBeUndefined();
    expect(run.ingests).toHaveLength(4); // no page started after the cancel
    // The children in flight were cancelled with the run, not left running.
    const child = await env.client.workflow.getHandle(ingestWorkflowId(run.ids[2])).describe();
    expect(child.status.name).toBe('CANCELLED');
  });
});
