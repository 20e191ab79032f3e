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

export type ApiKeyRole =
  /** Everything in every project: keys, global settings, creating and deleting projects */
  | 'ADMIN'
  /** Read and write content and sources of its projects */
  | 'EDITOR'
  /** Search and read its projects */
  | 'VIEWER';

export type CreateApiKeyInput = {
  /** 1-200 characters, for people: who or what uses the key */
  name: string;
  /** The projects the key reaches; leave out for every project (ADMIN keys always reach every project) */
  projectIds?: Array<string | number> | null | undefined;
  role: ApiKeyRole;
};

export type DocumentStatus = 'FAILED' | 'INDEXING' | 'PENDING' | 'READY';

export type FolderFormat = 'AUTO' | 'COMBINED_MARKDOWN' | 'FILES' | 'MKDOCS';

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

export type Permission =
  /** API keys, global settings, creating and deleting projects */
  | 'ADMIN'
  /** Search and read */
  | 'READ'
  /** Write content and sources */
  | 'WRITE';

export type ProjectStatus = 'ACTIVE' | 'DELETING';

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

export type SyncMode = 'FULL' | 'INCREMENTAL';

export type SyncRunStatus = 'COMPLETED' | 'FAILED' | 'RUNNING';

/** PLANNING: discovering and diffing; INGESTING: the changed pages; FINISHING: recording the end */
export type SyncStage = 'FINISHING' | 'INGESTING' | 'PLANNING';

export type UpdateSourceInput = {
  /** Configuration fields to change (null clears an optional one); fields and secrets left out keep their value */
  config?: unknown;
  name?: string | null | undefined;
  /** A new token (e.g. after the old one was revoked) */
  token?: string | null | undefined;
};

export type ProjectsQueryVariables = Exact<{ [key: string]: never }>;

export type ProjectsQuery = {
  projects: Array<{
    id: string;
    name: string;
    status: ProjectStatus;
    createdAt: string;
    stats: { documentCount: number; chunkCount: number };
  }>;
};

export type CreateProjectMutationVariables = Exact<{
  name: string;
}>;

export type CreateProjectMutation = { createProject: { id: string; name: string } };

export type DeleteProjectMutationVariables = Exact<{
  id: string | number;
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
      fileName: string;
      title: string | null;
      status: DocumentStatus;
      chunkCount: number;
      pageCount: number | null;
      sizeBytes: number;
      sourceId: string | null;
      url: string | null;
      updatedAt: string;
      error: { code: string; message: string } | null;
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

export type ReindexDocumentMutationVariables = Exact<{
  id: string | number;
}>;

export type ReindexDocumentMutation = { reindexDocument: { id: string; status: DocumentStatus } };

export type DeleteDocumentMutationVariables = Exact<{
  id: string | number;
}>;

export type DeleteDocumentMutation = { deleteDocument: boolean };

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
    position: number;
    headingPath: Array<string>;
    page: number | null;
    pageEnd: number | null;
    chapter: string | null;
    anchor: string | null;
    tokenCount: number;
    language: string;
    citationUrl: string | null;
    text: string;
  }>;
};

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
      headingPath: Array<string>;
      text: string;
      score: number;
      page: number | null;
      pageEnd: number | null;
      anchor: string | null;
      citationUrl: string | null;
      explain: {
        fusedScore: number;
        rerankScore: number | null;
        bm25: { rank: number; score: number } | null;
        knn: { rank: number; score: number } | null;
        topFeatures: Array<{ name: string; contribution: number }> | null;
      } | null;
    }>;
  };
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
    config: unknown;
    secrets: Array<{ field: string; hint: string }>;
    folder: {
      path: string | null;
      archiveFileName: string | null;
      format: FolderFormat;
      siteUrl: string | null;
    } | null;
    notion: { everything: boolean; rootPageIds: Array<string>; rootDatabaseIds: Array<string> } | null;
    web: { url: string } | null;
    webhook: { lastEventAt: string | null; lastEventType: string | null; rejectedDeliveries: number } | null;
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
  }>;
};

export type AddSourceMutationVariables = Exact<{
  input: AddSourceInput;
}>;

export type AddSourceMutation = { addSource: { id: string } };

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

export type SyncSourceMutation = { syncSource: { id: string } };

export type SyncRunsQueryVariables = Exact<{
  sourceId: string | number;
  first: number;
}>;

