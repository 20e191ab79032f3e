/**
 * Latency (and nDCG@10) of the optional search stages of issue 11 — MMR and context expansion —
 * against an eval project built by `npm run eval` (read only: nothing is ingested or written).
 * Configurations run interleaved per query, so load on the machine hits them alike.
 *
 *   node -r @swc-node/register tools/bench/bench-search-features.ts --dataset beir_scifact --project "eval beir_scifact test q100 d300 seed42" --queries 50
 */
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openCatalog } from '@trove/catalog';
import { SearchMode } from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import { loadBeirDataset, percentile, scoreRuns } from '@trove/evaluation';
import {
  createElasticsearchClient,
  HybridSearch,
  IndexNames,
  maximalMarginalRelevance,
  resolveResultOptions,
  type ResultOptions,
  ResultStages,
} from '@trove/search';
import { sharedDatasets } from '@trove/testing';
import { localWorkerConfig } from '@trove/tools-support';

const { values: args } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'beir_scifact' },
    split: { type: 'string', default: 'test' },
    project: { type: 'string', default: 'eval beir_scifact test q100 d300 seed42' },
    queries: { type: 'string', default: '50' },
  },
});

const CONFIGS: Record<string, ResultOptions> = {
  baseline: {},
  'mmr λ=0.7': { mmr: true, mmrLambda: 0.7 },
  'mmr λ=0.5': { mmr: true, mmrLambda: 0.5 },
  'expand 1': { expand: 1 },
  'expand 3': { expand: 3 },
};

async function main() {
  const dir = [resolve(args.dataset!), join(sharedDatasets(), basename(args.dataset!))].find((d) =>
    existsSync(join(d, 'corpus.jsonl')),
  )!;
  const { queries: all } = loadBeirDataset(dir, args.split!);
  const config = localWorkerConfig('trove-eval', '/tmp');
  const catalog = openCatalog(config.database);
  const project = (await catalog.projects.listProjects()).find((p) => p.name === args.project);
  if (!project) throw new Error(`no eval project "${args.project}": run npm run eval first`);
  const corpusIdOf = new Map<string, string>();
  for (let after: string | undefined; ;) {
    const page = await catalog.documents.pageDocuments(project.id, {}, { first: 500, after });
    for (const d of page.items) corpusIdOf.set(d.id, d.fileName.replace(/\.md$/, ''));
    if (!page.hasNextPage) break;
    after = page.endCursor;
  }
  const known = new Set(corpusIdOf.values());
  // Queries whose judged documents the project holds (a subset project holds them all).
  const queries = all
    .filter((q) => [...q.relevant.keys()].some((id) => known.has(id)))
    .slice(0, Number(args.queries));
  const es = createElasticsearchClient(config.elasticsearch.url);
  const search = new HybridSearch(es, 'trove-eval', createEmbeddingProvider(config.embedding));
  const run = (query: string, results: ResultOptions) =>
    search.search({ projectId: project.id, query, limit: 10, mode: SearchMode.HYBRID, results });
  await run(queries[0].text, { mmr: true, expand: 1 }); // warm-up

  const latencies = new Map(Object.keys(CONFIGS).map((name) => [name, [] as number[]]));
  const rankings = new Map(Object.keys(CONFIGS).map((name) => [name, [] as string[][]]));
  for (const query of queries) {
    for (const [name, results] of Object.entries(CONFIGS)) {
      const started = performance.now();
      const hits = await run(query.text, results);
      latencies.get(name)!.push(performance.now() - started);
      rankings.get(name)!.push(hits.map((h) => corpusIdOf.get(h.documentId)!));
    }
  }
  console.log(
    `| ${args.project} (${queries.length} queries, HYBRID, limit 10) | nDCG@10 | p50 ms | p95 ms |`,
  );
  console.log('|---|---|---|---|');
  for (const name of Object.keys(CONFIGS)) {
    const scores = scoreRuns(
      rankings.get(name)!.map((ranking, i) => ({ ranking, judged: queries[i].relevant })),
    );
    const l = latencies.get(name)!;
    console.log(
      `| ${name} | ${scores.ndcg10.toFixed(3)} | ${percentile(l, 50).toFixed(0)} | ${percentile(l, 95).toFixed(0)} |`,
    );
  }

  // The stages alone (no embedding, no legs): what MMR and expansion add to a search.
  const settings = { mmr: false, mmrLambda: 0.7, mmrCandidates: 50, maxExpand: 3 };
  const stages = new ResultStages(es, new IndexNames('trove-eval'), settings);
  const stageMs: Record<string, number[]> = {
    'MMR: read 50 vectors': [],
    'MMR: order 50': [],
    'expand 1 (10 hits)': [],
    'expand 3 (10 hits)': [],
  };
  for (const query of queries) {
    const pool = await search.search({
      projectId: project.id,
      query: query.text,
      limit: 50,
      mode: SearchMode.HYBRID,
    });
    let started = performance.now();
    const vectors = await stages.vectors(pool.map((h) => h.chunkId));
    stageMs['MMR: read 50 vectors'].push(performance.now() - started);
    started = performance.now();
    maximalMarginalRelevance(
      pool.map((h) => ({ id: h.chunkId, score: h.score, vector: vectors.get(h.chunkId) ?? [] })),
      0.7,
    );
    stageMs['MMR: order 50'].push(performance.now() - started);
    for (const expand of [1, 3]) {
      started = performance.now();
      await stages.apply(project.id, pool, 10, resolveResultOptions({ expand }, settings));
      stageMs[`expand ${expand} (10 hits)`].push(performance.now() - started);
    }
  }
  console.log('\n| stage alone | p50 ms | p95 ms |\n|---|---|---|');
  for (const [name, l] of Object.entries(stageMs)) {
    console.log(`| ${name} | ${percentile(l, 50).toFixed(1)} | ${percentile(l, 95).toFixed(1)} |`);
  }
  await es.close();
  await catalog.lifecycle.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
