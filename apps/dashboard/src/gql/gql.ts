/* eslint-disable */
import * as types from './graphql';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
  '\n  query Projects {\n    projects {\n      id\n      name\n      status\n      createdAt\n      stats {\n        documentCount\n        chunkCount\n      }\n    }\n  }\n': typeof types.ProjectsDocument;
  '\n  mutation CreateProject($name: String!) {\n    createProject(input: { name: $name }) {\n      id\n      name\n    }\n  }\n': typeof types.CreateProjectDocument;
  '\n  mutation DeleteProject($id: ID!) {\n    deleteProject(id: $id)\n  }\n': typeof types.DeleteProjectDocument;
  '\n  query Documents($projectId: ID!, $first: Int!, $after: String, $status: DocumentStatus, $sourceId: ID) {\n    documents(projectId: $projectId, first: $first, after: $after, status: $status, sourceId: $sourceId) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        id\n        fileName\n        title\n        status\n        error {\n          code\n          message\n        }\n        chunkCount\n        pageCount\n        sizeBytes\n        sourceId\n        url\n        updatedAt\n        timings {\n          fetchMs\n          parseMs\n          chunkMs\n          embedMs\n          upsertMs\n          totalMs\n        }\n      }\n    }\n  }\n': typeof types.DocumentsDocument;
  '\n  mutation ReindexDocument($id: ID!) {\n    reindexDocument(id: $id) {\n      id\n      status\n    }\n  }\n': typeof types.ReindexDocumentDocument;
  '\n  mutation DeleteDocument($id: ID!) {\n    deleteDocument(id: $id)\n  }\n': typeof types.DeleteDocumentDocument;
  '\n  query DocumentChunks($id: ID!) {\n    document(id: $id) {\n      id\n      projectId\n      fileName\n      title\n      status\n      chunkCount\n      pageCount\n    }\n    chunks(documentId: $id) {\n      id\n      position\n      headingPath\n      page\n      pageEnd\n      chapter\n      anchor\n      tokenCount\n      language\n      citationUrl\n      text\n    }\n  }\n': typeof types.DocumentChunksDocument;
  '\n  query Search($input: SearchInput!) {\n    search(input: $input) {\n      tookMs\n      reranked\n      reranker\n      warnings\n      hits {\n        chunkId\n        documentId\n        title\n        headingPath\n        text\n        score\n        page\n        pageEnd\n        anchor\n        citationUrl\n        explain {\n          bm25 {\n            rank\n            score\n          }\n          knn {\n            rank\n            score\n          }\n          fusedScore\n          rerankScore\n          topFeatures {\n            name\n            contribution\n          }\n        }\n      }\n    }\n  }\n': typeof types.SearchDocument;
  '\n  query Sources($projectId: ID!) {\n    sources(projectId: $projectId) {\n      id\n      projectId\n      name\n      type\n      status\n      createdAt\n      lastSyncAt\n      syncIntervalMinutes\n      tokenHint\n      config\n      secrets {\n        field\n        hint\n      }\n      folder {\n        path\n        archiveFileName\n        format\n        siteUrl\n      }\n      notion {\n        everything\n        rootPageIds\n        rootDatabaseIds\n      }\n      web {\n        url\n      }\n      webhook {\n        lastEventAt\n        lastEventType\n        rejectedDeliveries\n      }\n    }\n  }\n': typeof types.SourcesDocument;
  '\n  query SourceTypes {\n    sourceTypes {\n      type\n      label\n      description\n      configSchema\n      secretFields\n      webhook\n    }\n  }\n': typeof types.SourceTypesDocument;
  '\n  mutation AddSource($input: AddSourceInput!) {\n    addSource(input: $input) {\n      id\n    }\n  }\n': typeof types.AddSourceDocument;
  '\n  mutation UpdateSource($id: ID!, $input: UpdateSourceInput!) {\n    updateSource(id: $id, input: $input) {\n      id\n      name\n      config\n      secrets {\n        field\n        hint\n      }\n    }\n  }\n': typeof types.UpdateSourceDocument;
  '\n  mutation RemoveSource($id: ID!) {\n    removeSource(id: $id)\n  }\n': typeof types.RemoveSourceDocument;
  '\n  mutation SyncSource($id: ID!, $mode: SyncMode!) {\n    syncSource(id: $id, mode: $mode) {\n      id\n    }\n  }\n': typeof types.SyncSourceDocument;
  '\n  query SyncRuns($sourceId: ID!, $first: Int!) {\n    syncRuns(sourceId: $sourceId, first: $first) {\n      totalCount\n      nodes {\n        id\n        mode\n        status\n        startedAt\n        finishedAt\n        progress {\n          pagesSeen\n          pagesIngested\n          pagesUnchanged\n          pagesDeleted\n          pagesSkipped\n          pagesFailed\n          chunksEmbedded\n          chunksReused\n          apiCalls\n          pagesPlanned\n          pagesDone\n        }\n        stage\n        progressAt\n        pagesPerSecond\n        etaSeconds\n        health {\n          state\n          reason\n          message\n          since\n        }\n        skipped {\n          id\n          reason\n        }\n        warnings\n        error {\n          code\n          message\n        }\n      }\n    }\n  }\n': typeof types.SyncRunsDocument;
  '\n  query SyncRun($id: ID!) {\n    syncRun(id: $id) {\n      id\n      mode\n      status\n      startedAt\n      finishedAt\n      progress {\n        pagesSeen\n        pagesIngested\n        pagesUnchanged\n        pagesDeleted\n        pagesSkipped\n        pagesFailed\n        chunksEmbedded\n        chunksReused\n        apiCalls\n        pagesPlanned\n        pagesDone\n      }\n      stage\n      progressAt\n      pagesPerSecond\n      etaSeconds\n      health {\n        state\n        reason\n        message\n        since\n      }\n      skipped {\n        id\n        reason\n      }\n      warnings\n      error {\n        code\n        message\n      }\n    }\n  }\n': typeof types.SyncRunDocument;
  '\n  query NotionWebhook($sourceId: ID!) {\n    notionWebhookVerificationToken(sourceId: $sourceId)\n  }\n': typeof types.NotionWebhookDocument;
  '\n  mutation ResetNotionWebhook($sourceId: ID!) {\n    resetNotionWebhook(sourceId: $sourceId)\n  }\n': typeof types.ResetNotionWebhookDocument;
  '\n  mutation SetSyncSchedule($sourceId: ID!, $intervalMinutes: Int!) {\n    setSyncSchedule(sourceId: $sourceId, intervalMinutes: $intervalMinutes) {\n      id\n      syncIntervalMinutes\n    }\n  }\n': typeof types.SetSyncScheduleDocument;
  '\n  subscription SyncRunUpdates($id: ID!) {\n    syncRunUpdates(id: $id) {\n      id\n      mode\n      status\n      startedAt\n      finishedAt\n      progress {\n        pagesSeen\n        pagesIngested\n        pagesUnchanged\n        pagesDeleted\n        pagesSkipped\n        pagesFailed\n        chunksEmbedded\n        chunksReused\n        apiCalls\n        pagesPlanned\n        pagesDone\n      }\n      stage\n      progressAt\n      pagesPerSecond\n      etaSeconds\n      health {\n        state\n        reason\n        message\n        since\n      }\n      skipped {\n        id\n        reason\n      }\n      warnings\n      error {\n        code\n        message\n      }\n    }\n  }\n': typeof types.SyncRunUpdatesDocument;
  '\n  query Me {\n    me {\n      keyId\n      name\n      role\n      permissions\n      projectIds\n    }\n  }\n': typeof types.MeDocument;
  '\n  query ApiKeys {\n    apiKeys {\n      id\n      name\n      role\n      projectIds\n      prefix\n      createdBy\n      createdAt\n      lastUsedAt\n      revokedAt\n    }\n  }\n': typeof types.ApiKeysDocument;
  '\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      secret\n      apiKey {\n        id\n        name\n        role\n        prefix\n      }\n    }\n  }\n': typeof types.CreateApiKeyDocument;
  '\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      id\n      revokedAt\n    }\n  }\n': typeof types.RevokeApiKeyDocument;
};
const documents: Documents = {
  '\n  query Projects {\n    projects {\n      id\n      name\n      status\n      createdAt\n      stats {\n        documentCount\n        chunkCount\n      }\n    }\n  }\n':
    types.ProjectsDocument,
  '\n  mutation CreateProject($name: String!) {\n    createProject(input: { name: $name }) {\n      id\n      name\n    }\n  }\n':
    types.CreateProjectDocument,
  '\n  mutation DeleteProject($id: ID!) {\n    deleteProject(id: $id)\n  }\n': types.DeleteProjectDocument,
  '\n  query Documents($projectId: ID!, $first: Int!, $after: String, $status: DocumentStatus, $sourceId: ID) {\n    documents(projectId: $projectId, first: $first, after: $after, status: $status, sourceId: $sourceId) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        id\n        fileName\n        title\n        status\n        error {\n          code\n          message\n        }\n        chunkCount\n        pageCount\n        sizeBytes\n        sourceId\n        url\n        updatedAt\n        timings {\n          fetchMs\n          parseMs\n          chunkMs\n          embedMs\n          upsertMs\n          totalMs\n        }\n      }\n    }\n  }\n':
    types.DocumentsDocument,
  '\n  mutation ReindexDocument($id: ID!) {\n    reindexDocument(id: $id) {\n      id\n      status\n    }\n  }\n':
    types.ReindexDocumentDocument,
  '\n  mutation DeleteDocument($id: ID!) {\n    deleteDocument(id: $id)\n  }\n': types.DeleteDocumentDocument,
  '\n  query DocumentChunks($id: ID!) {\n    document(id: $id) {\n      id\n      projectId\n      fileName\n      title\n      status\n      chunkCount\n      pageCount\n    }\n    chunks(documentId: $id) {\n      id\n      position\n      headingPath\n      page\n      pageEnd\n      chapter\n      anchor\n      tokenCount\n      language\n      citationUrl\n      text\n    }\n  }\n':
    types.DocumentChunksDocument,
  '\n  query Search($input: SearchInput!) {\n    search(input: $input) {\n      tookMs\n      reranked\n      reranker\n      warnings\n      hits {\n        chunkId\n        documentId\n        title\n        headingPath\n        text\n        score\n        page\n        pageEnd\n        anchor\n        citationUrl\n        explain {\n          bm25 {\n            rank\n            score\n          }\n          knn {\n            rank\n            score\n          }\n          fusedScore\n          rerankScore\n          topFeatures {\n            name\n            contribution\n          }\n        }\n      }\n    }\n  }\n':
    types.SearchDocument,
  '\n  query Sources($projectId: ID!) {\n    sources(projectId: $projectId) {\n      id\n      projectId\n      name\n      type\n      status\n      createdAt\n      lastSyncAt\n      syncIntervalMinutes\n      tokenHint\n      config\n      secrets {\n        field\n        hint\n      }\n      folder {\n        path\n        archiveFileName\n        format\n        siteUrl\n      }\n      notion {\n        everything\n        rootPageIds\n        rootDatabaseIds\n      }\n      web {\n        url\n      }\n      webhook {\n        lastEventAt\n        lastEventType\n        rejectedDeliveries\n      }\n    }\n  }\n':
    types.SourcesDocument,
  '\n  query SourceTypes {\n    sourceTypes {\n      type\n      label\n      description\n      configSchema\n      secretFields\n      webhook\n    }\n  }\n':
    types.SourceTypesDocument,
  '\n  mutation AddSource($input: AddSourceInput!) {\n    addSource(input: $input) {\n      id\n    }\n  }\n':
    types.AddSourceDocument,
  '\n  mutation UpdateSource($id: ID!, $input: UpdateSourceInput!) {\n    updateSource(id: $id, input: $input) {\n      id\n      name\n      config\n      secrets {\n        field\n        hint\n      }\n    }\n  }\n':
    types.UpdateSourceDocument,
  '\n  mutation RemoveSource($id: ID!) {\n    removeSource(id: $id)\n  }\n': types.RemoveSourceDocument,
  '\n  mutation SyncSource($id: ID!, $mode: SyncMode!) {\n    syncSource(id: $id, mode: $mode) {\n      id\n    }\n  }\n':
    types.SyncSourceDocument,
  '\n  query SyncRuns($sourceId: ID!, $first: Int!) {\n    syncRuns(sourceId: $sourceId, first: $first) {\n      totalCount\n      nodes {\n        id\n        mode\n        status\n        startedAt\n        finishedAt\n        progress {\n          pagesSeen\n          pagesIngested\n          pagesUnchanged\n          pagesDeleted\n          pagesSkipped\n          pagesFailed\n          chunksEmbedded\n          chunksReused\n          apiCalls\n          pagesPlanned\n          pagesDone\n        }\n        stage\n        progressAt\n        pagesPerSecond\n        etaSeconds\n        health {\n          state\n          reason\n          message\n          since\n        }\n        skipped {\n          id\n          reason\n        }\n        warnings\n        error {\n          code\n          message\n        }\n      }\n    }\n  }\n':
    types.SyncRunsDocument,
  '\n  query SyncRun($id: ID!) {\n    syncRun(id: $id) {\n      id\n      mode\n      status\n      startedAt\n      finishedAt\n      progress {\n        pagesSeen\n        pagesIngested\n        pagesUnchanged\n        pagesDeleted\n        pagesSkipped\n        pagesFailed\n        chunksEmbedded\n        chunksReused\n        apiCalls\n        pagesPlanned\n        pagesDone\n      }\n      stage\n      progressAt\n      pagesPerSecond\n      etaSeconds\n      health {\n        state\n        reason\n        message\n        since\n      }\n      skipped {\n        id\n        reason\n      }\n      warnings\n      error {\n        code\n        message\n      }\n    }\n  }\n':
    types.SyncRunDocument,
  '\n  query NotionWebhook($sourceId: ID!) {\n    notionWebhookVerificationToken(sourceId: $sourceId)\n  }\n':
    types.NotionWebhookDocument,
  '\n  mutation ResetNotionWebhook($sourceId: ID!) {\n    resetNotionWebhook(sourceId: $sourceId)\n  }\n':
    types.ResetNotionWebhookDocument,
  '\n  mutation SetSyncSchedule($sourceId: ID!, $intervalMinutes: Int!) {\n    setSyncSchedule(sourceId: $sourceId, intervalMinutes: $intervalMinutes) {\n      id\n      syncIntervalMinutes\n    }\n  }\n':
    types.SetSyncScheduleDocument,
  '\n  subscription SyncRunUpdates($id: ID!) {\n    syncRunUpdates(id: $id) {\n      id\n      mode\n      status\n      startedAt\n      finishedAt\n      progress {\n        pagesSeen\n        pagesIngested\n        pagesUnchanged\n        pagesDeleted\n        pagesSkipped\n        pagesFailed\n        chunksEmbedded\n        chunksReused\n        apiCalls\n        pagesPlanned\n        pagesDone\n      }\n      stage\n      progressAt\n      pagesPerSecond\n      etaSeconds\n      health {\n        state\n        reason\n        message\n        since\n      }\n      skipped {\n        id\n        reason\n      }\n      warnings\n      error {\n        code\n        message\n      }\n    }\n  }\n':
    types.SyncRunUpdatesDocument,
  '\n  query Me {\n    me {\n      keyId\n      name\n      role\n      permissions\n      projectIds\n    }\n  }\n':
    types.MeDocument,
  '\n  query ApiKeys {\n    apiKeys {\n      id\n      name\n      role\n      projectIds\n      prefix\n      createdBy\n      createdAt\n      lastUsedAt\n      revokedAt\n    }\n  }\n':
    types.ApiKeysDocument,
  '\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      secret\n      apiKey {\n        id\n        name\n        role\n        prefix\n      }\n    }\n  }\n':
    types.CreateApiKeyDocument,
  '\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      id\n      revokedAt\n    }\n  }\n':
    types.RevokeApiKeyDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Projects {\n    projects {\n      id\n      name\n      status\n      createdAt\n      stats {\n        documentCount\n        chunkCount\n      }\n    }\n  }\n',
): typeof import('./graphql').ProjectsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation CreateProject($name: String!) {\n    createProject(input: { name: $name }) {\n      id\n      name\n    }\n  }\n',
): typeof import('./graphql').CreateProjectDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation DeleteProject($id: ID!) {\n    deleteProject(id: $id)\n  }\n',
): typeof import('./graphql').DeleteProjectDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Documents($projectId: ID!, $first: Int!, $after: String, $status: DocumentStatus, $sourceId: ID) {\n    documents(projectId: $projectId, first: $first, after: $after, status: $status, sourceId: $sourceId) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        id\n        fileName\n        title\n        status\n        error {\n          code\n          message\n        }\n        chunkCount\n        pageCount\n        sizeBytes\n        sourceId\n        url\n        updatedAt\n        timings {\n          fetchMs\n          parseMs\n          chunkMs\n          embedMs\n          upsertMs\n          totalMs\n        }\n      }\n    }\n  }\n',
): typeof import('./graphql').DocumentsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation ReindexDocument($id: ID!) {\n    reindexDocument(id: $id) {\n      id\n      status\n    }\n  }\n',
): typeof import('./graphql').ReindexDocumentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation DeleteDocument($id: ID!) {\n    deleteDocument(id: $id)\n  }\n',
): typeof import('./graphql').DeleteDocumentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query DocumentChunks($id: ID!) {\n    document(id: $id) {\n      id\n      projectId\n      fileName\n      title\n      status\n      chunkCount\n      pageCount\n    }\n    chunks(documentId: $id) {\n      id\n      position\n      headingPath\n      page\n      pageEnd\n      chapter\n      anchor\n      tokenCount\n      language\n      citationUrl\n      text\n    }\n  }\n',
): typeof import('./graphql').DocumentChunksDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Search($input: SearchInput!) {\n    search(input: $input) {\n      tookMs\n      reranked\n      reranker\n      warnings\n      hits {\n        chunkId\n        documentId\n        title\n        headingPath\n        text\n        score\n        page\n        pageEnd\n        anchor\n        citationUrl\n        explain {\n          bm25 {\n            rank\n            score\n          }\n          knn {\n            rank\n            score\n          }\n          fusedScore\n          rerankScore\n          topFeatures {\n            name\n            contribution\n          }\n        }\n      }\n    }\n  }\n',
): typeof import('./graphql').SearchDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Sources($projectId: ID!) {\n    sources(projectId: $projectId) {\n      id\n      projectId\n      name\n      type\n      status\n      createdAt\n      lastSyncAt\n      syncIntervalMinutes\n      tokenHint\n      config\n      secrets {\n        field\n        hint\n      }\n      folder {\n        path\n        archiveFileName\n        format\n        siteUrl\n      }\n      notion {\n        everything\n        rootPageIds\n        rootDatabaseIds\n      }\n      web {\n        url\n      }\n      webhook {\n        lastEventAt\n        lastEventType\n        rejectedDeliveries\n      }\n    }\n  }\n',
): typeof import('./graphql').SourcesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query SourceTypes {\n    sourceTypes {\n      type\n      label\n      description\n      configSchema\n      secretFields\n      webhook\n    }\n  }\n',
): typeof import('./graphql').SourceTypesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation AddSource($input: AddSourceInput!) {\n    addSource(input: $input) {\n      id\n    }\n  }\n',
): typeof import('./graphql').AddSourceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation UpdateSource($id: ID!, $input: UpdateSourceInput!) {\n    updateSource(id: $id, input: $input) {\n      id\n      name\n      config\n      secrets {\n        field\n        hint\n      }\n    }\n  }\n',
): typeof import('./graphql').UpdateSourceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation RemoveSource($id: ID!) {\n    removeSource(id: $id)\n  }\n',
): typeof import('./graphql').RemoveSourceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation SyncSource($id: ID!, $mode: SyncMode!) {\n    syncSource(id: $id, mode: $mode) {\n      id\n    }\n  }\n',
): typeof import('./graphql').SyncSourceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query SyncRuns($sourceId: ID!, $first: Int!) {\n    syncRuns(sourceId: $sourceId, first: $first) {\n      totalCount\n      nodes {\n        id\n        mode\n        status\n        startedAt\n        finishedAt\n        progress {\n          pagesSeen\n          pagesIngested\n          pagesUnchanged\n          pagesDeleted\n          pagesSkipped\n          pagesFailed\n          chunksEmbedded\n          chunksReused\n          apiCalls\n          pagesPlanned\n          pagesDone\n        }\n        stage\n        progressAt\n        pagesPerSecond\n        etaSeconds\n        health {\n          state\n          reason\n          message\n          since\n        }\n        skipped {\n          id\n          reason\n        }\n        warnings\n        error {\n          code\n          message\n        }\n      }\n    }\n  }\n',
): typeof import('./graphql').SyncRunsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query SyncRun($id: ID!) {\n    syncRun(id: $id) {\n      id\n      mode\n      status\n      startedAt\n      finishedAt\n      progress {\n        pagesSeen\n        pagesIngested\n        pagesUnchanged\n        pagesDeleted\n        pagesSkipped\n        pagesFailed\n        chunksEmbedded\n        chunksReused\n        apiCalls\n        pagesPlanned\n        pagesDone\n      }\n      stage\n      progressAt\n      pagesPerSecond\n      etaSeconds\n      health {\n        state\n        reason\n        message\n        since\n      }\n      skipped {\n        id\n        reason\n      }\n      warnings\n      error {\n        code\n        message\n      }\n    }\n  }\n',
): typeof import('./graphql').SyncRunDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query NotionWebhook($sourceId: ID!) {\n    notionWebhookVerificationToken(sourceId: $sourceId)\n  }\n',
): typeof import('./graphql').NotionWebhookDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation ResetNotionWebhook($sourceId: ID!) {\n    resetNotionWebhook(sourceId: $sourceId)\n  }\n',
): typeof import('./graphql').ResetNotionWebhookDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation SetSyncSchedule($sourceId: ID!, $intervalMinutes: Int!) {\n    setSyncSchedule(sourceId: $sourceId, intervalMinutes: $intervalMinutes) {\n      id\n      syncIntervalMinutes\n    }\n  }\n',
): typeof import('./graphql').SetSyncScheduleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  subscription SyncRunUpdates($id: ID!) {\n    syncRunUpdates(id: $id) {\n      id\n      mode\n      status\n      startedAt\n      finishedAt\n      progress {\n        pagesSeen\n        pagesIngested\n        pagesUnchanged\n        pagesDeleted\n        pagesSkipped\n        pagesFailed\n        chunksEmbedded\n        chunksReused\n        apiCalls\n        pagesPlanned\n        pagesDone\n      }\n      stage\n      progressAt\n      pagesPerSecond\n      etaSeconds\n      health {\n        state\n        reason\n        message\n        since\n      }\n      skipped {\n        id\n        reason\n      }\n      warnings\n      error {\n        code\n        message\n      }\n    }\n  }\n',
): typeof import('./graphql').SyncRunUpdatesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Me {\n    me {\n      keyId\n      name\n      role\n      permissions\n      projectIds\n    }\n  }\n',
): typeof import('./graphql').MeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query ApiKeys {\n    apiKeys {\n      id\n      name\n      role\n      projectIds\n      prefix\n      createdBy\n      createdAt\n      lastUsedAt\n      revokedAt\n    }\n  }\n',
): typeof import('./graphql').ApiKeysDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      secret\n      apiKey {\n        id\n        name\n        role\n        prefix\n      }\n    }\n  }\n',
): typeof import('./graphql').CreateApiKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      id\n      revokedAt\n    }\n  }\n',
): typeof import('./graphql').RevokeApiKeyDocument;

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
