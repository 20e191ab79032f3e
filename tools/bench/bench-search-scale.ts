/**
 * `npm run bench:search-scale`: HYBRID search latency at 100k and 1M chunks, against its raw legs
 * (the BM25 request and the kNN request, each sent alone) measured in the same run, interleaved
 * query by query; and what the index's vectors cost per million chunks, int8_hnsw (production)
 * against float hnsw. Written to its own section of BENCHMARKS.md.
 *
 * Synthetic chunks (tools/bench/synthetic-chunks.ts): SciFact words, 384-dimension vectors around
 * cluster centres; queries are SciFact query texts with synthetic vectors, so no model runs. The
 * chunks go into a PRIVATE Elasticsearch (its own ports, data folder and heap; removed at the end),
 * through ChunkIndex's mapping and settings, never into the shared one on :9200.
 *
 *   npm run bench:search-scale -- --sizes 100000,1000000 --queries 300
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@elastic/elasticsearch';
import { SearchMode } from '@trove/domain';
import { percentile, readJsonl } from '@trove/evaluation';
import { ChunkIndex, chunkMappings, createElasticsearchClient, HybridSearch } from '@trove/search';
import { sharedDatasets } from '@trove/testing';
import { PrivateServices } from '@trove/test-support';
import { interleave, latencyRatio, writeBenchmarkSections } from '@trove/tools-support';
import { indexMemory, type IndexMemory, mibPerMillion, type VectorType } from './index-memory';
import { SyntheticCorpus, SyntheticQueryEmbedder, Vocabulary } from './synthetic-chunks';

const DEFAULTS = {
  sizes: '100000,1000000',
  queries: '300',
  warmup: '30',
  heap: '2g',
  segments: '1',
  seed: '42',
};
const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: DEFAULTS.sizes },
    queries: { type: 'string', default: DEFAULTS.queries },
    warmup: { type: 'string', default: DEFAULTS.warmup },
    /** The size whose index is also built with float vectors (memory only); default: the smallest. */
    'float-size': { type: 'string' },
    /** The sizes whose int8 index memory is measured (a merge to one segment first); default: every size. */
    'memory-sizes': { type: 'string' },
    heap: { type: 'string', default: DEFAULTS.heap },
    segments: { type: 'string', default: DEFAULTS.segments },
    seed: { type: 'string', default: DEFAULTS.seed },
  },
});

const DIMENSIONS = 384;
const LIMIT = 10;

function positiveInts(name: string, text: string): number[] {
  const values = text.split(',').map((s) => Number(s.trim()));
  if (!values.length || values.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new Error(`--${name} takes positive integers separated by commas, not ${JSON.stringify(text)}`);
  }
  return values;
}

const sizes = positiveInts('sizes', args.sizes!);
const [queryCount] = positiveInts('queries', args.queries!);
const [warmupCount] = positiveInts('warmup', args.warmup!);
const [segmentCount] = positiveInts('segments', args.segments!);
const [seed] = positiveInts('seed', args.seed!);
const floatSize = args['float-size'] ? positiveInts('float-size', args['float-size'])[0] : Math.min(...sizes);
if (!sizes.includes(floatSize))
  throw new Error(`--float-size ${floatSize} is not one of --sizes ${sizes.join(',')}`);
const memorySizes = args['memory-sizes'] ? positiveInts('memory-sizes', args['memory-sizes']) : sizes;
if (memorySizes.some((size) => !sizes.includes(size)))
  throw new Error(`--memory-sizes ${memorySizes.join(',')} are not all among --sizes ${sizes.join(',')}`);
if (!/^\d+[mg]$/.test(args.heap!))
  throw new Error(`--heap takes a JVM size such as 2g or 1536m, not ${args.heap}`);

const round = (n: number, digits = 1) => Number(n.toFixed(digits));
const seconds = (ms: number) => `${round(ms / 1000, 0)} s`;

interface LoadReport {
  bulkMs: number;
  mergeMs: number;
}

/**
 * Bulk-loads chunks 0‥size-1 with refresh off, then refreshes and force-merges to `segments`.
 * `index.compound_format: false` keeps each Lucene file apart, so `_stats` can tell the vector
 * files from the rest (it changes the layout on disk, not the contents).
 */
