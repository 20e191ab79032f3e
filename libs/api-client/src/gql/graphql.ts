/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> =
  T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** A source of any type; `sourceTypes` gives the schema of each type’s config */
export type AddSourceInput = {
  /** The type's configuration, validated by its schema (errors name the field); secrets as plain strings */
  config: unknown;
  name: string;
  projectId: string | number;
  /** One of the types sourceTypes lists (e.g. WEB); another is BAD_REQUEST naming the known ones */
  type: string;
};

/** How an answer was made */
export type AnswerMode =
  /** No model: the best supporting sentences of the top passages, quoted with citations */
  | 'EXTRACTIVE'
  /** Nothing relevant enough: the knowledge base does not hold the answer */
  | 'INSUFFICIENT_CONTEXT'
  /** Written by the configured language model; citations verified */
  | 'LLM'
  /** No model: the most relevant passage, as it is */
  | 'TOP_1';

export type ApiKeyRole =
  /** Everything in every project: keys, global settings, creating and deleting projects */
  | 'ADMIN'
  /** Read and write content and sources of its projects */
  | 'EDITOR'
  /** Search and read its projects */
  | 'VIEWER';

export type AskInput = {
  mode?: AskMode;
  /** Start a thread with this question; the answer carries its threadId. Not with threadId. */
  newThread?: boolean;
  projectId: string | number;
  question: string;
  search?: AskSearchInput | null | undefined;
  /** Continue this thread (one of the key's own): a follow-up is rewritten into a standalone question from its turns before retrieval, and the answer is its next turn */
  threadId?: string | number | null | undefined;
  /** Least cosine between the question's and a passage's embeddings, -1 to 1 (TROVE_ANSWER_THRESHOLD); when no passage reaches it the answer is INSUFFICIENT_CONTEXT */
  threshold?: number | null | undefined;
  /** Passages retrieved, 1 to 50 (TROVE_ANSWER_TOP_K) */
  topK?: number | null | undefined;
};

/** The answer wanted: AUTO is LLM when a model is configured, else the configured fallback */
export type AskMode = 'AUTO' | 'EXTRACTIVE' | 'LLM' | 'TOP_1';

/** How passages are retrieved; the same options as SearchInput */
export type AskSearchInput = {
  /** Only passages these filters let through, as in SearchInput.filters */
  filters?: SearchFiltersInput | null | undefined;
  /** Overrides the configured fusion */
  fusion?: FusionInput | null | undefined;
  mode?: SearchMode;
};

export type AuditActorKind = 'ANONYMOUS' | 'API_KEY' | 'SYSTEM' | 'USER';

/** Every field narrows the log; none: all of it */
export type AuditFilterInput = {
  /** An action, or the start of one (auth., source.) */
  action?: string | null | undefined;
  /** A user's or key's id */
  actorId?: string | number | null | undefined;
  actorKind?: AuditActorKind | null | undefined;
  /** From this time (ISO 8601) */
  from?: string | null | undefined;
  outcome?: AuditOutcome | null | undefined;
  projectId?: string | number | null | undefined;
  /** Before this time (ISO 8601) */
  to?: string | null | undefined;
};

export type AuditOutcome =
  /** Refused by authentication or the access rules */
  | 'DENIED'
  /** Allowed, but it failed (bad input, a conflict, a backend down) */
  | 'FAILURE'
  /** Done */
  | 'SUCCESS';

export type CreateApiKeyInput = {
  /** 1-200 characters, for people: who or what uses the key */
  name: string;
  /** The projects the key reaches; leave out for every project (ADMIN keys always reach every project) */
  projectIds?: Array<string | number> | null | undefined;
  role: ApiKeyRole;
};

export type CreatePersonalTokenInput = {
  /** Days until it expires (1-366); leave out for none */
  expiresInDays?: number | null | undefined;
  /** 1-200 characters: what uses it */
  name: string;
};

export type CreateUserInput = {
  /** Their email at the identity provider: their first sign-in (with that email verified) links them */
  email: string;
  /** Shown until their first sign-in brings the provider’s */
  name: string;
  /** An install-wide role; ADMIN for an administrator */
  role?: ApiKeyRole | null | undefined;
};

/** What a request authenticated with */
export type CredentialKind = 'API_KEY' | 'OAUTH_TOKEN' | 'PERSONAL_TOKEN' | 'SESSION';

export type DocumentStatus = 'FAILED' | 'INDEXING' | 'PENDING' | 'READY';

export type EmbeddingModelInput = {
  /** Stored sealed (needs TROVE_SECRET_KEY); never returned */
  apiKey?: string | null | undefined;
  /** e.g. http://127.0.0.1:8089/v1 (OpenAI-compatible) or http://127.0.0.1:11434 (Ollama) */
  baseUrl: string;
  batchSize?: number | null | undefined;
  /** The server’s model name, when it differs from the profile’s */
  model?: string | null | undefined;
  /** Model profile (dimensions, prefixes), e.g. multilingual-e5-base, bge-m3 */
  profile: string;
  /** openai (any OpenAI-compatible server) or ollama */
  provider: string;
  timeoutMs?: number | null | undefined;
};

/** The stable code of an error: in `extensions.code` of a GraphQL error, `error.code` of a REST one, and on a failed document or sync run. A status without a code of its own comes as HTTP_<status>. Clients classify codes with errorKind (libs/domain). */
export type ErrorCode =
  | 'ANSWER_NOT_FOUND'
  | 'API_KEY_NOT_FOUND'
  | 'BAD_REQUEST'
  | 'BAD_USER_INPUT'
  | 'CANCELLED'
  | 'CORRUPT_DOCUMENT'
  | 'DOCUMENT_BUSY'
  | 'DOCUMENT_NAME_CONFLICT'
  | 'DOCUMENT_NOT_FOUND'
  | 'EMBEDDING_FAILED'
  | 'EMBEDDING_REJECTED'
  | 'EMPTY_DOCUMENT'
  | 'ENCRYPTED_DOCUMENT'
  | 'FORBIDDEN'
  | 'GRAPHQL_PARSE_FAILED'
  | 'GRAPHQL_VALIDATION_FAILED'
  | 'GROUP_NOT_FOUND'
  | 'INDEX_FAILED'
  | 'INDEX_REBUILD_IN_PROGRESS'
  | 'INTERNAL'
  | 'LLM_FAILED'
  | 'NOT_FOUND'
  | 'NOT_STARTED'
  | 'NO_TEXT_LAYER'
  | 'OPERATION_RESOLUTION_FAILURE'
  | 'PARSE_FAILED'
  | 'PARSE_LIMIT_EXCEEDED'
  | 'PAYLOAD_TOO_LARGE'
  | 'PERSISTED_QUERY_NOT_FOUND'
  | 'PERSISTED_QUERY_NOT_SUPPORTED'
  | 'PROJECT_DELETING'
  | 'PROJECT_NAME_CONFLICT'
  | 'PROJECT_NOT_FOUND'
  | 'QUERY_TOO_COMPLEX'
  | 'RATE_LIMITED'
  | 'RERANK_FAILED'
  | 'SERVICE_UNAVAILABLE'
  | 'SETTINGS_CONFLICT'
  | 'SIGN_IN_REFUSED'
  | 'SKIPPED'
  | 'SOURCE_ITEM_GONE'
  | 'SOURCE_NOT_FOUND'
  | 'SOURCE_UNAUTHORIZED'
  | 'SOURCE_UNREACHABLE'
  | 'SYNC_PLAN_SHORT'
  | 'SYNC_RUN_NOT_FOUND'
  | 'THREAD_NOT_FOUND'
  | 'TOKEN_NOT_FOUND'
  | 'UNAUTHENTICATED'
  | 'UNDECODABLE_DOCUMENT'
  | 'UNSAFE_ARCHIVE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'USER_NOT_FOUND'
  | 'WEBHOOK_EXPIRED';

/** What a vote is about: the answer as a whole, or one of its passages */
export type FeedbackTarget = 'ANSWER' | 'PASSAGE';

/** Thumbs up or down */
export type FeedbackVote = 'DOWN' | 'UP';

/** Fusion for this request; unset fields keep the server configuration */
export type FusionInput = {
  /** RRF k, 1 to 1000 */
  k?: number | null | undefined;
  method: FusionMethod;
  normalization?: ScoreNormalization | null | undefined;
  /** CONVEX: weight of the vector leg, 0 to 1 */
  vectorWeight?: number | null | undefined;
};

/** How HYBRID merges the BM25 and kNN legs */
export type FusionMethod =
  /** vectorWeight·norm(kNN score) + (1 − vectorWeight)·norm(BM25 score) */
  | 'CONVEX'
  /** Reciprocal rank fusion: Σ 1 / (k + rank) */
  | 'RRF';

/** A vote on an answer (or one of its passages) the key was given; voting again replaces the key's vote */
export type GiveFeedbackInput = {
  /** The `answerId` of the answer (`ans_…`) */
  answerId: string | number;
  /** A passage of the answer (one of its citations' chunks); unset: the answer as a whole */
  chunkId?: string | number | null | undefined;
  /** Why, in a few words (at most 2000 characters) */
  comment?: string | null | undefined;
  vote: FeedbackVote;
};

export type GrantProjectRoleInput = {
  /** A person by email */
  email?: string | null | undefined;
  groupId?: string | number | null | undefined;
  /** A provider's group by its name in the groups claim (made if nobody in it has signed in yet); with groupProvider */
  groupName?: string | null | undefined;
  /** The provider of groupName */
  groupProvider?: string | null | undefined;
  projectId: string | number;
  role: ApiKeyRole;
  userId?: string | number | null | undefined;
};

/** Who gets (or loses) a role in a project: one of user, email, group, or a provider group by name */
export type GranteeInput = {
  /** A person by email */
  email?: string | null | undefined;
  groupId?: string | number | null | undefined;
  /** A provider's group by its name in the groups claim (made if nobody in it has signed in yet); with groupProvider */
  groupName?: string | null | undefined;
  /** The provider of groupName */
  groupProvider?: string | null | undefined;
  projectId: string | number;
  userId?: string | number | null | undefined;
};

export type IndexGenerationStatus = 'ACTIVE' | 'BUILDING' | 'CANCELLED' | 'FAILED' | 'RETIRED';