export type SyncRunsQuery = {
  syncRuns: {
    totalCount: number;
    nodes: Array<{
      id: string;
      mode: SyncMode;
      status: SyncRunStatus;
      startedAt: string;
      finishedAt: string | null;
      stage: SyncStage | null;
      progressAt: string | null;
      pagesPerSecond: number | null;
      etaSeconds: number | null;
      warnings: Array<string> | null;
      progress: {
        pagesSeen: number;
        pagesIngested: number;
        pagesUnchanged: number;
        pagesDeleted: number;
        pagesSkipped: number;
        pagesFailed: number;
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
      skipped: Array<{ id: string; reason: string }>;
      error: { code: string; message: string } | null;
    }>;
  };
};

export type SyncRunQueryVariables = Exact<{
  id: string | number;
}>;

export type SyncRunQuery = {
  syncRun: {
    id: string;
    mode: SyncMode;
    status: SyncRunStatus;
    startedAt: string;
    finishedAt: string | null;
    stage: SyncStage | null;
    progressAt: string | null;
    pagesPerSecond: number | null;
    etaSeconds: number | null;
    warnings: Array<string> | null;
    progress: {
      pagesSeen: number;
      pagesIngested: number;
      pagesUnchanged: number;
      pagesDeleted: number;
      pagesSkipped: number;
      pagesFailed: number;
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
    skipped: Array<{ id: string; reason: string }>;
    error: { code: string; message: string } | null;
  } | null;
};

export type NotionWebhookQueryVariables = Exact<{
  sourceId: string | number;
}>;

export type NotionWebhookQuery = { notionWebhookVerificationToken: string | null };

export type ResetNotionWebhookMutationVariables = Exact<{
  sourceId: string | number;
}>;

export type ResetNotionWebhookMutation = { resetNotionWebhook: boolean };

export type SetSyncScheduleMutationVariables = Exact<{
  sourceId: string | number;
  intervalMinutes: number;
}>;

export type SetSyncScheduleMutation = { setSyncSchedule: { id: string; syncIntervalMinutes: number | null } };

export type SyncRunUpdatesSubscriptionVariables = Exact<{
  id: string | number;
}>;

export type SyncRunUpdatesSubscription = {
  syncRunUpdates: {
    id: string;
    mode: SyncMode;
    status: SyncRunStatus;
    startedAt: string;
    finishedAt: string | null;
    stage: SyncStage | null;
    progressAt: string | null;
    pagesPerSecond: number | null;
    etaSeconds: number | null;
    warnings: Array<string> | null;
    progress: {
      pagesSeen: number;
      pagesIngested: number;
      pagesUnchanged: number;
      pagesDeleted: number;
      pagesSkipped: number;
      pagesFailed: number;
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
    skipped: Array<{ id: string; reason: string }>;
    error: { code: string; message: string } | null;
  };
};

export type MeQueryVariables = Exact<{ [key: string]: never }>;

export type MeQuery = {
  me: {
    keyId: string | null;
    name: string;
    role: ApiKeyRole;
    permissions: Array<Permission>;
    projectIds: Array<string> | null;
  };
};

export type ApiKeysQueryVariables = Exact<{ [key: string]: never }>;

export type ApiKeysQuery = {
  apiKeys: Array<{
    id: string;
    name: string;
    role: ApiKeyRole;
    projectIds: Array<string> | null;
    prefix: string;
    createdBy: string;
    createdAt: string;
    lastUsedAt: string | null;
    revokedAt: string | null;
  }>;
};

export type CreateApiKeyMutationVariables = Exact<{
  input: CreateApiKeyInput;
}>;

export type CreateApiKeyMutation = {
  createApiKey: { secret: string; apiKey: { id: string; name: string; role: ApiKeyRole; prefix: string } };
};

export type RevokeApiKeyMutationVariables = Exact<{
  id: string | number;
}>;

export type RevokeApiKeyMutation = { revokeApiKey: { id: string; revokedAt: string | null } };

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

export const ProjectsDocument = new TypedDocumentString(`
    query Projects {
  projects {
    id
    name
    status
    createdAt
    stats {
      documentCount
      chunkCount
    }
  }
}
    `) as unknown as TypedDocumentString<ProjectsQuery, ProjectsQueryVariables>;
export const CreateProjectDocument = new TypedDocumentString(`
    mutation CreateProject($name: String!) {
  createProject(input: {name: $name}) {
    id
    name
  }
}
    `) as unknown as TypedDocumentString<CreateProjectMutation, CreateProjectMutationVariables>;
export const DeleteProjectDocument = new TypedDocumentString(`
    mutation DeleteProject($id: ID!) {
  deleteProject(id: $id)
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
      id
      fileName
      title
      status
      error {
        code
        message
      }
      chunkCount
      pageCount
      sizeBytes
      sourceId
      url
      updatedAt
      timings {
        fetchMs
        parseMs
        chunkMs
        embedMs
        upsertMs
        totalMs
      }
    }
  }
}
    `) as unknown as TypedDocumentString<DocumentsQuery, DocumentsQueryVariables>;
export const ReindexDocumentDocument = new TypedDocumentString(`
    mutation ReindexDocument($id: ID!) {
  reindexDocument(id: $id) {
    id
    status
  }
}
    `) as unknown as TypedDocumentString<ReindexDocumentMutation, ReindexDocumentMutationVariables>;
export const DeleteDocumentDocument = new TypedDocumentString(`
    mutation DeleteDocument($id: ID!) {
  deleteDocument(id: $id)
}
    `) as unknown as TypedDocumentString<DeleteDocumentMutation, DeleteDocumentMutationVariables>;
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
    id
    position
    headingPath
    page
    pageEnd
    chapter
    anchor
    tokenCount
    language
    citationUrl
    text
  }
}
    `) as unknown as TypedDocumentString<DocumentChunksQuery, DocumentChunksQueryVariables>;
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
      headingPath
      text
      score
      page
      pageEnd
      anchor
      citationUrl
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
    }
  }
}
    `) as unknown as TypedDocumentString<SearchQuery, SearchQueryVariables>;
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
    config
    secrets {
      field
      hint
    }
    folder {
      path
      archiveFileName
      format
      siteUrl
    }
    notion {
      everything
      rootPageIds
      rootDatabaseIds
    }
    web {
      url
    }
    webhook {
      lastEventAt
      lastEventType
      rejectedDeliveries
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
  }
}
    `) as unknown as TypedDocumentString<SourceTypesQuery, SourceTypesQueryVariables>;
export const AddSourceDocument = new TypedDocumentString(`
    mutation AddSource($input: AddSourceInput!) {
  addSource(input: $input) {
    id
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
    id
  }
}
    `) as unknown as TypedDocumentString<SyncSourceMutation, SyncSourceMutationVariables>;
export const SyncRunsDocument = new TypedDocumentString(`
    query SyncRuns($sourceId: ID!, $first: Int!) {
  syncRuns(sourceId: $sourceId, first: $first) {
    totalCount
    nodes {
      id
      mode
      status
      startedAt
      finishedAt
      progress {
        pagesSeen
        pagesIngested
        pagesUnchanged
        pagesDeleted
        pagesSkipped
        pagesFailed
        chunksEmbedded
        chunksReused
        apiCalls
        pagesPlanned
        pagesDone
      }
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
      skipped {
        id
        reason
      }
      warnings
      error {
        code
        message
      }
    }
  }
}
    `) as unknown as TypedDocumentString<SyncRunsQuery, SyncRunsQueryVariables>;
export const SyncRunDocument = new TypedDocumentString(`
    query SyncRun($id: ID!) {
  syncRun(id: $id) {
    id
    mode
    status
    startedAt
    finishedAt
    progress {
      pagesSeen
      pagesIngested
      pagesUnchanged
      pagesDeleted
      pagesSkipped
      pagesFailed
      chunksEmbedded
      chunksReused
      apiCalls
      pagesPlanned
      pagesDone
    }
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
    skipped {
      id
      reason
    }
    warnings
    error {
      code
      message
    }
  }
}
    `) as unknown as TypedDocumentString<SyncRunQuery, SyncRunQueryVariables>;
export const NotionWebhookDocument = new TypedDocumentString(`
    query NotionWebhook($sourceId: ID!) {
  notionWebhookVerificationToken(sourceId: $sourceId)
}
    `) as unknown as TypedDocumentString<NotionWebhookQuery, NotionWebhookQueryVariables>;
export const ResetNotionWebhookDocument = new TypedDocumentString(`
    mutation ResetNotionWebhook($sourceId: ID!) {
  resetNotionWebhook(sourceId: $sourceId)
}
    `) as unknown as TypedDocumentString<ResetNotionWebhookMutation, ResetNotionWebhookMutationVariables>;
export const SetSyncScheduleDocument = new TypedDocumentString(`
    mutation SetSyncSchedule($sourceId: ID!, $intervalMinutes: Int!) {
  setSyncSchedule(sourceId: $sourceId, intervalMinutes: $intervalMinutes) {
    id
    syncIntervalMinutes
  }
}
    `) as unknown as TypedDocumentString<SetSyncScheduleMutation, SetSyncScheduleMutationVariables>;
export const SyncRunUpdatesDocument = new TypedDocumentString(`
    subscription SyncRunUpdates($id: ID!) {
  syncRunUpdates(id: $id) {
    id
    mode
    status
    startedAt
    finishedAt
    progress {
      pagesSeen
      pagesIngested
      pagesUnchanged
      pagesDeleted
      pagesSkipped
      pagesFailed
      chunksEmbedded
      chunksReused
      apiCalls
      pagesPlanned
      pagesDone
    }
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
    skipped {
      id
      reason
    }
    warnings
    error {
      code
      message
    }
  }
}
    `) as unknown as TypedDocumentString<SyncRunUpdatesSubscription, SyncRunUpdatesSubscriptionVariables>;
export const MeDocument = new TypedDocumentString(`
    query Me {
  me {
    keyId
    name
    role
    permissions
    projectIds
  }
}
    `) as unknown as TypedDocumentString<MeQuery, MeQueryVariables>;
export const ApiKeysDocument = new TypedDocumentString(`
    query ApiKeys {
  apiKeys {
    id
    name
    role
    projectIds
    prefix
    createdBy
    createdAt
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
      role
      prefix
    }
  }
}
    `) as unknown as TypedDocumentString<CreateApiKeyMutation, CreateApiKeyMutationVariables>;
export const RevokeApiKeyDocument = new TypedDocumentString(`
    mutation RevokeApiKey($id: ID!) {
  revokeApiKey(id: $id) {
    id
    revokedAt
  }
}
    `) as unknown as TypedDocumentString<RevokeApiKeyMutation, RevokeApiKeyMutationVariables>;
