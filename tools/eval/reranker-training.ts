/**
 * What tools/eval/train-reranker.ts and tools/eval/feedback-bench.ts share: the recorded fused
 * candidates of a data set's train queries (searched on its eval project, or read from the cache
 * in .trove/eval/), the held-out split, fitting a model with or without feedback, and scoring a
 * model's order with nDCG@10.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { openCatalog } from '@trove/catalog';
import { type RerankCandidate, type Reranker, SearchMode } from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import { loadBeirDataset, ndcgAt, scoreRuns } from '@trove/evaluation';
import {
  extractFeatures,
  FEATURE_NAMES,
  LearnedReranker,
  type LinearModel,
  type PairwiseGroup,
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

export const ROOT = join(__dirname, '..', '..');

/** How the train queries' candidates are searched: the fusion and retrieval search runs. */
export interface RecordingSettings {
  /** `undefined`: the whole corpus (the eval project `npm run eval` builds without --docs). */
  docs?: number;
  queries: number;
  /** Fused candidates recorded per query. */
  candidates: number;
  /** As `npm run eval -- --fusions`: `rrf:60`, `convex:0.6`. */
  fusion: string;
  completeScores: boolean;
  /** Keep the recorded candidates in .trove/eval/ and reuse them. */
  cache: boolean;
}

/** Records what HybridSearch hands its reranker and keeps the fused order. */
class RecordingReranker implements Reranker {
  readonly id = 'recording';
  last: RerankCandidate[] = [];
  rerank(_query: string, candidates: RerankCandidate[]) {
    this.last = candidates;
    return Promise.resolve(candidates.map((_, index) => ({ index, score: -index })));
  }
}

/** One train query's fused candidates, their corpus documents and the query's judgments. */
export interface RecordedQuery {
  /** The query's id in the data set (absent in candidates recorded before ids were kept). */
  id?: string;
  query: string;
  candidates: RerankCandidate[];
  documents: string[];
  judged: [string, number][];
}

export interface QueryGroup extends TrainingGroup {
  id?: string;
  query: string;
  candidates: RerankCandidate[];
  documents: string[];
  judged: Map<string, number>;
}

/** The recorded candidates of a dataset's train queries, from the cache when asked and present. */
export async function recordedQueries(
  dataset: string,
  settings: RecordingSettings,
): Promise<RecordedQuery[]> {
  const { docs, queries, candidates, fusion, completeScores } = settings;
  const file = join(
    ROOT,
    '.trove',
    'eval',
    `train-candidates-${basename(datasetDir(dataset))}-${docs ?? 'all'}-${queries}-${candidates}-${fusion}${completeScores ? '-cs' : ''}.json`,
  );
  if (settings.cache && existsSync(file)) {
    console.log(`[train] ${dataset}: candidates from ${file}`);
    return JSON.parse(readFileSync(file, 'utf8')) as RecordedQuery[];
  }
  const recorded = await collect(dataset, settings);
  if (settings.cache) writeFileSync(file, JSON.stringify(recorded));
  return recorded;
}

export function toGroup(recorded: RecordedQuery): QueryGroup {
  const judged = new Map(recorded.judged);
  return {
    id: recorded.id,
    query: recorded.query,
    candidates: recorded.candidates,
    documents: recorded.documents,
    judged,
    features: extractFeatures(recorded.query, recorded.candidates),
    labels: recorded.documents.map((d) => judged.get(d) ?? 0),
  };
}