export type Permission =
  /** API keys, global settings, creating and deleting projects */
  | 'ADMIN'
  /** Search and read */
  | 'READ'
  /** Write content and sources */
  | 'WRITE';

export type ProjectSettingsInput = {
  /** Read scans and images by OCR; unset: unchanged */
  ocr?: boolean | null | undefined;
};

export type ProjectStatus = 'ACTIVE' | 'DELETING';

export type RagAnswerSettingsInput = {
  contextTokens?: number | null | undefined;
  extractiveChunks?: number | null | undefined;
  extractiveSentences?: number | null | undefined;
  fallbackMode?: string | null | undefined;
  llmBudgetMs?: number | null | undefined;
  rewriteTimeoutMs?: number | null | undefined;
  supportMinLexical?: number | null | undefined;
  supportMinSemantic?: number | null | undefined;
  threshold?: number | null | undefined;
  topK?: number | null | undefined;
};

export type RagChunkingSettingsInput = {
  minTokens?: number | null | undefined;
  overlapTokens?: number | null | undefined;
  targetTokens?: number | null | undefined;
};

export type RagFusionSettingsInput = {
  convexNormalization?: string | null | undefined;
  convexVectorWeight?: number | null | undefined;
  fusion?: string | null | undefined;
  rrfK?: number | null | undefined;
};

export type RagLlmSettingsInput = {
  /** Stored sealed (TROVE_SECRET_KEY); never returned */
  apiKey?: string | null | undefined;
  baseUrl?: string | null | undefined;
  contextTokens?: number | null | undefined;
  idleTimeoutMs?: number | null | undefined;
  maxTokens?: number | null | undefined;
  model?: string | null | undefined;
  provider?: string | null | undefined;
  retries?: number | null | undefined;
  temperature?: number | null | undefined;
  timeoutMs?: number | null | undefined;
};

export type RagRerankSettingsInput = {
  /** Stored sealed (TROVE_SECRET_KEY); never returned */
  apiKey?: string | null | undefined;
  candidates?: number | null | undefined;
  maxChars?: number | null | undefined;
  model?: string | null | undefined;
  provider?: string | null | undefined;
  timeoutMs?: number | null | undefined;
  url?: string | null | undefined;
};

/** CONVEX: per-query normalisation of each leg's scores over its candidates */
export type ScoreNormalization = 'MINMAX' | 'ZSCORE';

/** Filters applied inside both legs (the kNN leg still returns its k nearest among matching chunks). Every filter given must hold; a filter that matches no document gives no hits. */
export type SearchFiltersInput = {
  /** Only these documents */
  documentIds?: Array<string | number> | null | undefined;
  /** Only chunks with (true) or without (false) a code block */
  hasCode?: boolean | null | undefined;
  /** Only chunks in these languages, as detected per chunk: 'en', 'ru', 'cjk', 'und' */
  languages?: Array<string> | null | undefined;
  /** Only documents of these media types (Document.mediaType, listed in Project.documentTypes) */
  mediaTypes?: Array<string> | null | undefined;
  /** Only documents of these sources; each must be a source of the project (else SOURCE_NOT_FOUND) */
  sourceIds?: Array<string | number> | null | undefined;
  /** ISO 8601: only documents whose last update (the document's updatedAt) is at or after this */
  updatedFrom?: string | null | undefined;
  /** ISO 8601: only documents last updated before this */
  updatedTo?: string | null | undefined;
};

export type SearchInput = {
  /** Each hit carries its ±expand neighbouring chunks in `context` (0 to TROVE_SEARCH_MAX_EXPAND) */
  expand?: number;
  /** Return each hit's explain (legs, fusion, rerank) */
  explain?: boolean | null | undefined;
  filters?: SearchFiltersInput | null | undefined;
  /** Overrides the configured fusion */
  fusion?: FusionInput | null | undefined;
  /** Also return `groups`: hits per document, neighbouring chunks merged into passages */
  groupByDocument?: boolean;
  /** 1 to 100 */
  limit?: number;
  /** At most this many hits per document (after MMR) */
  maxPerDocument?: number | null | undefined;
  /** Drops hits whose final score is below this. The scale is the fusion's (also in KEYWORD and VECTOR mode, over one leg): RRF scores are Σ 1/(k + rank) over the legs, so at most 2/(k+1) (≈0.033 at k=60) for a chunk first in both legs and at most 1/(k+1) for one found by a single leg; CONVEX scores are vectorWeight·norm(kNN) + (1 − vectorWeight)·norm(BM25), between 0 and 1 under MINMAX and unbounded z-scores under ZSCORE. When a reranker runs, its score is the final score. */
  minScore?: number | null | undefined;
  /** Diversify with maximal marginal relevance over the stored vectors (default TROVE_SEARCH_MMR) */
  mmr?: boolean | null | undefined;
  /** MMR's λ, 0 to 1: 1 keeps the relevance order, 0 only spreads (default TROVE_SEARCH_MMR_LAMBDA) */
  mmrLambda?: number | null | undefined;
  mode?: SearchMode;
  projectId: string | number;
  query: string;
  /** Rerank the fused top candidates (true) or not (false); unset: as configured (TROVE_RERANK_PROVIDER) */
  rerank?: boolean | null | undefined;
  /** How many fused hits are reranked, 1 to 100 */
  rerankCandidates?: number | null | undefined;
};

export type SearchMode = 'HYBRID' | 'KEYWORD' | 'VECTOR';

export type SourceStatus = 'ACTIVE' | 'NEEDS_TOKEN' | 'REMOVING';

export type StallReason =
  'ACTIVITY_RETRYING' | 'NO_WORKER' | 'RATE_LIMITED' | 'UNKNOWN' | 'WORKFLOW_NOT_RUNNING';

export type SyncHealthState = 'OK' | 'STALLED';

export type SyncMode = 'FULL' | 'INCREMENTAL' | 'REBUILD';

export type SyncRunStatus = 'CANCELLED' | 'COMPLETED' | 'FAILED' | 'RUNNING';

/** PLANNING: discovering and diffing; INGESTING: the changed pages; FINISHING: recording the end */
export type SyncStage = 'FINISHING' | 'INGESTING' | 'PLANNING';

/** Settings to change; a field given as null goes back to the environment’s value. All of it applies, or none. */
export type UpdateRagConfigInput = {
  answers?: RagAnswerSettingsInput | null | undefined;
  chunking?: RagChunkingSettingsInput | null | undefined;
  /** Another embedding model: rebuilds the index in the background (see embeddingIndex) */
  embedding?: EmbeddingModelInput | null | undefined;
  llm?: RagLlmSettingsInput | null | undefined;
  rerank?: RagRerankSettingsInput | null | undefined;
  /** Settings (`llm.apiKey`) or whole sections (`llm`) back to the environment’s values */
  reset?: Array<string> | null | undefined;
  search?: RagFusionSettingsInput | null | undefined;
};

export type UpdateSourceInput = {
  /** Configuration fields to change (null clears an optional one); fields and secrets left out keep their value */
  config?: unknown;
  name?: string | null | undefined;
  /** A new token (e.g. after the old one was revoked) */
  token?: string | null | undefined;
};

export type UpdateUserInput = {
  /** Removes the install-wide role */
  clearRole?: boolean | null | undefined;
  name?: string | null | undefined;
  /** The install-wide role (set clearRole to remove it) */
  role?: ApiKeyRole | null | undefined;
};

export type UserStatus =
  /** May sign in and use Trove */
  | 'ACTIVE'
  /** Refused from the next request on; sessions and tokens ended */
  | 'DEACTIVATED';

/** An enum describing what kind of type a given `__Type` is. */
export type __TypeKind =
  /** Indicates this type is a scalar. */
  | 'SCALAR'
  /** Indicates this type is an object. `fields` and `interfaces` are valid fields. */
  | 'OBJECT'
  /** Indicates this type is an interface. `fields`, `interfaces`, and `possibleTypes` are valid fields. */
  | 'INTERFACE'
  /** Indicates this type is a union. `possibleTypes` is a valid field. */
  | 'UNION'
  /** Indicates this type is an enum. `enumValues` is a valid field. */
  | 'ENUM'
  /** Indicates this type is an input object. `inputFields` is a valid field. */
  | 'INPUT_OBJECT'
  /** Indicates this type is a list. `ofType` is a valid field. */
  | 'LIST'
  /** Indicates this type is a non-null. `ofType` is a valid field. */
  | 'NON_NULL';

export type SyncProgressFieldsFragment = {
  pagesSeen: number;
  pagesIngested: number;
  pagesUnchanged: number;
  pagesSkipped: number;
  pagesFailed: number;
  pagesDeleted: number;
  chunksEmbedded: number;
  chunksReused: number;
  apiCalls: number;
  pagesPlanned: number | null;
  pagesDone: number;
};

export type SyncRunMotionFieldsFragment = {
  stage: SyncStage | null;
  progressAt: string | null;
  pagesPerSecond: number | null;
  etaSeconds: number | null;
  health: {
    state: SyncHealthState;
    reason: StallReason | null;
    message: string | null;
    since: string | null;
  };
};

export type SyncRunFieldsFragment = {
  id: string;
  sourceId: string;
  mode: SyncMode;
  status: SyncRunStatus;
  startedAt: string;
  finishedAt: string | null;
  warnings: Array<string> | null;
  stage: SyncStage | null;
  progressAt: string | null;
  pagesPerSecond: number | null;
  etaSeconds: number | null;
  error: { code: ErrorCode; message: string } | null;
  skipped: Array<{ id: string; reason: string; title: string | null }>;
  progress: {
    pagesSeen: number;
    pagesIngested: number;
    pagesUnchanged: number;
    pagesSkipped: number;
    pagesFailed: number;
    pagesDeleted: number;
    chunksEmbedded: number;
    chunksReused: number;
    apiCalls: number;
    pagesPlanned: number | null;
    pagesDone: number;
  };
  health: {
    state: SyncHealthState;
    reason: StallReason | null;
    message: string | null;
    since: string | null;
  };
};

