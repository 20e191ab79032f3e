/**
 * `npm run eval`: retrieval quality of the real pipeline on a BEIR-layout data set. Ingests the
 * corpus (or a seeded subset) through the real worker and Temporal into a persistent eval project,
 * reused on the next run when it already holds the same documents, then runs the split's queries
 * through HybridSearch per mode and reports nDCG@10, Recall@10/100, MRR@10 and latency, as JSON
 * and as a section of BENCHMARKS.md.
 *
 *   npm run eval -- --dataset ../shared/datasets/beir_scifact --docs 300 --queries 100
 *   npm run eval -- --answers     (answer quality of `ask`: tools/eval/eval-answers.ts, its own options there)
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { Chunker, SegmenterTokenCounter } from '@trove/chunking';
import { DocumentStatus, type Reranker, SearchMode, uploadsWorkflowId } from '@trove/domain';
import { createEmbeddingProvider } from '@trove/embeddings';
import {
  beirFileName,
  beirMarkdown,
  type BeirDocument,
  corpusSubset,
  loadBeirDataset,
  percentile,
  type QueryRanking,
  rankQuery,
  type RetrievalScores,
  scoreRankings,
} from '@trove/evaluation';
import { llmSchema, localLlmSchema, rerankSchema } from '@trove/config';
import { createLlmProvider, releaseLocalModels } from '@trove/llm';
import { createReranker } from '@trove/reranking';
import {
  createElasticsearchClient,
  DEFAULT_FIELD_BOOSTS,
  HybridSearch,
  type RetrievalSettings,
  SEARCH_DEFAULTS,
  type SearchCallOptions,
} from '@trove/search';
import { LocalBlobStore } from '@trove/storage';
import { ParserRegistry } from '@trove/parsing';
import { ingestUploads, uploadedSignal } from '@trove/workflows';
import { createWorker } from '@trove/worker';
import {
  datasetDir,
  interleave,
  latencyRatio,
  legsOf,
  p95,
  RAW_DEFINITION,
  type RawLegs,
  projectNamed,
  rawMs,
  storeDocument,
  writeBenchmarkSections,
} from '@trove/tools-support';
import { runAnswerEval } from './eval-answers';
import {
  evalProjectName,
  evalWorkerConfig,
  memoizedQueries,
  parseFusions,
  projectDocuments,
  SUBSET_SEED,
} from './eval-support';

const ROOT = join(__dirname, '..', '..');
/** HybridSearch accepts at most 100 hits per search: Recall@100 is over the top 100 chunks. */
const DEEP_LIMIT = 100;
/** The raw-embedding baseline embeds the chunk texts of every Nth document (before and after the ingest). */
const RAW_SAMPLE_EVERY = Number(process.env.TROVE_EVAL_RAW_SAMPLE ?? 8);
/** The ingest is given up when no document finished for this long (a stuck worker or embedder). */
const STALL_MS = 15 * 60_000;

const { values: args } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'beir_scifact' },
    split: { type: 'string', default: 'test' },
    docs: { type: 'string' },
    queries: { type: 'string' },
    modes: { type: 'string', default: 'KEYWORD,VECTOR,HYBRID' },
    /**
     * Rerankers to compare (none, learned, http, llm:<local model>, each optionally `@<candidates>`),
     * e.g. `none,learned,llm:qwen2.5-coder-1.5b@8`; each runs over every mode.
     */
    rerankers: { type: 'string', default: 'none' },
    /**
     * Fusions to compare, comma-separated: `rrf` or `rrf:<k>`, `convex:<vector weight>[:minmax|zscore]`;
     * the default is the configured one (TROVE_SEARCH_FUSION…).
     */
    fusions: { type: 'string' },
    /**
     * Retrieval variants to compare, `;`-separated, each `default` or comma-separated knobs:
     * `c=<per-leg candidates>`, `nc=<HNSW num_candidates>`, `tb=<title boost>`, `hb=<heading boost>`,
     * e.g. `default;c=20;c=100;nc=100;nc=400;tb=1,hb=1;tb=3,hb=2`. Each runs over every mode.
     */
    retrieval: { type: 'string' },
    /** Fused hits each reranker sees (TROVE_RERANK_CANDIDATES' default when unset). */
    'rerank-candidates': { type: 'string' },
    /**
     * Embed each query once, before the timed runs, and reuse the vector in every configuration:
     * latency then excludes query embedding (for a shared, busy embedder), the rankings are unchanged.
     */
    'reuse-query-embeddings': { type: 'boolean', default: false },
    /**
     * Chunks of one document a ranking may hold (the search's maxPerDocument): 1 (the default)
     * ranks documents by their best chunk, so a top 10 holds 10 documents as BEIR's judgements
     * expect; 0 ranks chunks, a top 10 then holding fewer documents when one has several chunks.
     */
    'per-document': { type: 'string', default: '1' },
    out: { type: 'string' },
    // Answer quality of `ask` instead of retrieval (tools/eval/eval-answers.ts).
    answers: { type: 'boolean', default: false },
    /** --answers: an earlier run's JSON (another state of the code), shown beside this run. */
    'answers-baseline': { type: 'string' },
    /** --answers: what this run measures, when it is not simply the commit (a work tree's changes). */
    'answers-state': { type: 'string' },
    /** --answers: this run's row name (`before`, `after`). */
    'answers-label': { type: 'string' },
    /** --answers: also answer with this local model (qwen2.5-coder-1.5b, smollm2-135m), beside extractive. */
    'answers-llm': { type: 'string' },
    /** --answers-llm: only the questions of this split (train or test; all by default). */
    'answers-split': { type: 'string' },
  },
});

