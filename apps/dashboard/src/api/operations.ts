import { graphql } from '../gql';

// Every operation the dashboard runs; `npm run build:dashboard` types them from the schema.

export const ProjectsQuery = graphql(`
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
`);

export const CreateProjectMutation = graphql(`
  mutation CreateProject($name: String!) {
    createProject(input: { name: $name }) {
      id
      name
    }
  }
`);

export const DeleteProjectMutation = graphql(`
  mutation DeleteProject($id: ID!) {
    deleteProject(id: $id)
  }
`);

export const DocumentsQuery = graphql(`
  query Documents($projectId: ID!, $first: Int!, $after: String, $status: DocumentStatus, $sourceId: ID) {
    documents(projectId: $projectId, first: $first, after: $after, status: $status, sourceId: $sourceId) {
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
`);

export const ReindexDocumentMutation = graphql(`
  mutation ReindexDocument($id: ID!) {
    reindexDocument(id: $id) {
      id
      status
    }
  }
`);

export const DeleteDocumentMutation = graphql(`
  mutation DeleteDocument($id: ID!) {
    deleteDocument(id: $id)
  }
`);

export const DocumentChunksQuery = graphql(`
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
`);

export const SearchQuery = graphql(`
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
`);

export const SourcesQuery = graphql(`
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
`);

/** Every source type with the JSON Schema of its config: the add and edit forms are built from it. */
export const SourceTypesQuery = graphql(`
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
`);

export const AddSourceMutation = graphql(`
  mutation AddSource($input: AddSourceInput!) {
    addSource(input: $input) {
      id
    }
  }
`);

export const UpdateSourceMutation = graphql(`
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
`);

export const RemoveSourceMutation = graphql(`
  mutation RemoveSource($id: ID!) {
    removeSource(id: $id)
  }
`);

export const SyncSourceMutation = graphql(`
  mutation SyncSource($id: ID!, $mode: SyncMode!) {
    syncSource(id: $id, mode: $mode) {
      id
    }
  }
`);

export const SyncRunsQuery = graphql(`
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
`);

export const SyncRunQuery = graphql(`
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
`);

export const NotionWebhookQuery = graphql(`
  query NotionWebhook($sourceId: ID!) {
    notionWebhookVerificationToken(sourceId: $sourceId)
  }
`);

export const ResetNotionWebhookMutation = graphql(`
  mutation ResetNotionWebhook($sourceId: ID!) {
    resetNotionWebhook(sourceId: $sourceId)
  }
`);

export const SetSyncScheduleMutation = graphql(`
  mutation SetSyncSchedule($sourceId: ID!, $intervalMinutes: Int!) {
    setSyncSchedule(sourceId: $sourceId, intervalMinutes: $intervalMinutes) {
      id
      syncIntervalMinutes
    }
  }
`);

export const SyncRunUpdatesSubscription = graphql(`
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
`);

export const MeQuery = graphql(`
  query Me {
    me {
      keyId
      name
      role
      permissions
      projectIds
    }
  }
`);

export const ApiKeysQuery = graphql(`
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
`);

export const CreateApiKeyMutation = graphql(`
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
`);

export const RevokeApiKeyMutation = graphql(`
  mutation RevokeApiKey($id: ID!) {
    revokeApiKey(id: $id) {
      id
      revokedAt
    }
  }
`);