export type DocumentFieldsFragment = {
  id: string;
  projectId: string;
  sourceId: string | null;
  externalId: string | null;
  fileName: string;
  title: string | null;
  mediaType: string;
  status: DocumentStatus;
  warnings: Array<string>;
  chunkCount: number;
  pageCount: number | null;
  sizeBytes: number;
  language: string | null;
  url: string | null;
  createdAt: string;
  updatedAt: string;
  indexedAt: string | null;
  error: { code: ErrorCode; message: string } | null;
  progress: { stage: string; page: number; pageCount: number | null } | null;
  timings: {
    fetchMs: number | null;
    parseMs: number | null;
    chunkMs: number | null;
    embedMs: number | null;
    upsertMs: number | null;
    totalMs: number | null;
  };
};

export type ChunkFieldsFragment = {
  id: string;
  documentId: string;
  position: number;
  title: string;
  headingPath: Array<string>;
  chapter: string | null;
  page: number | null;
  pageEnd: number | null;
  anchor: string | null;
  language: string;
  tokenCount: number;
  citationUrl: string | null;
  text: string;
};

export type MeQueryVariables = Exact<{ [key: string]: never }>;

export type MeQuery = {
  me: {
    keyId: string | null;
    userId: string | null;
    credential: CredentialKind;
    name: string;
    email: string | null;
    pictureUrl: string | null;
    role: ApiKeyRole;
    permissions: Array<Permission>;
    projectIds: Array<string> | null;
    groups: Array<string>;
    projectRoles: Array<{ projectId: string; role: ApiKeyRole }>;
  };
};

export type ProjectsQueryVariables = Exact<{ [key: string]: never }>;

export type ProjectsQuery = {
  projects: Array<{
    id: string;
    name: string;
    status: ProjectStatus;
    createdAt: string;
    settings: { ocr: boolean };
    stats: { documentCount: number; chunkCount: number };
  }>;
};

export type UpdateProjectSettingsMutationVariables = Exact<{
  projectId: string | number;
  input: ProjectSettingsInput;
}>;

export type UpdateProjectSettingsMutation = {
  updateProjectSettings: { id: string; name: string; settings: { ocr: boolean } };
};

export type CreateProjectMutationVariables = Exact<{
  name: string;
}>;

export type CreateProjectMutation = {
  createProject: { id: string; name: string; status: ProjectStatus; createdAt: string };
};

export type DeleteProjectMutationVariables = Exact<{
  id: string | number;
  wait?: boolean | null | undefined;
}>;

export type DeleteProjectMutation = { deleteProject: boolean };

export type DocumentsQueryVariables = Exact<{
  projectId: string | number;
  first: number;
  after?: string | null | undefined;
  status?: DocumentStatus | null | undefined;
  sourceId?: string | number | null | undefined;
}>;

export type DocumentsQuery = {
  documents: {
    totalCount: number;
    pageInfo: { endCursor: string | null; hasNextPage: boolean };
    nodes: Array<{
      id: string;
      projectId: string;
      sourceId: string | null;
      externalId: string | null;
      fileName: string;
      title: string | null;
      mediaType: string;
      status: DocumentStatus;
      warnings: Array<string>;
      chunkCount: number;
      pageCount: number | null;
      sizeBytes: number;
      language: string | null;
      url: string | null;
      createdAt: string;
      updatedAt: string;
      indexedAt: string | null;
      error: { code: ErrorCode; message: string } | null;
      progress: { stage: string; page: number; pageCount: number | null } | null;
      timings: {
        fetchMs: number | null;
        parseMs: number | null;
        chunkMs: number | null;
        embedMs: number | null;
        upsertMs: number | null;
        totalMs: number | null;
      };
    }>;
  };
};

export type DocumentQueryVariables = Exact<{
  id: string | number;
}>;

export type DocumentQuery = {
  document: {
    id: string;
    projectId: string;
    sourceId: string | null;
    externalId: string | null;
    fileName: string;
    title: string | null;
    mediaType: string;
    status: DocumentStatus;
    warnings: Array<string>;
    chunkCount: number;
    pageCount: number | null;
    sizeBytes: number;
    language: string | null;
    url: string | null;
    createdAt: string;
    updatedAt: string;
    indexedAt: string | null;
    error: { code: ErrorCode; message: string } | null;
    progress: { stage: string; page: number; pageCount: number | null } | null;
    timings: {
      fetchMs: number | null;
      parseMs: number | null;
      chunkMs: number | null;
      embedMs: number | null;
      upsertMs: number | null;
      totalMs: number | null;
    };
  } | null;
};

export type DeleteDocumentMutationVariables = Exact<{
  id: string | number;
}>;

export type DeleteDocumentMutation = { deleteDocument: boolean };

export type ReindexDocumentMutationVariables = Exact<{
  id: string | number;
}>;

export type ReindexDocumentMutation = {
  reindexDocument: { id: string; fileName: string; status: DocumentStatus };
};

export type ChunksQueryVariables = Exact<{
  documentId: string | number;
}>;

export type ChunksQuery = {
  chunks: Array<{
    id: string;
    documentId: string;
    position: number;
    title: string;
    headingPath: Array<string>;
    chapter: string | null;
    page: number | null;
    pageEnd: number | null;
    anchor: string | null;
    language: string;
    tokenCount: number;
    citationUrl: string | null;
    text: string;
  }>;
};

export type DocumentChunksQueryVariables = Exact<{
  id: string | number;
}>;

export type DocumentChunksQuery = {
  document: {
    id: string;
    projectId: string;
    fileName: string;
    title: string | null;
    status: DocumentStatus;
    chunkCount: number;
    pageCount: number | null;
  } | null;
  chunks: Array<{
    id: string;
    documentId: string;
    position: number;
    title: string;
    headingPath: Array<string>;
    chapter: string | null;
    page: number | null;
    pageEnd: number | null;
    anchor: string | null;
    language: string;
    tokenCount: number;
    citationUrl: string | null;
    text: string;
  }>;
};

export type ChunkQueryVariables = Exact<{
  id: string | number;
}>;

export type ChunkQuery = {
  chunk: {
    id: string;
    documentId: string;
    position: number;
    title: string;
    headingPath: Array<string>;
    chapter: string | null;
    page: number | null;
    pageEnd: number | null;
    anchor: string | null;
    language: string;
    tokenCount: number;
    citationUrl: string | null;
    text: string;
  } | null;
};

export type SourcesQueryVariables = Exact<{
  projectId: string | number;
}>;

export type SourcesQuery = {
  sources: Array<{
    id: string;
    projectId: string;
    name: string;
    type: string;
    status: SourceStatus;
    createdAt: string;
    lastSyncAt: string | null;
    syncIntervalMinutes: number | null;
    tokenHint: string | null;
    summary: string;
    config: unknown;
    documentCount: number;
    secrets: Array<{ field: string; hint: string }>;
    webhook: { lastEventAt: string | null; lastEventType: string | null; rejectedDeliveries: number } | null;
    lastRun: {
      id: string;
      status: SyncRunStatus;
      stage: SyncStage | null;
      startedAt: string;
      finishedAt: string | null;
      etaSeconds: number | null;
      error: { code: ErrorCode; message: string } | null;
      progress: { pagesPlanned: number | null; pagesDone: number };
      health: { state: SyncHealthState; message: string | null };
    } | null;
  }>;
};

export type SourceTypesQueryVariables = Exact<{ [key: string]: never }>;

export type SourceTypesQuery = {
  sourceTypes: Array<{
    type: string;
    label: string;
    description: string;
    configSchema: unknown;
    secretFields: Array<string>;
    webhook: boolean;
    webhookSetup: {
      instructions: string;
      path: string;
      steps: Array<string>;
      verificationHandshake: boolean;
    } | null;
  }>;
};

export type AddSourceMutationVariables = Exact<{
  input: AddSourceInput;
}>;

export type AddSourceMutation = {
  addSource: {
    id: string;
    name: string;
    type: string;
    status: SourceStatus;
    config: unknown;
    secrets: Array<{ field: string; hint: string }>;
  };
};

export type UpdateSourceMutationVariables = Exact<{
  id: string | number;
  input: UpdateSourceInput;
}>;

export type UpdateSourceMutation = {
  updateSource: {
    id: string;
    name: string;
    config: unknown;
    secrets: Array<{ field: string; hint: string }>;
  };
};

export type RemoveSourceMutationVariables = Exact<{
  id: string | number;
}>;

export type RemoveSourceMutation = { removeSource: boolean };

export type SyncSourceMutationVariables = Exact<{
  id: string | number;
  mode: SyncMode;
}>;

export type SyncSourceMutation = {
  syncSource: {
    id: string;
    sourceId: string;
    mode: SyncMode;
    status: SyncRunStatus;
    startedAt: string;
    finishedAt: string | null;
    warnings: Array<string> | null;
    stage: SyncStage | null;
    progressAt: string | null;
    pagesPerSecond: number | null;
    etaSeconds: number | null;
    error: { code: ErrorCode; message: string } | null;
    skipped: Array<{ id: string; reason: string; title: string | null }>;
    progress: {
      pagesSeen: number;
      pagesIngested: number;
      pagesUnchanged: number;
      pagesSkipped: number;
      pagesFailed: number;
      pagesDeleted: number;
      chunksEmbedded: number;
      chunksReused: number;
      apiCalls: number;
      pagesPlanned: number | null;
      pagesDone: number;
    };
    health: {
      state: SyncHealthState;
      reason: StallReason | null;
      message: string | null;
      since: string | null;
    };
  };
};

export type CancelSyncRunMutationVariables = Exact<{
  id: string | number;
}>;

export type CancelSyncRunMutation = {
  cancelSyncRun: {
    id: string;
    sourceId: string;
    mode: SyncMode;
    status: SyncRunStatus;
    startedAt: string;
    finishedAt: string | null;
    warnings: Array<string> | null;
    stage: SyncStage | null;
    progressAt: string | null;
    pagesPerSecond: number | null;
    etaSeconds: number | null;
    error: { code: ErrorCode; message: string } | null;
    skipped: Array<{ id: string; reason: string; title: string | null }>;
    progress: {
      pagesSeen: number;
      pagesIngested: number;
      pagesUnchanged: number;
      pagesSkipped: number;
      pagesFailed: number;
      pagesDeleted: number;
      chunksEmbedded: number;
      chunksReused: number;
      apiCalls: number;
      pagesPlanned: number | null;
      pagesDone: number;
    };
    health: {
      state: SyncHealthState;
      reason: StallReason | null;
      message: string | null;
      since: string | null;
    };
  };
};