const perDocument = Number(args['per-document']);
if (!Number.isInteger(perDocument) || perDocument < 0) {
  throw new Error(
    `--per-document must be 0 (rank chunks) or a positive integer, not "${args['per-document']}"`,
  );
}

const round = (n: number, digits = 3) => Number(n.toFixed(digits));

/** Each document's chunk texts as the worker embeds them (parsed and chunked with its settings). */
async function chunkTexts(
  markdown: string[],
  config: ReturnType<typeof evalWorkerConfig>,
): Promise<string[][]> {
  const registry = ParserRegistry.default();
  const chunker = new Chunker(new SegmenterTokenCounter(), config.chunking);
  const texts: string[][] = [];
  for (const [i, text] of markdown.entries()) {
    const parsed = await registry.parse({
      fileName: `${i}.md`,
      mediaType: 'text/markdown',
      data: Buffer.from(text),
    });
    texts.push(
      chunker.chunk(parsed, { documentId: 'eval', projectId: 'eval' }).map((c) => Chunker.embeddingText(c)),
    );
  }
  return texts;
}
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

interface IngestFigures {
  /** When the ingest ran (the project was built then; a reusing run repeats these figures). */
  date: string;
  documents: number;
  chunks: number;
  ms: number;
  secondsPerChunk: number;
  documentsPerSecond: number;
  reused: boolean;
  /** Same-run baseline: raw embedding of the chunk texts, estimated from a sample (absent in older records). */
  raw?: {
    sampleEvery: number;
    sampleTexts: number;
    texts: number;
    beforeMs: number;
    afterMs: number;
    estimateMs: number;
  };
}

interface ModeResult extends RetrievalScores {
  mode: SearchMode;
  /** 'default' (the configured fusion) or the fusion compared, e.g. rrf:60, convex:0.7:minmax. */
  fusion: string;
  /** 'default' (the configured candidates and boosts) or the variant compared, e.g. c=100, tb=1,hb=1. */
  retrieval: string;
  /**
   * p95 of raw, the same-run baseline: per query, the sum of the requests this mode's search makes
   * (query embedding, BM25, kNN), each sent alone, interleaved with the searches (RAW_DEFINITION).
   */
  rawP95Ms: number;
  /** p95 of each raw leg alone, for the legs this mode makes. */
  embedP95Ms?: number;
  keywordP95Ms?: number;
  vectorP95Ms?: number;
  /** 'none' or the reranker's id. */
  reranker: string;
  p50Ms: number;
  p95Ms: number;
  /** The rerank stage alone (features included), when a reranker ran. */
  rerankP50Ms?: number;
  rerankP95Ms?: number;
  /** Searches whose rerank failed and fell back to the fused order. */
  rerankFailures?: number;
}

/**
 * The rerankers named on the command line, built as the API builds them (createReranker with the
 * environment's TROVE_RERANK_* for http), `none` as undefined. `llm:<model>` is a model of the
 * local catalogue (libs/llm) loaded in this process, greedy, as TROVE_LLM=local runs it;
 * `<name>@<n>` reranks only the first n fused hits (an LLM reads every candidate it is given).
 */