async function load(
  admin: Client,
  index: string,
  corpus: SyntheticCorpus,
  size: number,
): Promise<LoadReport> {
  await admin.indices.putSettings({
    index,
    settings: { refresh_interval: '-1', 'index.compound_format': false },
  });
  const indexedAt = new Date().toISOString();
  const started = performance.now();
  let next = 0;
  let lastReport = started;
  const dropped: string[] = [];
  await admin.helpers.bulk({
    datasource: (async function* () {
      for (; next < size; next++) {
        if (performance.now() - lastReport > 30_000) {
          lastReport = performance.now();
          console.log(
            `[search-scale] ${index}: ${next} of ${size} chunks sent, ${seconds(lastReport - started)}`,
          );
        }
        yield corpus.chunk(next, indexedAt);
      }
    })(),
    onDocument: (chunk) => ({ index: { _index: index, _id: chunk.chunkId } }),
    onDrop: (drop) => dropped.push(`${drop.status}: ${JSON.stringify(drop.error)}`),
    flushBytes: 5_000_000,
    concurrency: 2,
    retries: 5,
    wait: 5_000,
    refreshOnCompletion: false,
  });
  if (dropped.length) throw new Error(`${dropped.length} chunks were not indexed (first: ${dropped[0]})`);
  const bulkMs = performance.now() - started;
  const merging = performance.now();
  await admin.indices.putSettings({ index, settings: { 'index.refresh_interval': null } }); // back to the default
  await admin.indices.refresh({ index });
  await admin.indices.forcemerge({ index, max_num_segments: segmentCount });
  await admin.indices.refresh({ index });
  const mergeMs = performance.now() - merging;
  const { count } = await admin.count({ index });
  if (count !== size) throw new Error(`${index} holds ${count} chunks, expected ${size}`);
  return { bulkMs, mergeMs };
}

/**
 * The index's vector memory. Elasticsearch writes every flushed segment as a compound file, which
 * `_stats` does not break down, so a merge to one (non-compound) segment comes first when the index
 * has more: searches were measured before, on the segments the run asked for.
 */
async function measureMemory(admin: Client, index: string, type: VectorType): Promise<IndexMemory> {
  if (segmentCount > 1) await admin.indices.forcemerge({ index, max_num_segments: 1 });
  const stats = await admin.indices.stats({
    index,
    metric: ['docs', 'store', 'segments'],
    include_segment_file_sizes: true,
  });
  const usage = await admin.indices.diskUsage({ index, run_expensive_tasks: true });
  return indexMemory(stats.indices![index].primaries!, usage[index], type);
}

async function segmentsOf(admin: Client, index: string): Promise<number> {
  const stats = await admin.indices.stats({ index, metric: ['segments'] });
  return stats.indices![index].primaries!.segments!.count;
}

interface LatencyReport {
  hybrid: number[];
  keyword: number[];
  vector: number[];
  /** Queries whose BM25 leg found at least one chunk (a sanity check of the synthetic text). */
  keywordMatched: number;
}

/** HYBRID searches and the raw legs alone, query by query, the three in turn (first one rotating). */
async function measureLatency(
  search: HybridSearch,
  projectId: string,
  warmup: readonly { text: string; vector: number[] }[],
  queries: readonly { text: string; vector: number[] }[],
): Promise<LatencyReport> {
  const hybrid = (text: string) =>
    search.search({ projectId, query: text, limit: LIMIT, mode: SearchMode.HYBRID });
  const keyword = (text: string) =>
    search.legRequest({ kind: 'keyword' }, { projectId, query: text, limit: LIMIT });
  const vector = (text: string, v: number[]) =>
    search.legRequest({ kind: 'vector', vector: v }, { projectId, query: text, limit: LIMIT });
  // Warm-up on other queries: the first searches page the index in and open connections.
  for (const q of warmup) {
    await hybrid(q.text);
    await keyword(q.text);
    await vector(q.text, q.vector);
  }
  const report: LatencyReport = { hybrid: [], keyword: [], vector: [], keywordMatched: 0 };
  for (const { query, configuration } of interleave(queries, ['hybrid', 'keyword', 'vector'] as const)) {
    if (configuration === 'hybrid') {
      const started = performance.now();
      const hits = await hybrid(query.text);
      report.hybrid.push(performance.now() - started);
      if (hits.length !== LIMIT)
        throw new Error(`a HYBRID search returned ${hits.length} hits, expected ${LIMIT}`);
    } else if (configuration === 'keyword') {
      const { ranked, timings } = await keyword(query.text);
      report.keyword.push(timings.keywordMs!);
      if (ranked.length) report.keywordMatched++;
    } else {
      const { ranked, timings } = await vector(query.text, query.vector);
      report.vector.push(timings.vectorMs!);
      if (!ranked.length) throw new Error('a kNN request returned no chunk');
    }
  }
  return report;
}

const p = (values: number[], q: number) => round(percentile(values, q), 1);

