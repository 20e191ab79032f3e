/**
 * Trains the learned reranker (libs/reranking/src/learned/model.json) on the TRAIN splits only:
 * each train query runs through the real HybridSearch on an eval project built by
 * `npm run eval -- --dataset <name> --split train --docs N --queries M`, the fused top candidates
 * are recorded with their features, labelled by the split's qrels (a chunk is relevant when its
 * document is), and a pairwise logistic regression is fitted over them.
 *
 *   node -r @swc-node/register tools/eval/train-reranker.ts --docs 400 --queries 250
 *   node -r @swc-node/register tools/eval/train-reranker.ts --docs all --queries 2000   (whole corpora)
 *
 * `--cache` keeps the recorded candidates in .trove/eval/ and reuses them (features are computed
 * again each time, so feature work needs no search). `--holdout F` fits on the other train
 * queries and also reports nDCG@10 on every 1/F-th train query, left out of the fit: the figure to
 * choose features and settings by, since the test splits are never looked at here.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { Catalog } from '@trove/catalog';
import { type RerankCandidate, type Reranker, SearchMode } from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import { loadBeirDataset, scoreRuns } from '@trove/evaluation';
import {
  extractFeatures,
  FEATURE_NAMES,
  LearnedReranker,
  type LinearModel,
  type TrainingGroup,
  trainPairwiseLogistic,
} from '@trove/reranking';
import { createElasticsearchClient, HybridSearch } from '@trove/search';
import { datasetDir } from '@trove/tools-support';
import {
  evalProjectName,
  evalWorkerConfig,
  memoizedQueries,
  parseFusions,
  projectDocuments,
} from './eval-support';

const ROOT = join(__dirname, '..', '..');
const MODEL_FILE = join(ROOT, 'libs/reranking/src/learned/model.json');

const { values: args } = parseArgs({
  options: {
    datasets: { type: 'string', default: 'beir_scifact,ru_rumeddanet' },
    docs: { type: 'string', default: '400' },
    queries: { type: 'string', default: '250' },
    /** Fused candidates recorded per query: more negatives than search reranks by default. */
    candidates: { type: 'string', default: '50' },
    version: { type: 'string', default: 'v1' },
    out: { type: 'string', default: MODEL_FILE },
    cache: { type: 'boolean', default: false },
    holdout: { type: 'string', default: '0' },
    'equal-queries': { type: 'boolean', default: false },
    /** The fusion whose candidates the model learns to reorder (as `npm run eval -- --fusions`): it must be the one search uses. */
    fusion: { type: 'string', default: 'rrf:60' },
    l2: { type: 'string', default: '0.001' },
    /** Score every candidate in both legs before convex fusion (as search does by default); `false` as before. */
    'complete-scores': { type: 'string', default: 'true' },
  },
});

if (!['true', 'false'].includes(args['complete-scores']!)) {
  throw new Error('--complete-scores must be true or false');
}
const completeScores = args['complete-scores'] === 'true';

/** Records what HybridSearch hands its reranker and keeps the fused order. */
class RecordingReranker implements Reranker {
  readonly id = 'recording';
  last: RerankCandidate[] = [];
  rerank(_query: string, candidates: RerankCandidate[]) {
    this.last = candidates;
    return Promise.resolve(candidates.map((_, index) => ({ index, score: -index })));
  }
}

interface QueryGroup extends TrainingGroup {
  query: string;
  candidates: RerankCandidate[];
  documents: string[];
  judged: Map<string, number>;
}

interface RecordedQuery {
  query: string;
  candidates: RerankCandidate[];
  documents: string[];
  judged: [string, number][];
}

/** The recorded candidates of a dataset's train queries, from the cache when asked and present. */
async function recorded(dataset: string, docs: number | undefined, queryCount: number, candidates: number) {
  const file = join(
    ROOT,
    '.trove',
    'eval',
    `train-candidates-${basename(datasetDir(dataset))}-${docs ?? 'all'}-${queryCount}-${candidates}-${args.fusion}${completeScores ? '-cs' : ''}.json`,
  );
  if (args.cache && existsSync(file)) {
    console.log(`[train] ${dataset}: candidates from ${file}`);
    return JSON.parse(readFileSync(file, 'utf8')) as RecordedQuery[];
  }
  const queries = await collect(dataset, docs, queryCount, candidates);
  if (args.cache) writeFileSync(file, JSON.stringify(queries));
  return queries;
}

function toGroup(recordedQuery: RecordedQuery): QueryGroup {
  const judged = new Map(recordedQuery.judged);
  return {
    query: recordedQuery.query,
    candidates: recordedQuery.candidates,
    documents: recordedQuery.documents,
    judged,
    features: extractFeatures(recordedQuery.query, recordedQuery.candidates),
    labels: recordedQuery.documents.map((d) => judged.get(d) ?? 0),
  };
}