function parseRerankers(
  list: string,
): { name: string; arg: string; reranker?: Reranker; candidates?: number }[] {
  return list.split(',').map((raw) => {
    const [spec, at] = raw.trim().split('@');
    const candidates = at === undefined ? undefined : positive(at, `the candidates of ${spec}`);
    const [provider, model] = spec.split(/:(.*)/s);
    const config = rerankSchema.parse({
      provider,
      url: process.env.TROVE_RERANK_URL,
      apiKey: process.env.TROVE_RERANK_API_KEY,
      model: process.env.TROVE_RERANK_MODEL,
      // A local LLM on a CPU reads a prompt of several passages for tens of seconds.
      timeoutMs: process.env.TROVE_RERANK_TIMEOUT_MS ?? (provider === 'llm' ? 300_000 : undefined),
      maxChars: process.env.TROVE_RERANK_MAX_CHARS,
    });
    const llm =
      provider === 'llm'
        ? createLlmProvider(
            llmSchema.parse({
              provider: 'local',
              model: model || undefined,
              contextTokens: 4096,
              maxTokens: 128,
              idleTimeoutMs: 120_000,
              temperature: 0,
            }),
            localLlmSchema.parse({}),
          )
        : undefined;
    return { name: spec, arg: raw.trim(), reranker: createReranker(config, llm), candidates };
  });
}

/** `default;c=100;tb=1,hb=1` → per-request retrieval overrides (see the `--retrieval` option). */
function parseRetrievals(
  list: string | undefined,
): { name: string; retrieval?: Partial<RetrievalSettings> }[] {
  if (!list) return [{ name: 'default' }];
  return list.split(';').map((raw) => {
    const name = raw.trim();
    if (name === 'default') return { name };
    const knobs = Object.fromEntries(
      name.split(',').map((pair) => {
        const [key, value] = pair.split('=').map((x) => x.trim());
        const n = Number(value);
        if (
          !['c', 'nc', 'tb', 'hb', 'cs'].includes(key) ||
          value === undefined ||
          !Number.isFinite(n) ||
          (key === 'cs' && n !== 0 && n !== 1)
        ) {
          throw new Error(`bad retrieval variant "${name}": expected c=, nc=, tb=, hb= with numbers, cs=0|1`);
        }
        return [key, n];
      }),
    );
    const boosts = knobs.tb !== undefined || knobs.hb !== undefined;
    return {
      name,
      retrieval: {
        ...(knobs.c !== undefined ? { candidates: knobs.c } : {}),
        ...(knobs.nc !== undefined ? { numCandidates: knobs.nc } : {}),
        ...(knobs.cs !== undefined ? { completeScores: knobs.cs === 1 } : {}),
        ...(boosts
          ? {
              fieldBoosts: {
                title: knobs.tb ?? DEFAULT_FIELD_BOOSTS.title,
                heading: knobs.hb ?? DEFAULT_FIELD_BOOSTS.heading,
              },
            }
          : {}),
      },
    };
  });
}

function parseModes(list: string): SearchMode[] {
  return list.split(',').map((raw) => {
    const mode = raw.trim().toUpperCase() as SearchMode;
    if (!Object.values(SearchMode).includes(mode)) {
      throw new Error(`unknown mode ${raw}; expected some of ${Object.values(SearchMode).join(',')}`);
    }
    return mode;
  });
}

