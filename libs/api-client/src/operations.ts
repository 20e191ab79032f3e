import { graphql } from './gql';

// Every operation of Trove's clients: the dashboard, the CLI and the MCP server. Codegen
// (`npx nx run api-client:codegen`, or npm run build:dashboard) turns each into a typed document in
// ./gql/graphql.ts (`ProjectsQuery` here is `ProjectsDocument` there); import those.

export const SyncProgressFields = graphql(`
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
`);

/** Where a running sync is and whether it moves: its stage, rate, ETA and health. */
export const SyncRunMotionFields = graphql(`
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
`);

/** A sync run as every client shows it: its outcome, progress and motion. */
export const SyncRunFields = graphql(`
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
`);

export const DocumentFields = graphql(`
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
`);

export const ChunkFields = graphql(`
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
`);

export const MeQuery = graphql(`
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
`);

export const ProjectsQuery = graphql(`
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
`);

export const UpdateProjectSettingsMutation = graphql(`
  mutation UpdateProjectSettings($projectId: ID!, $input: ProjectSettingsInput!) {
    updateProjectSettings(projectId: $projectId, input: $input) {
      id
      name
      settings {
        ocr
      }
    }
  }
`);

export const CreateProjectMutation = graphql(`
  mutation CreateProject($name: String!) {
    createProject(input: { name: $name }) {
      id
      name
      status
      createdAt
    }
  }
`);

export const DeleteProjectMutation = graphql(`
  mutation DeleteProject($id: ID!, $wait: Boolean = false) {
    deleteProject(id: $id, wait: $wait)
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
        ...DocumentFields
      }
    }
  }
`);

export const DocumentQuery = graphql(`
  query Document($id: ID!) {
    document(id: $id) {
      ...DocumentFields
    }
  }
`);

export const DeleteDocumentMutation = graphql(`
  mutation DeleteDocument($id: ID!) {
    deleteDocument(id: $id)
  }
`);

export const ReindexDocumentMutation = graphql(`
  mutation ReindexDocument($id: ID!) {
    reindexDocument(id: $id) {
      id
      fileName
      status
    }
  }
`);

export const ChunksQuery = graphql(`
  query Chunks($documentId: ID!) {
    chunks(documentId: $documentId) {
      ...ChunkFields
    }
  }
`);

/** A document and all its chunks, for the dashboard's chunk view. */
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
      ...ChunkFields
    }
  }
`);

export const ChunkQuery = graphql(`
  query Chunk($id: ID!) {
    chunk(id: $id) {
      ...ChunkFields
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
`);

/** Every source type with the JSON Schema of its `config`: the CLI's flags and the MCP tools come from it. */
export const SourceTypesQuery = graphql(`
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
`);

export const AddSourceMutation = graphql(`
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
      ...SyncRunFields
    }
  }
`);

export const CancelSyncRunMutation = graphql(`
  mutation CancelSyncRun($id: ID!) {
    cancelSyncRun(id: $id) {
      ...SyncRunFields
    }
  }
`);

export const SyncRunQuery = graphql(`
  query SyncRun($id: ID!) {
    syncRun(id: $id) {
      ...SyncRunFields
    }
  }
