/**
 * Builds the retrieval gate's slices (test/integration/search/retrieval-slices.json): per data set,
 * seeded train-split queries with their judged documents plus *hard* distractors, the top BM25 and
 * top kNN documents of the FULL corpus that are not judged relevant. A slice then scores like the
 * full corpus at the top of the ranking (where regressions show) while indexing a few hundred
 * documents. The full corpus goes into a temporary index of its own (Trove's parser, chunker,
 * embedder and ChunkIndex, ranked by HybridSearch per document as `npm run eval` ranks), dropped at
 * the end.
 *
 * With `--index eval` the full corpus is not indexed again: the rankings come from the whole-corpus
 * eval project `npm run eval -- --dataset <name>` built (the worker's ingest of the same documents
 * with the same chunking and model), which must be complete.
 *
 *   node -r @swc-node/register tools/eval/build-retrieval-slices.ts --queries 30 --per-ranking 5
 *   node -r @swc-node/register tools/eval/build-retrieval-slices.ts --dataset ru_rumeddanet --queries 40 --per-ranking 8
 *   node -r @swc-node/register tools/eval/build-retrieval-slices.ts --dataset beir_scifact --queries 120 --per-ranking 4 --index eval
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openCatalog } from '@trove/catalog';
import { DocumentStatus, SearchMode } from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import {
  type BeirDocument,
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
import { evalProjectName, evalWorkerConfig, projectDocuments } from './eval-support';

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
    /** `own`: index the full corpus in a temporary index; `eval`: rank on `npm run eval`'s whole-corpus project. */
    index: { type: 'string', default: 'own' },
    out: { type: 'string', default: SLICES_FILE },
  },
});

const integer = (raw: string | undefined, name: string) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got ${raw}`);
  return n;
};

/** Where the full corpus is ranked: an index of its own or the eval project's, and how hits map to corpus ids. */
interface FullCorpus {
  search: HybridSearch;
  projectId: string;
  corpusId?: (documentId: string) => string;
  /** How the ranked index was built, for the slice's `how`. */
  source: string;
  modelId: string;
  close(): Promise<void>;
}

/** The full corpus indexed in-process into a temporary index, dropped on close. */
async function ownIndex(dataset: string, corpus: BeirDocument[]): Promise<FullCorpus> {
  // A prefix of its own, dropped at the end: never another run's or another engineer's index.
  const prefix = `trove-slices-${randomBytes(4).toString('hex')}`;
  const config = localWorkerConfig(prefix, join(ROOT, '.trove', 'slices'));
  const es = createElasticsearchClient(config.elasticsearch.url);
  const embedder = createEmbeddingProvider(config.embedding);
  const index = new ChunkIndex(es, prefix, embedder.dimensions);
  const projectId = `slices-${dataset}`;
  const close = async () => {
    await es.indices.delete({ index: `${prefix}-*`, ignore_unavailable: true, allow_no_indices: true });
    await es.close();
  };
  try {
    await index.ensure();
    const started = Date.now();
    let last = 0;
    console.log(`[slices] ${dataset}: indexing the full corpus, ${corpus.length} documents`);
    await indexBeirDocuments(corpus, { index, embedder, projectId }, (done) => {
      if (Date.now() - last < 15_000) return;
      last = Date.now();
      const rate = done / ((Date.now() - started) / 1000);
      console.log(
        `[slices] ${dataset}: ${done}/${corpus.length} documents, ${rate.toFixed(2)} docs/s, ` +
          `ETA ${Math.round((corpus.length - done) / rate)} s`,
      );
    });
  } catch (error) {
    await close();
    throw error;
  }
  return {
    search: new HybridSearch(es, prefix, embedder, {}),
    projectId,
    source: 'indexed in-process',
    modelId: embedder.modelId,
    close,
  };
}

/** The whole-corpus eval project of `npm run eval`, which must hold every document READY. */
async function evalProject(dataset: string, corpus: BeirDocument[]): Promise<FullCorpus> {
  const name = evalProjectName(dataset, 'train', 0);
  const config = evalWorkerConfig(name, join(ROOT, '.trove', 'eval', 'blobs'));
  const catalog = openCatalog(config.database);
  const es = createElasticsearchClient(config.elasticsearch.url);
  const close = async () => {
    await catalog.lifecycle.close();
    await es.close();
  };
  try {
    const project = (await catalog.projects.listProjects()).find(
      (p) => p.name === name && p.status === 'ACTIVE',
    );
    const documents = project ? await projectDocuments(catalog.documents, project.id) : new Map();
    const ready = [...documents.values()].filter((d) => d.status === DocumentStatus.READY);
    if (!project || ready.length !== corpus.length) {
      throw new Error(
        `the eval project "${name}" holds ${ready.length} of ${corpus.length} documents READY: ` +
          `run npm run eval -- --dataset ${dataset} --split train first`,
      );
    }
    const corpusIdOf = new Map(ready.map((d) => [d.id, d.fileName.replace(/\.md$/, '')]));
    const embedder = createEmbeddingProvider(config.embedding);
    return {
      search: new HybridSearch(es, config.elasticsearch.indexPrefix, embedder, {}),
      projectId: project.id,
      corpusId: (id) => corpusIdOf.get(id)!,
      source: `the whole-corpus eval project "${name}" of npm run eval`,
      modelId: embedder.modelId,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

async function buildSlice(
  dataset: string,
  queryCount: number,
  perRanking: number,
  seed: number,
  indexKind: string,
): Promise<RetrievalSlice> {
  const loaded = loadBeirDataset(datasetDir(dataset), 'train');
  const queries = sampleQueries(loaded.queries, queryCount, seed);
  const full =
    indexKind === 'eval' ? await evalProject(dataset, loaded.corpus) : await ownIndex(dataset, loaded.corpus);
  try {
    const rankings = new Map<string, string[][]>();
    const fullCorpus: Record<string, number> = {};
    for (const mode of [SearchMode.KEYWORD, SearchMode.VECTOR, SearchMode.HYBRID]) {
      const { scores, runs } = await evaluateRetrieval(full.search, queries, {
        projectId: full.projectId,
        mode,
        corpusId: full.corpusId,
      });
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
        command: `node -r @swc-node/register tools/eval/build-retrieval-slices.ts --dataset ${dataset} --queries ${queryCount} --per-ranking ${perRanking} --seed ${seed}${indexKind === 'own' ? '' : ` --index ${indexKind}`}`,
        how:
          `${queryCount} train queries sampled with seed ${seed}; per query its judged documents plus the first ` +
          `${perRanking} non-relevant documents of the full corpus's KEYWORD (BM25) and VECTOR (kNN) rankings ` +
          `(documents ranked by their best chunk, ${full.modelId}, default chunking, ${full.source})`,
        fullCorpusDocuments: loaded.corpus.length,
        fullCorpusNdcg10: fullCorpus,
      },
      queries: sliceQueries,
      documents,
    };
  } finally {
    await full.close();
  }
}

async function main() {
  const datasets = args.dataset!.split(',').map((d) => d.trim());
  const queryCount = integer(args.queries, 'queries');
  const perRanking = integer(args['per-ranking'], 'per-ranking');
  const seed = integer(args.seed, 'seed');
  if (!['own', 'eval'].includes(args.index!))
    throw new Error(`--index must be own or eval, got ${args.index}`);
  const out = args.out!;
  const file: RetrievalSlices = existsSync(out)
    ? (JSON.parse(readFileSync(out, 'utf8')) as RetrievalSlices)
    : { slices: [] };
  for (const dataset of datasets) {
    const slice = await buildSlice(dataset, queryCount, perRanking, seed, args.index!);
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