const positive = (raw: string | undefined, name: string) => {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got ${raw}`);
  return n;
};

const contentHash = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function main() {
  const dir = datasetDir(args.dataset!);
  const dataset = basename(dir);
  const split = args.split!;
  const modes = parseModes(args.modes!);
  const rerankers = parseRerankers(args.rerankers!);
  const fusions = parseFusions(args.fusions);
  const retrievals = parseRetrievals(args.retrieval);
  const rerankCandidates =
    positive(args['rerank-candidates'], 'rerank-candidates') ?? rerankSchema.parse({}).candidates;
  const loaded = loadBeirDataset(dir, split);
  const queries = loaded.queries.slice(0, positive(args.queries, 'queries') ?? loaded.queries.length);
  const docLimit = positive(args.docs, 'docs');
  const corpus = docLimit ? corpusSubset(loaded.corpus, queries, docLimit, SUBSET_SEED) : loaded.corpus;
  const projectName = evalProjectName(dataset, split, queries.length, docLimit);
  console.log(
    `[eval] ${dataset}: ${corpus.length} of ${loaded.corpus.length} documents, ${queries.length} ${split} queries, project "${projectName}"`,
  );

  const config = evalWorkerConfig(projectName, join(ROOT, '.trove', 'eval', 'blobs'));
  const { worker, connection: workerConnection, catalog } = await createWorker(config);
  // The worker polls only while this run ingests: a run that reuses its project must not take
  // (and drop on exit) tasks of another eval ingesting on the same task queue.
  let running: Promise<void> | undefined;
  const es = createElasticsearchClient(config.elasticsearch.url);
  const connection = await Connection.connect({ address: config.temporal.address });
  const temporal = new TemporalClient({ connection });
  const blobs = new LocalBlobStore(config.storage.blobDir);
  try {
    const project = await projectNamed(catalog.projects, projectName);

    // "Same documents": every wanted file name is there with the same content hash and READY, and
    // nothing else is. Missing or unfinished documents are (re)ingested, so an interrupted run resumes.
    const existing = await projectDocuments(catalog.documents, project.id);
    const wanted = new Set(corpus.map(beirFileName));
    const strangers = [...existing.keys()].filter((name) => !wanted.has(name));
    if (strangers.length > 0) {
      throw new Error(
        `project "${projectName}" holds ${strangers.length} documents not in this corpus (e.g. ${strangers[0]}); delete it and run again`,
      );
    }
    const pending: { doc: BeirDocument; id: string }[] = [];
    for (const doc of corpus) {
      const data = Buffer.from(beirMarkdown(doc));
      const hash = contentHash(data);
      const record = existing.get(beirFileName(doc));
      if (record && record.contentHash !== hash) {
        throw new Error(
          `${beirFileName(doc)} changed since project "${projectName}" was built; delete it and run again`,
        );
      }
      if (record?.status === DocumentStatus.READY) continue;
      if (record) {
        // An interrupted run's original may be gone (a cleaned .trove/eval): it is put back under
        // the record's key (same content, checked above) so the resumed ingest can read it.
        await blobs.put(record.blobKey, data);
        pending.push({ doc, id: record.id });
        continue;
      }
      const created = await storeDocument({ documents: catalog.documents, blobs }, project.id, {
        fileName: beirFileName(doc),
        data,
      });
      pending.push({ doc, id: created.id });
    }
    const reused = pending.length === 0;
    console.log(
      reused
        ? `[eval] project reused: all ${corpus.length} documents READY with the same content`
        : `[eval] ingesting ${pending.length} documents (${corpus.length - pending.length} already READY)`,
    );

    // The ingest figures of the run that built the project, saved as soon as it is built, so a run
    // interrupted during the queries, or a later run that reuses the project, still reports them.
    const ingestRecord = join(ROOT, '.trove', 'eval', `ingest-${project.id}.json`);
    let ingestMs = 0;
    let ingestedChunks = 0;
    let raw: IngestFigures['raw'];
    if (!reused) {
      running = worker.run();
      // The same-run baseline: the chunk texts of every Nth document ingested (parsed and chunked
      // with the worker's settings) embedded at the same embedder in the worker's batch size, before and after.
      // Only the documents this run ingests: a resumed run's baseline covers what it embeds.
      const texts = await chunkTexts(
        pending.map(({ doc }) => beirMarkdown(doc)),
        config,
      );
      const sample = texts.filter((_, i) => i % RAW_SAMPLE_EVERY === 0).flat();
      const embedder = createEmbeddingProvider(config.embedding);
      const rawEmbedding = async () => {
        const t0 = Date.now();
        for (let i = 0; i < sample.length; i += config.embedding.batchSize)
          await embedder.embed(sample.slice(i, i + config.embedding.batchSize), 'passage');
        return Date.now() - t0;
      };
      await embedder.embed(sample.slice(0, 4), 'passage'); // warm-up: the first request pays for the connection
      const rawBefore = await rawEmbedding();
      console.log(`[eval] raw embedding of ${sample.length} sampled chunk texts: ${seconds(rawBefore)}`);

      // As uploads are ingested (the API's path): PENDING records, and the project's ingestUploads
      // workflow takes them in batches. An interrupted run's unfinished records go back to PENDING.
      await catalog.documents.updateDocuments(
        pending.map(({ id }) => ({ id, changes: { status: DocumentStatus.PENDING, error: null } })),
      );
      const before = await catalog.documents.countByStatus(project.id);
      const readyBefore = before[DocumentStatus.READY] ?? 0;
      const started = Date.now();
      await temporal.workflow.signalWithStart(ingestUploads, {
        taskQueue: config.temporal.taskQueue,
        workflowId: uploadsWorkflowId(project.id),
        args: [{ projectId: project.id }],
        signal: uploadedSignal,
        signalArgs: [],
      });
      let done = 0;
      let movedAt = Date.now();
      for (;;) {
        const counts = await catalog.documents.countByStatus(project.id);
        const finished =
          (counts[DocumentStatus.READY] ?? 0) - readyBefore + (counts[DocumentStatus.FAILED] ?? 0);
        if (finished !== done) movedAt = Date.now();
        done = finished;
        const open = (counts[DocumentStatus.PENDING] ?? 0) + (counts[DocumentStatus.INDEXING] ?? 0);
        if (open === 0) break;
        if (Date.now() - movedAt > STALL_MS)
          throw new Error(
            `the ingest made no progress for ${STALL_MS / 60_000} min (${open} documents open)`,
          );
        const elapsed = (Date.now() - started) / 1000;
        const rate = done / elapsed;
        const eta = rate > 0 ? open / rate : Number.NaN;
        console.log(
          `[eval] ingest ${done}/${pending.length} documents, ${rate.toFixed(2)} docs/s, ETA ${Number.isNaN(eta) ? '?' : seconds(eta * 1000)}`,
        );
        await new Promise((resolve) => setTimeout(resolve, 10_000));
      }
      ingestMs = Date.now() - started;
      const after = await projectDocuments(catalog.documents, project.id);
      ingestedChunks = pending.reduce((n, p) => n + (after.get(beirFileName(p.doc))?.chunkCount ?? 0), 0);
      const rawAfter = await rawEmbedding();
      const estimateMs = (((rawBefore + rawAfter) / 2) * texts.flat().length) / Math.max(1, sample.length);
      raw = {
        sampleEvery: RAW_SAMPLE_EVERY,
        sampleTexts: sample.length,
        texts: texts.flat().length,
        beforeMs: rawBefore,
        afterMs: rawAfter,
        estimateMs: Math.round(estimateMs),
      };
      console.log(
        `[eval] ingested ${pending.length} documents, ${ingestedChunks} chunks in ${seconds(ingestMs)} ` +
          `(${(ingestMs / 1000 / Math.max(1, ingestedChunks)).toFixed(2)} s per chunk); raw embedding ` +
          `${seconds(rawBefore)} / ${seconds(rawAfter)} for ${sample.length} texts → ${seconds(estimateMs)} for all ` +
          `${texts.flat().length}: ${(ingestMs / estimateMs).toFixed(2)}×`,
      );
      const figures: IngestFigures = {
        date: new Date().toISOString(),
        documents: pending.length,
        chunks: ingestedChunks,
        ms: ingestMs,
        secondsPerChunk: round(ingestMs / 1000 / Math.max(1, ingestedChunks), 2),
        documentsPerSecond: round(pending.length / (ingestMs / 1000), 2),
        reused: false,
        ...(raw ? { raw } : {}),
      };
      mkdirSync(dirname(ingestRecord), { recursive: true });
      writeFileSync(ingestRecord, JSON.stringify(figures));
    }

    const documents = await projectDocuments(catalog.documents, project.id);
    const notReady = [...documents.values()].filter((d) => d.status !== DocumentStatus.READY);
    if (notReady.length > 0) {
      throw new Error(
        `${notReady.length} documents are not READY (e.g. ${notReady[0].fileName}: ${notReady[0].status})`,
      );
    }
    const chunkCount = [...documents.values()].reduce((n, d) => n + (d.chunkCount ?? 0), 0);
    const corpusIdOf = new Map([...documents.values()].map((d) => [d.id, d.fileName.replace(/\.md$/, '')]));

    // The search the API runs (default candidates, num_candidates and fusion), embedder in-process.
    const embedder = args['reuse-query-embeddings']
      ? await memoizedQueries(
          createEmbeddingProvider(config.embedding),
          queries.map((q) => q.text),
        )
      : createEmbeddingProvider(config.embedding);
    const searches = rerankers.map(({ name, reranker, candidates }) => ({
      name: (reranker?.id ?? name) + (candidates ? `@${candidates}` : ''),
      search: new HybridSearch(es, config.elasticsearch.indexPrefix, embedder, {
        reranker,
        rerankCandidates: candidates ?? rerankCandidates,
        // Every configuration embeds its queries itself, so latencies compare (unless reused on purpose).
        queryCacheSize: 0,
      }),
    }));
    const rankingSettings = (mode: SearchMode) => ({
      projectId: project.id,
      mode,
      perDocument,
      corpusId: (documentId: string) => corpusIdOf.get(documentId)!,
    });
    const configurations = searches.flatMap((s) =>
      retrievals.flatMap((r) =>
        fusions.flatMap((f) =>
          modes
            // A fusion only changes HYBRID: single legs run once, under the default fusion's row.
            .filter((mode) => mode === SearchMode.HYBRID || f === fusions[0])
            .map((mode) => ({
              kind: 'search' as const,
              name: s.name,
              search: s.search,
              fusion: f.fusion,
              fusionName: f.name,
              retrieval: r.retrieval,
              retrievalName: r.name,
              mode,
              rankings: [] as QueryRanking[],
              latencies: [] as number[],
              rerankLatencies: [] as number[],
              rerankFailures: 0,
            })),
        ),
      ),
    );
    // The same-run baseline: per retrieval variant, the legs the chosen modes make, each sent as a
    // request of its own (the query embedding, then BM25 and kNN as HybridSearch sends them).
    const legs = new Set(modes.flatMap(legsOf));
    const baselines = retrievals.map((r) => ({
      kind: 'raw' as const,
      retrievalName: r.name,
      retrieval: r.retrieval,
      legs: [] as RawLegs[],
    }));
    const legSearch = searches[0].search;
    const timeRawLegs = async (query: string, retrieval?: Partial<RetrievalSettings>): Promise<RawLegs> => {
      const timed: RawLegs = {};
      const request = { projectId: project.id, query, limit: 10 };
      let vector: number[] | undefined;
      if (legs.has('embedMs')) {
        const started = performance.now();
        [vector] = await embedder.embed([query], 'query');
        timed.embedMs = performance.now() - started;
      }
      if (legs.has('keywordMs')) {
        const { timings } = await legSearch.legRequest({ kind: 'keyword' }, request, { retrieval });
        timed.keywordMs = timings.keywordMs;
      }
      if (vector) {
        const { timings } = await legSearch.legRequest({ kind: 'vector', vector }, request, { retrieval });
        timed.vectorMs = timings.vectorMs;
      }
      return timed;
    };
    const rankingOptions = (c: (typeof configurations)[number]) => ({
      ...rankingSettings(c.mode),
      deepLimit: DEEP_LIMIT,
      options: (): SearchCallOptions => ({ fusion: c.fusion, retrieval: c.retrieval }),
    });

    // Warm-up: the first searches pay for connections and caches.
    for (const c of configurations) await rankQuery(c.search, queries[0], rankingOptions(c));
    for (const b of baselines) await timeRawLegs(queries[0].text, b.retrieval);

    // Query by query, every configuration and the raw legs in turn (the first one rotating), so
    // the load of the shared machine falls on all of them alike and each ratio compares figures
    // of the same run and the same moments. Top 10 as the API serves it by default (timed); the
    // deep list only for Recall@100.
    for (const { query, configuration: c } of interleave(queries, [...configurations, ...baselines])) {
      if (c.kind === 'raw') {
        c.legs.push(await timeRawLegs(query.text, c.retrieval));
        continue;
      }
      c.rankings.push(
        await rankQuery(c.search, query, {
          ...rankingOptions(c),
          observe: ({ outcome, ms }) => {
            c.latencies.push(ms);
            if (outcome.rerank.ms !== undefined) c.rerankLatencies.push(outcome.rerank.ms);
            if (outcome.rerank.warning) c.rerankFailures += 1;
          },
        }),
      );
    }

    const results: ModeResult[] = configurations.map((c) => {
      const scores = scoreRankings(c.rankings);
      const baseline = baselines.find((b) => b.retrievalName === c.retrievalName)!;
      const used = legsOf(c.mode);
      const legP95 = (leg: keyof RawLegs) =>
        used.includes(leg) ? p95(baseline.legs.map((l) => l[leg]!)) : undefined;
      const result: ModeResult = {
        mode: c.mode,
        fusion: c.fusionName,
        retrieval: c.retrievalName,
        reranker: c.name,
        ndcg10: round(scores.ndcg10),
        recall10: round(scores.recall10),
        recall100: round(scores.recall100),
        mrr10: round(scores.mrr10),
        p50Ms: Math.round(percentile(c.latencies, 50)),
        p95Ms: Math.round(percentile(c.latencies, 95)),
        rawP95Ms: Math.round(
          percentile(
            baseline.legs.map((l) => rawMs(c.mode, l)),
            95,
          ),
        ),
        embedP95Ms: legP95('embedMs'),
        keywordP95Ms: legP95('keywordMs'),
        vectorP95Ms: legP95('vectorMs'),
        ...(c.rerankLatencies.length
          ? {
              rerankP50Ms: round(percentile(c.rerankLatencies, 50), 2),
              rerankP95Ms: round(percentile(c.rerankLatencies, 95), 2),
              rerankFailures: c.rerankFailures,
            }
          : {}),
      };
      console.log(
        `[eval] ${c.mode} ${c.fusionName} ${c.retrievalName} + ${c.name}: ${JSON.stringify(result)}`,
      );
      return result;
    });

    const date = new Date().toISOString();
    const ingest: IngestFigures | null = existsSync(ingestRecord)
      ? { ...(JSON.parse(readFileSync(ingestRecord, 'utf8')) as IngestFigures), reused: reused }
      : null;
    const command =
      `npm run eval -- --dataset ${dataset} --split ${split}` +
      (docLimit ? ` --docs ${docLimit}` : '') +
      (args.queries ? ` --queries ${queries.length}` : '') +
      ` --modes ${modes.join(',')}` +
      (args.rerankers !== 'none' ? ` --rerankers ${rerankers.map((r) => r.arg).join(',')}` : '') +
      (args['rerank-candidates'] ? ` --rerank-candidates ${rerankCandidates}` : '') +
      (args.fusions ? ` --fusions ${fusions.map((f) => f.name).join(',')}` : '') +
      (args.retrieval ? ` --retrieval "${retrievals.map((r) => r.name).join(';')}"` : '') +
      (args['reuse-query-embeddings'] ? ' --reuse-query-embeddings' : '') +
      (perDocument !== 1 ? ` --per-document ${perDocument}` : '');
    const report = {
      date,
      machine: { cores: cpus().length, memoryGiB: Math.round(totalmem() / 2 ** 30) },
      dataset,
      split,
      command,
      project: { name: projectName, id: project.id, reused },
      corpus: {
        documents: corpus.length,
        fullCorpus: loaded.corpus.length,
        chunks: chunkCount,
        seed: SUBSET_SEED,
      },
      queries: queries.length,
      ingest,
      configuration: {
        embedding: config.embedding.profile,
        chunking: config.chunking,
        search: { ...SEARCH_DEFAULTS, perLegCandidates: 'max(candidates, limit)' },
        rerankCandidates,
        rankingUnit: perDocument
          ? `documents: the search's maxPerDocument ${perDocument}, each document at its best chunk's rank`
          : 'chunks mapped to their document; a document counts at its best rank only',
      },
      results,
    };
    const out = resolve(args.out ?? join(ROOT, '.trove', 'eval', `${dataset}-${date.slice(0, 10)}.json`));
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`[eval] wrote ${out}`);

    writeBenchmarkSections(report.command, section(report, results));
    console.log('[eval] updated BENCHMARKS.md');
  } finally {
    // A worker that never ran (the project was reused) holds its native connection until the
    // process exits: the SDK refuses to close a connection under a worker.
    if (running) {
      worker.shutdown();
      await closing('the ingest worker', running);
      await closing("the worker's Temporal connection", workerConnection.close());
    }
    await closing('the Temporal connection', connection.close());
    await closing('the catalog', catalog.lifecycle.close());
    await closing('Elasticsearch', es.close());
    await closing('the local models', releaseLocalModels());
  }
}

/**
 * Waits for one resource to close, at most a minute: the results are written by then, and one
 * eval that ingested once stayed alive after writing them. The warning names what did not close.
 */
async function closing(what: string, closed: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), 60_000);
  });
  try {
    if ((await Promise.race([closed, late])) === 'late')
      console.warn(`[eval] ${what} did not close within 60 s; exiting without it`);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One BENCHMARKS.md section per data set and split; retrieval sweeps get their own, and so do runs
 * on a subset (of the queries or the corpus), whose figures must not replace a full run's: their
 * heading says "(sizes changed: …)", as every benchmark's does.
 */
function sectionTitle(
  dataset: string,
  split: string,
  retrievalSweep: boolean,
  chunksRanked: boolean,
  subset?: string,
): string {
  const notes = [
    ...(split === 'test' ? [] : [`${split} split`]),
    ...(retrievalSweep ? ['retrieval sweep'] : []),
    ...(chunksRanked ? ['chunks ranked'] : []),
    ...(subset ? [`sizes changed: ${subset}`] : []),
  ];
  return `## Retrieval evaluation (npm run eval): ${dataset}${notes.length ? ` (${notes.join(', ')})` : ''}`;
}

