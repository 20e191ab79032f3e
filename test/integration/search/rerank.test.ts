import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import { Chunker, SegmenterTokenCounter } from '@trove/chunking';
import { type ParsedDocument, SearchMode } from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import { FEATURE_NAMES, HttpReranker, LearnedReranker } from '@trove/reranking';
import { ChunkIndex, createElasticsearchClient, HybridSearch } from '@trove/search';
import { dropTestData, ES_URL, uniqueName, workerConfig } from '../../support/services';

const prefix = uniqueName('rerank');
const config = workerConfig(prefix);
const embedder = createEmbeddingProvider(config.embedding);
const chunker = new Chunker(new SegmenterTokenCounter(), { targetTokens: 200, overlapTokens: 20 });
let es: Client;
let failingServer: Server;
let failingUrl: string;

const doc = (title: string, text: string): ParsedDocument => ({
  title,
  metadata: {},
  blocks: [{ kind: 'paragraph', headingPath: [title], text }],
});

const documents = {
  rollback: doc('Rollback', 'To roll back a release, run deployctl rollback and confirm the prompt.'),
  release: doc('Releases', 'A release is built by CI, tagged, and deployed with deployctl deploy.'),
  incidents: doc('Incidents', 'During an incident, a bad release may need a rollback within minutes.'),
  coffee: doc('Coffee', 'The office coffee machine is cleaned every Friday afternoon.'),
};
const request = {
  projectId: 'p1',
  query: 'how do I roll back a bad release',
  limit: 4,
  mode: SearchMode.HYBRID,
};

beforeAll(async () => {
  es = createElasticsearchClient(ES_URL);
  const index = new ChunkIndex(es, prefix, embedder.dimensions);
  await index.ensure();
  for (const [documentId, parsed] of Object.entries(documents)) {
    const chunks = chunker.chunk(parsed, { projectId: 'p1', documentId });
    const vectors = await embedder.embed(
      chunks.map((c) => Chunker.embeddingText(c)),
      'passage',
    );
    await index.upsert(
      chunks.map((c, i) => ({ ...c, embedding: vectors[i] })),
      embedder.modelId,
    );
  }
  await index.refresh();
  // A rerank server that is down for maintenance.
  failingServer = createServer((_req, res) => res.writeHead(503).end('maintenance'));
  await new Promise<void>((resolve) => failingServer.listen(0, '127.0.0.1', resolve));
  failingUrl = `http://127.0.0.1:${(failingServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => failingServer?.close(resolve));
  await es?.close();
  await dropTestData(prefix);
});

/** A learned model that scores by one feature: its order is known from the fused one. */
const reversingModel = {
  version: 'reverse',
  features: [...FEATURE_NAMES],
  mean: FEATURE_NAMES.map(() => 0),
  scale: FEATURE_NAMES.map(() => 1),
  weights: FEATURE_NAMES.map((name) => (name === 'fused.reciprocalRank' ? -1 : 0)),
};

describe('HybridSearch with a reranker over real Elasticsearch hits', () => {
  it('reorders the fused hits by the learned reranker and explains them', async () => {
    const plain = new HybridSearch(es, prefix, embedder);
    const fused = (await plain.search(request)).map((h) => h.chunkId);
    expect(fused).toHaveLength(4);

    const reversing = new HybridSearch(es, prefix, embedder, {
      reranker: new LearnedReranker(reversingModel),
    });
    const reversed = await reversing.searchWithReport(request, { explain: true });
    expect(reversed.rerank).toMatchObject({ reranker: 'learned:reverse', reranked: true });
    expect(reversed.hits.map((h) => h.chunkId)).toEqual([...fused].reverse());
    // Timed (its speed is the eval's rerank p95, not a test's bound).
    expect(reversed.timings.rerankMs).toBeGreaterThanOrEqual(0);

    const learned = new HybridSearch(es, prefix, embedder, { reranker: new LearnedReranker() });
    const { hits } = await learned.searchWithReport(request, { explain: true });
    expect(new Set(hits.map((h) => h.chunkId))).toEqual(new Set(fused));
    const scores = hits.map((h) => h.rerankScore!);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(hits[0].explain).toMatchObject({ fusedScore: hits[0].score, rerankScore: scores[0] });
    expect(hits[0].explain?.topFeatures).toHaveLength(3);
    expect(hits[0].documentId).not.toBe('coffee');
  });

  it('keeps the fused order and reports why when the HTTP reranker fails', async () => {
    const plain = new HybridSearch(es, prefix, embedder);
    const fused = (await plain.search(request)).map((h) => h.chunkId);
    const failing = new HybridSearch(es, prefix, embedder, {
      reranker: new HttpReranker({ baseUrl: failingUrl, timeoutMs: 2_000, maxChars: 500 }),
    });
    const outcome = await failing.searchWithReport(request);
    expect(outcome.hits.map((h) => h.chunkId)).toEqual(fused);
    expect(outcome.rerank.reranked).toBe(false);
    expect(outcome.rerank.warning).toContain('answered HTTP 503: maintenance');
    expect(outcome.hits.every((h) => h.rerankScore === undefined)).toBe(true);
  });
});
