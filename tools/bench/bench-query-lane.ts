/**
 * `npm run bench:query-lane`: HYBRID search latency while passages are being embedded, with query
 * embeddings on their own embedder (the query lane, TROVE_EMBEDDING_QUERY_URL) and without it (at the
 * main embedder, behind the passage batches), against the idle latency of the same run. Needs the
 * local services of infra/local, both embedders included (`npm run services:up`).
 *
 * A slice of SciFact is indexed under a prefix of its own (dropped at the end). Then, in turn:
 * idle searches, and searches while `BENCH_LOAD_STREAMS` loops send batches of 16 other SciFact
 * abstracts to the main embedder without pause, as a busy worker does. Each condition has its own
 * queries, each searched once with the lane and once without (no query cache), the lane going first
 * every other query, so both meet the same load.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SearchMode } from '@trove/domain';
import {
  createEmbeddingProvider,
  type ListingEmbeddingProvider,
  QueryLaneEmbeddingProvider,
} from '@trove/embeddings';
import { beirMarkdown, loadBeirDataset, percentile } from '@trove/evaluation';
import { ChunkIndex, createElasticsearchClient, HybridSearch, type SearchTimings } from '@trove/search';
import { indexBeirDocuments } from '@trove/test-support';
import {
  datasetDir,
  interleave,
  localWorkerConfig,
  sizeDefault,
  writeBenchmarkSections,
} from '@trove/tools-support';

const KNOBS = ['BENCH_QUERY_LANE_QUERIES', 'BENCH_QUERY_LANE_DOCUMENTS', 'BENCH_LOAD_STREAMS'];
/** The command the section names, with the knobs this run was given. */
const COMMAND = [
  ...KNOBS.filter((k) => process.env[k]).map((k) => `${k}=${process.env[k]}`),
  'npm run bench:query-lane',
].join(' ');
/** Half the queries of each condition (idle, load): 4 × this many SciFact test queries in all. */
const size = (name: string) => Number(process.env[name] ?? sizeDefault('npm run bench:query-lane', name));
const QUERIES = size('BENCH_QUERY_LANE_QUERIES');
const DOCUMENTS = size('BENCH_QUERY_LANE_DOCUMENTS');
/** Passage batches in flight at the main embedder during the load phase. */
const LOAD_STREAMS = size('BENCH_LOAD_STREAMS');
/** The worker's batch size (TROVE_EMBEDDING_BATCH_SIZE's default). */
const BATCH = 16;
/** The target: searches during an ingest stay within this factor of the idle p95. */
const TARGET_RATIO = 1.5;

type Lane = 'lane on' | 'lane off';
type Condition = 'idle' | 'load';

const ms = (values: number[], p: number) => Math.round(percentile(values, p));

/** The `--threads` an infra/local embedder was started with, read from its command line. */
function serverThreads(service: 'embedder' | 'embedder-query'): string {
  const localDir = process.env.TROVE_LOCAL_DIR ?? join(__dirname, '..', '..', '.trove', 'local');
  const runDir = process.env.TROVE_LOCAL_RUN_DIR ?? join(localDir, 'run');
  try {
    const pid = readFileSync(join(runDir, `${service}.pid`), 'utf8').trim();
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args[args.indexOf('--threads') + 1] ?? 'unknown';
  } catch {
    return 'unknown (not started by infra/local here)';
  }
}