function section(
  report: {
    date: string;
    machine: { cores: number; memoryGiB: number };
    dataset: string;
    split: string;
    command: string;
    corpus: { documents: number; fullCorpus: number; chunks: number; seed: number };
    queries: number;
    ingest: IngestFigures | null;
    configuration: {
      embedding: string;
      chunking: { targetTokens: number; overlapTokens: number };
      rerankCandidates: number;
      rankingUnit?: string;
    };
  },
  results: ModeResult[],
): string {
  const { corpus, ingest } = report;
  const subset =
    corpus.documents < corpus.fullCorpus
      ? `a ${corpus.documents}-document subset of ${corpus.fullCorpus} (every document judged for these queries plus seeded-random others, seed ${corpus.seed}; subset scores run higher than full-corpus ones)`
      : `the full corpus of ${corpus.fullCorpus} documents`;
  const rawLine = ingest?.raw
    ? `; raw embedding of the same chunk texts at the same embedder, same run: ${seconds(ingest.raw.estimateMs)} ` +
      `(the ${ingest.raw.sampleTexts} texts of every ${ingest.raw.sampleEvery}th document took ${seconds(ingest.raw.beforeMs)} ` +
      `before and ${seconds(ingest.raw.afterMs)} after the ingest, scaled to all ${ingest.raw.texts}) → ` +
      `ingest ÷ raw embedding **${(ingest.ms / ingest.raw.estimateMs).toFixed(2)}×**`
    : '';
  const measured = ingest
    ? `${ingest.documents} documents, ${ingest.chunks} chunks in ${seconds(ingest.ms)} (${ingest.secondsPerChunk} s per chunk${ingest.raw ? ', batched as uploads are' : ''})${rawLine}`
    : '';
  const ingestLine = !ingest
    ? 'Ingest: the eval project already held these documents (reused; no ingest figures recorded).'
    : ingest.reused
      ? `Ingest (real worker + Temporal + CPU embedder, when the project was built on ${ingest.date.slice(0, 16)}Z): ${measured}; this run reused the project.`
      : `Ingest (real worker + Temporal + CPU embedder): ${measured}.`;
  const subsetNote = [
    ...(report.command.includes(' --queries ') ? [`${report.queries} queries`] : []),
    ...(corpus.documents < corpus.fullCorpus ? [`${corpus.documents}-document subset`] : []),
  ].join(', ');
  return `${sectionTitle(report.dataset, report.split, report.command.includes('--retrieval'), report.command.includes('--per-document 0'), subsetNote)}

Data set ${report.dataset}, split \`${report.split}\`: ${report.queries} queries, ${subset}; ${corpus.chunks} chunks
(${report.configuration.embedding}, ${report.configuration.chunking.targetTokens}-token chunks with ${report.configuration.chunking.overlapTokens} overlap).
Search: HybridSearch with the settings' defaults, as the API runs it (per-leg candidates ${SEARCH_DEFAULTS.candidates}, ${SEARCH_DEFAULTS.fusion} fusion${SEARCH_DEFAULTS.fusion === 'convex' ? ` ${SEARCH_DEFAULTS.convexVectorWeight} ${SEARCH_DEFAULTS.convexNormalization}` : ` k ${SEARCH_DEFAULTS.rrfK}`} unless the fusion column says otherwise, ${report.configuration.rerankCandidates} fused hits reranked when a reranker runs, every candidate scored in both legs before convex fusion unless the retrieval column says cs=0);
ranking unit: ${report.configuration.rankingUnit ?? 'chunks mapped to their document; a document counts at its best rank only'}. Latency is client-side around a top-10 search (rerank included), ${report.command.includes('--reuse-query-embeddings') ? 'query embedding excluded (--reuse-query-embeddings)' : 'query embedding included'};
Recall@100 comes from a second top-100 search. ${ingestLine}
Each eval project has an index of its own, so BM25 statistics are those of this corpus alone.
Tuning (fusion weights, rerankers, candidates) must use the train split only; these are ${report.split}-split figures.

| mode | fusion | retrieval | reranker | nDCG@10 | R@10 | R@100 | MRR@10 | p50 ms | p95 ms | raw p95 ms | p95 / raw | embed alone p95 | BM25 alone p95 | kNN alone p95 | rerank p95 ms |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${results.map((r) => `| ${r.mode} | ${r.fusion} | ${r.retrieval} | ${r.reranker} | ${r.ndcg10.toFixed(3)} | ${r.recall10.toFixed(3)} | ${r.recall100.toFixed(3)} | ${r.mrr10.toFixed(3)} | ${r.p50Ms} | ${r.p95Ms} | ${r.rawP95Ms} | ${latencyRatio(r.p95Ms, r.rawP95Ms)} | ${r.embedP95Ms ?? '–'} | ${r.keywordP95Ms ?? '–'} | ${r.vectorP95Ms ?? '–'} | ${r.rerankP95Ms ?? '–'} |`).join('\n')}

Latency columns: ${RAW_DEFINITION} The leg columns are each raw leg's own p95 (ms) over the same queries, for the
legs the mode makes (raw legs run per retrieval variant, with its candidates and boosts). Below 1, the search's
concurrent legs (BM25 runs beside embedding + kNN) save more than fusion, score completion, rerank and the result
stages add${report.command.includes('--reuse-query-embeddings') ? '; query embeddings reused, so the embedding leg is a lookup' : ''}.
`;
}

(args.answers
  ? runAnswerEval({
      baseline: args['answers-baseline'],
      state: args['answers-state'],
      label: args['answers-label'],
      llm: args['answers-llm'],
      split: args['answers-split'] as 'train' | 'test' | undefined,
    })
  : main()
).then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
