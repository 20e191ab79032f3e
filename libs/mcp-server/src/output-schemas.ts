// 'zod/v3', not 'zod', in this lib: under the repo's `moduleResolution: node` the two resolve to
// separate copies of zod's declarations, and the MCP SDK's types use 'zod/v3'; mixing them sends
// tsc into endless type instantiation.
import { z } from 'zod/v3';
import { SearchMode } from '@trove/domain';

// The structured results of the tools (MCP `outputSchema` / `structuredContent`). Fields mirror
// the GraphQL API's, so what an agent learns here holds for the API too.

const nullableString = z.string().nullable();

export const chunkSchema = z.object({
  chunkId: z.string(),
  documentId: z.string(),
  position: z.number().int().describe('0-based place of the chunk in its document'),
  title: z.string().describe("the document's title"),
  headingPath: z.array(z.string()),
  page: z.number().int().nullable(),
  citationUrl: nullableString.describe('a link that opens the source at this place'),
  text: z.string(),
});
export type ChunkView = z.infer<typeof chunkSchema>;

const legRank = z.object({ rank: z.number().int(), score: z.number() }).nullable();

export const searchHitSchema = chunkSchema.extend({
  rank: z.number().int().describe('1-based rank in this result'),
  fileName: nullableString.describe(
    "the document's file name (a path for folder and Git sources); null when it has left the catalog",
  ),
  sourceId: nullableString.describe('the source the document comes from; null for an uploaded file'),
  sourceName: nullableString.describe("that source's name"),
  sourceType: nullableString.describe("that source's type (see list_source_types)"),
  score: z.number().describe('final score (the reranker’s when one ran)'),
  rerankScore: z.number().nullable(),
  bm25: legRank.describe('keyword leg rank and score; null when the leg did not find it'),
  knn: legRank.describe('vector leg rank and score; null when the leg did not find it'),
  resourceUri: z.string().describe('the whole document as an MCP resource'),
  ocr: z
    .boolean()
    .nullable()
    .describe(
      'true: the text was recognised by OCR from a scan or an image (check the original before quoting)',
    ),
  ocrConfidence: z.number().nullable().describe('OCR: mean recognition confidence, 0 to 100'),
  context: z
    .array(
      chunkSchema.pick({ chunkId: true, position: true, headingPath: true, citationUrl: true, text: true }),
    )
    .describe('with `expand`: the neighbouring chunks in reading order, without the hit'),
});
export type SearchHitView = z.infer<typeof searchHitSchema>;

export const searchOutput = {
  projectId: z.string(),
  query: z.string(),
  mode: z.nativeEnum(SearchMode),
  hits: z.array(searchHitSchema),
  reranked: z.boolean(),
  warnings: z.array(z.string()),
};
export type SearchOutput = z.infer<z.ZodObject<typeof searchOutput>>;

export const askOutput = {
  projectId: z.string(),
  question: z.string(),
  answerId: z.string().describe('the id the answer is recorded under'),
  threadId: nullableString.describe(
    'the conversation it was asked in: pass it as `thread` to ask a follow-up',
  ),
  standaloneQuestion: nullableString.describe(
    'what was searched for, when the question was a follow-up rewritten from its thread',
  ),
  answer: z.string().describe('the answer, with [n] markers naming the citations'),
  mode: z.enum(['EXTRACTIVE', 'INSUFFICIENT_CONTEXT', 'LLM', 'TOP_1']),
  insufficientContext: z
    .boolean()
    .describe('true: the knowledge base does not hold the answer (nothing relevant enough)'),
  language: z.string(),
  model: nullableString,
  citations: z.array(
    z.object({
      marker: z.number().int(),
      chunkId: z.string(),
      documentId: z.string(),
      title: z.string(),
      headingPath: z.array(z.string()),
      citationUrl: nullableString,
      quote: z.string(),
      page: z.number().int().nullable().describe('PDF, scanned image: the page the cited chunk starts on'),
      ocr: z.boolean().nullable().describe('true: the cited text was recognised by OCR'),
      ocrConfidence: z.number().nullable(),
    }),
  ),
  verification: z.object({
    validMarkers: z.array(z.number().int()),
    invalidMarkers: z.array(z.number().int()),
    missingMarkers: z.boolean(),
    retried: z.boolean(),
    checkedSentences: z.number().int(),
  }),
};
export type AskOutput = z.infer<z.ZodObject<typeof askOutput>>;

export const threadSchema = z.object({
  id: z.string(),
  title: z.string(),
  turnCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string().describe('when its last question was asked'),
});
export const threadTurnSchema = z.object({
  position: z.number().int(),
  question: z.string(),
  standaloneQuestion: nullableString.describe('what was searched for, when the question was rewritten'),
  answer: z.string(),
  mode: z.string(),
  citations: z.array(
    z.object({
      marker: z.number().int(),
      title: z.string(),
      headingPath: z.array(z.string()),
      citationUrl: nullableString,
    }),
  ),
});
export const listThreadsOutput = {
  projectId: z.string(),
  threads: z.array(threadSchema).describe("the caller's threads, most recently used first"),
  thread: threadSchema
    .extend({ turns: z.array(threadTurnSchema) })
    .nullable()
    .describe('with `thread_id`: that thread and its turns'),
};
export type ListThreadsOutput = z.infer<z.ZodObject<typeof listThreadsOutput>>;

