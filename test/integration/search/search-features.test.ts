import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import type { EmbeddedChunk } from '@trove/domain';
import { SearchMode } from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import { ChunkIndex, createElasticsearchClient, HybridSearch } from '@trove/search';
import { dropTestData, ES_URL, uniqueName, workerConfig } from '../../support/services';

// Filters, MMR and context expansion against the real Elasticsearch and embedder (issue 11).
const prefix = uniqueName('search-features');
const embedder = createEmbeddingProvider(workerConfig(prefix).embedding);
let es: Client;
let index: ChunkIndex;

interface Piece {
  text: string;
  language?: string;
  hasCode?: boolean;
}

/** Indexes a document's chunks at positions 0… with real embeddings. */
async function indexDocument(projectId: string, documentId: string, pieces: Piece[]): Promise<void> {
  const vectors = await embedder.embed(
    pieces.map((p) => p.text),
    'passage',
  );
  const chunks: EmbeddedChunk[] = pieces.map((piece, position) => ({
    id: `${documentId}-${position}`,
    documentId,
    projectId,
    position,
    text: piece.text,
    headingPath: [],
    title: documentId,
    tokenCount: 10,
    contentHash: `${documentId}-${position}`,
    language: piece.language ?? 'en',
    hasCode: piece.hasCode ?? false,
    codeLanguages: [],
    embedding: vectors[position],
  }));
  await index.upsert(chunks, embedder.modelId);
}

const rollback = (i: number) => `To roll back release ${i}, run deployctl rollback and confirm the prompt.`;
const gardening = [
  'Tomatoes need full sun and regular watering in summer.',
  'Prune roses in early spring before new growth starts.',
  'Compost improves clay soil over a few seasons.',
  'Mulch keeps the soil moist and the weeds down.',
];

beforeAll(async () => {
  es = createElasticsearchClient(ES_URL);
  index = new ChunkIndex(es, prefix, embedder.dimensions);
  await index.ensure();
  // "ops": six chunks that all match a rollback query; "garden": four that match it poorly.
  await indexDocument(
    'p1',
    'ops',
    [0, 1, 2, 3, 4, 5].map((i) => ({ text: rollback(i) })),
  );
  await indexDocument(
    'p1',
    'garden',
    gardening.map((text) => ({ text })),
  );
  await indexDocument('p1', 'code', [
    { text: 'Rollback script: `deployctl rollback --force`', hasCode: true },
    { text: 'Откат релиза: выполните deployctl rollback.', language: 'ru' },
  ]);
  await indexDocument(
    'p1',
    'story',
    [
      'Chapter one: the ship leaves the harbour at dawn.',
      'Chapter two: a storm hits the ship near the cape.',
      'Chapter three: the crew repairs the broken mast.',
      'Chapter four: the ship reaches the island.',
      'Chapter five: the crew finds fresh water.',
    ].map((text) => ({ text })),
  );
  await index.refresh();
});

afterAll(async () => {
  await es?.close();
  await dropTestData(prefix);
});

describe('filters inside the kNN leg', () => {
  it('returns k hits of the filtered documents even when better chunks elsewhere fill the unfiltered top k', async () => {
    // Three candidates per leg: unfiltered, all three are "ops" chunks; a post-filter would leave none.
    const search = new HybridSearch(es, prefix, embedder, { candidates: 3, numCandidates: 3 });
    const request = {
      projectId: 'p1',
      query: 'how do I roll back a release',
      limit: 3,
      mode: SearchMode.VECTOR,
    };
    const unfiltered = await search.search(request);
    expect(unfiltered.map((h) => h.documentId)).toEqual(['ops', 'ops', 'ops']);
    const filtered = await search.search({ ...request, filters: { documentIds: ['garden'] } });
    expect(filtered).toHaveLength(3);
    expect(new Set(filtered.map((h) => h.documentId))).toEqual(new Set(['garden']));
  });

  it('filters by language and by code in both legs', async () => {
    const search = new HybridSearch(es, prefix, embedder);
    const request = { projectId: 'p1', query: 'deployctl rollback', limit: 20, mode: SearchMode.HYBRID };
    const russian = await search.search({ ...request, filters: { languages: ['ru'] } });
    expect(russian.map((h) => h.chunkId)).toEqual(['code-1']);
    const withCode = await search.search({ ...request, filters: { hasCode: true } });
    expect(withCode.map((h) => h.chunkId)).toEqual(['code-0']);
    const keywordOnly = await search.search({
      ...request,
      mode: SearchMode.KEYWORD,
      filters: { hasCode: false },
    });
    expect(keywordOnly.length).toBeGreaterThan(0);
    expect(keywordOnly.some((h) => h.chunkId === 'code-0')).toBe(false);
  });
});