export type SyncRunQueryVariables = Exact<{
  id: string | number;
}>;

export type SyncRunQuery = {
  syncRun: {
    id: string;
    sourceId: string;
    mode: SyncMode;
    status: SyncRunStatus;
    startedAt: string;
    finishedAt: string | null;
    warnings: Array<string> | null;
    stage: SyncStage | null;
    progressAt: string | null;
    pagesPerSecond: number | null;
    etaSeconds: number | null;
    error: { code: ErrorCode; message: string } | null;
    skipped: Array<{ id: string; reason: string; title: string | null }>;
    progress: {
      pagesSeen: number;
      pagesIngested: number;
      pagesUnchanged: number;
      pagesSkipped: number;
      pagesFailed: number;
      pagesDeleted: number;
      chunksEmbedded: number;
      chunksReused: number;
      apiCalls: number;
      pagesPlanned: number | null;
      pagesDone: number;
    };
    health: {
      state: SyncHealthState;
      reason: StallReason | null;
      message: string | null;
      since: string | null;
    };
  } | null;
};

export type SyncRunsQueryVariables = Exact<{
  sourceId: string | number;
  first: number;
  after?: string | null | undefined;
}>;

export type SyncRunsQuery = {
  syncRuns: {
    totalCount: number;
    pageInfo: { endCursor: string | null; hasNextPage: boolean };
    nodes: Array<{
      id: string;
      sourceId: string;
      mode: SyncMode;
      status: SyncRunStatus;
      startedAt: string;
      finishedAt: string | null;
      warnings: Array<string> | null;
      stage: SyncStage | null;
      progressAt: string | null;
      pagesPerSecond: number | null;
      etaSeconds: number | null;
      error: { code: ErrorCode; message: string } | null;
      skipped: Array<{ id: string; reason: string; title: string | null }>;
      progress: {
        pagesSeen: number;
        pagesIngested: number;
        pagesUnchanged: number;
        pagesSkipped: number;
        pagesFailed: number;
        pagesDeleted: number;
        chunksEmbedded: number;
        chunksReused: number;
        apiCalls: number;
        pagesPlanned: number | null;
        pagesDone: number;
      };
      health: {
        state: SyncHealthState;
        reason: StallReason | null;
        message: string | null;
        since: string | null;
      };
    }>;
  };
};

export type SyncRunUpdatesSubscriptionVariables = Exact<{
  id: string | number;
}>;

export type SyncRunUpdatesSubscription = {
  syncRunUpdates: {
    id: string;
    sourceId: string;
    mode: SyncMode;
    status: SyncRunStatus;
    startedAt: string;
    finishedAt: string | null;
    warnings: Array<string> | null;
    stage: SyncStage | null;
    progressAt: string | null;
    pagesPerSecond: number | null;
    etaSeconds: number | null;
    error: { code: ErrorCode; message: string } | null;
    skipped: Array<{ id: string; reason: string; title: string | null }>;
    progress: {
      pagesSeen: number;
      pagesIngested: number;
      pagesUnchanged: number;
      pagesSkipped: number;
      pagesFailed: number;
      pagesDeleted: number;
      chunksEmbedded: number;
      chunksReused: number;
      apiCalls: number;
      pagesPlanned: number | null;
      pagesDone: number;
    };
    health: {
      state: SyncHealthState;
      reason: StallReason | null;
      message: string | null;
      since: string | null;
    };
  };
};

export type SetSyncScheduleMutationVariables = Exact<{
  sourceId: string | number;
  intervalMinutes: number;
}>;

export type SetSyncScheduleMutation = { setSyncSchedule: { id: string; syncIntervalMinutes: number | null } };

export type WebhookVerificationTokenQueryVariables = Exact<{
  sourceId: string | number;
}>;

export type WebhookVerificationTokenQuery = { webhookVerificationToken: string | null };

export type ResetWebhookVerificationMutationVariables = Exact<{
  sourceId: string | number;
}>;

export type ResetWebhookVerificationMutation = { resetWebhookVerification: boolean };

export type SearchQueryVariables = Exact<{
  input: SearchInput;
}>;

export type SearchQuery = {
  search: {
    tookMs: number;
    reranked: boolean;
    reranker: string | null;
    warnings: Array<string>;
    hits: Array<{
      chunkId: string;
      documentId: string;
      title: string;
      fileName: string | null;
      sourceId: string | null;
      sourceName: string | null;
      sourceType: string | null;
      headingPath: Array<string>;
      chapter: string | null;
      page: number | null;
      pageEnd: number | null;
      anchor: string | null;
      ocr: boolean | null;
      ocrConfidence: number | null;
      position: number;
      text: string;
      citationUrl: string | null;
      score: number;
      rerankScore: number | null;
      bm25: { rank: number; score: number } | null;
      knn: { rank: number; score: number } | null;
      explain: {
        fusedScore: number;
        rerankScore: number | null;
        bm25: { rank: number; score: number } | null;
        knn: { rank: number; score: number } | null;
        topFeatures: Array<{ name: string; contribution: number }> | null;
      } | null;
      context: Array<{
        chunkId: string;
        position: number;
        headingPath: Array<string>;
        text: string;
        citationUrl: string | null;
      }> | null;
    }>;
  };
};

export type SearchFilterOptionsQueryVariables = Exact<{
  projectId: string | number;
}>;

export type SearchFilterOptionsQuery = {
  sources: Array<{ id: string; name: string; type: string }>;
  project: {
    id: string;
    documentTypes: Array<{ mediaType: string; label: string; documentCount: number }>;
  } | null;
};

export type AskQueryVariables = Exact<{
  input: AskInput;
}>;

export type AskQuery = {
  ask: {
    answerId: string;
    threadId: string | null;
    standaloneQuestion: string | null;
    answer: string;
    mode: AnswerMode;
    insufficientContext: boolean;
    language: string;
    model: string | null;
    fallbackReason: string | null;
    citations: Array<{
      marker: number;
      chunkId: string;
      documentId: string;
      title: string;
      headingPath: Array<string>;
      citationUrl: string | null;
      quote: string;
      page: number | null;
      ocr: boolean | null;
      ocrConfidence: number | null;
    }>;
    verification: {
      validMarkers: Array<number>;
      invalidMarkers: Array<number>;
      missingMarkers: boolean;
      retried: boolean;
      checkedSentences: number;
    };
    timings: { totalMs: number };
  };
};

export type ThreadFieldsFragment = {
  id: string;
  projectId: string;
  title: string;
  turnCount: number;
  createdAt: string;
  updatedAt: string;
};

export type ThreadsQueryVariables = Exact<{
  projectId: string | number;
  first: number;
  after?: string | null | undefined;
  allKeys?: boolean | null | undefined;
}>;

export type ThreadsQuery = {
  threads: {
    totalCount: number;
    pageInfo: { endCursor: string | null; hasNextPage: boolean };
    nodes: Array<{
      id: string;
      projectId: string;
      title: string;
      turnCount: number;
      createdAt: string;
      updatedAt: string;
    }>;
  };
};

export type ThreadQueryVariables = Exact<{
  id: string | number;
}>;

export type ThreadQuery = {
  thread: {
    id: string;
    projectId: string;
    title: string;
    turnCount: number;
    createdAt: string;
    updatedAt: string;
    turns: Array<{
      answerId: string;
      position: number;
      question: string;
      standaloneQuestion: string | null;
      mode: AnswerMode;
      answer: string;
      createdAt: string;
      citations: Array<{
        marker: number;
        chunkId: string;
        documentId: string;
        title: string;
        headingPath: Array<string>;
        citationUrl: string | null;
        quote: string;
        page: number | null;
      }>;
    }>;
  } | null;
};

export type RenameThreadMutationVariables = Exact<{
  id: string | number;
  title: string;
}>;

export type RenameThreadMutation = {
  renameThread: {
    id: string;
    projectId: string;
    title: string;
    turnCount: number;
    createdAt: string;
    updatedAt: string;
  };
};

export type DeleteThreadMutationVariables = Exact<{
  id: string | number;
}>;

export type DeleteThreadMutation = { deleteThread: boolean };

export type FeedbackFieldsFragment = {
  id: string;
  answerId: string;
  target: FeedbackTarget;
  chunkId: string | null;
  vote: FeedbackVote;
  comment: string | null;
  updatedAt: string;
};

export type GiveFeedbackMutationVariables = Exact<{
  input: GiveFeedbackInput;
}>;

export type GiveFeedbackMutation = {
  giveFeedback: {
    id: string;
    answerId: string;
    target: FeedbackTarget;
    chunkId: string | null;
    vote: FeedbackVote;
    comment: string | null;
    updatedAt: string;
  };
};

export type MyFeedbackQueryVariables = Exact<{
  projectId: string | number;
  answerIds: Array<string | number> | string | number;
}>;

export type MyFeedbackQuery = {
  myFeedback: Array<{
    id: string;
    answerId: string;
    target: FeedbackTarget;
    chunkId: string | null;
    vote: FeedbackVote;
    comment: string | null;
    updatedAt: string;
  }>;
};

