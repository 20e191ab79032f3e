/**
 * Retrieval regression gate: small fixed subsets of the shared BEIR sets (English SciFact, Russian
 * RuMedDaNet) go through the real parser, chunker, embedder and Elasticsearch index, and each
 * search mode must score within a tolerance of the committed baseline. A change that makes search
 * worse (analysis, fusion, chunking, boosts) fails here; one that makes it better updates the
 * baseline on purpose: `TROVE_UPDATE_RETRIEVAL_BASELINE=1 npx vitest run --project integration
 * test/integration/search/retrieval-regression.test.ts`. Full-size figures come from `npm run eval`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import { Chunker, SegmenterTokenCounter } from '@trove/chunking';
import { chunkingSchema } from '@trove/config';
import { SearchMode } from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import {
  beirFileName,
  beirMarkdown,
  corpusSubset,
  loadBeirDataset,
  scoreRuns,
  type RetrievalScores,
} from '@trove/evaluation';
import { MarkdownParser } from '@trove/parsing';
import { LearnedReranker } from '@trove/reranking';
import { ChunkIndex, createElasticsearchClient, HybridSearch } from '@trove/search';
import { sharedDatasets } from '@trove/testing';
import { dropTestData, ES_URL, uniqueName, workerConfig } from '../../support/services';

/** nDCG@10 and R@10 may fall this much below the baseline (the runs are deterministic; this absorbs HNSW ties). */
const TOLERANCE = 0.02;
const BASELINE_FILE = join(__dirname, 'retrieval-baseline.json');
/** The three modes without reranking, and the product's default: HYBRID reranked by the learned model. */
const CONFIGURATIONS = [
  { name: 'KEYWORD', mode: SearchMode.KEYWORD, rerank: false },
  { name: 'VECTOR', mode: SearchMode.VECTOR, rerank: false },
  { name: 'HYBRID', mode: SearchMode.HYBRID, rerank: false },
  { name: 'HYBRID+learned', mode: SearchMode.HYBRID, rerank: true },
];

const SETS = [
  { dataset: 'beir_scifact', queries: 30, docs: 80 },
  { dataset: 'ru_rumeddanet', queries: 25, docs: 60 },
];

type Baseline = Record<string, Record<string, Pick<RetrievalScores, 'ndcg10' | 'recall10'>>>;

const prefix = uniqueName('regress');
const config = workerConfig(prefix);
const embedder = createEmbeddingProvider(config.embedding);
// The product's default chunking (400/50/40), not the test default, so figures match `npm run eval`.
const chunker = new Chunker(new SegmenterTokenCounter(), chunkingSchema.parse({}));
const parser = new MarkdownParser();
let es: Client;
let index: ChunkIndex;
let search: HybridSearch;
const measured: Baseline = {};

beforeAll(async () => {
  es = createElasticsearchClient(ES_URL);
  index = new ChunkIndex(es, prefix, embedder.dimensions);
  search = new HybridSearch(es, prefix, embedder, { reranker: new LearnedReranker() });
  await index.ensure();
}, 60_000);

afterAll(async () => {
  if (process.env.TROVE_UPDATE_RETRIEVAL_BASELINE === '1' && Object.keys(measured).length === SETS.length) {
    writeFileSync(BASELINE_FILE, `${JSON.stringify(measured, null, 2)}\n`);
  }
  await es?.close();
  await dropTestData(prefix);
});

describe.each(SETS)('retrieval on a fixed subset of $dataset', ({ dataset, queries: queryCount, docs }) => {
  const loaded = loadBeirDataset(join(sharedDatasets(), dataset), 'test');
  const queries = loaded.queries.slice(0, queryCount);
  const corpus = corpusSubset(loaded.corpus, queries, docs, 42);
  const projectId = `regress-${dataset}`;

  beforeAll(async () => {
    const chunks = [];
    for (const doc of corpus) {
      const parsed = await parser.parse({
        fileName: beirFileName(doc),
        mediaType: 'text/markdown',
        data: Buffer.from(beirMarkdown(doc)),
      });
      chunks.push(...chunker.chunk(parsed, { projectId, documentId: doc._id }));
    }
    for (let i = 0; i < chunks.length; i += 32) {
      const batch = chunks.slice(i, i + 32);
      const vectors = await embedder.embed(
        batch.map((c) => Chunker.embeddingText(c)),
        'passage',
      );
      await index.upsert(
        batch.map((c, j) => ({ ...c, embedding: vectors[j] })),
        embedder.modelId,
      );
    }
    await index.refresh();
  }, 900_000);

  it('scores every mode within the tolerance of the committed baseline', async () => {
    const scores: Record<string, Pick<RetrievalScores, 'ndcg10' | 'recall10'>> = {};
    for (const { name, mode, rerank } of CONFIGURATIONS) {
      const runs = [];
      for (const query of queries) {
        const hits = await search.search({ projectId, query: query.text, limit: 10, mode }, { rerank });
        runs.push({ ranking: hits.map((hit) => hit.documentId), judged: query.relevant });
      }
      const { ndcg10, recall10 } = scoreRuns(runs);
      scores[name] = { ndcg10: Number(ndcg10.toFixed(3)), recall10: Number(recall10.toFixed(3)) };
    }
    measured[dataset] = scores;
    console.log(`[retrieval-regression] ${dataset}: ${JSON.stringify(scores)}`);
    // Sanity: a broken leg would score near zero; these subsets score far higher when search works.
    expect(scores.HYBRID.ndcg10).toBeGreaterThan(0.3);
    if (process.env.TROVE_UPDATE_RETRIEVAL_BASELINE === '1') return;

    const baseline = (JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as Baseline)[dataset];
    expect(baseline, `no baseline for ${dataset} in ${BASELINE_FILE}`).toBeDefined();
    for (const { name } of CONFIGURATIONS) {
      expect(baseline[name], `no baseline for ${dataset} ${name}`).toBeDefined();
      for (const metric of ['ndcg10', 'recall10'] as const) {
        expect(
          scores[name][metric],
          `${dataset} ${name} ${metric} fell below the baseline ${baseline[name][metric]} − ${TOLERANCE}`,
        ).toBeGreaterThanOrEqual(baseline[name][metric] - TOLERANCE);
      }
    }
  }, 300_000);
});
