/**
 * Builds the retrieval gate's slices (test/integration/search/retrieval-slices.json): per data set,
 * seeded train-split queries with their judged documents plus *hard* distractors, the top BM25 and
 * top kNN documents of the FULL corpus that are not judged relevant. A slice then scores like the
 * full corpus at the top of the ranking (where regressions show) while indexing a few hundred
 * documents. The full corpus goes into a temporary index of its own (Trove's parser, chunker,
 * embedder and ChunkIndex, ranked by HybridSearch per document as `npm run eval` ranks), dropped at
 * the end.
 *
 *   node -r @swc-node/register tools/eval/build-retrieval-slices.ts --queries 30 --per-ranking 5
 *   node -r @swc-node/register tools/eval/build-retrieval-slices.ts --dataset ru_rumeddanet --queries 40 --per-ranking 8
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SearchMode } from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import {
  evaluateRetrieval,
  hardDistractors,
  loadBeirDataset,
  type RetrievalSlice,
  type RetrievalSlices,
  sampleQueries,
} from '@trove/evaluation';
import { ChunkIndex, createElasticsearchClient, HybridSearch } from '@trove/search';
import { indexBeirDocuments } from '@trove/test-support';
import { datasetDir, localWorkerConfig } from '@trove/tools-support';

const ROOT = join(__dirname, '..', '..');
const SLICES_FILE = join(ROOT, 'test', 'integration', 'search', 'retrieval-slices.json');

const { values: args } = parseArgs({
  options: {
    /** Data sets to (re)build, comma-separated; slices of other data sets in the file are kept. */
    dataset: { type: 'string', default: 'beir_scifact,ru_rumeddanet' },
    queries: { type: 'string', default: '30' },
    /** Non-relevant documents kept from the top of each full-corpus ranking (BM25, kNN) per query. */
    'per-ranking': { type: 'string', default: '5' },
    seed: { type: 'string', default: '23' },
    out: { type: 'string', default: SLICES_FILE },
  },
});

const integer = (raw: string | undefined, name: string) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got ${raw}`);
  return n;
};

async function buildSlice(
  dataset: string,
  queryCount: number,
  perRanking: number,
  seed: number,
): Promise<RetrievalSlice> {
  const loaded = loadBeirDataset(datasetDir(dataset), 'train');
  const queries = sampleQueries(loaded.queries, queryCount, seed);
  // A prefix of its own, dropped at the end: never another run's or another engineer's index.
  const prefix = `trove-slices-${randomBytes(4).toString('hex')}`;
  const config = localWorkerConfig(prefix, join(ROOT, '.trove', 'slices'));
  const es = createElasticsearchClient(config.elasticsearch.url);
  const embedder = createEmbeddingProvider(config.embedding);
  const index = new ChunkIndex(es, prefix, embedder.dimensions);
  const projectId = `slices-${dataset}`;
  try {
    await index.ensure();
    const started = Date.now();
    let last = 0;
    console.log(`[slices] ${dataset}: indexing the full corpus, ${loaded.corpus.length} documents`);
    await indexBeirDocuments(loaded.corpus, { index, embedder, projectId }, (done) => {
      if (Date.now() - last < 15_000) return;
      last = Date.now();
      const rate = done / ((Date.now() - started) / 1000);
      console.log(
        `[slices] ${dataset}: ${done}/${loaded.corpus.length} documents, ${rate.toFixed(2)} docs/s, ` +
          `ETA ${Math.round((loaded.corpus.length - done) / rate)} s`,
      );
    });
    const search = new HybridSearch(es, prefix, embedder, {});
    const rankings = new Map<string, string[][]>();
    const fullCorpus: Record<string, number> = {};
    for (const mode of [SearchMode.KEYWORD, SearchMode.VECTOR, SearchMode.HYBRID]) {
      const { scores, runs } = await evaluateRetrieval(search, queries, { projectId, mode });
      fullCorpus[mode] = Number(scores.ndcg10.toFixed(3));
      if (mode === SearchMode.HYBRID) continue;
      for (const run of runs)
        rankings.set(run.query.id, [...(rankings.get(run.query.id) ?? []), run.ranking]);
    }
    const sliceQueries = queries.map((q) => ({
      id: q.id,
      relevant: [...q.relevant.keys()],
      distractors: hardDistractors(rankings.get(q.id)!, q.relevant, perRanking),
    }));
    const documents = [...new Set(sliceQueries.flatMap((q) => [...q.relevant, ...q.distractors]))].sort();
    console.log(
      `[slices] ${dataset}: ${queries.length} queries, ${documents.length} documents; full-corpus nDCG@10 of these queries ${JSON.stringify(fullCorpus)}`,
    );
    return {
      name: dataset,
      dataset,
      split: 'train',
      built: {
        date: new Date().toISOString(),
        command: `node -r @swc-node/register tools/eval/build-retrieval-slices.ts --dataset ${dataset} --queries ${queryCount} --per-ranking ${perRanking} --seed ${seed}`,
        how:
          `${queryCount} train queries sampled with seed ${seed}; per query its judged documents plus the first ` +
          `${perRanking} non-relevant documents of the full corpus's KEYWORD (BM25) and VECTOR (kNN) rankings ` +
          `(documents ranked by their best chunk, ${embedder.modelId}, default chunking)`,
        fullCorpusDocuments: loaded.corpus.length,
        fullCorpusNdcg10: fullCorpus,
      },
      queries: sliceQueries,
      documents,
    };
  } finally {
    await es.indices.delete({ index: `${prefix}-*`, ignore_unavailable: true, allow_no_indices: true });
    await es.close();
  }
}

async function main() {
  const datasets = args.dataset!.split(',').map((d) => d.trim());
  const queryCount = integer(args.queries, 'queries');
  const perRanking = integer(args['per-ranking'], 'per-ranking');
  const seed = integer(args.seed, 'seed');
  const out = args.out!;
  const file: RetrievalSlices = existsSync(out)
    ? (JSON.parse(readFileSync(out, 'utf8')) as RetrievalSlices)
    : { slices: [] };
  for (const dataset of datasets) {
    const slice = await buildSlice(dataset, queryCount, perRanking, seed);
    file.slices = [...file.slices.filter((s) => s.name !== slice.name), slice];
    // Written after each data set, so a long run keeps what it has built.
    writeFileSync(out, `${JSON.stringify(file, null, 2)}\n`);
    console.log(`[slices] wrote ${out}`);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