export type ContentGapsQueryVariables = Exact<{
  projectId: string | number;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;

export type ContentGapsQuery = {
  contentGaps: {
    totalCount: number;
    pageInfo: { endCursor: string | null; hasNextPage: boolean };
    nodes: Array<{
      key: string;
      question: string;
      askCount: number;
      unansweredCount: number;
      downVoteCount: number;
      lastAskedAt: string;
      comments: Array<string>;
      askedBy: Array<string>;
    }>;
  };
};

export type ApiKeysQueryVariables = Exact<{ [key: string]: never }>;

export type ApiKeysQuery = {
  apiKeys: Array<{
    id: string;
    name: string;
    prefix: string;
    role: ApiKeyRole;
    projectIds: Array<string> | null;
    createdAt: string;
    createdBy: string;
    lastUsedAt: string | null;
    revokedAt: string | null;
  }>;
};

export type CreateApiKeyMutationVariables = Exact<{
  input: CreateApiKeyInput;
}>;

export type CreateApiKeyMutation = {
  createApiKey: {
    secret: string;
    apiKey: {
      id: string;
      name: string;
      prefix: string;
      role: ApiKeyRole;
      projectIds: Array<string> | null;
      createdAt: string;
    };
  };
};

export type RevokeApiKeyMutationVariables = Exact<{
  id: string | number;
}>;

export type RevokeApiKeyMutation = { revokeApiKey: { id: string; name: string; revokedAt: string | null } };

export type RagConfigQueryVariables = Exact<{ [key: string]: never }>;

export type RagConfigQuery = {
  ragConfig: {
    version: number;
    updatedAt: string | null;
    overridden: Array<string>;
    warnings: Array<string>;
    search: { fusion: string; rrfK: number; convexVectorWeight: number; convexNormalization: string };
    rerank: {
      provider: string;
      candidates: number;
      maxChars: number;
      model: string | null;
      url: string | null;
      timeoutMs: number;
      apiKey: { set: boolean; masked: string | null };
    };
    answers: {
      topK: number;
      threshold: number;
      fallbackMode: string;
      contextTokens: number;
      extractiveChunks: number;
      extractiveSentences: number;
      supportMinLexical: number;
      supportMinSemantic: number;
      llmBudgetMs: number;
      rewriteTimeoutMs: number;
    };
    llm: {
      provider: string;
      baseUrl: string | null;
      model: string | null;
      temperature: number;
      maxTokens: number;
      contextTokens: number;
      timeoutMs: number;
      idleTimeoutMs: number;
      retries: number;
      apiKey: { set: boolean; masked: string | null };
    };
    chunking: { targetTokens: number; overlapTokens: number; minTokens: number };
    embedding: {
      active: {
        id: number;
        modelId: string;
        dimensions: number;
        status: IndexGenerationStatus;
        embedding: { provider: string; profile: string; model: string | null; baseUrl: string };
      };
    };
  };
};

export type UpdateRagConfigMutationVariables = Exact<{
  input: UpdateRagConfigInput;
}>;

export type UpdateRagConfigMutation = {
  updateRagConfig: { version: number; overridden: Array<string>; warnings: Array<string> };
};

export type RagConfigInputFieldsQueryVariables = Exact<{ [key: string]: never }>;

export type RagConfigInputFieldsQuery = {
  __type: {
    inputFields: Array<{
      name: string;
      type: {
        kind: __TypeKind;
        name: string | null;
        inputFields: Array<{
          name: string;
          type: {
            kind: __TypeKind;
            name: string | null;
            ofType: { kind: __TypeKind; name: string | null } | null;
          };
        }> | null;
      };
    }> | null;
  } | null;
};

export type UserFieldsFragment = {
  id: string;
  name: string;
  email: string | null;
  pictureUrl: string | null;
  provider: string | null;
  role: ApiKeyRole | null;
  status: UserStatus;
  createdAt: string;
  lastSeenAt: string | null;
  deactivatedAt: string | null;
};

export type UsersQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  search?: string | null | undefined;
}>;

export type UsersQuery = {
  users: {
    totalCount: number;
    pageInfo: { endCursor: string | null; hasNextPage: boolean };
    nodes: Array<{
      id: string;
      name: string;
      email: string | null;
      pictureUrl: string | null;
      provider: string | null;
      role: ApiKeyRole | null;
      status: UserStatus;
      createdAt: string;
      lastSeenAt: string | null;
      deactivatedAt: string | null;
    }>;
  };
};

export type CreateUserMutationVariables = Exact<{
  input: CreateUserInput;
}>;

export type CreateUserMutation = {
  createUser: {
    id: string;
    name: string;
    email: string | null;
    pictureUrl: string | null;
    provider: string | null;
    role: ApiKeyRole | null;
    status: UserStatus;
    createdAt: string;
    lastSeenAt: string | null;
    deactivatedAt: string | null;
  };
};

export type UpdateUserMutationVariables = Exact<{
  id: string | number;
  input: UpdateUserInput;
}>;

export type UpdateUserMutation = {
  updateUser: {
    id: string;
    name: string;
    email: string | null;
    pictureUrl: string | null;
    provider: string | null;
    role: ApiKeyRole | null;
    status: UserStatus;
    createdAt: string;
    lastSeenAt: string | null;
    deactivatedAt: string | null;
  };
};

export type DeactivateUserMutationVariables = Exact<{
  id: string | number;
}>;

export type DeactivateUserMutation = {
  deactivateUser: {
    id: string;
    name: string;
    email: string | null;
    pictureUrl: string | null;
    provider: string | null;
    role: ApiKeyRole | null;
    status: UserStatus;
    createdAt: string;
    lastSeenAt: string | null;
    deactivatedAt: string | null;
  };
};

export type ReactivateUserMutationVariables = Exact<{
  id: string | number;
}>;

export type ReactivateUserMutation = {
  reactivateUser: {
    id: string;
    name: string;
    email: string | null;
    pictureUrl: string | null;
    provider: string | null;
    role: ApiKeyRole | null;
    status: UserStatus;
    createdAt: string;
    lastSeenAt: string | null;
    deactivatedAt: string | null;
  };
};

export type GroupsQueryVariables = Exact<{ [key: string]: never }>;

export type GroupsQuery = {
  groups: Array<{
    id: string;
    name: string;
    provider: string | null;
    memberCount: number;
    createdAt: string;
    members: Array<{ id: string; name: string; email: string | null }>;
  }>;
};

export type CreateGroupMutationVariables = Exact<{
  name: string;
}>;

export type CreateGroupMutation = { createGroup: { id: string; name: string } };

export type DeleteGroupMutationVariables = Exact<{
  id: string | number;
}>;

export type DeleteGroupMutation = { deleteGroup: { id: string } };

export type AddGroupMemberMutationVariables = Exact<{
  groupId: string | number;
  userId: string | number;
}>;

export type AddGroupMemberMutation = { addGroupMember: { id: string; memberCount: number } };

export type RemoveGroupMemberMutationVariables = Exact<{
  groupId: string | number;
  userId: string | number;
}>;

export type RemoveGroupMemberMutation = { removeGroupMember: { id: string; memberCount: number } };

export type ProjectAccessQueryVariables = Exact<{
  projectId: string | number;
}>;

export type ProjectAccessQuery = {
  projectAccess: Array<{
    id: string;
    role: ApiKeyRole;
    createdBy: string;
    createdAt: string;
    user: { id: string; name: string; email: string | null; status: UserStatus } | null;
    group: { id: string; name: string; provider: string | null } | null;
  }>;
};

export type GrantProjectRoleMutationVariables = Exact<{
  input: GrantProjectRoleInput;
}>;

export type GrantProjectRoleMutation = { grantProjectRole: { id: string; role: ApiKeyRole } };

export type RevokeProjectRoleMutationVariables = Exact<{
  input: GranteeInput;
}>;

export type RevokeProjectRoleMutation = { revokeProjectRole: boolean };

export type PersonalTokensQueryVariables = Exact<{ [key: string]: never }>;

export type PersonalTokensQuery = {
  personalTokens: Array<{
    id: string;
    name: string;
    prefix: string;
    createdAt: string;
    expiresAt: string | null;
    lastUsedAt: string | null;
    revokedAt: string | null;
  }>;
};

export type CreatePersonalTokenMutationVariables = Exact<{
  input: CreatePersonalTokenInput;
}>;

export type CreatePersonalTokenMutation = {
  createPersonalToken: { secret: string; token: { id: string; name: string } };
};

export type RevokePersonalTokenMutationVariables = Exact<{
  id: string | number;
}>;

export type RevokePersonalTokenMutation = { revokePersonalToken: { id: string; revokedAt: string | null } };

export type AuditEventsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  filter?: AuditFilterInput | null | undefined;
}>;