async function collect(
  dataset: string,
  docs: number | undefined,
  queryCount: number,
  candidates: number,
): Promise<RecordedQuery[]> {
  const dir = datasetDir(dataset);
  const name = basename(dir);
  const loaded = loadBeirDataset(dir, 'train');
  const queries = loaded.queries.slice(0, queryCount);
  const projectName = evalProjectName(name, 'train', queries.length, docs);
  const config = evalWorkerConfig(projectName, join(ROOT, '.trove', 'eval', 'blobs'));
  const catalog = Catalog.open(config.database);
  const es = createElasticsearchClient(config.elasticsearch.url);
  try {
    const project = (await catalog.listProjects()).find(
      (p) => p.name === projectName && p.status === 'ACTIVE',
    );
    if (!project) {
      throw new Error(
        `no eval project "${projectName}": run npm run eval -- --dataset ${name} --split train ${docs ? `--docs ${docs} --queries ${queries.length}` : '(the whole corpus)'} first`,
      );
    }
    const corpusIdOf = new Map(
      [...(await projectDocuments(catalog, project.id)).values()].map((d) => [
        d.id,
        d.fileName.replace(/\.md$/, ''),
      ]),
    );
    const recorder = new RecordingReranker();
    // Queries embedded in batches up front: one call per query waits behind the ingest's batches.
    const embedder = await memoizedQueries(
      createEmbeddingProvider(config.embedding),
      queries.map((q) => q.text),
    );
    const search = new HybridSearch(es, config.elasticsearch.indexPrefix, embedder, {
      reranker: recorder,
      rerankCandidates: candidates,
    });
    const groups: RecordedQuery[] = [];
    for (const query of queries) {
      const hits = await search.search(
        {
          projectId: project.id,
          query: query.text,
          limit: candidates,
          mode: SearchMode.HYBRID,
        },
        { fusion: parseFusions(args.fusion)[0].fusion, retrieval: { completeScores } },
      );
      const documentOf = new Map(hits.map((h) => [h.chunkId, corpusIdOf.get(h.documentId)!]));
      const documents = recorder.last.map((c) => documentOf.get(c.id)!);
      groups.push({ query: query.text, candidates: recorder.last, documents, judged: [...query.relevant] });
    }
    console.log(`[train] ${name}: ${groups.length} train queries from project "${projectName}"`);
    return groups;
  } finally {
    await catalog.close();
    await es.close();
  }
}

/** nDCG@10 etc. of the fused order and of the model's order over the recorded candidates. */
async function inSample(model: LinearModel, groups: QueryGroup[]) {
  const reranker = new LearnedReranker(model);
  const fused = scoreRuns(groups.map((g) => ({ ranking: g.documents, judged: g.judged })));
  const reranked = scoreRuns(
    await Promise.all(
      groups.map(async (g) => ({
        ranking: (await reranker.rerank(g.query, g.candidates)).map((r) => g.documents[r.index]),
        judged: g.judged,
      })),
    ),
  );
  return { fusedNdcg10: fused.ndcg10, rerankedNdcg10: reranked.ndcg10 };
}

async function main() {
  const datasets = args.datasets!.split(',').map((d) => d.trim());
  // `all`: the whole corpus, the eval project that `npm run eval` builds without --docs.
  const docs = args.docs === 'all' ? undefined : Number(args.docs);
  const queries = Number(args.queries);
  const candidates = Number(args.candidates);
  const byDataset = new Map<string, QueryGroup[]>();
  for (const dataset of datasets) {
    byDataset.set(dataset, (await recorded(dataset, docs, queries, candidates)).map(toGroup));
  }
  const holdout = Number(args.holdout);
  const heldOut = (index: number) => holdout > 1 && index % holdout === 0;
  // Queries whose candidates are all relevant or all not teach nothing pairwise.
  const useful = [...byDataset.values()]
    .flatMap((groups) => groups.filter((_, index) => !heldOut(index)))
    .filter((g) => g.labels.some((l) => l > 0) && g.labels.some((l) => l === 0));
  const fit = trainPairwiseLogistic(useful, { equalQueries: args['equal-queries'], l2: Number(args.l2) });
  const model: LinearModel = {
    version: args.version!,
    features: [...FEATURE_NAMES],
    mean: fit.mean.map((x) => Number(x.toPrecision(6))),
    scale: fit.scale.map((x) => Number(x.toPrecision(6))),
    weights: fit.weights.map((x) => Number(x.toPrecision(6))),
    training: {
      method: 'pairwise logistic regression (linear RankNet), full-batch gradient descent, L2 1e-3',
      command: `node -r @swc-node/register tools/eval/train-reranker.ts --datasets ${datasets.join(',')} --docs ${docs ?? 'all'} --queries ${queries} --candidates ${candidates} --fusion ${args.fusion}${completeScores ? '' : ' --complete-scores false'}${args['equal-queries'] ? ' --equal-queries' : ''} --l2 ${args.l2}`,
      splits: datasets.map(
        (d) =>
          `${d} train (first ${queries} queries, ${docs ? `${docs}-document subset, seed 42` : 'whole corpus'})`,
      ),
      queries: useful.length,
      pairs: fit.pairs,
      loss: Number(fit.loss.toFixed(4)),
    },
  };
  for (const [dataset, groups] of byDataset) {
    console.log(
      `[train] ${dataset} in-sample:`,
      await inSample(
        model,
        groups.filter((_, i) => !heldOut(i)),
      ),
    );
    if (holdout > 1) {
      console.log(
        `[train] ${dataset} held out (1/${holdout}):`,
        await inSample(
          model,
          groups.filter((_, i) => heldOut(i)),
        ),
      );
    }
  }
  console.log('[train] weights:', Object.fromEntries(FEATURE_NAMES.map((n, i) => [n, model.weights[i]])));
  writeFileSync(args.out!, `${JSON.stringify(model, null, 2)}\n`);
  console.log(`[train] wrote ${args.out}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