describe('result stages', () => {
  const search = () => new HybridSearch(es, prefix, embedder);

  it('expand: each hit carries its ±N neighbours of the same document, in reading order', async () => {
    const [hit] = await search().search({
      projectId: 'p1',
      query: 'a storm hits the ship near the cape',
      limit: 1,
      mode: SearchMode.HYBRID,
      filters: { documentIds: ['story'] },
      results: { expand: 2 },
    });
    expect(hit.chunkId).toBe('story-1');
    expect(hit.context?.map((c) => c.chunkId)).toEqual(['story-0', 'story-2', 'story-3']);
    expect(hit.context?.[1].text).toBe('Chapter three: the crew repairs the broken mast.');
  });

  it('minScore drops hits below the threshold; maxPerDocument lets other documents in', async () => {
    const request = { projectId: 'p1', query: 'roll back a release', limit: 4, mode: SearchMode.HYBRID };
    const all = await search().search(request);
    expect(all.map((h) => h.documentId)).toEqual(['ops', 'ops', 'ops', 'ops']);
    const threshold = all[1].score;
    const above = await search().search({ ...request, results: { minScore: threshold } });
    expect(above.every((h) => h.score >= threshold)).toBe(true);
    expect(above.length).toBeLessThan(all.length);
    const capped = await search().search({ ...request, results: { maxPerDocument: 1 } });
    expect(new Set(capped.map((h) => h.documentId)).size).toBe(capped.length);
  });

  it('MMR with the stored vectors moves a different document up among near-duplicate chunks', async () => {
    const request = {
      projectId: 'p1',
      query: 'roll back a release',
      limit: 3,
      mode: SearchMode.HYBRID,
      filters: { documentIds: ['ops', 'code'] },
    };
    const plain = await search().search(request);
    const diverse = await search().search({ ...request, results: { mmr: true, mmrLambda: 0 } });
    expect(diverse[0].chunkId).toBe(plain[0].chunkId);
    const documents = (hits: { documentId: string }[]) => new Set(hits.map((h) => h.documentId)).size;
    expect(documents(plain)).toBe(1); // six near-identical "ops" chunks fill the plain top 3
    expect(documents(diverse)).toBe(2);
  });
});

describe('score completion before convex fusion', () => {
  // Ten candidates per leg (the limit) of 21 chunks: the legs disagree, so each returns chunks the other missed.
  const request = {
    projectId: 'p1',
    query: 'deployctl rollback storm',
    limit: 10,
    mode: SearchMode.HYBRID,
  };
  const legs = async (mode: SearchMode) =>
    new Map(
      (
        await new HybridSearch(es, prefix, embedder, { candidates: 50 }).search({
          ...request,
          mode,
          limit: 50,
        })
      ).map((h) => [h.chunkId, mode === SearchMode.KEYWORD ? h.bm25!.score : h.knn!.score]),
    );

  it('gives every fused candidate the score each leg would have given it, as Elasticsearch computes it', async () => {
    const bm25 = await legs(SearchMode.KEYWORD);
    const knn = await legs(SearchMode.VECTOR);
    const search = new HybridSearch(es, prefix, embedder, { candidates: 1, numCandidates: 50 });
    const timings: { completionMs?: number } = {};
    const hits = await search.search(request, { timings });
    expect(timings.completionMs).toBeGreaterThan(0);
    // Some candidate came from one leg only, yet every hit has both scores.
    expect(hits.length).toBeGreaterThan(2);
    for (const hit of hits) {
      expect(hit.knn!.score).toBeCloseTo(knn.get(hit.chunkId)!, 4);
      expect(hit.bm25!.score).toBeCloseTo(bm25.get(hit.chunkId) ?? 0, 4);
    }
    const off = await search.search(request, { retrieval: { completeScores: false } });
    expect(off.some((h) => h.bm25 === undefined || h.knn === undefined)).toBe(true);
  });
});