export type AuditEventsQuery = {
  auditEvents: {
    totalCount: number;
    pageInfo: { endCursor: string | null; hasNextPage: boolean };
    nodes: Array<{
      id: string;
      at: string;
      action: string;
      outcome: AuditOutcome;
      code: string | null;
      address: string | null;
      userAgent: string | null;
      projectId: string | null;
      detail: unknown;
      target: { kind: string; id: string } | null;
      actor: { kind: AuditActorKind; id: string | null; name: string; credential: CredentialKind | null };
    }>;
  };
};

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const SyncProgressFieldsFragmentDoc = new TypedDocumentString(
  `
    fragment SyncProgressFields on SyncProgress {
  pagesSeen
  pagesIngested
  pagesUnchanged
  pagesSkipped
  pagesFailed
  pagesDeleted
  chunksEmbedded
  chunksReused
  apiCalls
  pagesPlanned
  pagesDone
}
    `,
  { fragmentName: 'SyncProgressFields' },
) as unknown as TypedDocumentString<SyncProgressFieldsFragment, unknown>;
export const SyncRunMotionFieldsFragmentDoc = new TypedDocumentString(
  `
    fragment SyncRunMotionFields on SyncRun {
  stage
  progressAt
  pagesPerSecond
  etaSeconds
  health {
    state
    reason
    message
    since
  }
}
    `,
  { fragmentName: 'SyncRunMotionFields' },
) as unknown as TypedDocumentString<SyncRunMotionFieldsFragment, unknown>;
export const SyncRunFieldsFragmentDoc = new TypedDocumentString(
  `
    fragment SyncRunFields on SyncRun {
  id
  sourceId
  mode
  status
  startedAt
  finishedAt
  error {
    code
    message
  }
  warnings
  skipped {
    id
    reason
    title
  }
  progress {
    ...SyncProgressFields
  }
  ...SyncRunMotionFields
}
    fragment SyncProgressFields on SyncProgress {
  pagesSeen
  pagesIngested
  pagesUnchanged
  pagesSkipped
  pagesFailed
  pagesDeleted
  chunksEmbedded
  chunksReused
  apiCalls
  pagesPlanned
  pagesDone
}
fragment SyncRunMotionFields on SyncRun {
  stage
  progressAt
  pagesPerSecond
  etaSeconds
  health {
    state
    reason
    message
    since
  }
}`,
  { fragmentName: 'SyncRunFields' },
) as unknown as TypedDocumentString<SyncRunFieldsFragment, unknown>;
export const DocumentFieldsFragmentDoc = new TypedDocumentString(
  `
    fragment DocumentFields on Document {
  id
  projectId
  sourceId
  externalId
  fileName
  title
  mediaType
  status
  error {
    code
    message
  }
  warnings
  progress {
    stage
    page
    pageCount
  }
  chunkCount
  pageCount
  sizeBytes
  language
  url
  createdAt
  updatedAt
  indexedAt
  timings {
    fetchMs
    parseMs
    chunkMs
    embedMs
    upsertMs
    totalMs
  }
}
    `,
  { fragmentName: 'DocumentFields' },
) as unknown as TypedDocumentString<DocumentFieldsFragment, unknown>;
export const ChunkFieldsFragmentDoc = new TypedDocumentString(
  `
    fragment ChunkFields on Chunk {
  id
  documentId
  position
  title
  headingPath
  chapter
  page
  pageEnd
  anchor
  language
  tokenCount
  citationUrl
  text
}
    `,
  { fragmentName: 'ChunkFields' },
) as unknown as TypedDocumentString<ChunkFieldsFragment, unknown>;
export const ThreadFieldsFragmentDoc = new TypedDocumentString(
  `
    fragment ThreadFields on Thread {
  id
  projectId
  title
  turnCount
  createdAt
  updatedAt
}
    `,
  { fragmentName: 'ThreadFields' },
) as unknown as TypedDocumentString<ThreadFieldsFragment, unknown>;
export const FeedbackFieldsFragmentDoc = new TypedDocumentString(
  `
    fragment FeedbackFields on Feedback {
  id
  answerId
  target
  chunkId
  vote
  comment
  updatedAt
}
    `,
  { fragmentName: 'FeedbackFields' },
) as unknown as TypedDocumentString<FeedbackFieldsFragment, unknown>;
export const UserFieldsFragmentDoc = new TypedDocumentString(
  `
    fragment UserFields on User {
  id
  name
  email
  pictureUrl
  provider
  role
  status
  createdAt
  lastSeenAt
  deactivatedAt
}
    `,
  { fragmentName: 'UserFields' },
) as unknown as TypedDocumentString<UserFieldsFragment, unknown>;
export const MeDocument = new TypedDocumentString(`
    query Me {
  me {
    keyId
    userId
    credential
    name
    email
    pictureUrl
    role
    permissions
    projectIds
    projectRoles {
      projectId
      role
    }
    groups
  }
}
    `) as unknown as TypedDocumentString<MeQuery, MeQueryVariables>;
export const ProjectsDocument = new TypedDocumentString(`
    query Projects {
  projects {
    id
    name
    status
    createdAt
    settings {
      ocr
    }
    stats {
      documentCount
      chunkCount
    }
  }
}
    `) as unknown as TypedDocumentString<ProjectsQuery, ProjectsQueryVariables>;
export const UpdateProjectSettingsDocument = new TypedDocumentString(`
    mutation UpdateProjectSettings($projectId: ID!, $input: ProjectSettingsInput!) {
  updateProjectSettings(projectId: $projectId, input: $input) {
    id
    name
    settings {
      ocr
    }
  }
}
    `) as unknown as TypedDocumentString<
  UpdateProjectSettingsMutation,
  UpdateProjectSettingsMutationVariables
>;
export const CreateProjectDocument = new TypedDocumentString(`
    mutation CreateProject($name: String!) {
  createProject(input: {name: $name}) {
    id
    name
    status
    createdAt
  }
}
    `) as unknown as TypedDocumentString<CreateProjectMutation, CreateProjectMutationVariables>;
export const DeleteProjectDocument = new TypedDocumentString(`
    mutation DeleteProject($id: ID!, $wait: Boolean = false) {
  deleteProject(id: $id, wait: $wait)
}
    `) as unknown as TypedDocumentString<DeleteProjectMutation, DeleteProjectMutationVariables>;
export const DocumentsDocument = new TypedDocumentString(`
    query Documents($projectId: ID!, $first: Int!, $after: String, $status: DocumentStatus, $sourceId: ID) {
  documents(
    projectId: $projectId
    first: $first
    after: $after
    status: $status
    sourceId: $sourceId
  ) {
    totalCount
    pageInfo {
      endCursor
      hasNextPage
    }
    nodes {
      ...DocumentFields
    }
  }
}
    fragment DocumentFields on Document {
  id
  projectId
  sourceId
  externalId
  fileName
  title
  mediaType
  status
  error {
    code
    message
  }
  warnings
  progress {
    stage
    page
    pageCount
  }
  chunkCount
  pageCount
  sizeBytes
  language
  url
  createdAt
  updatedAt
  indexedAt
  timings {
    fetchMs
    parseMs
    chunkMs
    embedMs
    upsertMs
    totalMs
  }
}`) as unknown as TypedDocumentString<DocumentsQuery, DocumentsQueryVariables>;
export const DocumentDocument = new TypedDocumentString(`
    query Document($id: ID!) {
  document(id: $id) {
    ...DocumentFields
  }
}
    fragment DocumentFields on Document {
  id
  projectId
  sourceId
  externalId
  fileName
  title
  mediaType
  status
  error {
    code
    message
  }
  warnings
  progress {
    stage
    page
    pageCount
  }
  chunkCount
  pageCount
  sizeBytes
  language
  url
  createdAt
  updatedAt
  indexedAt
  timings {
    fetchMs
    parseMs
    chunkMs
    embedMs
    upsertMs
    totalMs
  }
}`) as unknown as TypedDocumentString<DocumentQuery, DocumentQueryVariables>;
export const DeleteDocumentDocument = new TypedDocumentString(`
    mutation DeleteDocument($id: ID!) {
  deleteDocument(id: $id)
}
    `) as unknown as TypedDocumentString<DeleteDocumentMutation, DeleteDocumentMutationVariables>;
export const ReindexDocumentDocument = new TypedDocumentString(`
    mutation ReindexDocument($id: ID!) {
  reindexDocument(id: $id) {
    id
    fileName
    status
  }
}
    `) as unknown as TypedDocumentString<ReindexDocumentMutation, ReindexDocumentMutationVariables>;
export const ChunksDocument = new TypedDocumentString(`
    query Chunks($documentId: ID!) {
  chunks(documentId: $documentId) {
    ...ChunkFields
  }
}
    fragment ChunkFields on Chunk {
  id
  documentId
  position
  title
  headingPath
  chapter
  page
  pageEnd
  anchor
  language
  tokenCount
  citationUrl
  text
}`) as unknown as TypedDocumentString<ChunksQuery, ChunksQueryVariables>;
export const DocumentChunksDocument = new TypedDocumentString(`
    query DocumentChunks($id: ID!) {
  document(id: $id) {
    id
    projectId
    fileName
    title
    status
    chunkCount
    pageCount
  }
  chunks(documentId: $id) {
    ...ChunkFields
  }
}
    fragment ChunkFields on Chunk {
  id
  documentId
  position
  title
  headingPath
  chapter
  page
  pageEnd
  anchor
  language
  tokenCount
  citationUrl
  text
}`) as unknown as TypedDocumentString<DocumentChunksQuery, DocumentChunksQueryVariables>;
export const ChunkDocument = new TypedDocumentString(`
    query Chunk($id: ID!) {
  chunk(id: $id) {
    ...ChunkFields
  }
}
    fragment ChunkFields on Chunk {
  id
  documentId
  position
  title
  headingPath
  chapter
  page
  pageEnd
  anchor
  language
  tokenCount
  citationUrl
  text
}`) as unknown as TypedDocumentString<ChunkQuery, ChunkQueryVariables>;
export const SourcesDocument = new TypedDocumentString(`
    query Sources($projectId: ID!) {
  sources(projectId: $projectId) {
    id
    projectId
    name
    type
    status
    createdAt
    lastSyncAt
    syncIntervalMinutes
    tokenHint
    summary
    config
    secrets {
      field
      hint
    }
    webhook {
      lastEventAt
      lastEventType
      rejectedDeliveries
    }
    documentCount
    lastRun {
      id
      status
      stage
      startedAt
      finishedAt
      etaSeconds
      error {
        code
        message
      }
      progress {
        pagesPlanned
        pagesDone
      }
      health {
        state
        message
      }
    }
  }
}
    `) as unknown as TypedDocumentString<SourcesQuery, SourcesQueryVariables>;
export const SourceTypesDocument = new TypedDocumentString(`
    query SourceTypes {
  sourceTypes {
    type
    label
    description
    configSchema
    secretFields
    webhook
    webhookSetup {
      instructions
      path
      steps
      verificationHandshake
    }
  }
}
    `) as unknown as TypedDocumentString<SourceTypesQuery, SourceTypesQueryVariables>;
export const AddSourceDocument = new TypedDocumentString(`
    mutation AddSource($input: AddSourceInput!) {
  addSource(input: $input) {
    id
    name
    type
    status
    config
    secrets {
      field
      hint
    }
  }
}
    `) as unknown as TypedDocumentString<AddSourceMutation, AddSourceMutationVariables>;
export const UpdateSourceDocument = new TypedDocumentString(`
    mutation UpdateSource($id: ID!, $input: UpdateSourceInput!) {
  updateSource(id: $id, input: $input) {
    id
    name
    config
    secrets {
      field
      hint
    }
  }
}
    `) as unknown as TypedDocumentString<UpdateSourceMutation, UpdateSourceMutationVariables>;
export const RemoveSourceDocument = new TypedDocumentString(`
    mutation RemoveSource($id: ID!) {
  removeSource(id: $id)
}
    `) as unknown as TypedDocumentString<RemoveSourceMutation, RemoveSourceMutationVariables>;