export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  createdAt: z.string(),
  documentCount: z.number().int(),
  chunkCount: z.number().int(),
});
export const listProjectsOutput = { projects: z.array(projectSchema) };
export type ListProjectsOutput = z.infer<z.ZodObject<typeof listProjectsOutput>>;

export const sourceSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string().describe('one of the types list_source_types lists, e.g. NOTION, FOLDER or WEB'),
  status: z.string(),
  createdAt: z.string(),
  lastSyncAt: nullableString,
  syncIntervalMinutes: z.number().int().nullable(),
  tokenHint: nullableString.describe("a hint of the source's token, never the token"),
  scope: z.string().describe("what the source reads, in a few words (its type's summary)"),
});
export const listSourcesOutput = { projectId: z.string(), sources: z.array(sourceSchema) };
export type ListSourcesOutput = z.infer<z.ZodObject<typeof listSourcesOutput>>;

const configFieldSchema = z.object({
  name: z.string().describe('the key in config'),
  kind: z.enum(['string', 'integer', 'number', 'boolean', 'enum', 'string-list', 'json']),
  required: z.boolean(),
  secret: z.boolean().describe('stored sealed, never returned (only a hint)'),
  description: z.string().optional(),
  choices: z.array(z.string()).optional().describe('enum: the values allowed'),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  format: z.string().optional().describe('e.g. uri'),
  default: z.unknown().optional(),
});
export const listSourceTypesOutput = {
  types: z.array(
    z.object({
      type: z.string().describe('what add_source takes as `type`'),
      label: z.string(),
      description: z.string(),
      webhook: z.boolean().describe('receives pushed changes at /webhooks/<source id>'),
      webhookSetup: z
        .object({
          instructions: z.string(),
          path: z.string().describe("where deliveries go, '{sourceId}' standing for the source's id"),
          steps: z.array(z.string()),
          verificationHandshake: z
            .boolean()
            .describe('the first delivery carries a token the operator pastes back into the sender'),
        })
        .nullable()
        .describe('what an operator sets up for webhook deliveries; null: the type has none'),
      fields: z.array(configFieldSchema),
      configSchema: z.record(z.unknown()).describe('JSON Schema of config; secrets are writeOnly'),
    }),
  ),
};
export type ListSourceTypesOutput = z.infer<z.ZodObject<typeof listSourceTypesOutput>>;

export const addSourceOutput = {
  id: z.string().describe('pass it to sync_source'),
  name: z.string(),
  type: z.string(),
  status: z.string(),
  config: z.record(z.unknown()).describe('the configuration as stored, without secrets'),
  secrets: z.array(z.object({ field: z.string(), hint: z.string() })).describe('secrets set, masked'),
};
export type AddSourceOutput = z.infer<z.ZodObject<typeof addSourceOutput>>;

/** A run's counters; zod's parse keeps only these of the API's progress (which has more). */
export const syncProgressOutput = z.object({
  pagesSeen: z.number().int(),
  pagesIngested: z.number().int(),
  pagesUnchanged: z.number().int(),
  pagesSkipped: z.number().int(),
  pagesFailed: z.number().int(),
  pagesDeleted: z.number().int(),
  chunksEmbedded: z.number().int(),
  chunksReused: z.number().int(),
  apiCalls: z.number().int(),
});
const errorView = z.object({ code: z.string(), message: z.string() }).nullable();

export const syncSourceOutput = {
  runId: z.string().describe('pass it to get_sync_run'),
  sourceId: z.string(),
  mode: z.enum(['FULL', 'INCREMENTAL', 'REBUILD']),
  status: z.string(),
  startedAt: z.string(),
};
export type SyncSourceOutput = z.infer<z.ZodObject<typeof syncSourceOutput>>;

export const syncRunOutput = {
  runId: z.string(),
  sourceId: z.string(),
  mode: z.string(),
  status: z.enum(['RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED']),
  finished: z.boolean().describe('false while RUNNING: call again later'),
  startedAt: z.string(),
  finishedAt: nullableString,
  progress: syncProgressOutput,
  error: errorView,
  warnings: z.array(z.string()),
  skipped: z
    .array(z.object({ id: z.string(), reason: z.string(), title: z.string().nullish() }))
    .describe('at most 50'),
  skippedCount: z.number().int(),
  stage: z
    .enum(['PLANNING', 'INGESTING', 'FINISHING'])
    .nullable()
    .describe('where a run is: planning, ingesting, finishing'),
  pagesPerSecond: z.number().nullable().describe('running runs: pages done per second over the last minute'),
  etaSeconds: z
    .number()
    .int()
    .nullable()
    .describe('running runs: seconds until the planned pages are done; null while unknown'),
  health: z
    .object({
      state: z.enum(['OK', 'STALLED']),
      reason: nullableString.describe(
        'why a STALLED run does not move: NO_WORKER, ACTIVITY_RETRYING, RATE_LIMITED, …',
      ),
      message: nullableString,
    })
    .describe('STALLED: its progress has not moved for a while; the reason is what Temporal says'),
};
export type SyncRunOutput = z.infer<z.ZodObject<typeof syncRunOutput>>;

