/** The playground's starting tabs: one per main task, in the order a new user needs them. */
export const exampleTabs = (origin: string): { query: string; variables?: string }[] => [
  {
    query: `# Trove's GraphQL playground. The API key header is filled from the dashboard's sign-in
# (or the key field above). Run an operation with Ctrl-Enter; the docs are in the side bar.
#
# 1. Create a project, then list the projects with their document and chunk counts.
mutation CreateProject {
  createProject(input: { name: "Handbook" }) { id name }
}

query Projects {
  projects { id name status stats { documentCount chunkCount } }
}
`,
  },
  {
    query: `# 2. Upload files through REST (multipart field "file"), e.g. with curl:
#
#   curl -H "X-API-Key: $TROVE_ADMIN_API_KEY" \\
#     -F file=@handbook.pdf \\
#     ${origin}/v1/projects/<project id>/documents
#
# Then follow the documents through the pipeline:
query Documents($projectId: ID!) {
  documents(projectId: $projectId, first: 50) {
    totalCount
    pageInfo { endCursor hasNextPage }
    nodes { id fileName status error { code message } chunkCount timings { totalMs } }
  }
}
`,
    variables: '{ "projectId": "<project id>" }',
  },
  {
    query: `# 3. Hybrid search (BM25 + kNN, fused, reranked) with the explain view of every hit.
query Search($projectId: ID!) {
  search(input: { projectId: $projectId, query: "how do I roll back a release?", limit: 5, mode: HYBRID, explain: true }) {
    tookMs
    hits {
      title headingPath text citationUrl score
      explain { bm25 { rank score } knn { rank score } fusedScore rerankScore }
    }
  }
}
`,
    variables: '{ "projectId": "<project id>" }',
  },
  {
    query: `# 4. Add a folder source (a path inside TROVE_FOLDER_ROOTS), sync it, and follow the run.
mutation AddFolder($projectId: ID!) {
  addSource(input: { projectId: $projectId, type: "FOLDER", name: "Handbook site", config: { path: "/srv/docs/handbook" } }) { id summary }
}

mutation Sync($sourceId: ID!) {
  syncSource(id: $sourceId, mode: FULL) { id status }
}

query Run($runId: ID!) {
  syncRun(id: $runId) {
    status
    progress { pagesSeen pagesIngested pagesUnchanged pagesSkipped pagesFailed chunksEmbedded chunksReused }
    skipped { id reason }
    error { code message }
  }
}
`,
    variables: '{ "projectId": "<project id>", "sourceId": "<source id>", "runId": "<run id>" }',
  },
];
