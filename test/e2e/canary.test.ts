import { appendFileSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { Client as ElasticClient } from '@elastic/elasticsearch';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  canaryValue,
  CanaryLeakError,
  scanForCanaries,
  watchResponses,
  type CanaryFinding,
} from '../support/canary';
import { ES_URL, expectEventually, TEMPORAL_ADDRESS } from '../support/services';
import { ADMIN_KEY, BLOB_CANARY_FILE, TroveStack } from '../support/stack';

/**
 * Defence in depth: every TroveStack plants canaries (its processes' secrets and extra variables, a
 * file in the blob folder), checks every response it is sent and scans what it kept at teardown.
 * These stories show the detector itself works: a canary put where it must never be is found, and a
 * normal flow is clean.
 */
const stack = new TroveStack();
let projectId: string;

const SEARCH = `query($input: SearchInput!) { search(input: $input) { hits { documentId text } } }`;

beforeAll(async () => {
  await stack.start();
  projectId = await stack.createProject('Canaries');
});
afterAll(() => stack.stop());

function environ(pid: number): string {
  return readFileSync(`/proc/${pid}/environ`, 'latin1');
}

const places = (findings: CanaryFinding[]) => findings.map((f) => f.where.replace(/ (t-e2e-|of ).*$/, ''));

