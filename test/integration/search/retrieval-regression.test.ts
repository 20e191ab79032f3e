/**
 * Retrieval regression gate. Each slice of retrieval-slices.json (built by
 * tools/eval/build-retrieval-slices.ts: seeded train-split queries of a shared BEIR set with their
 * judged documents and the hard distractors the full corpus ranks highest for them) goes through
 * the real parser, chunker, embedder and Elasticsearch index; every configuration ranks documents
 * through evaluateRetrieval, the path `npm run eval` uses, and must stay above its floor: the
 * committed baseline minus a tolerance taken from the measured run-to-run spread
 * (retrieval-baseline.json). The baseline changes only through `npm run gate:rebaseline`, which
 * refuses to lower a figure without `--reason`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@elastic/elasticsearch';
import { SearchMode } from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import {
  evaluateRetrieval,
  gateFailures,
  type GateBaseline,
  type GateScores,
  loadBeirDataset,
  type RetrievalSlices,
} from '@trove/evaluation';
import { LearnedReranker } from '@trove/reranking';
import { ChunkIndex, createElasticsearchClient, HybridSearch } from '@trove/search';
import { sharedDatasets } from '@trove/testing';
import { dropTestData, ES_URL, uniqueName, workerConfig } from '../../support/services';
import { indexBeirDocuments } from '../../support/retrieval-index';

export const BASELINE_FILE = join(__dirname, 'retrieval-baseline.json');
export const SLICES_FILE = join(__dirname, 'retrieval-slices.json');
/** Set by `npm run gate:rebaseline`: write the figures there instead of checking them. */
const MEASURE_TO = process.env.TROVE_RETRIEVAL_GATE_OUT;
/** The three modes without reranking, and the product's default: HYBRID reranked by the learned model. */
const CONFIGURATIONS = [
  { name: 'KEYWORD', mode: SearchMode.KEYWORD, rerank: false },
  { name: 'VECTOR', mode: SearchMode.VECTOR, rerank: false },
  { name: 'HYBRID', mode: SearchMode.HYBRID, rerank: false },
  { name: 'HYBRID+learned', mode: SearchMode.HYBRID, rerank: true },
];

const { slices } = JSON.parse(readFileSync(SLICES_FILE, 'utf8')) as RetrievalSlices;
const prefix = uniqueName('regress');
const config = workerConfig(prefix);
const embedder = createEmbeddingProvider(config.embedding);
let es: Client;
let index: ChunkIndex;
let search: HybridSearch;
const measured: GateScores = {};

beforeAll(async () => {
  es = createElasticsearchClient(ES_URL);
  index = new ChunkIndex(es, prefix, embedder.dimensions);
  search = new HybridSearch(es, prefix, embedder, {
    reranker: new LearnedReranker(),
  });
  await index.ensure();
}, 60_000);

afterAll(async () => {
  if (MEASURE_TO && Object.keys(measured).length === slices.length) {
    writeFileSync(MEASURE_TO, `${JSON.stringify(measured, null, 2)}\n`);
  }
  await es?.close();
  await dropTestData(prefix);
});

describe.each(slices)('retrieval on the $name slice', (slice) => {
  const loaded = loadBeirDataset(join(sharedDatasets(), slice.dataset), slice.split);
  const wanted = new Set(slice.queries.map((q) => q.id));
  const queries = loaded.queries.filter((q) => wanted.has(q.id));
  const documents = new Set(slice.documents);
  const corpus = loaded.corpus.filter((d) => documents.has(d._id));
  const projectId = `regress-${slice.name}`;

  beforeAll(async () => {
    expect(queries.length, `queries of ${slice.name} missing from ${slice.dataset}`).toBe(wanted.size);
    expect(corpus.length, `documents of ${slice.name} missing from ${slice.dataset}`).toBe(documents.size);
    await indexBeirDocuments(corpus, { index, embedder, projectId });
  }, 1_800_000);

  it('scores every configuration at or above its floor', async () => {
    const scores: GateScores[string] = {};
    for (const { name, mode, rerank } of CONFIGURATIONS) {
      const { scores: s } = await evaluateRetrieval(search, queries, {
        projectId,
        mode,
        options: () => ({ rerank }),
      });
      scores[name] = {
        ndcg10: Number(s.ndcg10.toFixed(3)),
        recall10: Number(s.recall10.toFixed(3)),
      };
    }
    measured[slice.name] = scores;
    console.log(`[retrieval-regression] ${slice.name}: ${JSON.stringify(scores)}`);
    if (MEASURE_TO) return;

    const baseline = JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as GateBaseline;
    const own = baseline.scores[slice.name];
    expect(own, `no baseline for ${slice.name} in ${BASELINE_FILE}`).toBeDefined();
    expect(gateFailures({ ...baseline, scores: { [slice.name]: own } }, measured)).toEqual([]);
  }, 600_000);
});