async function collect(dataset: string, settings: RecordingSettings): Promise<RecordedQuery[]> {
  const { docs, candidates, completeScores } = settings;
  const dir = datasetDir(dataset);
  const name = basename(dir);
  const queries = loadBeirDataset(dir, 'train').queries.slice(0, settings.queries);
  const projectName = evalProjectName(name, 'train', queries.length, docs);
  const config = evalWorkerConfig(projectName, join(ROOT, '.trove', 'eval', 'blobs'));
  const catalog = openCatalog(config.database);
  const es = createElasticsearchClient(config.elasticsearch.url);
  try {
    const project = (await catalog.projects.listProjects()).find(
      (p) => p.name === projectName && p.status === 'ACTIVE',
    );
    if (!project) {
      throw new Error(
        `no eval project "${projectName}": run npm run eval -- --dataset ${name} --split train ${docs ? `--docs ${docs} --queries ${queries.length}` : '(the whole corpus)'} first`,
      );
    }
    const corpusIdOf = new Map(
      [...(await projectDocuments(catalog.documents, project.id)).values()].map((d) => [
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
    const recorded: RecordedQuery[] = [];
    for (const query of queries) {
      const hits = await search.search(
        {
          projectId: project.id,
          query: query.text,
          limit: candidates,
          mode: SearchMode.HYBRID,
        },
        { fusion: parseFusions(settings.fusion)[0].fusion, retrieval: { completeScores } },
      );
      const documentOf = new Map(hits.map((h) => [h.chunkId, corpusIdOf.get(h.documentId)!]));
      const documents = recorder.last.map((c) => documentOf.get(c.id)!);
      recorded.push({
        id: query.id,
        query: query.text,
        candidates: recorder.last,
        documents,
        judged: [...query.relevant],
      });
    }
    console.log(`[train] ${name}: ${recorded.length} train queries from project "${projectName}"`);
    return recorded;
  } finally {
    await catalog.lifecycle.close();
    await es.close();
  }
}

/** Every `holdout`-th train query (the first included) is held out of the fit; none when holdout ≤ 1. */
export function isHeldOut(index: number, holdout: number): boolean {
  return holdout > 1 && index % holdout === 0;
}

/** Queries whose candidates are all relevant or all not teach nothing pairwise. */
export function hasPairs(group: TrainingGroup): boolean {
  return group.labels.some((l) => l > 0) && group.labels.some((l) => l === 0);
}

export interface FitSettings {
  version: string;
  l2: number;
  equalQueries: boolean;
  /** Pairs from feedback, and the most weight they may have relative to the judged pairs. */
  feedback?: { groups: readonly PairwiseGroup[]; cap: number };
}

/** A model fitted on the judged groups (and feedback pairs), with its provenance. */
export function fitModel(
  groups: QueryGroup[],
  settings: FitSettings,
  training: Record<string, unknown> = {},
): LinearModel {
  const useful = groups.filter(hasPairs);
  const fit = trainPairwiseLogistic(useful, {
    equalQueries: settings.equalQueries,
    l2: settings.l2,
    extra: settings.feedback?.groups,
    extraCap: settings.feedback?.cap,
  });
  return {
    version: settings.version,
    features: [...FEATURE_NAMES],
    mean: fit.mean.map((x) => Number(x.toPrecision(6))),
    scale: fit.scale.map((x) => Number(x.toPrecision(6))),
    weights: fit.weights.map((x) => Number(x.toPrecision(6))),
    training: {
      method: `pairwise logistic regression (linear RankNet), full-batch gradient descent, L2 ${settings.l2}`,
      ...training,
      queries: useful.length,
      pairs: fit.pairs,
      ...(settings.feedback
        ? {
            feedback: {
              questions: settings.feedback.groups.length,
              pairs: fit.extraPairs,
              cap: settings.feedback.cap,
              share: Number(fit.extraShare.toFixed(4)),
            },
          }
        : {}),
      loss: Number(fit.loss.toFixed(4)),
    },
  };
}

/** nDCG@10 of the fused order and of the model's order over the recorded candidates. */
export async function scoreModel(
  model: LinearModel,
  groups: QueryGroup[],
): Promise<{ fusedNdcg10: number; rerankedNdcg10: number }> {
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

/** nDCG@10 of the model's order of each query's recorded candidates, query by query. */
export async function ndcgByQuery(model: LinearModel, groups: QueryGroup[]): Promise<number[]> {
  const reranker = new LearnedReranker(model);
  return Promise.all(
    groups.map(async (g) =>
      ndcgAt(
        (await reranker.rerank(g.query, g.candidates)).map((r) => g.documents[r.index]),
        g.judged,
        10,
      ),
    ),
  );
}