export const SyncSourceDocument = new TypedDocumentString(`
    mutation SyncSource($id: ID!, $mode: SyncMode!) {
  syncSource(id: $id, mode: $mode) {
    ...SyncRunFields
  }
}
    fragment SyncProgressFields on SyncProgress {
  pagesSeen
  pagesIngested
  pagesUnchanged
  pagesSkipped
  pagesFailed
  pagesDeleted
  chunksEmbedded
  chunksReused
  apiCalls
  pagesPlanned
  pagesDone
}
fragment SyncRunMotionFields on SyncRun {
  stage
  progressAt
  pagesPerSecond
  etaSeconds
  health {
    state
    reason
    message
    since
  }
}
fragment SyncRunFields on SyncRun {
  id
  sourceId
  mode
  status
  startedAt
  finishedAt
  error {
    code
    message
  }
  warnings
  skipped {
    id
    reason
    title
  }
  progress {
    ...SyncProgressFields
  }
  ...SyncRunMotionFields
}`) as unknown as TypedDocumentString<SyncSourceMutation, SyncSourceMutationVariables>;
export const CancelSyncRunDocument = new TypedDocumentString(`
    mutation CancelSyncRun($id: ID!) {
  cancelSyncRun(id: $id) {
    ...SyncRunFields
  }
}
    fragment SyncProgressFields on SyncProgress {
  pagesSeen
  pagesIngested
  pagesUnchanged
  pagesSkipped
  pagesFailed
  pagesDeleted
  chunksEmbedded
  chunksReused
  apiCalls
  pagesPlanned
  pagesDone
}
fragment SyncRunMotionFields on SyncRun {
  stage
  progressAt
  pagesPerSecond
  etaSeconds
  health {
    state
    reason
    message
    since
  }
}
fragment SyncRunFields on SyncRun {
  id
  sourceId
  mode
  status
  startedAt
  finishedAt
  error {
    code
    message
  }
  warnings
  skipped {
    id
    reason
    title
  }
  progress {
    ...SyncProgressFields
  }
  ...SyncRunMotionFields
}`) as unknown as TypedDocumentString<CancelSyncRunMutation, CancelSyncRunMutationVariables>;
export const SyncRunDocument = new TypedDocumentString(`
    query SyncRun($id: ID!) {
  syncRun(id: $id) {
    ...SyncRunFields
  }
}
    fragment SyncProgressFields on SyncProgress {
  pagesSeen
  pagesIngested
  pagesUnchanged
  pagesSkipped
  pagesFailed
  pagesDeleted
  chunksEmbedded
  chunksReused
  apiCalls
  pagesPlanned
  pagesDone
}
fragment SyncRunMotionFields on SyncRun {
  stage
  progressAt
  pagesPerSecond
  etaSeconds
  health {
    state
    reason
    message
    since
  }
}
fragment SyncRunFields on SyncRun {
  id
  sourceId
  mode
  status
  startedAt
  finishedAt
  error {
    code
    message
  }
  warnings
  skipped {
    id
    reason
    title
  }
  progress {
    ...SyncProgressFields
  }
  ...SyncRunMotionFields
}`) as unknown as TypedDocumentString<SyncRunQuery, SyncRunQueryVariables>;
export const SyncRunsDocument = new TypedDocumentString(`
    query SyncRuns($sourceId: ID!, $first: Int!, $after: String) {
  syncRuns(sourceId: $sourceId, first: $first, after: $after) {
    totalCount
    pageInfo {
      endCursor
      hasNextPage
    }
    nodes {
      ...SyncRunFields
    }
  }
}
    fragment SyncProgressFields on SyncProgress {
  pagesSeen
  pagesIngested
  pagesUnchanged
  pagesSkipped
  pagesFailed
  pagesDeleted
  chunksEmbedded
  chunksReused
  apiCalls
  pagesPlanned
  pagesDone
}
fragment SyncRunMotionFields on SyncRun {
  stage
  progressAt
  pagesPerSecond
  etaSeconds
  health {
    state
    reason
    message
    since
  }
}
fragment SyncRunFields on SyncRun {
  id
  sourceId
  mode
  status
  startedAt
  finishedAt
  error {
    code
    message
  }
  warnings
  skipped {
    id
    reason
    title
  }
  progress {
    ...SyncProgressFields
  }
  ...SyncRunMotionFields
}`) as unknown as TypedDocumentString<SyncRunsQuery, SyncRunsQueryVariables>;
export const SyncRunUpdatesDocument = new TypedDocumentString(`
    subscription SyncRunUpdates($id: ID!) {
  syncRunUpdates(id: $id) {
    ...SyncRunFields
  }
}
    fragment SyncProgressFields on SyncProgress {
  pagesSeen
  pagesIngested
  pagesUnchanged
  pagesSkipped
  pagesFailed
  pagesDeleted
  chunksEmbedded
  chunksReused
  apiCalls
  pagesPlanned
  pagesDone
}
fragment SyncRunMotionFields on SyncRun {
  stage
  progressAt
  pagesPerSecond
  etaSeconds
  health {
    state
    reason
    message
    since
  }
}
fragment SyncRunFields on SyncRun {
  id
  sourceId
  mode
  status
  startedAt
  finishedAt
  error {
    code
    message
  }
  warnings
  skipped {
    id
    reason
    title
  }
  progress {
    ...SyncProgressFields
  }
  ...SyncRunMotionFields
}`) as unknown as TypedDocumentString<SyncRunUpdatesSubscription, SyncRunUpdatesSubscriptionVariables>;
export const SetSyncScheduleDocument = new TypedDocumentString(`
    mutation SetSyncSchedule($sourceId: ID!, $intervalMinutes: Int!) {
  setSyncSchedule(sourceId: $sourceId, intervalMinutes: $intervalMinutes) {
    id
    syncIntervalMinutes
  }
}
    `) as unknown as TypedDocumentString<SetSyncScheduleMutation, SetSyncScheduleMutationVariables>;
export const WebhookVerificationTokenDocument = new TypedDocumentString(`
    query WebhookVerificationToken($sourceId: ID!) {
  webhookVerificationToken(sourceId: $sourceId)
}
    `) as unknown as TypedDocumentString<
  WebhookVerificationTokenQuery,
  WebhookVerificationTokenQueryVariables
>;
export const ResetWebhookVerificationDocument = new TypedDocumentString(`
    mutation ResetWebhookVerification($sourceId: ID!) {
  resetWebhookVerification(sourceId: $sourceId)
}
    `) as unknown as TypedDocumentString<
  ResetWebhookVerificationMutation,
  ResetWebhookVerificationMutationVariables
>;
export const SearchDocument = new TypedDocumentString(`
    query Search($input: SearchInput!) {
  search(input: $input) {
    tookMs
    reranked
    reranker
    warnings
    hits {
      chunkId
      documentId
      title
      fileName
      sourceId
      sourceName
      sourceType
      headingPath
      chapter
      page
      pageEnd
      anchor
      ocr
      ocrConfidence
      position
      text
      citationUrl
      score
      rerankScore
      bm25 {
        rank
        score
      }
      knn {
        rank
        score
      }
      explain {
        bm25 {
          rank
          score
        }
        knn {
          rank
          score
        }
        fusedScore
        rerankScore
        topFeatures {
          name
          contribution
        }
      }
      context {
        chunkId
        position
        headingPath
        text
        citationUrl
      }
    }
  }
}
    `) as unknown as TypedDocumentString<SearchQuery, SearchQueryVariables>;
export const SearchFilterOptionsDocument = new TypedDocumentString(`
    query SearchFilterOptions($projectId: ID!) {
  sources(projectId: $projectId) {
    id
    name
    type
  }
  project(id: $projectId) {
    id
    documentTypes {
      mediaType
      label
      documentCount
    }
  }
}
    `) as unknown as TypedDocumentString<SearchFilterOptionsQuery, SearchFilterOptionsQueryVariables>;
export const AskDocument = new TypedDocumentString(`
    query Ask($input: AskInput!) {
  ask(input: $input) {
    answerId
    threadId
    standaloneQuestion
    answer
    mode
    insufficientContext
    language
    model
    fallbackReason
    citations {
      marker
      chunkId
      documentId
      title
      headingPath
      citationUrl
      quote
      page
      ocr
      ocrConfidence
    }
    verification {
      validMarkers
      invalidMarkers
      missingMarkers
      retried
      checkedSentences
    }
    timings {
      totalMs
    }
  }
}
    `) as unknown as TypedDocumentString<AskQuery, AskQueryVariables>;