export const documentSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  sourceId: nullableString,
  fileName: z.string(),
  title: nullableString,
  mediaType: z.string(),
  status: z.enum(['PENDING', 'INDEXING', 'READY', 'FAILED']),
  error: errorView,
  warnings: z.array(z.string()),
  chunkCount: z.number().int(),
  pageCount: z.number().int().nullable(),
  sizeBytes: z.number().int(),
  language: nullableString,
  url: nullableString,
  updatedAt: z.string(),
  indexedAt: nullableString,
  resourceUri: z.string().describe('the whole text as an MCP resource'),
});
export type DocumentView = z.infer<typeof documentSchema>;

export const listDocumentsOutput = {
  projectId: z.string(),
  totalCount: z.number().int(),
  documents: z.array(documentSchema),
  nextCursor: nullableString.describe('pass as `after` for the next page; null on the last page'),
};
export type ListDocumentsOutput = z.infer<z.ZodObject<typeof listDocumentsOutput>>;

export const getDocumentOutput = {
  document: documentSchema,
  timingsMs: z.object({
    fetchMs: z.number().nullable(),
    parseMs: z.number().nullable(),
    chunkMs: z.number().nullable(),
    embedMs: z.number().nullable(),
    upsertMs: z.number().nullable(),
    totalMs: z.number().nullable(),
  }),
};
export type GetDocumentOutput = z.infer<z.ZodObject<typeof getDocumentOutput>>;

export const getChunkOutput = {
  chunk: chunkSchema,
  before: z.array(chunkSchema).describe('the chunks just before it, in reading order'),
  after: z.array(chunkSchema).describe('the chunks just after it, in reading order'),
  documentChunkCount: z.number().int(),
  resourceUri: z.string(),
};
export type GetChunkOutput = z.infer<z.ZodObject<typeof getChunkOutput>>;

export const reindexDocumentOutput = {
  documentId: z.string(),
  fileName: z.string(),
  status: z.string().describe('PENDING until the worker picks it up; follow it with get_document'),
};
export type ReindexDocumentOutput = z.infer<z.ZodObject<typeof reindexDocumentOutput>>;

const maskedSecret = z
  .object({ set: z.boolean(), masked: nullableString })
  .describe('a secret: whether it is set, and a masked hint; never the secret');

export const configOutput = {
  version: z.number().int(),
  updatedAt: nullableString,
  overridden: z
    .array(z.string())
    .describe('settings changed through the API; the rest come from the environment'),
  warnings: z.array(z.string()),
  search: z.object({
    fusion: z.string(),
    rrfK: z.number(),
    convexVectorWeight: z.number(),
    convexNormalization: z.string(),
  }),
  rerank: z.object({
    provider: z.string(),
    candidates: z.number(),
    maxChars: z.number(),
    model: nullableString,
    url: nullableString,
    timeoutMs: z.number(),
    apiKey: maskedSecret,
  }),
  answers: z.object({
    topK: z.number(),
    threshold: z.number(),
    fallbackMode: z.string(),
    contextTokens: z.number(),
    extractiveChunks: z.number(),
    extractiveSentences: z.number(),
    supportMinLexical: z.number(),
    supportMinSemantic: z.number(),
    llmBudgetMs: z.number(),
    rewriteTimeoutMs: z.number(),
  }),
  llm: z.object({
    provider: z.string(),
    baseUrl: nullableString,
    model: nullableString,
    temperature: z.number(),
    maxTokens: z.number(),
    contextTokens: z.number(),
    timeoutMs: z.number(),
    idleTimeoutMs: z.number(),
    retries: z.number(),
    apiKey: maskedSecret,
  }),
  chunking: z.object({ targetTokens: z.number(), overlapTokens: z.number(), minTokens: z.number() }),
  embedding: z.object({
    modelId: z.string(),
    dimensions: z.number(),
    provider: z.string(),
    profile: z.string(),
    model: nullableString,
  }),
};
export type ConfigOutput = z.infer<z.ZodObject<typeof configOutput>>;

export const setConfigOutput = {
  version: z.number().int(),
  overridden: z.array(z.string()),
  warnings: z.array(z.string()),
};
export type SetConfigOutput = z.infer<z.ZodObject<typeof setConfigOutput>>;