async function main() {
  const datasets = sharedDatasets();
  const scifact = join(datasets, 'beir_scifact');
  const vocabulary = new Vocabulary(
    readJsonl<{ title: string; text: string }>(join(scifact, 'corpus.jsonl')),
  );
  const corpus = new SyntheticCorpus(vocabulary, { seed, dimensions: DIMENSIONS });
  // Unique query texts (SciFact's), each with a synthetic vector near a cluster centre.
  const texts = [
    ...new Set(
      readFileSync(join(scifact, 'queries.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { text: string }).text.trim()),
    ),
  ];
  if (texts.length < warmupCount + queryCount) {
    throw new Error(
      `SciFact has ${texts.length} unique queries; --queries + --warmup ask for ${queryCount + warmupCount}`,
    );
  }
  const all = texts
    .slice(0, warmupCount + queryCount)
    .map((text, j) => ({ text, vector: corpus.queryVector(j) }));
  const warmup = all.slice(0, warmupCount);
  const queries = all.slice(warmupCount);
  const embedder = new SyntheticQueryEmbedder(new Map(all.map((q) => [q.text, q.vector])), DIMENSIONS);

  const services = new PrivateServices({ esHeap: args.heap });
  // On a shared 2-core machine under load, a 2 GB node may take longer than up.sh's 180 s to start.
  process.env.TROVE_ES_START_TIMEOUT ??= '900';
  const stop = () => {
    void services.cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const rows: string[] = [];
  const memoryRows: string[] = [];
  let esVersion = 'unknown';
  try {
    console.log(`[search-scale] starting a private Elasticsearch (heap ${args.heap})`);
    await services.start('elasticsearch');
    // Searches use the production client; loading and merging a million chunks take longer than its 30 s timeout.
    const es = createElasticsearchClient(services.esUrl);
    const admin = new Client({ node: services.esUrl, maxRetries: 0, requestTimeout: 6 * 3_600_000 });
    // The integration-test distribution answers no `GET /`: the version comes from the node info.
    esVersion = Object.values((await admin.nodes.info({ node_id: '_local' })).nodes)[0]?.version ?? esVersion;
    for (const size of sizes) {
      const prefix = `scale-${size}`;
      const chunks = new ChunkIndex(es, prefix, DIMENSIONS);
      await chunks.ensure();
      const index = chunks.names.chunksIndex(1, DIMENSIONS);
      console.log(`[search-scale] loading ${size} chunks into ${index} (int8_hnsw)`);
      const loaded = await load(admin, index, corpus, size);
      console.log(
        `[search-scale] loaded in ${seconds(loaded.bulkMs)}, refresh + force-merge ${seconds(loaded.mergeMs)}`,
      );
      const search = new HybridSearch(es, prefix, embedder, { queryCacheSize: 0 });
      const loadBefore = loadavg()[0];
      const latency = await measureLatency(search, corpus.options.projectId, warmup, queries);
      const load1 = `${round(loadBefore, 1)} → ${round(loadavg()[0], 1)}`;
      // Counted before measureMemory, which merges to one segment.
      const segments = await segmentsOf(admin, index);
      const memory = memorySizes.includes(size) ? await measureMemory(admin, index, 'int8_hnsw') : undefined;
      const hybridP95 = p(latency.hybrid, 95);
      const maxLegP95 = Math.max(p(latency.keyword, 95), p(latency.vector, 95));
      rows.push(
        `| ${size.toLocaleString('en')} | ${seconds(loaded.bulkMs)} | ${seconds(loaded.mergeMs)} | ${segments} | ` +
          `${p(latency.hybrid, 50)} / ${hybridP95} | ${p(latency.keyword, 50)} / ${p(latency.keyword, 95)} | ` +
          `${p(latency.vector, 50)} / ${p(latency.vector, 95)} | ${latencyRatio(hybridP95, maxLegP95)} | ` +
          `${latency.keywordMatched} / ${queries.length} | ${load1} |`,
      );
      console.log(rows.at(-1));
      if (memory) memoryRows.push(memoryRow('int8_hnsw (production)', memory));
      await admin.indices.delete({ index });
      if (size === floatSize) {
        const floatIndex = `${prefix}-float`;
        const mappings = chunkMappings(DIMENSIONS);
        await admin.indices.create({
          index: floatIndex,
          settings: { number_of_shards: 1, number_of_replicas: 0 },
          mappings: {
            ...mappings,
            properties: {
              ...mappings.properties,
              embedding: { ...mappings.properties.embedding, index_options: { type: 'hnsw' as const } },
            },
          },
        });
        console.log(`[search-scale] loading ${size} chunks into ${floatIndex} (hnsw, float vectors)`);
        await load(admin, floatIndex, corpus, size);
        memoryRows.push(memoryRow('hnsw (float copy)', await measureMemory(admin, floatIndex, 'hnsw')));
        await admin.indices.delete({ index: floatIndex });
      }
    }
    await es.close();
    await admin.close();
  } finally {
    await services.cleanup();
  }

  const options = Object.entries(args)
    .filter(([key, value]) => value !== undefined && DEFAULTS[key as keyof typeof DEFAULTS] !== value)
    .map(([key, value]) => `--${key} ${value}`);
  const command = `npm run bench:search-scale${options.length ? ` -- ${options.join(' ')}` : ''}`;
  const section = `## Search at scale: HYBRID vs its raw legs, index memory (synthetic chunks)

\`tools/bench/bench-search-scale.ts\` on a private Elasticsearch ${esVersion} (single node, heap ${args.heap},
started and removed by the benchmark), the chunk index created by \`ChunkIndex.ensure()\` (production
mapping: int8_hnsw, cosine, 1 shard, no replica). Synthetic chunks (\`tools/bench/synthetic-chunks.ts\`, seed
${seed}): ${corpus.options.minWords}–${corpus.options.maxWords} words each drawn from the SciFact corpus (half from one
SciFact abstract as the topic, half by corpus frequency), ${DIMENSIONS}-dimension unit vectors around
${corpus.options.clusters} cluster centres (cosine ≈ 0.5 within a cluster, ≈ 0 across), all in one project.
Loaded with the bulk helper (5 MB requests, 2 in flight) with refresh off, then refreshed and
force-merged to ${segmentCount} segment(s).

${queries.length} unique SciFact query texts, each with a synthetic vector (no model: the query embedding
costs nothing, so HYBRID here is Elasticsearch's work and Trove's fusion), after ${warmupCount} warm-up
queries. Production search settings (convex fusion with score completion, 50 candidates per leg,
num_candidates 200, float rescoring of 3 × 50 kNN candidates), top ${LIMIT}.

| chunks | bulk load | refresh + force-merge | segments | HYBRID p50 / p95 ms | BM25 leg p50 / p95 ms | kNN leg p50 / p95 ms | HYBRID p95 / max(leg p95) | queries BM25 matched | machine load (1 min), before → after the searches |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

The legs are the requests HybridSearch sends (\`HybridSearch.legRequest()\`: the same body, filters
and candidates), each sent alone and timed as a client round trip; HYBRID, the BM25 leg and the kNN
leg ran query by query in turn, the first one rotating, so load on the shared machine falls on all
three alike: compare the ratio, not the milliseconds, across runs (the load column is the 2-core
machine's load average, other people's work included). A HYBRID search sends both legs at once, then one msearch that scores each leg's
candidates in the other leg (convex fusion's score completion), so it cannot be faster than its
slower leg and usually pays one more round trip.

Vector memory per million chunks, from Elasticsearch: \`_stats?include_segment_file_sizes=true\`
(bytes per Lucene file; the indexes are written with \`index.compound_format: false\` so the vector
files are not hidden in compound files) and \`_disk_usage?run_expensive_tasks=true\` (bytes of the
\`embedding\` field). Lucene keeps vectors off the JVM heap: a kNN search reads the HNSW graph
(\`.vex\`) and the vectors it compares, int8 (\`.veq\`) or float (\`.vec\`), through the OS page cache;
that sum is the memory a node should have free for kNN to stay fast ("kNN working set"). An
int8_hnsw index keeps its float vectors on disk as well, for rescoring (a few reads per query).
Elasticsearch ${esVersion} has no off-heap vector figure in \`_stats\` (only \`dense_vector.value_count\`).
The float copy is built at ${floatSize.toLocaleString('en')} chunks only, from the same chunks${memorySizes.length > 1 ? '; the int8 rows at each size show how the figures scale' : ''}${memorySizes.length < sizes.length ? `; memory is measured at ${memorySizes.map((n) => n.toLocaleString('en')).join(', ')} chunks only (\`--memory-sizes\`: the measure merges the index to one segment, which takes long at a million)` : ''}.

| index | chunks | kNN working set (graph + compared vectors) | graph .vex | int8 .veq | float .vec | vector field on disk (_disk_usage) | whole index on disk |
| --- | --- | --- | --- | --- | --- | --- | --- |
${memoryRows.join('\n')}

All sizes in MiB per million chunks (measured bytes × 1,000,000 ÷ chunks).
`;
  writeBenchmarkSections(command, section);
  console.log(section);
}

function memoryRow(label: string, m: IndexMemory): string {
  const perM = (bytes: number | undefined) =>
    bytes === undefined ? '–' : String(mibPerMillion(bytes, m.docs));
  return (
    `| ${label} | ${m.docs.toLocaleString('en')} | ${perM(m.searchBytes)} | ${perM(m.vectorFiles.vex)} | ` +
    `${perM(m.vectorFiles.veq)} | ${perM(m.vectorFiles.vec)} | ${perM(m.vectorFieldBytes)} | ${perM(m.storeBytes)} |`
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