async function main() {
  const name = `bench-query-lane-${randomBytes(3).toString('hex')}`;
  const config = localWorkerConfig(name, join(tmpdir(), name));
  const laneUrl = config.embedding.queryBaseUrl!;
  const mainOnly = { ...config.embedding, queryBaseUrl: undefined };
  const passages = createEmbeddingProvider(mainOnly);
  const lane = createEmbeddingProvider(config.embedding, { log: (m) => console.log(`[bench] ${m}`) });
  if (!(lane instanceof QueryLaneEmbeddingProvider) || !(await lane.laneUsable())) {
    throw new Error(
      `no query embedder of the same model at ${laneUrl}: start it with infra/local/up.sh embedder-query`,
    );
  }
  const [mainModels, laneModels] = await Promise.all([
    (passages as ListingEmbeddingProvider).models(),
    (createEmbeddingProvider({ ...mainOnly, baseUrl: laneUrl }) as ListingEmbeddingProvider).models(),
  ]);

  const scifact = loadBeirDataset(datasetDir('beir_scifact'), 'test');
  if (scifact.queries.length < 4 * QUERIES) {
    throw new Error(`SciFact has ${scifact.queries.length} test queries; 4 × ${QUERIES} are needed`);
  }
  const indexed = scifact.corpus.slice(0, DOCUMENTS);
  const loadTexts = scifact.corpus.slice(DOCUMENTS).map((d) => beirMarkdown(d));
  const es = createElasticsearchClient(config.elasticsearch.url);
  const index = new ChunkIndex(es, name, passages.dimensions);
  const projectId = 'scifact';
  try {
    await index.ensure();
    let started = performance.now();
    await indexBeirDocuments(indexed, { index, embedder: passages, projectId });
    console.log(
      `[bench] indexed ${indexed.length} SciFact documents in ${Math.round(performance.now() - started)} ms`,
    );

    const searches: Record<Lane, HybridSearch> = {
      'lane on': new HybridSearch(es, name, lane, { queryCacheSize: 0 }),
      'lane off': new HybridSearch(es, name, passages, { queryCacheSize: 0 }),
    };
    const results = new Map<string, { total: number[]; embed: number[] }>();
    const run = async (condition: Condition, queries: string[]) => {
      for (const { query, configuration } of interleave(queries, ['lane on', 'lane off'] as const)) {
        const timings: SearchTimings = {};
        const t = performance.now();
        await searches[configuration].searchWithReport(
          { projectId, query, limit: 10, mode: SearchMode.HYBRID },
          { timings },
        );
        const key = `${condition}/${configuration}`;
        const row = results.get(key) ?? { total: [], embed: [] };
        row.total.push(performance.now() - t);
        row.embed.push(timings.embedMs ?? 0);
        results.set(key, row);
        if (row.total.length % 10 === 0) console.log(`[bench] ${key}: ${row.total.length} searches`);
      }
    };
    const texts = scifact.queries.map((q) => q.text);
    // Warm-up (connections, Elasticsearch caches) with queries that are not measured again.
    await run('idle', texts.slice(4 * QUERIES, 4 * QUERIES + 5));
    results.clear();

    await run('idle', texts.slice(0, 2 * QUERIES));
    console.log(`[bench] idle: ${2 * QUERIES} searches done; now with passages embedding`);

    // The load: passage batches sent back to back, as many in flight as LOAD_STREAMS.
    let stop = false;
    let batches = 0;
    let next = 0;
    const stream = async () => {
      while (!stop) {
        const batch = Array.from({ length: BATCH }, () => loadTexts[next++ % loadTexts.length]);
        await passages.embed(batch, 'passage');
        batches += 1;
      }
    };
    const streams = Array.from({ length: LOAD_STREAMS }, () => stream());
    // The first batch is under way before the first measured search.
    while (batches === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    started = performance.now();
    const batchesBefore = batches;
    await run('load', texts.slice(2 * QUERIES, 4 * QUERIES));
    const loadSeconds = (performance.now() - started) / 1000;
    const loadBatches = batches - batchesBefore;
    stop = true;
    await Promise.all(streams);

    const idleP95 = ms(results.get('idle/lane on')!.total, 95);
    const row = (condition: Condition, lane: Lane) => {
      const { total, embed } = results.get(`${condition}/${lane}`)!;
      const p95 = ms(total, 95);
      return `| ${condition === 'idle' ? 'idle' : 'passages embedding'} | ${lane} | ${total.length} | ${ms(total, 50)} | ${p95} | ${ms(embed, 50)} | ${ms(embed, 95)} | ${(p95 / idleP95).toFixed(2)} |`;
    };
    const loadOn = ms(results.get('load/lane on')!.total, 95) / idleP95;
    const loadOff = ms(results.get('load/lane off')!.total, 95) / idleP95;
    const body = `## Search during an import: the query lane

HYBRID searches of unique SciFact test queries (top 10, no query cache) over ${indexed.length} indexed SciFact
abstracts, one at a time: idle, then while ${LOAD_STREAMS} loop${LOAD_STREAMS > 1 ? 's send' : ' sends'} batches of ${BATCH} other SciFact abstracts to
the main embedder back to back (${loadBatches} batches, ${((loadBatches * BATCH) / loadSeconds).toFixed(1)} passages/s during the measured searches).
"lane on": query embeddings at the query embedder (${laneUrl}, \`TROVE_EMBEDDING_QUERY_URL\`; it lists
${laneModels.join(', ')}, as the main embedder lists ${mainModels.join(', ')}); "lane off": at the main embedder, behind the passage
batches. Each condition has its own queries, each searched once with each lane (no query cache), the lane going first every other
query, so both meet the same load.

| condition | query embeddings | queries | p50 ms | p95 ms | embedding p50 ms | embedding p95 ms | p95 / idle p95 (lane on) |
| --- | --- | --- | --- | --- | --- | --- | --- |
${row('idle', 'lane on')}
${row('idle', 'lane off')}
${row('load', 'lane on')}
${row('load', 'lane off')}

While passages are embedded, HYBRID p95 is ${loadOn.toFixed(2)}× the idle p95 with the query lane and ${loadOff.toFixed(2)}× without it
(target ≤ ${TARGET_RATIO}×). Embedder threads (\`--threads\`, as infra/local started them): main ${serverThreads('embedder')}
(\`TROVE_EMBEDDER_THREADS\`), queries ${serverThreads('embedder-query')} (\`TROVE_EMBEDDER_QUERY_THREADS\`).
Knobs: \`BENCH_QUERY_LANE_QUERIES\` (${QUERIES}: ${2 * QUERIES} queries per condition), \`BENCH_QUERY_LANE_DOCUMENTS\` (${DOCUMENTS}),
\`BENCH_LOAD_STREAMS\` (${LOAD_STREAMS}).`;
    writeBenchmarkSections(COMMAND, body);
    console.log(body);
  } finally {
    await es.indices.delete({ index: `${name}-*`, ignore_unavailable: true }).catch(() => undefined);
    await es.close();
  }
}

main().catch((error: unknown) => {
  console.error(`[bench] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