`);

export const SyncRunsQuery = graphql(`
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
`);

/** A running sync's updates as they happen (graphql-ws), until it ends. */
export const SyncRunUpdatesSubscription = graphql(`
  subscription SyncRunUpdates($id: ID!) {
    syncRunUpdates(id: $id) {
      ...SyncRunFields
    }
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

export const WebhookVerificationTokenQuery = graphql(`
  query WebhookVerificationToken($sourceId: ID!) {
    webhookVerificationToken(sourceId: $sourceId)
  }
`);

export const ResetWebhookVerificationMutation = graphql(`
  mutation ResetWebhookVerification($sourceId: ID!) {
    resetWebhookVerification(sourceId: $sourceId)
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
`);

/** What a search or a question can be narrowed to: the project's sources and document types. */
export const SearchFilterOptionsQuery = graphql(`
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
`);

export const AskQuery = graphql(`
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
`);

export const ThreadFields = graphql(`
  fragment ThreadFields on Thread {
    id
    projectId
    title
    turnCount
    createdAt
    updatedAt
  }
`);

export const ThreadsQuery = graphql(`
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
`);

export const ThreadQuery = graphql(`
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
`);

export const RenameThreadMutation = graphql(`
  mutation RenameThread($id: ID!, $title: String!) {
    renameThread(id: $id, title: $title) {
      ...ThreadFields
    }
  }
`);

export const DeleteThreadMutation = graphql(`
  mutation DeleteThread($id: ID!) {
    deleteThread(id: $id)
  }
`);

/** A vote as clients show it. */
export const FeedbackFields = graphql(`
  fragment FeedbackFields on Feedback {
    id
    answerId
    target
    chunkId
    vote
    comment
    updatedAt
  }
`);

export const GiveFeedbackMutation = graphql(`
  mutation GiveFeedback($input: GiveFeedbackInput!) {
    giveFeedback(input: $input) {
      ...FeedbackFields
    }
  }
`);

export const MyFeedbackQuery = graphql(`
  query MyFeedback($projectId: ID!, $answerIds: [ID!]!) {
    myFeedback(projectId: $projectId, answerIds: $answerIds) {
      ...FeedbackFields
    }
  }
`);

export const ContentGapsQuery = graphql(`
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
`);

export const ApiKeysQuery = graphql(`
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
`);

export const CreateApiKeyMutation = graphql(`
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
`);

export const RevokeApiKeyMutation = graphql(`
  mutation RevokeApiKey($id: ID!) {
    revokeApiKey(id: $id) {
      id
      name
      revokedAt
    }
  }
`);

export const RagConfigQuery = graphql(`
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
`);

export const UpdateRagConfigMutation = graphql(`
  mutation UpdateRagConfig($input: UpdateRagConfigInput!) {
    updateRagConfig(input: $input) {
      version
      overridden
      warnings
    }
  }
`);

// ---- Operations of the CLI (apps/cli) --------------------------------------------------------

/** The fields of each `updateRagConfig` section and their types, so `trove config set` can convert values. */
export const RagConfigInputFieldsQuery = graphql(`
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
`);

// --- people, groups, project access, personal tokens, the audit log ----------------------------

export const UserFields = graphql(`
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
`);

export const UsersQuery = graphql(`
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
`);

export const CreateUserMutation = graphql(`
  mutation CreateUser($input: CreateUserInput!) {
    createUser(input: $input) {
      ...UserFields
    }
  }
`);

export const UpdateUserMutation = graphql(`
  mutation UpdateUser($id: ID!, $input: UpdateUserInput!) {
    updateUser(id: $id, input: $input) {
      ...UserFields
    }
  }
`);

export const DeactivateUserMutation = graphql(`
  mutation DeactivateUser($id: ID!) {
    deactivateUser(id: $id) {
      ...UserFields
    }
  }
`);

export const ReactivateUserMutation = graphql(`
  mutation ReactivateUser($id: ID!) {
    reactivateUser(id: $id) {
      ...UserFields
    }
  }
`);

export const GroupsQuery = graphql(`
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
`);

export const CreateGroupMutation = graphql(`
  mutation CreateGroup($name: String!) {
    createGroup(name: $name) {
      id
      name
    }
  }
`);

export const DeleteGroupMutation = graphql(`
  mutation DeleteGroup($id: ID!) {
    deleteGroup(id: $id) {
      id
    }
  }
`);

export const AddGroupMemberMutation = graphql(`
  mutation AddGroupMember($groupId: ID!, $userId: ID!) {
    addGroupMember(groupId: $groupId, userId: $userId) {
      id
      memberCount
    }
  }
`);

export const RemoveGroupMemberMutation = graphql(`
  mutation RemoveGroupMember($groupId: ID!, $userId: ID!) {
    removeGroupMember(groupId: $groupId, userId: $userId) {
      id
      memberCount
    }
  }
`);

export const ProjectAccessQuery = graphql(`
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
`);

export const GrantProjectRoleMutation = graphql(`
  mutation GrantProjectRole($input: GrantProjectRoleInput!) {
    grantProjectRole(input: $input) {
      id
      role
    }
  }
`);

export const RevokeProjectRoleMutation = graphql(`
  mutation RevokeProjectRole($input: GranteeInput!) {
    revokeProjectRole(input: $input)
  }
`);

export const PersonalTokensQuery = graphql(`
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
`);

export const CreatePersonalTokenMutation = graphql(`
  mutation CreatePersonalToken($input: CreatePersonalTokenInput!) {
    createPersonalToken(input: $input) {
      secret
      token {
        id
        name
      }
    }
  }
`);

export const RevokePersonalTokenMutation = graphql(`
  mutation RevokePersonalToken($id: ID!) {
    revokePersonalToken(id: $id) {
      id
      revokedAt
    }
  }
`);

export const AuditEventsQuery = graphql(`
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
`);
