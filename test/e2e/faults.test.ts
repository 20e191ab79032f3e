import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@elastic/elasticsearch';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { ingestWorkflowId, TroveErrorCode } from '@trove/domain';
import { buildZip } from '../../libs/parsing/src/archive/zip-fixtures.testing';
import { longMarkdown } from '../support/markdown';
import { PrivateServices } from '../support/private-services';
import { expectEventually, TEMPORAL_ADDRESS } from '../support/services';
import { TroveStack } from '../support/stack';

// The stack keeps its data in a private Elasticsearch and PostgreSQL, which the tests stop and
// start; the shared services (and the developer's stack using them) are never touched. Temporal
// and the embedder stay shared: only the stack's own worker is killed.
const services = new PrivateServices({ esQuickStart: true });
let stack: TroveStack;
let es: Client;
let connection: Connection;
let temporal: TemporalClient;
let projectId: string;

/** Chunks stored for a document: total, distinct ids and distinct positions must all agree. */
async function storedChunks(documentId: string) {
  await es.indices.refresh({ index: `${stack.name}-chunks` });
  const response = await es.search<{ chunkId: string; position: number }>({
    index: `${stack.name}-chunks`,
    query: { term: { documentId } },
    size: 10_000,
    _source: ['chunkId', 'position'],
  });
  const hits = response.hits.hits.map((h) => h._source!);
  return {
    total: hits.length,
    ids: new Set(hits.map((h) => h.chunkId)).size,
    positions: new Set(hits.map((h) => h.position)).size,
  };
}

/** The highest attempt number of any activity in the document's ingest: > 1 proves the fault hit mid-run. */
async function maxActivityAttempt(documentId: string): Promise<number> {
  const history = await temporal.workflow.getHandle(ingestWorkflowId(documentId)).fetchHistory();
  return Math.max(...history.events!.map((e) => e.activityTaskStartedEventAttributes?.attempt ?? 0));
}

/**
 * Waits until an activity of a running workflow of the stack is being retried after a
 * SERVICE_UNAVAILABLE failure whose message matches `outage`: the fault has reached the worker.
 */
async function activityRetriedAfter(outage: RegExp): Promise<void> {
  await expectEventually(
    async () => {
      const running = temporal.workflow.list({
        query: `TaskQueue="${stack.name}" AND ExecutionStatus="Running"`,
      });
      for await (const { workflowId } of running) {
        const { raw } = await temporal.workflow.getHandle(workflowId).describe();
        for (const { attempt, lastFailure } of raw.pendingActivities ?? []) {
          if (
            (attempt ?? 0) > 1 &&
            lastFailure?.applicationFailureInfo?.type === TroveErrorCode.ServiceUnavailable &&
            outage.test(lastFailure.message ?? '')
          )
            return;
        }
      }
      throw new Error('no activity has failed on the outage yet');
    },
    { timeoutMs: 180_000, intervalMs: 500 },
  );
}

/** Waits until the ingest runs its second (or a later) embedding batch, on the worker now. */
async function embeddingBatchesUnderway(documentId: string): Promise<void> {
  const handle = temporal.workflow.getHandle(ingestWorkflowId(documentId));
  await expectEventually(
    async () => {
      const { raw } = await handle.describe();
      const running = raw.pendingActivities?.find(
        (a) => a.activityType?.name === 'embedChunks' && a.lastStartedTime,
      );
      if (!running) throw new Error('no embedding batch is running');
      const { events } = await handle.fetchHistory();
      const batches = events!.filter(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'embedChunks',
      ).length;
      if (batches < 2) throw new Error('still on the first embedding batch');
    },
    { timeoutMs: 120_000, intervalMs: 100 },
  );
}

async function uploadLarge(fileName: string, sections: number): Promise<string> {
  const upload = await stack.upload(projectId, fileName, longMarkdown(fileName, sections));
  expect(upload.status).toBe(202);
  return upload.body.id as string;
}

async function waitForStatus(id: string, status: string) {
  await expectEventually(
    async () => {
      const document = await stack.document(id);
      if (document?.status !== status) throw new Error(`status ${document?.status}`);
    },
    { timeoutMs: 60_000, intervalMs: 200 },
  );
}

beforeAll(async () => {
  await services.start('elasticsearch', 'postgresql');
  stack = new TroveStack({}, { esUrl: services.esUrl, databaseUrl: services.databaseUrl });
  es = new Client({ node: services.esUrl });
  connection = await Connection.connect({ address: TEMPORAL_ADDRESS });
  temporal = new TemporalClient({ connection });
  await stack.start();
  projectId = await stack.createProject('Fault tests');
});

