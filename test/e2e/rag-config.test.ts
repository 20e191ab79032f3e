import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TroveStack } from '../support/stack';

// Retrieval and answer settings changed through GraphQL, applied without a restart by the api
// (search fusion) and the worker (chunking), secrets sealed and never shown.
let stack: TroveStack;
let projectId: string;

const CONFIG = `{ ragConfig {
  version overridden warnings
  search { fusion rrfK convexVectorWeight convexNormalization }
  rerank { provider candidates apiKey { set masked } }
  llm { provider baseUrl model apiKey { set masked } }
  answers { topK threshold fallbackMode }
  chunking { targetTokens overlapTokens minTokens }
  embedding { active { id modelId dimensions hasApiKey } building { id } }
} }`;
const UPDATE = `mutation($input: UpdateRagConfigInput!) { updateRagConfig(input: $input) {
  version overridden search { fusion rrfK } llm { provider model apiKey { set masked } } chunking { targetTokens }
} }`;
const SEARCH = `query($input: SearchInput!) { search(input: $input) {
  hits { explain { bm25 { rank } knn { rank } fusedScore } }
} }`;

interface Explained {
  search: {
    hits: { explain: { bm25: { rank: number } | null; knn: { rank: number } | null; fusedScore: number } }[];
  };
}

const SECRET = 'sk-e2e-very-secret-0123456789abcdef';

async function fusedScores() {
  const { search } = await stack.query<Explained>(SEARCH, {
    input: { projectId, query: 'how do I roll back a release', explain: true, rerank: false },
  });
  return search.hits.map((h) => h.explain);
}

beforeAll(async () => {
  stack = new TroveStack({ TROVE_INDEX_GENERATIONS_TTL_MS: '300' });
  await stack.start();
  projectId = await stack.createProject('RAG settings e2e');
  const upload = await stack.upload(
    projectId,
    'ops.md',
    '# Ops\n\n## Rollback\n\nTo roll back a release run `deployctl rollback` and confirm.\n\n## Coffee\n\nThe coffee machine is cleaned on Fridays.\n',
  );
  await stack.settled(upload.body.id as string);
}, 240_000);
afterAll(async () => {
  await stack?.stop();
});

describe('ragConfig / updateRagConfig', () => {
  it('shows the environment’s settings and the embedding index, nothing overridden', async () => {
    const { ragConfig } = await stack.query<{ ragConfig: Record<string, unknown> }>(CONFIG);
    expect(ragConfig).toMatchObject({
      version: 0,
      overridden: [],
      warnings: [],
      search: { fusion: 'convex', convexVectorWeight: 0.6, rrfK: 60 },
      rerank: { provider: 'none', apiKey: { set: false, masked: null } },
      llm: { provider: 'none', apiKey: { set: false } },
      answers: { fallbackMode: 'EXTRACTIVE' },
      chunking: { targetTokens: 200, overlapTokens: 30 },
      embedding: {
        active: { id: 1, modelId: 'multilingual-e5-small-q4', dimensions: 384, hasApiKey: false },
        building: null,
      },
    });
  });

  it('changes the fusion of the next search without a restart', async () => {
    // The default is convex: weighted sums of min-max normalised leg scores, the best hit near 1.
    const convex = await fusedScores();
    expect(convex[0].fusedScore).toBeGreaterThan(0.4);
    expect(convex[0].fusedScore).toBeLessThanOrEqual(1);

    const k = (h: { bm25: { rank: number } | null; knn: { rank: number } | null }, rrfK: number) =>
      (h.bm25 ? 1 / (rrfK + h.bm25.rank) : 0) + (h.knn ? 1 / (rrfK + h.knn.rank) : 0);
    const { updateRagConfig } = await stack.query<{ updateRagConfig: Record<string, unknown> }>(UPDATE, {
      input: { search: { fusion: 'rrf' } },
    });
    expect(updateRagConfig).toMatchObject({
      version: 1,
      overridden: ['search.fusion'],
      search: { fusion: 'rrf' },
    });
    for (const hit of await fusedScores()) expect(hit.fusedScore).toBeCloseTo(k(hit, 60), 6);

    await stack.query(UPDATE, { input: { search: { rrfK: 5 } } });
    for (const hit of await fusedScores()) expect(hit.fusedScore).toBeCloseTo(k(hit, 5), 6);
  });

  it('stores an LLM key sealed and only ever shows its mask', async () => {
    const response = await stack.gql(UPDATE, {
      input: {
        llm: { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-4o-mini', apiKey: SECRET },
      },
    });
    expect(response.errors).toBeUndefined();
    expect(JSON.stringify(response)).not.toContain(SECRET);
    expect((response.data as { updateRagConfig: { llm: unknown } }).updateRagConfig.llm).toEqual({
      provider: 'openai',
      model: 'gpt-4o-mini',
      apiKey: { set: true, masked: `${SECRET.slice(0, 4)}…${SECRET.slice(-2)} (${SECRET.length} chars)` },
    });
    const read = await stack.gql(CONFIG);
    expect(JSON.stringify(read)).not.toContain(SECRET);
    // Nor in the logs of either process.
    for (const log of ['api.log', 'worker.log']) {
      expect(readFileSync(join(stack.logDir, log), 'utf8')).not.toContain(SECRET);
    }
  });

  it('refuses an invalid change as a whole, listing the problems', async () => {
    const before = (await stack.query<{ ragConfig: { version: number } }>(CONFIG)).ragConfig.version;
    const response = await stack.gql(UPDATE, {
      input: { search: { rrfK: 0 }, llm: { model: null }, chunking: { targetTokens: 50, overlapTokens: 40 } },
    });
    expect(response.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    const message = response.errors![0].message;
    expect(message).toMatch(/search\.rrfK/);
    expect(message).toMatch(/llm\.model/);
    expect(message).toMatch(/overlapTokens/);
    const after = (await stack.query<{ ragConfig: { version: number; search: { rrfK: number } } }>(CONFIG))
      .ragConfig;
    expect(after.version).toBe(before);
    expect(after.search.rrfK).toBe(5);
  });

  it('applies chunking to documents ingested after the change (worker), and resets to the environment', async () => {
    const paragraph = (i: number) =>
      `Paragraph ${i} explains the release train, canary pools, rollbacks and the on-call rota in some detail. `.repeat(
        4,
      );
    const text = `# Long\n\n${Array.from({ length: 12 }, (_, i) => paragraph(i)).join('\n\n')}\n`;
    const before = await stack.settled((await stack.upload(projectId, 'long-a.md', text)).body.id as string);

    await stack.query(UPDATE, {
      input: { chunking: { targetTokens: 60, overlapTokens: 10, minTokens: 10 } },
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // the worker's settings cache (300 ms)
    const after = await stack.settled((await stack.upload(projectId, 'long-b.md', text)).body.id as string);
    expect(after.chunkCount).toBeGreaterThan(before.chunkCount * 2);

    const { updateRagConfig } = await stack.query<{ updateRagConfig: Record<string, unknown> }>(UPDATE, {
      input: { reset: ['search', 'llm', 'chunking'] },
    });
    expect(updateRagConfig).toMatchObject({
      overridden: [],
      search: { fusion: 'convex', rrfK: 60 },
      llm: { provider: 'none', apiKey: { set: false } },
      chunking: { targetTokens: 200 },
    });
  }, 240_000);
});
