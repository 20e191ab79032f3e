import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@elastic/elasticsearch';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { syncWorkflowId } from '@trove/domain';
import { buildZip } from '../../libs/parsing/src/archive/zip-fixtures.testing';
import { checkEachDocumentOnce } from '../support/each-document-once';
import { PrivateServices, type TemporalServerService } from '../support/private-services';
import { ES_URL, expectEventually } from '../support/services';
import { TroveStack, type SyncRunView } from '../support/stack';

// Trove on Temporal's production server instead of the dev server: frontend, history, matching and
// worker services in processes of their own, state in PostgreSQL (a private instance, with the
// server, started and stopped here). During one folder sync the history service, then the
// matching service, is SIGKILLed and started again; the run completes, every document READY once,
// and Elasticsearch holds each document's chunks exactly once.
const FILES = 300;
const services = new PrivateServices({ esQuickStart: true });
let stack: TroveStack;
let es: Client;
let connection: Connection;
let temporal: TemporalClient;
let projectId: string;

beforeAll(async () => {
  await services.start('postgresql', 'temporal-server');
  stack = new TroveStack(
    { TROVE_SYNC_BATCH_DOCUMENTS: '16' },
    { esUrl: ES_URL, databaseUrl: services.databaseUrl, temporalAddress: services.temporalAddress },
  );
  es = new Client({ node: ES_URL });
  connection = await Connection.connect({ address: services.temporalAddress });
  temporal = new TemporalClient({ connection });
  await stack.start();
  projectId = await stack.createProject('Production Temporal');
});

afterAll(async () => {
  try {
    await stack?.stop();
    await es?.close();
    await connection?.close();
  } finally {
    await services.cleanup();
  }
});

async function syncRun(runId: string): Promise<SyncRunView> {
  const { syncRun } = await stack.query<{ syncRun: SyncRunView }>(
    'query($id: ID!) { syncRun(id: $id) { id status error { code message } warnings skipped { id reason } progress { pagesIngested pagesFailed } } }',
    { id: runId },
  );
  return syncRun;
}

/** Waits until the run has ingested more than `pages` documents and a batch of it is running. */
async function batchUnderway(runId: string, sourceId: string, pages: number): Promise<number> {
  const sync = temporal.workflow.getHandle(syncWorkflowId(sourceId));
  return expectEventually(
    async () => {
      const run = await syncRun(runId);
      if (run.status !== 'RUNNING') throw new Error(`the run is ${run.status}, not mid-sync`);
      const ingested = run.progress.pagesIngested ?? 0;
      if (ingested <= pages) throw new Error(`${ingested} documents ingested so far`);
      const { raw } = await sync.describe();
      if (!raw.pendingActivities?.some((a) => a.activityType?.name === 'ingestBatch' && a.lastStartedTime))
        throw new Error('no batch of the run is running');
      return ingested;
    },
    { timeoutMs: 180_000, intervalMs: 100 },
  );
}

/**
 * SIGKILL to one service of the server (its process group, as a crash or an OOM kill), then started
 * again; returns the seconds until it served again.
 */
async function killAndRestart(service: TemporalServerService): Promise<number> {
  const pid = Number(readFileSync(services.pidFile(`temporal-server-${service}`), 'utf8'));
  const killedAt = performance.now();
  process.kill(-pid, 'SIGKILL');
  await services.start(`temporal-server-${service}`);
  const restarted = Number(readFileSync(services.pidFile(`temporal-server-${service}`), 'utf8'));
  expect(restarted, `a new ${service} process`).not.toBe(pid);
  return (performance.now() - killedAt) / 1000;
}

describe("Temporal's production server", () => {
  it('history and matching each killed mid-sync and restarted: the run completes, nothing lost or duplicated', async () => {
    const files = Array.from({ length: FILES }, (_, i) => ({
      path: `notes/note-${String(i).padStart(3, '0')}.md`,
      data: `# Harbour note ${i}\n\nNote ${i} says that ferry ${i} leaves pier ${i % 13} at ${i % 24}:${String(i % 60).padStart(2, '0')}.\n`,
    }));
    const archive = await stack.uploadArchive(projectId, 'production-temporal.zip', await buildZip(files));
    expect(archive.status).toBe(202);
    const runId = archive.body.run!.id;
    const sourceId = archive.body.source!.id;

    const beforeHistoryKill = await batchUnderway(runId, sourceId, 0);
    const historyDown = await killAndRestart('history');
    const beforeMatchingKill = await batchUnderway(runId, sourceId, beforeHistoryKill);
    const matchingDown = await killAndRestart('matching');
    console.info(
      `[temporal-production] history killed after ${beforeHistoryKill} of ${FILES} documents, serving again ` +
        `${historyDown.toFixed(1)} s later; matching after ${beforeMatchingKill}, ${matchingDown.toFixed(1)} s`,
    );

    const run = await stack.runSettled(runId, 600_000);
    expect(run.status).toBe('COMPLETED');
    expect(run.progress).toMatchObject({ pagesIngested: FILES, pagesFailed: 0 });

    const once = await checkEachDocumentOnce(stack, es, projectId);
    expect(once.problems).toEqual([]);
    expect(once).toMatchObject({ documents: FILES, indexed: once.chunks });
  }, 900_000);
});
