import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@elastic/elasticsearch';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { ingestWorkflowId } from '@trove/domain';
import { buildZip } from '../../libs/parsing/src/archive/zip-fixtures.testing';
import { longMarkdown } from '../support/markdown';
import { ES_URL, expectEventually, ROOT, TEMPORAL_ADDRESS } from '../support/services';
import { TroveStack } from '../support/stack';

// Fault tests stop and restart shared services: they run alone (the e2e project runs one file at a time).
const stack = new TroveStack();
let projectId: string;
const es = new Client({ node: ES_URL });

const services = (script: 'up.sh' | 'down.sh', service: string) =>
  execFileSync('bash', [join(ROOT, 'infra', 'local', script), service], { stdio: 'inherit' });

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
  const connection = await Connection.connect({ address: TEMPORAL_ADDRESS });
  try {
    const history = await new TemporalClient({ connection }).workflow
      .getHandle(ingestWorkflowId(documentId))
      .fetchHistory();
    return Math.max(...history.events!.map((e) => e.activityTaskStartedEventAttributes?.attempt ?? 0));
  } finally {
    await connection.close();
  }
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
  await stack.start();
  projectId = await stack.createProject('Fault tests');
});

afterAll(async () => {
  services('up.sh', 'elasticsearch'); // never leave a service down for the next suite
  services('up.sh', 'postgresql');
  await stack.stop();
  await es.close();
});

describe('faults during ingest', () => {
  it('Elasticsearch stopped mid-ingest and started again: the document ends READY with no duplicate chunks', async () => {
    const id = await uploadLarge('es-outage.md', 14);
    await waitForStatus(id, 'INDEXING');
    services('down.sh', 'elasticsearch');
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    services('up.sh', 'elasticsearch');

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
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // let it get into the embedding batches
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
    services('down.sh', 'postgresql');
    // Meanwhile the api says it cannot reach its catalog, without details.
    const refused = await stack.gql('query($id: ID!) { syncRun(id: $id) { status } }', { id: runId });
    expect(refused.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    services('up.sh', 'postgresql');

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