afterAll(async () => {
  try {
    if (stack) {
      // A test that failed mid-outage left a service down: the teardown scan and drop read them.
      await services.start('elasticsearch', 'postgresql');
      await stack.stop();
    }
  } finally {
    await es?.close();
    await connection?.close();
    await services.cleanup();
  }
});

describe('faults during ingest', () => {
  it('Elasticsearch stopped mid-ingest and started again: the document ends READY with no duplicate chunks', async () => {
    const id = await uploadLarge('es-outage.md', 14);
    await waitForStatus(id, 'INDEXING');
    await services.stop('elasticsearch');
    await activityRetriedAfter(/^Elasticsearch is unreachable/);
    await services.start('elasticsearch');

    const document = await stack.settled(id, 300_000);
    expect(document.status).toBe('READY');
    const stored = await storedChunks(id);
    expect(document.chunkCount).toBeGreaterThan(20);
    expect(stored).toEqual({
      total: document.chunkCount,
      ids: document.chunkCount,
      positions: document.chunkCount,
    });
    expect(await maxActivityAttempt(id)).toBeGreaterThan(1);
  });

  it('worker killed mid-ingest and started again: the workflow resumes and completes exactly once', async () => {
    const id = await uploadLarge('worker-crash.md', 14);
    await waitForStatus(id, 'INDEXING');
    await embeddingBatchesUnderway(id);
    await stack.killWorker();
    expect((await stack.document(id))?.status).toBe('INDEXING');
    stack.startWorker();

    const document = await stack.settled(id, 300_000);
    expect(document.status).toBe('READY');
    const stored = await storedChunks(id);
    expect(stored).toEqual({
      total: document.chunkCount,
      ids: document.chunkCount,
      positions: document.chunkCount,
    });
    expect(await maxActivityAttempt(id)).toBeGreaterThan(1);
  });

  it('PostgreSQL stopped in the middle of a folder sync and started again: the run completes, no duplicates, counts exact', async () => {
    const files = Array.from({ length: 40 }, (_, i) => ({
      path: `notes/note-${String(i).padStart(2, '0')}.md`,
      data:
        `# Outage note ${i}\n\n` +
        `Note ${i} records that valve ${i * 3} on line ${i % 7} was inspected and its pressure logged. `.repeat(
          30,
        ),
    }));
    const archive = await stack.uploadArchive(projectId, 'pg-outage.zip', await buildZip(files));
    expect(archive.status).toBe(202);
    const runId = archive.body.run!.id;
    const sourceId = archive.body.source!.id;
    await expectEventually(
      async () => {
        const { syncRun } = await stack.query<{ syncRun: { progress: { pagesIngested: number } } }>(
          'query($id: ID!) { syncRun(id: $id) { progress { pagesIngested } } }',
          { id: runId },
        );
        if (syncRun.progress.pagesIngested < 2) throw new Error('not ingesting yet');
      },
      { timeoutMs: 180_000, intervalMs: 250 },
    );
    await services.stop('postgresql');
    // Meanwhile the api says it cannot reach its catalog, without details.
    const refused = await stack.gql('query($id: ID!) { syncRun(id: $id) { status } }', { id: runId });
    expect(refused.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');
    await activityRetriedAfter(/^the catalog database is unavailable/);
    await services.start('postgresql');

    const run = await stack.runSettled(runId, 600_000);
    expect(run.status).toBe('COMPLETED');
    expect(run.progress).toMatchObject({ pagesSeen: 40, pagesIngested: 40, pagesFailed: 0 });
    const { documents } = await stack.query<{
      documents: {
        totalCount: number;
        nodes: { fileName: string; status: string; chunkCount: number; id: string }[];
      };
    }>(
      'query($p: ID!, $s: ID!) { documents(projectId: $p, sourceId: $s, first: 100) { totalCount nodes { id fileName status chunkCount } } }',
      { p: projectId, s: sourceId },
    );
    expect(documents.totalCount).toBe(40);
    expect(new Set(documents.nodes.map((d) => d.fileName)).size).toBe(40);
    expect(documents.nodes.every((d) => d.status === 'READY')).toBe(true);
    for (const d of documents.nodes.slice(0, 10)) {
      expect(await storedChunks(d.id)).toEqual({
        total: d.chunkCount,
        ids: d.chunkCount,
        positions: d.chunkCount,
      });
    }
  }, 900_000);
});
