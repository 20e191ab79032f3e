import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { longMarkdown } from '../support/markdown';
import { expectEventually } from '../support/services';
import { ADMIN_KEY, TroveStack } from '../support/stack';
import { SlowEmbedder } from '../fakes/slow-embedder-fake';

// The api and the worker embed through a server that never answers: only refusals and aborts end a
// search, and only a cancellation ends an ingest's embedding.
const embedder = new SlowEmbedder();
let stack: TroveStack;
let projectId: string;

const SEARCH = `query($input: SearchInput!) { search(input: $input) { tookMs hits { chunkId } } }`;

beforeAll(async () => {
  const url = await embedder.start();
  stack = new TroveStack({ TROVE_EMBEDDING_BASE_URL: url, TROVE_SEARCH_MAX_QUERY_CHARS: '2000' });
  await stack.start();
  projectId = await stack.createProject('Search limits');
});
afterAll(async () => {
  await stack?.stop();
  await embedder.stop();
});

describe('search query limits', () => {
  it('refuses a 95 KB query with BAD_REQUEST, without embedding it', async () => {
    for (const mode of ['VECTOR', 'HYBRID', 'KEYWORD']) {
      const body = await stack.gql(SEARCH, { input: { projectId, query: 'ab '.repeat(32_000), mode } });
      expect(body.errors?.[0]).toMatchObject({
        message: 'the search query has 95999 characters; the limit is 2000 (TROVE_SEARCH_MAX_QUERY_CHARS)',
        extensions: { code: 'BAD_REQUEST' },
      });
    }
    expect(embedder.requests).toHaveLength(0);
  });

  it('refuses a query within the character limit but over the token limit (512)', async () => {
    const query = Array.from({ length: 700 }, (_, i) => (i % 2 ? ',' : 'x')).join('');
    const body = await stack.gql(SEARCH, { input: { projectId, query, mode: 'VECTOR' } });
    expect(body.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/^the search query has about \d+ tokens; the limit is 512/),
      extensions: { code: 'BAD_REQUEST' },
    });
    expect(embedder.requests).toHaveLength(0);
  });
});

describe('search fusion input', () => {
  it('refuses a fusion k outside 1–1000 or a vector weight outside 0–1 with BAD_REQUEST', async () => {
    const fusions = [
      [{ method: 'RRF', k: 0 }, 'fusion k must be an integer between 1 and 1000'],
      [
        { method: 'CONVEX', vectorWeight: 1.5, normalization: 'ZSCORE' },
        'fusion vectorWeight must be between 0 and 1',
      ],
    ] as const;
    for (const [fusion, message] of fusions) {
      const body = await stack.gql(SEARCH, {
        input: { projectId, query: 'rollback', mode: 'HYBRID', fusion },
      });
      expect(body.errors?.[0]).toMatchObject({ message, extensions: { code: 'BAD_REQUEST' } });
    }
    expect(embedder.requests).toHaveLength(0);
  });
});

describe('abandoned searches', () => {
  it('a client that disconnects stops the embedding request its search started', async () => {
    const client = new AbortController();
    const pending = fetch(`${stack.url}/graphql`, {
      method: 'POST',
      headers: { 'X-API-Key': ADMIN_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: SEARCH,
        variables: { input: { projectId, query: 'rollback', mode: 'VECTOR' } },
      }),
      signal: client.signal,
    }).catch((error: Error) => error);
    const request = await expectEventually(
      async () => {
        const held = embedder.requests.find((r) => JSON.stringify(r.input).includes('rollback'));
        if (!held) throw new Error('the embedder has not been asked yet');
        return held;
      },
      { timeoutMs: 10_000, intervalMs: 50 },
    );
    expect(request.closed).toBe(false);
    client.abort();
    expect(await pending).toBeInstanceOf(Error);
    // Without the abort the api would wait for the embedder until its 120 s timeout.
    await expectEventually(
      async () => {
        if (!request.closed) throw new Error('the embedding request is still open');
      },
      { timeoutMs: 5_000, intervalMs: 50 },
    );
  });
});

describe('deleting a project while its document is being embedded', () => {
  it('cancels the ingest: its request at the embedder is aborted, and deleteProject(wait: true) returns', async () => {
    const project = await stack.createProject('Deleted mid-embedding');
    // More chunks than a batch keeps: the document goes through its own pipeline (embedChunks).
    const upload = await stack.upload(project, 'drill.md', longMarkdown('Evacuation drill', 24));
    expect(upload.status).toBe(202);
    const request = await expectEventually(
      async () => {
        const held = embedder.requests.find((r) => JSON.stringify(r.input).includes('Evacuation drill'));
        if (!held) throw new Error('the document has not reached the embedder yet');
        return held;
      },
      { timeoutMs: 120_000, intervalMs: 200 },
    );
    expect(request.closed).toBe(false);

    const deletion = stack.query<{ deleteProject: boolean }>(
      'mutation($id: ID!) { deleteProject(id: $id, wait: true) }',
      { id: project },
    );
    // The activity hears the cancellation at its next heartbeat and aborts the request (without it,
    // the request would stay open until the embedder's 120 s timeout, and the deletion would wait
    // for the ingest until its grace ran out).
    await expectEventually(
      async () => {
        if (!request.closed) throw new Error('the embedding request is still open');
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    expect((await deletion).deleteProject).toBe(true);
    const { project: gone } = await stack.query<{ project: { id: string } | null }>(
      'query($id: ID!) { project(id: $id) { id } }',
      { id: project },
    );
    expect(gone).toBeNull();
  });
});