describe('canaries', () => {
  it('are planted in the api and the worker environment (secrets and extra variables) and the blob folder', () => {
    const labels = stack.canaries.map((c) => c.label);
    expect(labels).toEqual([
      'TROVE_ADMIN_API_KEY',
      'TROVE_SECRET_KEY',
      'TROVE_SECRET_KEY (hex)',
      'api env TROVE_CANARY_ENV',
      'worker env TROVE_CANARY_ENV',
      'env CANARY_UNRELATED_SECRET',
      'blob folder file',
    ]);
    expect(new Set(stack.canaries.map((c) => c.value)).size).toBe(stack.canaries.length);
    const value = (label: string) => stack.canaries.find((c) => c.label === label)!.value;
    expect(value('TROVE_ADMIN_API_KEY')).toBe(ADMIN_KEY);
    const api = environ(stack.apiPid);
    const worker = environ(stack.workerPid);
    expect(api).toContain(`TROVE_CANARY_ENV=${value('api env TROVE_CANARY_ENV')}\0`);
    expect(worker).toContain(`TROVE_CANARY_ENV=${value('worker env TROVE_CANARY_ENV')}\0`);
    for (const env of [api, worker]) {
      expect(env).toContain(`TROVE_ADMIN_API_KEY=${ADMIN_KEY}\0`);
      expect(env).toContain(`TROVE_SECRET_KEY=${value('TROVE_SECRET_KEY')}\0`);
      expect(env).toContain(`CANARY_UNRELATED_SECRET=${value('env CANARY_UNRELATED_SECRET')}\0`);
    }
    expect(readFileSync(join(stack.blobDir, BLOB_CANARY_FILE), 'utf8')).toContain(value('blob folder file'));
  });

  it('an optional API key a test configures is a canary too', () => {
    const keys = {
      TROVE_EMBEDDING_API_KEY: canaryValue('embedding-key'),
      TROVE_LLM_API_KEY: canaryValue('llm-key'),
      TROVE_RERANK_API_KEY: canaryValue('rerank-key'),
    };
    const configured = new TroveStack(keys);
    for (const [label, value] of Object.entries(keys))
      expect(configured.canaries).toContainEqual({ label, value });
  });

  it('a normal flow (upload, search, original link, a refused call) leaves none anywhere', async () => {
    const upload = await stack.upload(
      projectId,
      'clean.md',
      '# Clean\n\nThe lighthouse keeper logs the tides.\n',
    );
    expect(upload.status).toBe(202);
    const id = upload.body.id as string;
    expect((await stack.settled(id)).status).toBe('READY');
    const { search } = await stack.query<{ search: { hits: { documentId: string }[] } }>(SEARCH, {
      input: { projectId, query: 'lighthouse tides', limit: 3 },
    });
    expect(search.hits[0].documentId).toBe(id);
    const { document } = await stack.query<{ document: { url: string } }>(
      'query($id: ID!) { document(id: $id) { url } }',
      {
        id,
      },
    );
    expect((await fetch(document.url)).status).toBe(200);
    expect((await stack.gql('{ projects { id } }', {}, { 'X-API-Key': 'not-the-key' })).errors).toHaveLength(
      1,
    );

    // The scan looks everywhere: the document's id and words are found in the index, the catalog
    // and Temporal, its id also in the api's request log (the original link's path) and in the
    // audit log (the upload is recorded by id); its words never in a log or the audit log; the
    // canaries nowhere.
    const idAt = new Set(places(await scanForCanaries(stack, [{ label: 'document id', value: id }])));
    const wordsAt = new Set(
      places(await scanForCanaries(stack, [{ label: 'words', value: 'lighthouse keeper' }])),
    );
    expect(new Set([...idAt, ...wordsAt])).toEqual(
      new Set([
        'catalog table documents',
        'catalog table audit_events',
        'index',
        'Temporal history',
        'log api.log',
      ]),
    );
    expect([...wordsAt].filter((place) => place.startsWith('log ') || place.includes('audit'))).toEqual([]);
    expect(await scanForCanaries(stack, stack.canaries)).toEqual([]);
  });

  it('the scanner finds a planted value in a chunk, a catalog row, a Temporal history and a log line', async () => {
    const probe = { label: 'probe', value: canaryValue('probe') };
    const upload = await stack.upload(
      projectId,
      `${probe.value}.md`,
      `# Probe\n\nThe vault code is ${probe.value}.\n`,
    );
    expect((await stack.settled(upload.body.id as string)).status).toBe('READY');
    appendFileSync(join(stack.logDir, 'worker.log'), `[trove-worker] planted ${probe.value}\n`);
    // Documents travel through Temporal as references; a workflow of our own carries the probe.
    const connection = await Connection.connect({ address: TEMPORAL_ADDRESS });
    const probeWorkflow = await new TemporalClient({ connection }).workflow.start('canaryProbe', {
      taskQueue: stack.name,
      workflowId: `${stack.name}-probe`,
      args: [{ note: probe.value }],
    });
    await probeWorkflow.terminate('probe planted');
    await connection.close();

    // Bounded wait: Temporal's visibility store lists a new workflow eventually.
    const findings = await expectEventually(async () => {
      const found = await scanForCanaries(stack, [probe]);
      expect(places(found)).toEqual(
        expect.arrayContaining(['log worker.log', 'catalog table documents', 'index', 'Temporal history']),
      );
      return found;
    });
    expect(findings.every((f) => f.canary === 'probe' && f.excerpt.includes('«probe»'))).toBe(true);
    const chunk = findings.find((f) => f.where.startsWith('index') && f.excerpt.includes('vault code'));
    expect(chunk?.where).toMatch(new RegExp(`^index ${stack.name}-`));
  });

  it('a canary in a streamed response fails the reader, even split across chunks', async () => {
    const canary = { label: 'streamed', value: canaryValue('streamed') };
    const half = canary.value.length / 2;
    const server: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${canary.value.slice(0, half)}`);
      setTimeout(() => response.end(`${canary.value.slice(half)}\n\n`), 50);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const recorded: CanaryFinding[] = [];
    const unwatch = watchResponses({
      owns: (url) => url.port === String(port),
      canaries: [canary],
      record: (finding) => recorded.push(finding),
    });
    try {
      const response = await fetch(`http://127.0.0.1:${port}/events`);
      expect(response.status).toBe(200);
      await expect(response.text()).rejects.toThrow(/streamed in the response to GET \/events/);
      expect(recorded.map((f) => f.canary)).toEqual(['streamed']);
    } finally {
      unwatch();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a stack canary in a response fails the call, and the teardown names every place it reached', async () => {
    const canary = stack.canaries.find((c) => c.label === 'worker env TROVE_CANARY_ENV')!;
    const upload = await stack.upload(
      projectId,
      'leak.md',
      `# Leak\n\nThe worker said ${canary.value} aloud.\n`,
    );
    const id = upload.body.id as string;
    expect((await stack.settled(id)).status).toBe('READY');

    // Through the stack's helper and through a raw fetch alike.
    await expect(
      stack.query(SEARCH, { input: { projectId, query: 'worker said aloud', limit: 3 } }),
    ).rejects.toThrow(/worker env TROVE_CANARY_ENV in the response to POST \/graphql \(body\)/);
    const { document } = await stack.query<{ document: { url: string } }>(
      'query($id: ID!) { document(id: $id) { url } }',
      {
        id,
      },
    );
    await expect(fetch(document.url)).rejects.toThrow(CanaryLeakError);

    const failure = await stack.stop().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(CanaryLeakError);
    expect(new Set(places((failure as CanaryLeakError).findings))).toEqual(
      new Set([
        'the response to POST /graphql (body)',
        `the response to GET /v1/documents/${id}/original (body)`,
        'index',
      ]),
    );
    // The scan ran before the data was dropped, and the data is dropped all the same.
    const es = new ElasticClient({ node: ES_URL });
    expect((await es.cat.indices({ index: `${stack.name}-*`, format: 'json' })).length).toBe(0);
    await es.close();
  });
});
