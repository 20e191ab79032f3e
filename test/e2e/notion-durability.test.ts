import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { Client as EsClient } from '@elastic/elasticsearch';
import { ingestWorkflowId } from '@trove/domain';
import { defaultWorkspace, DEFAULT_IDS, NotionEmulator } from '@trove/notion-emulator';
import { ES_URL, expectEventually, TEMPORAL_ADDRESS } from '../support/services';
import { TroveStack } from '../support/stack';

const emulator = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: Infinity });
let stack: TroveStack;
let projectId: string;

interface Doc {
  id: string;
  status: string;
  chunkCount: number;
}

const documents = async () =>
  (
    await stack.query<{ documents: { nodes: Doc[] } }>(
      'query($p: ID!) { documents(projectId: $p, first: 500) { nodes { id status chunkCount } } }',
      {
        p: projectId,
      },
    )
  ).documents.nodes;

beforeAll(async () => {
  const url = await emulator.start();
  stack = new TroveStack({ TROVE_NOTION_API_URL: url, TROVE_NOTION_REQUESTS_PER_SECOND: '50' });
  await stack.start();
  projectId = await stack.createProject('Notion durability');
});

afterAll(async () => {
  await stack?.stop();
  await emulator.stop();
});

describe('a Notion sync survives a worker crash', () => {
  it('resumes after the worker is killed mid-sync, without re-ingesting finished pages, with exactly the right chunks', async () => {
    const { addNotionSource } = await stack.query<{ addNotionSource: { id: string } }>(
      'mutation($i: AddNotionSourceInput!) { addNotionSource(input: $i) { id } }',
      { i: { projectId, name: 'Wiki', token: emulator.token, roots: [DEFAULT_IDS.onboarding] } },
    );
    const { syncSource } = await stack.query<{ syncSource: { id: string } }>(
      'mutation($id: ID!) { syncSource(id: $id, mode: FULL) { id } }',
      { id: addNotionSource.id },
    );

    // Kill the worker once some pages are done and others are not.
    const readyBeforeCrash = await expectEventually(
      async () => {
        const ready = (await documents()).filter((d) => d.status === 'READY');
        if (ready.length < 5) throw new Error(`${ready.length} ready`);
        return ready;
      },
      { timeoutMs: 180_000, intervalMs: 200 },
    );
    // The run shows its progress while it runs.
    const live = await stack.query<{
      syncRun: { status: string; progress: { pagesSeen: number; pagesIngested: number } };
    }>('query($id: ID!) { syncRun(id: $id) { status progress { pagesSeen pagesIngested } } }', {
      id: syncSource.id,
    });
    await stack.killWorker();
    expect(live.syncRun.status).toBe('RUNNING');
    expect(live.syncRun.progress.pagesIngested).toBeGreaterThan(0);
    expect(live.syncRun.progress.pagesIngested).toBeLessThan(live.syncRun.progress.pagesSeen);
    const all = await documents();
    expect(all.length).toBeGreaterThan(readyBeforeCrash.length); // the crash really was mid-sync
    stack.startWorker();

    const run = await expectEventually(
      async () => {
        const { syncRun } = await stack.query<{
          syncRun: { status: string; progress: Record<string, number> };
        }>(
          'query($id: ID!) { syncRun(id: $id) { status progress { pagesSeen pagesIngested pagesFailed } } }',
          { id: syncSource.id },
        );
        if (syncRun.status === 'RUNNING') throw new Error('running');
        return syncRun;
      },
      { timeoutMs: 300_000, intervalMs: 1000 },
    );
    expect(run.status).toBe('COMPLETED');
    expect(run.progress.pagesFailed).toBe(0);
    expect(run.progress.pagesIngested).toBe(run.progress.pagesSeen);

    const final = await documents();
    expect(final.every((d) => d.status === 'READY')).toBe(true);
    expect(final).toHaveLength(run.progress.pagesSeen);

    // Exactly the right chunks: the index holds each document's chunkCount, no more.
    const es = new EsClient({ node: ES_URL });
    await es.indices.refresh({ index: `${stack.name}-chunks` });
    for (const document of final) {
      const { count } = await es.count({
        index: `${stack.name}-chunks`,
        query: { term: { documentId: document.id } },
      });
      expect(count, document.id).toBe(document.chunkCount);
    }
    await es.close();

    // Pages finished before the crash were ingested exactly once.
    const connection = await Connection.connect({ address: TEMPORAL_ADDRESS });
    const temporal = new TemporalClient({ connection });
    for (const document of readyBeforeCrash) {
      let runs = 0;
      for await (const execution of temporal.workflow.list({
        query: `WorkflowId = '${ingestWorkflowId(document.id)}'`,
      })) {
        if (execution.workflowId === ingestWorkflowId(document.id)) runs++;
      }
      expect(runs, document.id).toBe(1);
    }
    await connection.close();
  });
});
