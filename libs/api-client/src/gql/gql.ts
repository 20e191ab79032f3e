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
  '\n  fragment SyncProgressFields on SyncProgress {\n    pagesSeen\n    pagesIngested\n    pagesUnchanged\n    pagesSkipped\n    pagesFailed\n    pagesDeleted\n    chunksEmbedded\n    chunksReused\n    apiCalls\n    pagesPlanned\n    pagesDone\n  }\n': typeof types.SyncProgressFieldsFragmentDoc;
  '\n  fragment SyncRunMotionFields on SyncRun {\n    stage\n    progressAt\n    pagesPerSecond\n    etaSeconds\n    health {\n      state\n      reason\n      message\n      since\n    }\n  }\n': typeof types.SyncRunMotionFieldsFragmentDoc;
  '\n  fragment SyncRunFields on SyncRun {\n    id\n    sourceId\n    mode\n    status\n    startedAt\n    finishedAt\n    error {\n      code\n      message\n    }\n    warnings\n    skipped {\n      id\n      reason\n      title\n    }\n    progress {\n      ...SyncProgressFields\n    }\n    ...SyncRunMotionFields\n  }\n': typeof types.SyncRunFieldsFragmentDoc;
  '\n  fragment DocumentFields on Document {\n    id\n    projectId\n    sourceId\n    externalId\n    fileName\n    title\n    mediaType\n    status\n    error {\n      code\n      message\n    }\n    warnings\n    progress {\n      stage\n      page\n      pageCount\n    }\n    chunkCount\n    pageCount\n    sizeBytes\n    language\n    url\n    createdAt\n    updatedAt\n    indexedAt\n    timings {\n      fetchMs\n      parseMs\n      chunkMs\n      embedMs\n      upsertMs\n      totalMs\n    }\n  }\n': typeof types.DocumentFieldsFragmentDoc;
  '\n  fragment ChunkFields on Chunk {\n    id\n    documentId\n    position\n    title\n    headingPath\n    chapter\n    page\n    pageEnd\n    anchor\n    language\n    tokenCount\n    citationUrl\n    text\n  }\n': typeof types.ChunkFieldsFragmentDoc;
  '\n  query Me {\n    me {\n      keyId\n      userId\n      credential\n      name\n      email\n      pictureUrl\n      role\n      permissions\n      projectIds\n      projectRoles {\n        projectId\n        role\n      }\n      groups\n    }\n  }\n': typeof types.MeDocument;
  '\n  query Projects {\n    projects {\n      id\n      name\n      status\n      createdAt\n      settings {\n        ocr\n      }\n      stats {\n        documentCount\n        chunkCount\n      }\n    }\n  }\n': typeof types.ProjectsDocument;
  '\n  mutation UpdateProjectSettings($projectId: ID!, $input: ProjectSettingsInput!) {\n    updateProjectSettings(projectId: $projectId, input: $input) {\n      id\n      name\n      settings {\n        ocr\n      }\n    }\n  }\n': typeof types.UpdateProjectSettingsDocument;
  '\n  mutation CreateProject($name: String!) {\n    createProject(input: { name: $name }) {\n      id\n      name\n      status\n      createdAt\n    }\n  }\n': typeof types.CreateProjectDocument;
  '\n  mutation DeleteProject($id: ID!, $wait: Boolean = false) {\n    deleteProject(id: $id, wait: $wait)\n  }\n': typeof types.DeleteProjectDocument;
  '\n  query Documents($projectId: ID!, $first: Int!, $after: String, $status: DocumentStatus, $sourceId: ID) {\n    documents(projectId: $projectId, first: $first, after: $after, status: $status, sourceId: $sourceId) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        ...DocumentFields\n      }\n    }\n  }\n': typeof types.DocumentsDocument;
  '\n  query Document($id: ID!) {\n    document(id: $id) {\n      ...DocumentFields\n    }\n  }\n': typeof types.DocumentDocument;
  '\n  mutation DeleteDocument($id: ID!) {\n    deleteDocument(id: $id)\n  }\n': typeof types.DeleteDocumentDocument;
  '\n  mutation ReindexDocument($id: ID!) {\n    reindexDocument(id: $id) {\n      id\n      fileName\n      status\n    }\n  }\n': typeof types.ReindexDocumentDocument;
  '\n  query Chunks($documentId: ID!) {\n    chunks(documentId: $documentId) {\n      ...ChunkFields\n    }\n  }\n': typeof types.ChunksDocument;
  '\n  query DocumentChunks($id: ID!) {\n    document(id: $id) {\n      id\n      projectId\n      fileName\n      title\n      status\n      chunkCount\n      pageCount\n    }\n    chunks(documentId: $id) {\n      ...ChunkFields\n    }\n  }\n': typeof types.DocumentChunksDocument;
  '\n  query Chunk($id: ID!) {\n    chunk(id: $id) {\n      ...ChunkFields\n    }\n  }\n': typeof types.ChunkDocument;
  '\n  query Sources($projectId: ID!) {\n    sources(projectId: $projectId) {\n      id\n      projectId\n      name\n      type\n      status\n      createdAt\n      lastSyncAt\n      syncIntervalMinutes\n      tokenHint\n      summary\n      config\n      secrets {\n        field\n        hint\n      }\n      webhook {\n        lastEventAt\n        lastEventType\n        rejectedDeliveries\n      }\n      documentCount\n      lastRun {\n        id\n        status\n        stage\n        startedAt\n        finishedAt\n        etaSeconds\n        error {\n          code\n          message\n        }\n        progress {\n          pagesPlanned\n          pagesDone\n        }\n        health {\n          state\n          message\n        }\n      }\n    }\n  }\n': typeof types.SourcesDocument;
  '\n  query SourceTypes {\n    sourceTypes {\n      type\n      label\n      description\n      configSchema\n      secretFields\n      webhook\n      webhookSetup {\n        instructions\n        path\n        steps\n        verificationHandshake\n      }\n    }\n  }\n': typeof types.SourceTypesDocument;
  '\n  mutation AddSource($input: AddSourceInput!) {\n    addSource(input: $input) {\n      id\n      name\n      type\n      status\n      config\n      secrets {\n        field\n        hint\n      }\n    }\n  }\n': typeof types.AddSourceDocument;
  '\n  mutation UpdateSource($id: ID!, $input: UpdateSourceInput!) {\n    updateSource(id: $id, input: $input) {\n      id\n      name\n      config\n      secrets {\n        field\n        hint\n      }\n    }\n  }\n': typeof types.UpdateSourceDocument;
  '\n  mutation RemoveSource($id: ID!) {\n    removeSource(id: $id)\n  }\n': typeof types.RemoveSourceDocument;
  '\n  mutation SyncSource($id: ID!, $mode: SyncMode!) {\n    syncSource(id: $id, mode: $mode) {\n      ...SyncRunFields\n    }\n  }\n': typeof types.SyncSourceDocument;
  '\n  mutation CancelSyncRun($id: ID!) {\n    cancelSyncRun(id: $id) {\n      ...SyncRunFields\n    }\n  }\n': typeof types.CancelSyncRunDocument;
  '\n  query SyncRun($id: ID!) {\n    syncRun(id: $id) {\n      ...SyncRunFields\n    }\n  }\n': typeof types.SyncRunDocument;
  '\n  query SyncRuns($sourceId: ID!, $first: Int!, $after: String) {\n    syncRuns(sourceId: $sourceId, first: $first, after: $after) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        ...SyncRunFields\n      }\n    }\n  }\n': typeof types.SyncRunsDocument;
  '\n  subscription SyncRunUpdates($id: ID!) {\n    syncRunUpdates(id: $id) {\n      ...SyncRunFields\n    }\n  }\n': typeof types.SyncRunUpdatesDocument;
  '\n  mutation SetSyncSchedule($sourceId: ID!, $intervalMinutes: Int!) {\n    setSyncSchedule(sourceId: $sourceId, intervalMinutes: $intervalMinutes) {\n      id\n      syncIntervalMinutes\n    }\n  }\n': typeof types.SetSyncScheduleDocument;
  '\n  query WebhookVerificationToken($sourceId: ID!) {\n    webhookVerificationToken(sourceId: $sourceId)\n  }\n': typeof types.WebhookVerificationTokenDocument;
  '\n  mutation ResetWebhookVerification($sourceId: ID!) {\n    resetWebhookVerification(sourceId: $sourceId)\n  }\n': typeof types.ResetWebhookVerificationDocument;
  '\n  query Search($input: SearchInput!) {\n    search(input: $input) {\n      tookMs\n      reranked\n      reranker\n      warnings\n      hits {\n        chunkId\n        documentId\n        title\n        fileName\n        sourceId\n        sourceName\n        sourceType\n        headingPath\n        chapter\n        page\n        pageEnd\n        anchor\n        ocr\n        ocrConfidence\n        position\n        text\n        citationUrl\n        score\n        rerankScore\n        bm25 {\n          rank\n          score\n        }\n        knn {\n          rank\n          score\n        }\n        explain {\n          bm25 {\n            rank\n            score\n          }\n          knn {\n            rank\n            score\n          }\n          fusedScore\n          rerankScore\n          topFeatures {\n            name\n            contribution\n          }\n        }\n        context {\n          chunkId\n          position\n          headingPath\n          text\n          citationUrl\n        }\n      }\n    }\n  }\n': typeof types.SearchDocument;
  '\n  query SearchFilterOptions($projectId: ID!) {\n    sources(projectId: $projectId) {\n      id\n      name\n      type\n    }\n    project(id: $projectId) {\n      id\n      documentTypes {\n        mediaType\n        label\n        documentCount\n      }\n    }\n  }\n': typeof types.SearchFilterOptionsDocument;
  '\n  query Ask($input: AskInput!) {\n    ask(input: $input) {\n      answerId\n      threadId\n      standaloneQuestion\n      answer\n      mode\n      insufficientContext\n      language\n      model\n      fallbackReason\n      citations {\n        marker\n        chunkId\n        documentId\n        title\n        headingPath\n        citationUrl\n        quote\n        page\n        ocr\n        ocrConfidence\n      }\n      verification {\n        validMarkers\n        invalidMarkers\n        missingMarkers\n        retried\n        checkedSentences\n      }\n      timings {\n        totalMs\n      }\n    }\n  }\n': typeof types.AskDocument;
  '\n  fragment ThreadFields on Thread {\n    id\n    projectId\n    title\n    turnCount\n    createdAt\n    updatedAt\n  }\n': typeof types.ThreadFieldsFragmentDoc;
  '\n  query Threads($projectId: ID!, $first: Int!, $after: String, $allKeys: Boolean) {\n    threads(projectId: $projectId, first: $first, after: $after, allKeys: $allKeys) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        ...ThreadFields\n      }\n    }\n  }\n': typeof types.ThreadsDocument;
  '\n  query Thread($id: ID!) {\n    thread(id: $id) {\n      ...ThreadFields\n      turns {\n        answerId\n        position\n        question\n        standaloneQuestion\n        mode\n        answer\n        createdAt\n        citations {\n          marker\n          chunkId\n          documentId\n          title\n          headingPath\n          citationUrl\n          quote\n          page\n        }\n      }\n    }\n  }\n': typeof types.ThreadDocument;
  '\n  mutation RenameThread($id: ID!, $title: String!) {\n    renameThread(id: $id, title: $title) {\n      ...ThreadFields\n    }\n  }\n': typeof types.RenameThreadDocument;
  '\n  mutation DeleteThread($id: ID!) {\n    deleteThread(id: $id)\n  }\n': typeof types.DeleteThreadDocument;
  '\n  fragment FeedbackFields on Feedback {\n    id\n    answerId\n    target\n    chunkId\n    vote\n    comment\n    updatedAt\n  }\n': typeof types.FeedbackFieldsFragmentDoc;
  '\n  mutation GiveFeedback($input: GiveFeedbackInput!) {\n    giveFeedback(input: $input) {\n      ...FeedbackFields\n    }\n  }\n': typeof types.GiveFeedbackDocument;
  '\n  query MyFeedback($projectId: ID!, $answerIds: [ID!]!) {\n    myFeedback(projectId: $projectId, answerIds: $answerIds) {\n      ...FeedbackFields\n    }\n  }\n': typeof types.MyFeedbackDocument;
  '\n  query ContentGaps($projectId: ID!, $first: Int = 50, $after: String) {\n    contentGaps(projectId: $projectId, first: $first, after: $after) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        key\n        question\n        askCount\n        unansweredCount\n        downVoteCount\n        lastAskedAt\n        comments\n        askedBy\n      }\n    }\n  }\n': typeof types.ContentGapsDocument;
  '\n  query ApiKeys {\n    apiKeys {\n      id\n      name\n      prefix\n      role\n      projectIds\n      createdAt\n      createdBy\n      lastUsedAt\n      revokedAt\n    }\n  }\n': typeof types.ApiKeysDocument;
  '\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      secret\n      apiKey {\n        id\n        name\n        prefix\n        role\n        projectIds\n        createdAt\n      }\n    }\n  }\n': typeof types.CreateApiKeyDocument;
  '\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      id\n      name\n      revokedAt\n    }\n  }\n': typeof types.RevokeApiKeyDocument;
  '\n  query RagConfig {\n    ragConfig {\n      version\n      updatedAt\n      overridden\n      warnings\n      search {\n        fusion\n        rrfK\n        convexVectorWeight\n        convexNormalization\n      }\n      rerank {\n        provider\n        candidates\n        maxChars\n        model\n        url\n        timeoutMs\n        apiKey {\n          set\n          masked\n        }\n      }\n      answers {\n        topK\n        threshold\n        fallbackMode\n        contextTokens\n        extractiveChunks\n        extractiveSentences\n        supportMinLexical\n        supportMinSemantic\n        llmBudgetMs\n        rewriteTimeoutMs\n      }\n      llm {\n        provider\n        baseUrl\n        model\n        temperature\n        maxTokens\n        contextTokens\n        timeoutMs\n        idleTimeoutMs\n        retries\n        apiKey {\n          set\n          masked\n        }\n      }\n      chunking {\n        targetTokens\n        overlapTokens\n        minTokens\n      }\n      embedding {\n        active {\n          id\n          modelId\n          dimensions\n          status\n          embedding {\n            provider\n            profile\n            model\n            baseUrl\n          }\n        }\n      }\n    }\n  }\n': typeof types.RagConfigDocument;
  '\n  mutation UpdateRagConfig($input: UpdateRagConfigInput!) {\n    updateRagConfig(input: $input) {\n      version\n      overridden\n      warnings\n    }\n  }\n': typeof types.UpdateRagConfigDocument;
  '\n  query RagConfigInputFields {\n    __type(name: "UpdateRagConfigInput") {\n      inputFields {\n        name\n        type {\n          kind\n          name\n          inputFields {\n            name\n            type {\n              kind\n              name\n              ofType {\n                kind\n                name\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n': typeof types.RagConfigInputFieldsDocument;
  '\n  fragment UserFields on User {\n    id\n    name\n    email\n    pictureUrl\n    provider\n    role\n    status\n    createdAt\n    lastSeenAt\n    deactivatedAt\n  }\n': typeof types.UserFieldsFragmentDoc;
  '\n  query Users($first: Int, $after: String, $search: String) {\n    users(first: $first, after: $after, search: $search) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        ...UserFields\n      }\n    }\n  }\n': typeof types.UsersDocument;
  '\n  mutation CreateUser($input: CreateUserInput!) {\n    createUser(input: $input) {\n      ...UserFields\n    }\n  }\n': typeof types.CreateUserDocument;
  '\n  mutation UpdateUser($id: ID!, $input: UpdateUserInput!) {\n    updateUser(id: $id, input: $input) {\n      ...UserFields\n    }\n  }\n': typeof types.UpdateUserDocument;
  '\n  mutation DeactivateUser($id: ID!) {\n    deactivateUser(id: $id) {\n      ...UserFields\n    }\n  }\n': typeof types.DeactivateUserDocument;
  '\n  mutation ReactivateUser($id: ID!) {\n    reactivateUser(id: $id) {\n      ...UserFields\n    }\n  }\n': typeof types.ReactivateUserDocument;
  '\n  query Groups {\n    groups {\n      id\n      name\n      provider\n      memberCount\n      createdAt\n      members {\n        id\n        name\n        email\n      }\n    }\n  }\n': typeof types.GroupsDocument;
  '\n  mutation CreateGroup($name: String!) {\n    createGroup(name: $name) {\n      id\n      name\n    }\n  }\n': typeof types.CreateGroupDocument;
  '\n  mutation DeleteGroup($id: ID!) {\n    deleteGroup(id: $id) {\n      id\n    }\n  }\n': typeof types.DeleteGroupDocument;
  '\n  mutation AddGroupMember($groupId: ID!, $userId: ID!) {\n    addGroupMember(groupId: $groupId, userId: $userId) {\n      id\n      memberCount\n    }\n  }\n': typeof types.AddGroupMemberDocument;
  '\n  mutation RemoveGroupMember($groupId: ID!, $userId: ID!) {\n    removeGroupMember(groupId: $groupId, userId: $userId) {\n      id\n      memberCount\n    }\n  }\n': typeof types.RemoveGroupMemberDocument;
  '\n  query ProjectAccess($projectId: ID!) {\n    projectAccess(projectId: $projectId) {\n      id\n      role\n      createdBy\n      createdAt\n      user {\n        id\n        name\n        email\n        status\n      }\n      group {\n        id\n        name\n        provider\n      }\n    }\n  }\n': typeof types.ProjectAccessDocument;
  '\n  mutation GrantProjectRole($input: GrantProjectRoleInput!) {\n    grantProjectRole(input: $input) {\n      id\n      role\n    }\n  }\n': typeof types.GrantProjectRoleDocument;
  '\n  mutation RevokeProjectRole($input: GranteeInput!) {\n    revokeProjectRole(input: $input)\n  }\n': typeof types.RevokeProjectRoleDocument;
  '\n  query PersonalTokens {\n    personalTokens {\n      id\n      name\n      prefix\n      createdAt\n      expiresAt\n      lastUsedAt\n      revokedAt\n    }\n  }\n': typeof types.PersonalTokensDocument;
  '\n  mutation CreatePersonalToken($input: CreatePersonalTokenInput!) {\n    createPersonalToken(input: $input) {\n      secret\n      token {\n        id\n        name\n      }\n    }\n  }\n': typeof types.CreatePersonalTokenDocument;
  '\n  mutation RevokePersonalToken($id: ID!) {\n    revokePersonalToken(id: $id) {\n      id\n      revokedAt\n    }\n  }\n': typeof types.RevokePersonalTokenDocument;
  '\n  query AuditEvents($first: Int, $after: String, $filter: AuditFilterInput) {\n    auditEvents(first: $first, after: $after, filter: $filter) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        id\n        at\n        action\n        outcome\n        code\n        address\n        userAgent\n        projectId\n        detail\n        target {\n          kind\n          id\n        }\n        actor {\n          kind\n          id\n          name\n          credential\n        }\n      }\n    }\n  }\n': typeof types.AuditEventsDocument;
};
const documents: Documents = {
  '\n  fragment SyncProgressFields on SyncProgress {\n    pagesSeen\n    pagesIngested\n    pagesUnchanged\n    pagesSkipped\n    pagesFailed\n    pagesDeleted\n    chunksEmbedded\n    chunksReused\n    apiCalls\n    pagesPlanned\n    pagesDone\n  }\n':
    types.SyncProgressFieldsFragmentDoc,
  '\n  fragment SyncRunMotionFields on SyncRun {\n    stage\n    progressAt\n    pagesPerSecond\n    etaSeconds\n    health {\n      state\n      reason\n      message\n      since\n    }\n  }\n':
    types.SyncRunMotionFieldsFragmentDoc,
  '\n  fragment SyncRunFields on SyncRun {\n    id\n    sourceId\n    mode\n    status\n    startedAt\n    finishedAt\n    error {\n      code\n      message\n    }\n    warnings\n    skipped {\n      id\n      reason\n      title\n    }\n    progress {\n      ...SyncProgressFields\n    }\n    ...SyncRunMotionFields\n  }\n':
    types.SyncRunFieldsFragmentDoc,
  '\n  fragment DocumentFields on Document {\n    id\n    projectId\n    sourceId\n    externalId\n    fileName\n    title\n    mediaType\n    status\n    error {\n      code\n      message\n    }\n    warnings\n    progress {\n      stage\n      page\n      pageCount\n    }\n    chunkCount\n    pageCount\n    sizeBytes\n    language\n    url\n    createdAt\n    updatedAt\n    indexedAt\n    timings {\n      fetchMs\n      parseMs\n      chunkMs\n      embedMs\n      upsertMs\n      totalMs\n    }\n  }\n':
    types.DocumentFieldsFragmentDoc,
  '\n  fragment ChunkFields on Chunk {\n    id\n    documentId\n    position\n    title\n    headingPath\n    chapter\n    page\n    pageEnd\n    anchor\n    language\n    tokenCount\n    citationUrl\n    text\n  }\n':
    types.ChunkFieldsFragmentDoc,
  '\n  query Me {\n    me {\n      keyId\n      userId\n      credential\n      name\n      email\n      pictureUrl\n      role\n      permissions\n      projectIds\n      projectRoles {\n        projectId\n        role\n      }\n      groups\n    }\n  }\n':
    types.MeDocument,
  '\n  query Projects {\n    projects {\n      id\n      name\n      status\n      createdAt\n      settings {\n        ocr\n      }\n      stats {\n        documentCount\n        chunkCount\n      }\n    }\n  }\n':
    types.ProjectsDocument,
  '\n  mutation UpdateProjectSettings($projectId: ID!, $input: ProjectSettingsInput!) {\n    updateProjectSettings(projectId: $projectId, input: $input) {\n      id\n      name\n      settings {\n        ocr\n      }\n    }\n  }\n':
    types.UpdateProjectSettingsDocument,
  '\n  mutation CreateProject($name: String!) {\n    createProject(input: { name: $name }) {\n      id\n      name\n      status\n      createdAt\n    }\n  }\n':
    types.CreateProjectDocument,
  '\n  mutation DeleteProject($id: ID!, $wait: Boolean = false) {\n    deleteProject(id: $id, wait: $wait)\n  }\n':
    types.DeleteProjectDocument,
  '\n  query Documents($projectId: ID!, $first: Int!, $after: String, $status: DocumentStatus, $sourceId: ID) {\n    documents(projectId: $projectId, first: $first, after: $after, status: $status, sourceId: $sourceId) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        ...DocumentFields\n      }\n    }\n  }\n':
    types.DocumentsDocument,
  '\n  query Document($id: ID!) {\n    document(id: $id) {\n      ...DocumentFields\n    }\n  }\n':
    types.DocumentDocument,
  '\n  mutation DeleteDocument($id: ID!) {\n    deleteDocument(id: $id)\n  }\n': types.DeleteDocumentDocument,
  '\n  mutation ReindexDocument($id: ID!) {\n    reindexDocument(id: $id) {\n      id\n      fileName\n      status\n    }\n  }\n':
    types.ReindexDocumentDocument,
  '\n  query Chunks($documentId: ID!) {\n    chunks(documentId: $documentId) {\n      ...ChunkFields\n    }\n  }\n':
    types.ChunksDocument,
  '\n  query DocumentChunks($id: ID!) {\n    document(id: $id) {\n      id\n      projectId\n      fileName\n      title\n      status\n      chunkCount\n      pageCount\n    }\n    chunks(documentId: $id) {\n      ...ChunkFields\n    }\n  }\n':
    types.DocumentChunksDocument,
  '\n  query Chunk($id: ID!) {\n    chunk(id: $id) {\n      ...ChunkFields\n    }\n  }\n':
    types.ChunkDocument,
  '\n  query Sources($projectId: ID!) {\n    sources(projectId: $projectId) {\n      id\n      projectId\n      name\n      type\n      status\n      createdAt\n      lastSyncAt\n      syncIntervalMinutes\n      tokenHint\n      summary\n      config\n      secrets {\n        field\n        hint\n      }\n      webhook {\n        lastEventAt\n        lastEventType\n        rejectedDeliveries\n      }\n      documentCount\n      lastRun {\n        id\n        status\n        stage\n        startedAt\n        finishedAt\n        etaSeconds\n        error {\n          code\n          message\n        }\n        progress {\n          pagesPlanned\n          pagesDone\n        }\n        health {\n          state\n          message\n        }\n      }\n    }\n  }\n':
    types.SourcesDocument,
  '\n  query SourceTypes {\n    sourceTypes {\n      type\n      label\n      description\n      configSchema\n      secretFields\n      webhook\n      webhookSetup {\n        instructions\n        path\n        steps\n        verificationHandshake\n      }\n    }\n  }\n':
    types.SourceTypesDocument,
  '\n  mutation AddSource($input: AddSourceInput!) {\n    addSource(input: $input) {\n      id\n      name\n      type\n      status\n      config\n      secrets {\n        field\n        hint\n      }\n    }\n  }\n':
    types.AddSourceDocument,
  '\n  mutation UpdateSource($id: ID!, $input: UpdateSourceInput!) {\n    updateSource(id: $id, input: $input) {\n      id\n      name\n      config\n      secrets {\n        field\n        hint\n      }\n    }\n  }\n':
    types.UpdateSourceDocument,
  '\n  mutation RemoveSource($id: ID!) {\n    removeSource(id: $id)\n  }\n': types.RemoveSourceDocument,
  '\n  mutation SyncSource($id: ID!, $mode: SyncMode!) {\n    syncSource(id: $id, mode: $mode) {\n      ...SyncRunFields\n    }\n  }\n':
    types.SyncSourceDocument,
  '\n  mutation CancelSyncRun($id: ID!) {\n    cancelSyncRun(id: $id) {\n      ...SyncRunFields\n    }\n  }\n':
    types.CancelSyncRunDocument,
  '\n  query SyncRun($id: ID!) {\n    syncRun(id: $id) {\n      ...SyncRunFields\n    }\n  }\n':
    types.SyncRunDocument,
  '\n  query SyncRuns($sourceId: ID!, $first: Int!, $after: String) {\n    syncRuns(sourceId: $sourceId, first: $first, after: $after) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        ...SyncRunFields\n      }\n    }\n  }\n':
    types.SyncRunsDocument,
  '\n  subscription SyncRunUpdates($id: ID!) {\n    syncRunUpdates(id: $id) {\n      ...SyncRunFields\n    }\n  }\n':
    types.SyncRunUpdatesDocument,
  '\n  mutation SetSyncSchedule($sourceId: ID!, $intervalMinutes: Int!) {\n    setSyncSchedule(sourceId: $sourceId, intervalMinutes: $intervalMinutes) {\n      id\n      syncIntervalMinutes\n    }\n  }\n':
    types.SetSyncScheduleDocument,
  '\n  query WebhookVerificationToken($sourceId: ID!) {\n    webhookVerificationToken(sourceId: $sourceId)\n  }\n':
    types.WebhookVerificationTokenDocument,
  '\n  mutation ResetWebhookVerification($sourceId: ID!) {\n    resetWebhookVerification(sourceId: $sourceId)\n  }\n':
    types.ResetWebhookVerificationDocument,
  '\n  query Search($input: SearchInput!) {\n    search(input: $input) {\n      tookMs\n      reranked\n      reranker\n      warnings\n      hits {\n        chunkId\n        documentId\n        title\n        fileName\n        sourceId\n        sourceName\n        sourceType\n        headingPath\n        chapter\n        page\n        pageEnd\n        anchor\n        ocr\n        ocrConfidence\n        position\n        text\n        citationUrl\n        score\n        rerankScore\n        bm25 {\n          rank\n          score\n        }\n        knn {\n          rank\n          score\n        }\n        explain {\n          bm25 {\n            rank\n            score\n          }\n          knn {\n            rank\n            score\n          }\n          fusedScore\n          rerankScore\n          topFeatures {\n            name\n            contribution\n          }\n        }\n        context {\n          chunkId\n          position\n          headingPath\n          text\n          citationUrl\n        }\n      }\n    }\n  }\n':
    types.SearchDocument,
  '\n  query SearchFilterOptions($projectId: ID!) {\n    sources(projectId: $projectId) {\n      id\n      name\n      type\n    }\n    project(id: $projectId) {\n      id\n      documentTypes {\n        mediaType\n        label\n        documentCount\n      }\n    }\n  }\n':
    types.SearchFilterOptionsDocument,
  '\n  query Ask($input: AskInput!) {\n    ask(input: $input) {\n      answerId\n      threadId\n      standaloneQuestion\n      answer\n      mode\n      insufficientContext\n      language\n      model\n      fallbackReason\n      citations {\n        marker\n        chunkId\n        documentId\n        title\n        headingPath\n        citationUrl\n        quote\n        page\n        ocr\n        ocrConfidence\n      }\n      verification {\n        validMarkers\n        invalidMarkers\n        missingMarkers\n        retried\n        checkedSentences\n      }\n      timings {\n        totalMs\n      }\n    }\n  }\n':
    types.AskDocument,
  '\n  fragment ThreadFields on Thread {\n    id\n    projectId\n    title\n    turnCount\n    createdAt\n    updatedAt\n  }\n':
    types.ThreadFieldsFragmentDoc,
  '\n  query Threads($projectId: ID!, $first: Int!, $after: String, $allKeys: Boolean) {\n    threads(projectId: $projectId, first: $first, after: $after, allKeys: $allKeys) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        ...ThreadFields\n      }\n    }\n  }\n':
    types.ThreadsDocument,
  '\n  query Thread($id: ID!) {\n    thread(id: $id) {\n      ...ThreadFields\n      turns {\n        answerId\n        position\n        question\n        standaloneQuestion\n        mode\n        answer\n        createdAt\n        citations {\n          marker\n          chunkId\n          documentId\n          title\n          headingPath\n          citationUrl\n          quote\n          page\n        }\n      }\n    }\n  }\n':
    types.ThreadDocument,
  '\n  mutation RenameThread($id: ID!, $title: String!) {\n    renameThread(id: $id, title: $title) {\n      ...ThreadFields\n    }\n  }\n':
    types.RenameThreadDocument,
  '\n  mutation DeleteThread($id: ID!) {\n    deleteThread(id: $id)\n  }\n': types.DeleteThreadDocument,
  '\n  fragment FeedbackFields on Feedback {\n    id\n    answerId\n    target\n    chunkId\n    vote\n    comment\n    updatedAt\n  }\n':
    types.FeedbackFieldsFragmentDoc,
  '\n  mutation GiveFeedback($input: GiveFeedbackInput!) {\n    giveFeedback(input: $input) {\n      ...FeedbackFields\n    }\n  }\n':
    types.GiveFeedbackDocument,
  '\n  query MyFeedback($projectId: ID!, $answerIds: [ID!]!) {\n    myFeedback(projectId: $projectId, answerIds: $answerIds) {\n      ...FeedbackFields\n    }\n  }\n':
    types.MyFeedbackDocument,
  '\n  query ContentGaps($projectId: ID!, $first: Int = 50, $after: String) {\n    contentGaps(projectId: $projectId, first: $first, after: $after) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        key\n        question\n        askCount\n        unansweredCount\n        downVoteCount\n        lastAskedAt\n        comments\n        askedBy\n      }\n    }\n  }\n':
    types.ContentGapsDocument,
  '\n  query ApiKeys {\n    apiKeys {\n      id\n      name\n      prefix\n      role\n      projectIds\n      createdAt\n      createdBy\n      lastUsedAt\n      revokedAt\n    }\n  }\n':
    types.ApiKeysDocument,
  '\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      secret\n      apiKey {\n        id\n        name\n        prefix\n        role\n        projectIds\n        createdAt\n      }\n    }\n  }\n':
    types.CreateApiKeyDocument,
  '\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      id\n      name\n      revokedAt\n    }\n  }\n':
    types.RevokeApiKeyDocument,
  '\n  query RagConfig {\n    ragConfig {\n      version\n      updatedAt\n      overridden\n      warnings\n      search {\n        fusion\n        rrfK\n        convexVectorWeight\n        convexNormalization\n      }\n      rerank {\n        provider\n        candidates\n        maxChars\n        model\n        url\n        timeoutMs\n        apiKey {\n          set\n          masked\n        }\n      }\n      answers {\n        topK\n        threshold\n        fallbackMode\n        contextTokens\n        extractiveChunks\n        extractiveSentences\n        supportMinLexical\n        supportMinSemantic\n        llmBudgetMs\n        rewriteTimeoutMs\n      }\n      llm {\n        provider\n        baseUrl\n        model\n        temperature\n        maxTokens\n        contextTokens\n        timeoutMs\n        idleTimeoutMs\n        retries\n        apiKey {\n          set\n          masked\n        }\n      }\n      chunking {\n        targetTokens\n        overlapTokens\n        minTokens\n      }\n      embedding {\n        active {\n          id\n          modelId\n          dimensions\n          status\n          embedding {\n            provider\n            profile\n            model\n            baseUrl\n          }\n        }\n      }\n    }\n  }\n':
    types.RagConfigDocument,
  '\n  mutation UpdateRagConfig($input: UpdateRagConfigInput!) {\n    updateRagConfig(input: $input) {\n      version\n      overridden\n      warnings\n    }\n  }\n':
    types.UpdateRagConfigDocument,
  '\n  query RagConfigInputFields {\n    __type(name: "UpdateRagConfigInput") {\n      inputFields {\n        name\n        type {\n          kind\n          name\n          inputFields {\n            name\n            type {\n              kind\n              name\n              ofType {\n                kind\n                name\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n':
    types.RagConfigInputFieldsDocument,
  '\n  fragment UserFields on User {\n    id\n    name\n    email\n    pictureUrl\n    provider\n    role\n    status\n    createdAt\n    lastSeenAt\n    deactivatedAt\n  }\n':
    types.UserFieldsFragmentDoc,
  '\n  query Users($first: Int, $after: String, $search: String) {\n    users(first: $first, after: $after, search: $search) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        ...UserFields\n      }\n    }\n  }\n':
    types.UsersDocument,
  '\n  mutation CreateUser($input: CreateUserInput!) {\n    createUser(input: $input) {\n      ...UserFields\n    }\n  }\n':
    types.CreateUserDocument,
  '\n  mutation UpdateUser($id: ID!, $input: UpdateUserInput!) {\n    updateUser(id: $id, input: $input) {\n      ...UserFields\n    }\n  }\n':
    types.UpdateUserDocument,
  '\n  mutation DeactivateUser($id: ID!) {\n    deactivateUser(id: $id) {\n      ...UserFields\n    }\n  }\n':
    types.DeactivateUserDocument,
  '\n  mutation ReactivateUser($id: ID!) {\n    reactivateUser(id: $id) {\n      ...UserFields\n    }\n  }\n':
    types.ReactivateUserDocument,
  '\n  query Groups {\n    groups {\n      id\n      name\n      provider\n      memberCount\n      createdAt\n      members {\n        id\n        name\n        email\n      }\n    }\n  }\n':
    types.GroupsDocument,
  '\n  mutation CreateGroup($name: String!) {\n    createGroup(name: $name) {\n      id\n      name\n    }\n  }\n':
    types.CreateGroupDocument,
  '\n  mutation DeleteGroup($id: ID!) {\n    deleteGroup(id: $id) {\n      id\n    }\n  }\n':
    types.DeleteGroupDocument,
  '\n  mutation AddGroupMember($groupId: ID!, $userId: ID!) {\n    addGroupMember(groupId: $groupId, userId: $userId) {\n      id\n      memberCount\n    }\n  }\n':
    types.AddGroupMemberDocument,
  '\n  mutation RemoveGroupMember($groupId: ID!, $userId: ID!) {\n    removeGroupMember(groupId: $groupId, userId: $userId) {\n      id\n      memberCount\n    }\n  }\n':
    types.RemoveGroupMemberDocument,
  '\n  query ProjectAccess($projectId: ID!) {\n    projectAccess(projectId: $projectId) {\n      id\n      role\n      createdBy\n      createdAt\n      user {\n        id\n        name\n        email\n        status\n      }\n      group {\n        id\n        name\n        provider\n      }\n    }\n  }\n':
    types.ProjectAccessDocument,
  '\n  mutation GrantProjectRole($input: GrantProjectRoleInput!) {\n    grantProjectRole(input: $input) {\n      id\n      role\n    }\n  }\n':
    types.GrantProjectRoleDocument,
  '\n  mutation RevokeProjectRole($input: GranteeInput!) {\n    revokeProjectRole(input: $input)\n  }\n':
    types.RevokeProjectRoleDocument,
  '\n  query PersonalTokens {\n    personalTokens {\n      id\n      name\n      prefix\n      createdAt\n      expiresAt\n      lastUsedAt\n      revokedAt\n    }\n  }\n':
    types.PersonalTokensDocument,
  '\n  mutation CreatePersonalToken($input: CreatePersonalTokenInput!) {\n    createPersonalToken(input: $input) {\n      secret\n      token {\n        id\n        name\n      }\n    }\n  }\n':
    types.CreatePersonalTokenDocument,
  '\n  mutation RevokePersonalToken($id: ID!) {\n    revokePersonalToken(id: $id) {\n      id\n      revokedAt\n    }\n  }\n':
    types.RevokePersonalTokenDocument,
  '\n  query AuditEvents($first: Int, $after: String, $filter: AuditFilterInput) {\n    auditEvents(first: $first, after: $after, filter: $filter) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        id\n        at\n        action\n        outcome\n        code\n        address\n        userAgent\n        projectId\n        detail\n        target {\n          kind\n          id\n        }\n        actor {\n          kind\n          id\n          name\n          credential\n        }\n      }\n    }\n  }\n':
    types.AuditEventsDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  fragment SyncProgressFields on SyncProgress {\n    pagesSeen\n    pagesIngested\n    pagesUnchanged\n    pagesSkipped\n    pagesFailed\n    pagesDeleted\n    chunksEmbedded\n    chunksReused\n    apiCalls\n    pagesPlanned\n    pagesDone\n  }\n',
): typeof import('./graphql').SyncProgressFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  fragment SyncRunMotionFields on SyncRun {\n    stage\n    progressAt\n    pagesPerSecond\n    etaSeconds\n    health {\n      state\n      reason\n      message\n      since\n    }\n  }\n',
): typeof import('./graphql').SyncRunMotionFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  fragment SyncRunFields on SyncRun {\n    id\n    sourceId\n    mode\n    status\n    startedAt\n    finishedAt\n    error {\n      code\n      message\n    }\n    warnings\n    skipped {\n      id\n      reason\n      title\n    }\n    progress {\n      ...SyncProgressFields\n    }\n    ...SyncRunMotionFields\n  }\n',
): typeof import('./graphql').SyncRunFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  fragment DocumentFields on Document {\n    id\n    projectId\n    sourceId\n    externalId\n    fileName\n    title\n    mediaType\n    status\n    error {\n      code\n      message\n    }\n    warnings\n    progress {\n      stage\n      page\n      pageCount\n    }\n    chunkCount\n    pageCount\n    sizeBytes\n    language\n    url\n    createdAt\n    updatedAt\n    indexedAt\n    timings {\n      fetchMs\n      parseMs\n      chunkMs\n      embedMs\n      upsertMs\n      totalMs\n    }\n  }\n',
): typeof import('./graphql').DocumentFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  fragment ChunkFields on Chunk {\n    id\n    documentId\n    position\n    title\n    headingPath\n    chapter\n    page\n    pageEnd\n    anchor\n    language\n    tokenCount\n    citationUrl\n    text\n  }\n',
): typeof import('./graphql').ChunkFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Me {\n    me {\n      keyId\n      userId\n      credential\n      name\n      email\n      pictureUrl\n      role\n      permissions\n      projectIds\n      projectRoles {\n        projectId\n        role\n      }\n      groups\n    }\n  }\n',
): typeof import('./graphql').MeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Projects {\n    projects {\n      id\n      name\n      status\n      createdAt\n      settings {\n        ocr\n      }\n      stats {\n        documentCount\n        chunkCount\n      }\n    }\n  }\n',
): typeof import('./graphql').ProjectsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation UpdateProjectSettings($projectId: ID!, $input: ProjectSettingsInput!) {\n    updateProjectSettings(projectId: $projectId, input: $input) {\n      id\n      name\n      settings {\n        ocr\n      }\n    }\n  }\n',
): typeof import('./graphql').UpdateProjectSettingsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation CreateProject($name: String!) {\n    createProject(input: { name: $name }) {\n      id\n      name\n      status\n      createdAt\n    }\n  }\n',
): typeof import('./graphql').CreateProjectDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation DeleteProject($id: ID!, $wait: Boolean = false) {\n    deleteProject(id: $id, wait: $wait)\n  }\n',
): typeof import('./graphql').DeleteProjectDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Documents($projectId: ID!, $first: Int!, $after: String, $status: DocumentStatus, $sourceId: ID) {\n    documents(projectId: $projectId, first: $first, after: $after, status: $status, sourceId: $sourceId) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        ...DocumentFields\n      }\n    }\n  }\n',
): typeof import('./graphql').DocumentsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Document($id: ID!) {\n    document(id: $id) {\n      ...DocumentFields\n    }\n  }\n',
): typeof import('./graphql').DocumentDocument;
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
  source: '\n  mutation ReindexDocument($id: ID!) {\n    reindexDocument(id: $id) {\n      id\n      fileName\n      status\n    }\n  }\n',
): typeof import('./graphql').ReindexDocumentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Chunks($documentId: ID!) {\n    chunks(documentId: $documentId) {\n      ...ChunkFields\n    }\n  }\n',
): typeof import('./graphql').ChunksDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query DocumentChunks($id: ID!) {\n    document(id: $id) {\n      id\n      projectId\n      fileName\n      title\n      status\n      chunkCount\n      pageCount\n    }\n    chunks(documentId: $id) {\n      ...ChunkFields\n    }\n  }\n',
): typeof import('./graphql').DocumentChunksDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Chunk($id: ID!) {\n    chunk(id: $id) {\n      ...ChunkFields\n    }\n  }\n',
): typeof import('./graphql').ChunkDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Sources($projectId: ID!) {\n    sources(projectId: $projectId) {\n      id\n      projectId\n      name\n      type\n      status\n      createdAt\n      lastSyncAt\n      syncIntervalMinutes\n      tokenHint\n      summary\n      config\n      secrets {\n        field\n        hint\n      }\n      webhook {\n        lastEventAt\n        lastEventType\n        rejectedDeliveries\n      }\n      documentCount\n      lastRun {\n        id\n        status\n        stage\n        startedAt\n        finishedAt\n        etaSeconds\n        error {\n          code\n          message\n        }\n        progress {\n          pagesPlanned\n          pagesDone\n        }\n        health {\n          state\n          message\n        }\n      }\n    }\n  }\n',
): typeof import('./graphql').SourcesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query SourceTypes {\n    sourceTypes {\n      type\n      label\n      description\n      configSchema\n      secretFields\n      webhook\n      webhookSetup {\n        instructions\n        path\n        steps\n        verificationHandshake\n      }\n    }\n  }\n',
): typeof import('./graphql').SourceTypesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation AddSource($input: AddSourceInput!) {\n    addSource(input: $input) {\n      id\n      name\n      type\n      status\n      config\n      secrets {\n        field\n        hint\n      }\n    }\n  }\n',
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
  source: '\n  mutation SyncSource($id: ID!, $mode: SyncMode!) {\n    syncSource(id: $id, mode: $mode) {\n      ...SyncRunFields\n    }\n  }\n',
): typeof import('./graphql').SyncSourceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation CancelSyncRun($id: ID!) {\n    cancelSyncRun(id: $id) {\n      ...SyncRunFields\n    }\n  }\n',
): typeof import('./graphql').CancelSyncRunDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query SyncRun($id: ID!) {\n    syncRun(id: $id) {\n      ...SyncRunFields\n    }\n  }\n',
): typeof import('./graphql').SyncRunDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query SyncRuns($sourceId: ID!, $first: Int!, $after: String) {\n    syncRuns(sourceId: $sourceId, first: $first, after: $after) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        ...SyncRunFields\n      }\n    }\n  }\n',
): typeof import('./graphql').SyncRunsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  subscription SyncRunUpdates($id: ID!) {\n    syncRunUpdates(id: $id) {\n      ...SyncRunFields\n    }\n  }\n',
): typeof import('./graphql').SyncRunUpdatesDocument;
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
  source: '\n  query WebhookVerificationToken($sourceId: ID!) {\n    webhookVerificationToken(sourceId: $sourceId)\n  }\n',
): typeof import('./graphql').WebhookVerificationTokenDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation ResetWebhookVerification($sourceId: ID!) {\n    resetWebhookVerification(sourceId: $sourceId)\n  }\n',
): typeof import('./graphql').ResetWebhookVerificationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Search($input: SearchInput!) {\n    search(input: $input) {\n      tookMs\n      reranked\n      reranker\n      warnings\n      hits {\n        chunkId\n        documentId\n        title\n        fileName\n        sourceId\n        sourceName\n        sourceType\n        headingPath\n        chapter\n        page\n        pageEnd\n        anchor\n        ocr\n        ocrConfidence\n        position\n        text\n        citationUrl\n        score\n        rerankScore\n        bm25 {\n          rank\n          score\n        }\n        knn {\n          rank\n          score\n        }\n        explain {\n          bm25 {\n            rank\n            score\n          }\n          knn {\n            rank\n            score\n          }\n          fusedScore\n          rerankScore\n          topFeatures {\n            name\n            contribution\n          }\n        }\n        context {\n          chunkId\n          position\n          headingPath\n          text\n          citationUrl\n        }\n      }\n    }\n  }\n',
): typeof import('./graphql').SearchDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query SearchFilterOptions($projectId: ID!) {\n    sources(projectId: $projectId) {\n      id\n      name\n      type\n    }\n    project(id: $projectId) {\n      id\n      documentTypes {\n        mediaType\n        label\n        documentCount\n      }\n    }\n  }\n',
): typeof import('./graphql').SearchFilterOptionsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Ask($input: AskInput!) {\n    ask(input: $input) {\n      answerId\n      threadId\n      standaloneQuestion\n      answer\n      mode\n      insufficientContext\n      language\n      model\n      fallbackReason\n      citations {\n        marker\n        chunkId\n        documentId\n        title\n        headingPath\n        citationUrl\n        quote\n        page\n        ocr\n        ocrConfidence\n      }\n      verification {\n        validMarkers\n        invalidMarkers\n        missingMarkers\n        retried\n        checkedSentences\n      }\n      timings {\n        totalMs\n      }\n    }\n  }\n',
): typeof import('./graphql').AskDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  fragment ThreadFields on Thread {\n    id\n    projectId\n    title\n    turnCount\n    createdAt\n    updatedAt\n  }\n',
): typeof import('./graphql').ThreadFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Threads($projectId: ID!, $first: Int!, $after: String, $allKeys: Boolean) {\n    threads(projectId: $projectId, first: $first, after: $after, allKeys: $allKeys) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        ...ThreadFields\n      }\n    }\n  }\n',
): typeof import('./graphql').ThreadsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Thread($id: ID!) {\n    thread(id: $id) {\n      ...ThreadFields\n      turns {\n        answerId\n        position\n        question\n        standaloneQuestion\n        mode\n        answer\n        createdAt\n        citations {\n          marker\n          chunkId\n          documentId\n          title\n          headingPath\n          citationUrl\n          quote\n          page\n        }\n      }\n    }\n  }\n',
): typeof import('./graphql').ThreadDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation RenameThread($id: ID!, $title: String!) {\n    renameThread(id: $id, title: $title) {\n      ...ThreadFields\n    }\n  }\n',
): typeof import('./graphql').RenameThreadDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation DeleteThread($id: ID!) {\n    deleteThread(id: $id)\n  }\n',
): typeof import('./graphql').DeleteThreadDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  fragment FeedbackFields on Feedback {\n    id\n    answerId\n    target\n    chunkId\n    vote\n    comment\n    updatedAt\n  }\n',
): typeof import('./graphql').FeedbackFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation GiveFeedback($input: GiveFeedbackInput!) {\n    giveFeedback(input: $input) {\n      ...FeedbackFields\n    }\n  }\n',
): typeof import('./graphql').GiveFeedbackDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query MyFeedback($projectId: ID!, $answerIds: [ID!]!) {\n    myFeedback(projectId: $projectId, answerIds: $answerIds) {\n      ...FeedbackFields\n    }\n  }\n',
): typeof import('./graphql').MyFeedbackDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query ContentGaps($projectId: ID!, $first: Int = 50, $after: String) {\n    contentGaps(projectId: $projectId, first: $first, after: $after) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        key\n        question\n        askCount\n        unansweredCount\n        downVoteCount\n        lastAskedAt\n        comments\n        askedBy\n      }\n    }\n  }\n',
): typeof import('./graphql').ContentGapsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query ApiKeys {\n    apiKeys {\n      id\n      name\n      prefix\n      role\n      projectIds\n      createdAt\n      createdBy\n      lastUsedAt\n      revokedAt\n    }\n  }\n',
): typeof import('./graphql').ApiKeysDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation CreateApiKey($input: CreateApiKeyInput!) {\n    createApiKey(input: $input) {\n      secret\n      apiKey {\n        id\n        name\n        prefix\n        role\n        projectIds\n        createdAt\n      }\n    }\n  }\n',
): typeof import('./graphql').CreateApiKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      id\n      name\n      revokedAt\n    }\n  }\n',
): typeof import('./graphql').RevokeApiKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query RagConfig {\n    ragConfig {\n      version\n      updatedAt\n      overridden\n      warnings\n      search {\n        fusion\n        rrfK\n        convexVectorWeight\n        convexNormalization\n      }\n      rerank {\n        provider\n        candidates\n        maxChars\n        model\n        url\n        timeoutMs\n        apiKey {\n          set\n          masked\n        }\n      }\n      answers {\n        topK\n        threshold\n        fallbackMode\n        contextTokens\n        extractiveChunks\n        extractiveSentences\n        supportMinLexical\n        supportMinSemantic\n        llmBudgetMs\n        rewriteTimeoutMs\n      }\n      llm {\n        provider\n        baseUrl\n        model\n        temperature\n        maxTokens\n        contextTokens\n        timeoutMs\n        idleTimeoutMs\n        retries\n        apiKey {\n          set\n          masked\n        }\n      }\n      chunking {\n        targetTokens\n        overlapTokens\n        minTokens\n      }\n      embedding {\n        active {\n          id\n          modelId\n          dimensions\n          status\n          embedding {\n            provider\n            profile\n            model\n            baseUrl\n          }\n        }\n      }\n    }\n  }\n',
): typeof import('./graphql').RagConfigDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation UpdateRagConfig($input: UpdateRagConfigInput!) {\n    updateRagConfig(input: $input) {\n      version\n      overridden\n      warnings\n    }\n  }\n',
): typeof import('./graphql').UpdateRagConfigDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query RagConfigInputFields {\n    __type(name: "UpdateRagConfigInput") {\n      inputFields {\n        name\n        type {\n          kind\n          name\n          inputFields {\n            name\n            type {\n              kind\n              name\n              ofType {\n                kind\n                name\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n',
): typeof import('./graphql').RagConfigInputFieldsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  fragment UserFields on User {\n    id\n    name\n    email\n    pictureUrl\n    provider\n    role\n    status\n    createdAt\n    lastSeenAt\n    deactivatedAt\n  }\n',
): typeof import('./graphql').UserFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Users($first: Int, $after: String, $search: String) {\n    users(first: $first, after: $after, search: $search) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        ...UserFields\n      }\n    }\n  }\n',
): typeof import('./graphql').UsersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation CreateUser($input: CreateUserInput!) {\n    createUser(input: $input) {\n      ...UserFields\n    }\n  }\n',
): typeof import('./graphql').CreateUserDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation UpdateUser($id: ID!, $input: UpdateUserInput!) {\n    updateUser(id: $id, input: $input) {\n      ...UserFields\n    }\n  }\n',
): typeof import('./graphql').UpdateUserDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation DeactivateUser($id: ID!) {\n    deactivateUser(id: $id) {\n      ...UserFields\n    }\n  }\n',
): typeof import('./graphql').DeactivateUserDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation ReactivateUser($id: ID!) {\n    reactivateUser(id: $id) {\n      ...UserFields\n    }\n  }\n',
): typeof import('./graphql').ReactivateUserDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query Groups {\n    groups {\n      id\n      name\n      provider\n      memberCount\n      createdAt\n      members {\n        id\n        name\n        email\n      }\n    }\n  }\n',
): typeof import('./graphql').GroupsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation CreateGroup($name: String!) {\n    createGroup(name: $name) {\n      id\n      name\n    }\n  }\n',
): typeof import('./graphql').CreateGroupDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation DeleteGroup($id: ID!) {\n    deleteGroup(id: $id) {\n      id\n    }\n  }\n',
): typeof import('./graphql').DeleteGroupDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation AddGroupMember($groupId: ID!, $userId: ID!) {\n    addGroupMember(groupId: $groupId, userId: $userId) {\n      id\n      memberCount\n    }\n  }\n',
): typeof import('./graphql').AddGroupMemberDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation RemoveGroupMember($groupId: ID!, $userId: ID!) {\n    removeGroupMember(groupId: $groupId, userId: $userId) {\n      id\n      memberCount\n    }\n  }\n',
): typeof import('./graphql').RemoveGroupMemberDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query ProjectAccess($projectId: ID!) {\n    projectAccess(projectId: $projectId) {\n      id\n      role\n      createdBy\n      createdAt\n      user {\n        id\n        name\n        email\n        status\n      }\n      group {\n        id\n        name\n        provider\n      }\n    }\n  }\n',
): typeof import('./graphql').ProjectAccessDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation GrantProjectRole($input: GrantProjectRoleInput!) {\n    grantProjectRole(input: $input) {\n      id\n      role\n    }\n  }\n',
): typeof import('./graphql').GrantProjectRoleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation RevokeProjectRole($input: GranteeInput!) {\n    revokeProjectRole(input: $input)\n  }\n',
): typeof import('./graphql').RevokeProjectRoleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query PersonalTokens {\n    personalTokens {\n      id\n      name\n      prefix\n      createdAt\n      expiresAt\n      lastUsedAt\n      revokedAt\n    }\n  }\n',
): typeof import('./graphql').PersonalTokensDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation CreatePersonalToken($input: CreatePersonalTokenInput!) {\n    createPersonalToken(input: $input) {\n      secret\n      token {\n        id\n        name\n      }\n    }\n  }\n',
): typeof import('./graphql').CreatePersonalTokenDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  mutation RevokePersonalToken($id: ID!) {\n    revokePersonalToken(id: $id) {\n      id\n      revokedAt\n    }\n  }\n',
): typeof import('./graphql').RevokePersonalTokenDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: '\n  query AuditEvents($first: Int, $after: String, $filter: AuditFilterInput) {\n    auditEvents(first: $first, after: $after, filter: $filter) {\n      totalCount\n      pageInfo {\n        endCursor\n        hasNextPage\n      }\n      nodes {\n        id\n        at\n        action\n        outcome\n        code\n        address\n        userAgent\n        projectId\n        detail\n        target {\n          kind\n          id\n        }\n        actor {\n          kind\n          id\n          name\n          credential\n        }\n      }\n    }\n  }\n',
): typeof import('./graphql').AuditEventsDocument;

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
