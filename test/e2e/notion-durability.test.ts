import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as EsClient } from '@elastic/elasticsearch';
import { defaultWorkspace, DEFAULT_IDS, NotionEmulator } from '@trove/notion-emulator';
import { ES_URL, expectEventually } from '../support/services';
import { TroveStack } from '../support/stack';

const emulator = new NotionEmulator(defaultWorkspace(), { requestsPerSecond: Infinity });
let stack: TroveStack;
let projectId: string;

interface Doc {
  id: string;
  status: string;
  chunkCount: number;
  indexedAt: string | null;
}

const documents = async () =>
  (
    await stack.query<{ documents: { nodes: Doc[] } }>(
      'query($p: ID!) { documents(projectId: $p, first: 500) { nodes { id status chunkCount indexedAt } } }',
      {
        p: projectId,
      },
    )
  ).documents.nodes;

beforeAll(async () => {
  const url = await emulator.start();
  stack = new TroveStack({
    TROVE_NOTION_API_URL: url,
    TROVE_NOTION_REQUESTS_PER_SECOND: '50',
    // Batches of 4 pages: the crash lands between batches that finished and batches that did not.
    TROVE_SYNC_BATCH_DOCUMENTS: '4',
  });
  await stack.start();
  projectId = await stack.createProject('Notion durability');
});

afterAll(async () => {
  await stack?.stop();
  await emulator.stop();
});

describe('a Notion sync survives a worker crash', () => {
  it('resumes after the worker is killed mid-sync, without re-ingesting finished pages, with exactly the right chunks', async () => {
    const source = await stack.addSource({
      projectId,
      name: 'Wiki',
      type: 'NOTION',
      config: { token: emulator.token, rootPageIds: [DEFAULT_IDS.onboarding] },
    });
    const { syncSource } = await stack.query<{ syncSource: { id: string } }>(
      'mutation($id: ID!) { syncSource(id: $id, mode: FULL) { id } }',
      { id: source.id },
    );

    // Kill the worker once some pages are done and others are not, and the run shows its progress
    // while it runs (a batch's pages turn READY before the workflow records them in the run).
    const { readyBeforeCrash, live } = await expectEventually(
      async () => {
        const ready = (await documents()).filter((d) => d.status === 'READY');
        if (ready.length < 5) throw new Error(`${ready.length} ready`);
        const live = await stack.query<{
          syncRun: { status: string; progress: { pagesSeen: number; pagesIngested: number } };
        }>('query($id: ID!) { syncRun(id: $id) { status progress { pagesSeen pagesIngested } } }', {
          id: syncSource.id,
        });
        if (live.syncRun.progress.pagesIngested === 0) throw new Error('no progress recorded yet');
        return { readyBeforeCrash: ready, live };
      },
      { timeoutMs: 180_000, intervalMs: 200 },
    );
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

    // Pages finished before the crash were ingested exactly once: not again after the restart.
    const after = new Map(final.map((d) => [d.id, d.indexedAt]));
    for (const document of readyBeforeCrash)
      expect(after.get(document.id), document.id).toBe(document.indexedAt);
  });
});
