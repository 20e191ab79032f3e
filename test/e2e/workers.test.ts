import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@elastic/elasticsearch';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { syncWorkflowId } from '@trove/domain';
import { buildZip } from '../../libs/parsing/src/archive/zip-fixtures.testing';
import { ES_URL, expectEventually, TEMPORAL_ADDRESS } from '../support/services';
import { checkEachDocumentOnce } from '../support/each-document-once';
import { TroveStack } from '../support/stack';

// Two worker processes share the task queues; one is SIGKILLed while it runs a batch of a folder
// sync. The other takes the batch over (after the heartbeat timeout): the run completes, every
// document READY, and Elasticsearch holds exactly each document's chunks, none twice.
const FILES = 240;
let stack: TroveStack;
let es: Client;
let connection: Connection;
let temporal: TemporalClient;
let projectId: string;

beforeAll(async () => {
  stack = new TroveStack({ TROVE_SYNC_BATCH_DOCUMENTS: '16' });
  es = new Client({ node: ES_URL });
  connection = await Connection.connect({ address: TEMPORAL_ADDRESS });
  temporal = new TemporalClient({ connection });
  await stack.start();
  await stack.addWorker();
  projectId = await stack.createProject('Two workers');
});

afterAll(async () => {
  await stack?.stop();
  await es?.close();
  await connection?.close();
});

describe('several workers', () => {
  it('one killed mid-batch: the run completes on the other, nothing lost or duplicated', async () => {
    const files = Array.from({ length: FILES }, (_, i) => ({
      path: `notes/note-${String(i).padStart(3, '0')}.md`,
      data: `# Worker note ${i}\n\nNote ${i} says that lighthouse ${i} on cape ${i % 11} blinks ${i * 3} times a minute.\n`,
    }));
    const archive = await stack.uploadArchive(projectId, 'two-workers.zip', await buildZip(files));
    expect(archive.status).toBe(202);
    const runId = archive.body.run!.id;
    const sync = temporal.workflow.getHandle(syncWorkflowId(archive.body.source!.id));

    // The first worker has started a batch of this run (Temporal names the worker that runs it).
    await expectEventually(
      async () => {
        const { raw } = await sync.describe();
        const mine = raw.pendingActivities?.find(
          (a) =>
            a.activityType?.name === 'ingestBatch' &&
            a.lastStartedTime &&
            a.lastWorkerIdentity?.startsWith(`${stack.workerPid}@`),
        );
        if (!mine) throw new Error('the first worker runs no batch of the run yet');
      },
      { timeoutMs: 180_000, intervalMs: 100 },
    );
    await stack.killWorker(1);

    const run = await stack.runSettled(runId, 600_000);
    expect(run.status).toBe('COMPLETED');
    expect(run.progress).toMatchObject({ pagesIngested: FILES, pagesFailed: 0 });

    const once = await checkEachDocumentOnce(stack, es, projectId);
    expect(once.problems).toEqual([]);
    expect(once).toMatchObject({ documents: FILES, indexed: once.chunks });
  }, 900_000);
});