export const ThreadsDocument = new TypedDocumentString(`
    query Threads($projectId: ID!, $first: Int!, $after: String, $allKeys: Boolean) {
  threads(projectId: $projectId, first: $first, after: $after, allKeys: $allKeys) {
    totalCount
    pageInfo {
      endCursor
      hasNextPage
    }
    nodes {
      ...ThreadFields
    }
  }
}
    fragment ThreadFields on Thread {
  id
  projectId
  title
  turnCount
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<ThreadsQuery, ThreadsQueryVariables>;
export const ThreadDocument = new TypedDocumentString(`
    query Thread($id: ID!) {
  thread(id: $id) {
    ...ThreadFields
    turns {
      answerId
      position
      question
      standaloneQuestion
      mode
      answer
      createdAt
      citations {
        marker
        chunkId
        documentId
        title
        headingPath
        citationUrl
        quote
        page
      }
    }
  }
}
    fragment ThreadFields on Thread {
  id
  projectId
  title
  turnCount
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<ThreadQuery, ThreadQueryVariables>;
export const RenameThreadDocument = new TypedDocumentString(`
    mutation RenameThread($id: ID!, $title: String!) {
  renameThread(id: $id, title: $title) {
    ...ThreadFields
  }
}
    fragment ThreadFields on Thread {
  id
  projectId
  title
  turnCount
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<RenameThreadMutation, RenameThreadMutationVariables>;
export const DeleteThreadDocument = new TypedDocumentString(`
    mutation DeleteThread($id: ID!) {
  deleteThread(id: $id)
}
    `) as unknown as TypedDocumentString<DeleteThreadMutation, DeleteThreadMutationVariables>;
export const GiveFeedbackDocument = new TypedDocumentString(`
    mutation GiveFeedback($input: GiveFeedbackInput!) {
  giveFeedback(input: $input) {
    ...FeedbackFields
  }
}
    fragment FeedbackFields on Feedback {
  id
  answerId
  target
  chunkId
  vote
  comment
  updatedAt
}`) as unknown as TypedDocumentString<GiveFeedbackMutation, GiveFeedbackMutationVariables>;
export const MyFeedbackDocument = new TypedDocumentString(`
    query MyFeedback($projectId: ID!, $answerIds: [ID!]!) {
  myFeedback(projectId: $projectId, answerIds: $answerIds) {
    ...FeedbackFields
  }
}
    fragment FeedbackFields on Feedback {
  id
  answerId
  target
  chunkId
  vote
  comment
  updatedAt
}`) as unknown as TypedDocumentString<MyFeedbackQuery, MyFeedbackQueryVariables>;
export const ContentGapsDocument = new TypedDocumentString(`
    query ContentGaps($projectId: ID!, $first: Int = 50, $after: String) {
  contentGaps(projectId: $projectId, first: $first, after: $after) {
    totalCount
    pageInfo {
      endCursor
      hasNextPage
    }
    nodes {
      key
      question
      askCount
      unansweredCount
      downVoteCount
      lastAskedAt
      comments
      askedBy
    }
  }
}
    `) as unknown as TypedDocumentString<ContentGapsQuery, ContentGapsQueryVariables>;
export const ApiKeysDocument = new TypedDocumentString(`
    query ApiKeys {
  apiKeys {
    id
    name
    prefix
    role
    projectIds
    createdAt
    createdBy
    lastUsedAt
    revokedAt
  }
}
    `) as unknown as TypedDocumentString<ApiKeysQuery, ApiKeysQueryVariables>;
export const CreateApiKeyDocument = new TypedDocumentString(`
    mutation CreateApiKey($input: CreateApiKeyInput!) {
  createApiKey(input: $input) {
    secret
    apiKey {
      id
      name
      prefix
      role
      projectIds
      createdAt
    }
  }
}
    `) as unknown as TypedDocumentString<CreateApiKeyMutation, CreateApiKeyMutationVariables>;
export const RevokeApiKeyDocument = new TypedDocumentString(`
    mutation RevokeApiKey($id: ID!) {
  revokeApiKey(id: $id) {
    id
    name
    revokedAt
  }
}
    `) as unknown as TypedDocumentString<RevokeApiKeyMutation, RevokeApiKeyMutationVariables>;
export const RagConfigDocument = new TypedDocumentString(`
    query RagConfig {
  ragConfig {
    version
    updatedAt
    overridden
    warnings
    search {
      fusion
      rrfK
      convexVectorWeight
      convexNormalization
    }
    rerank {
      provider
      candidates
      maxChars
      model
      url
      timeoutMs
      apiKey {
        set
        masked
      }
    }
    answers {
      topK
      threshold
      fallbackMode
      contextTokens
      extractiveChunks
      extractiveSentences
      supportMinLexical
      supportMinSemantic
      llmBudgetMs
      rewriteTimeoutMs
    }
    llm {
      provider
      baseUrl
      model
      temperature
      maxTokens
      contextTokens
      timeoutMs
      idleTimeoutMs
      retries
      apiKey {
        set
        masked
      }
    }
    chunking {
      targetTokens
      overlapTokens
      minTokens
    }
    embedding {
      active {
        id
        modelId
        dimensions
        status
        embedding {
          provider
          profile
          model
          baseUrl
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<RagConfigQuery, RagConfigQueryVariables>;
export const UpdateRagConfigDocument = new TypedDocumentString(`
    mutation UpdateRagConfig($input: UpdateRagConfigInput!) {
  updateRagConfig(input: $input) {
    version
    overridden
    warnings
  }
}
    `) as unknown as TypedDocumentString<UpdateRagConfigMutation, UpdateRagConfigMutationVariables>;
export const RagConfigInputFieldsDocument = new TypedDocumentString(`
    query RagConfigInputFields {
  __type(name: "UpdateRagConfigInput") {
    inputFields {
      name
      type {
        kind
        name
        inputFields {
          name
          type {
            kind
            name
            ofType {
              kind
              name
            }
          }
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<RagConfigInputFieldsQuery, RagConfigInputFieldsQueryVariables>;
export const UsersDocument = new TypedDocumentString(`
    query Users($first: Int, $after: String, $search: String) {
  users(first: $first, after: $after, search: $search) {
    totalCount
    pageInfo {
      endCursor
      hasNextPage
    }
    nodes {
      ...UserFields
    }
  }
}
    fragment UserFields on User {
  id
  name
  email
  pictureUrl
  provider
  role
  status
  createdAt
  lastSeenAt
  deactivatedAt
}`) as unknown as TypedDocumentString<UsersQuery, UsersQueryVariables>;
export const CreateUserDocument = new TypedDocumentString(`
    mutation CreateUser($input: CreateUserInput!) {
  createUser(input: $input) {
    ...UserFields
  }
}
    fragment UserFields on User {
  id
  name
  email
  pictureUrl
  provider
  role
  status
  createdAt
  lastSeenAt
  deactivatedAt
}`) as unknown as TypedDocumentString<CreateUserMutation, CreateUserMutationVariables>;
export const UpdateUserDocument = new TypedDocumentString(`
    mutation UpdateUser($id: ID!, $input: UpdateUserInput!) {
  updateUser(id: $id, input: $input) {
    ...UserFields
  }
}
    fragment UserFields on User {
  id
  name
  email
  pictureUrl
  provider
  role
  status
  createdAt
  lastSeenAt
  deactivatedAt
}`) as unknown as TypedDocumentString<UpdateUserMutation, UpdateUserMutationVariables>;
export const DeactivateUserDocument = new TypedDocumentString(`
    mutation DeactivateUser($id: ID!) {
  deactivateUser(id: $id) {
    ...UserFields
  }
}
    fragment UserFields on User {
  id
  name
  email
  pictureUrl
  provider
  role
  status
  createdAt
  lastSeenAt
  deactivatedAt
}`) as unknown as TypedDocumentString<DeactivateUserMutation, DeactivateUserMutationVariables>;
export const ReactivateUserDocument = new TypedDocumentString(`
    mutation ReactivateUser($id: ID!) {
  reactivateUser(id: $id) {
    ...UserFields
  }
}
    fragment UserFields on User {
  id
  name
  email
  pictureUrl
  provider
  role
  status
  createdAt
  lastSeenAt
  deactivatedAt
}`) as unknown as TypedDocumentString<ReactivateUserMutation, ReactivateUserMutationVariables>;
export const GroupsDocument = new TypedDocumentString(`
    query Groups {
  groups {
    id
    name
    provider
    memberCount
    createdAt
    members {
      id
      name
      email
    }
  }
}
    `) as unknown as TypedDocumentString<GroupsQuery, GroupsQueryVariables>;
export const CreateGroupDocument = new TypedDocumentString(`
    mutation CreateGroup($name: String!) {
  createGroup(name: $name) {
    id
    name
  }
}
    `) as unknown as TypedDocumentString<CreateGroupMutation, CreateGroupMutationVariables>;
export const DeleteGroupDocument = new TypedDocumentString(`
    mutation DeleteGroup($id: ID!) {
  deleteGroup(id: $id) {
    id
  }
}
    `) as unknown as TypedDocumentString<DeleteGroupMutation, DeleteGroupMutationVariables>;
export const AddGroupMemberDocument = new TypedDocumentString(`
    mutation AddGroupMember($groupId: ID!, $userId: ID!) {
  addGroupMember(groupId: $groupId, userId: $userId) {
    id
    memberCount
  }
}
    `) as unknown as TypedDocumentString<AddGroupMemberMutation, AddGroupMemberMutationVariables>;
export const RemoveGroupMemberDocument = new TypedDocumentString(`
    mutation RemoveGroupMember($groupId: ID!, $userId: ID!) {
  removeGroupMember(groupId: $groupId, userId: $userId) {
    id
    memberCount
  }
}
    `) as unknown as TypedDocumentString<RemoveGroupMemberMutation, RemoveGroupMemberMutationVariables>;
export const ProjectAccessDocument = new TypedDocumentString(`
    query ProjectAccess($projectId: ID!) {
  projectAccess(projectId: $projectId) {
    id
    role
    createdBy
    createdAt
    user {
      id
      name
      email
      status
    }
    group {
      id
      name
      provider
    }
  }
}
    `) as unknown as TypedDocumentString<ProjectAccessQuery, ProjectAccessQueryVariables>;
export const GrantProjectRoleDocument = new TypedDocumentString(`
    mutation GrantProjectRole($input: GrantProjectRoleInput!) {
  grantProjectRole(input: $input) {
    id
    role
  }
}
    `) as unknown as TypedDocumentString<GrantProjectRoleMutation, GrantProjectRoleMutationVariables>;
export const RevokeProjectRoleDocument = new TypedDocumentString(`
    mutation RevokeProjectRole($input: GranteeInput!) {
  revokeProjectRole(input: $input)
}
    `) as unknown as TypedDocumentString<RevokeProjectRoleMutation, RevokeProjectRoleMutationVariables>;
export const PersonalTokensDocument = new TypedDocumentString(`
    query PersonalTokens {
  personalTokens {
    id
    name
    prefix
    createdAt
    expiresAt
    lastUsedAt
    revokedAt
  }
}
    `) as unknown as TypedDocumentString<PersonalTokensQuery, PersonalTokensQueryVariables>;
export const CreatePersonalTokenDocument = new TypedDocumentString(`
    mutation CreatePersonalToken($input: CreatePersonalTokenInput!) {
  createPersonalToken(input: $input) {
    secret
    token {
      id
      name
    }
  }
}
    `) as unknown as TypedDocumentString<CreatePersonalTokenMutation, CreatePersonalTokenMutationVariables>;
export const RevokePersonalTokenDocument = new TypedDocumentString(`
    mutation RevokePersonalToken($id: ID!) {
  revokePersonalToken(id: $id) {
    id
    revokedAt
  }
}
    `) as unknown as TypedDocumentString<RevokePersonalTokenMutation, RevokePersonalTokenMutationVariables>;
export const AuditEventsDocument = new TypedDocumentString(`
    query AuditEvents($first: Int, $after: String, $filter: AuditFilterInput) {
  auditEvents(first: $first, after: $after, filter: $filter) {
    totalCount
    pageInfo {
      endCursor
      hasNextPage
    }
    nodes {
      id
      at
      action
      outcome
      code
      address
      userAgent
      projectId
      detail
      target {
        kind
        id
      }
      actor {
        kind
        id
        name
        credential
      }
    }
  }
}
    `) as unknown as TypedDocumentString<AuditEventsQuery, AuditEventsQueryVariables>;
