/** What the examples are filled with: the project the playground starts in, and one of its sources. */
export interface ExampleContext {
  origin: string;
  project?: { id: string; name: string };
  sourceId?: string;
}

export interface ExampleTab {
  query: string;
  variables: string;
}

const PLACEHOLDER_PROJECT = '<project id>';

/**
 * The playground's starting tabs, in the order a new user needs them: reads first (the first tab
 * runs as it is and finds something), writes last and labelled as such. Every id is a real one
 * when the caller reaches a project; nothing runs until the user asks.
 */
export function exampleTabs({ origin, project, sourceId }: ExampleContext): ExampleTab[] {
  const projectId = project?.id ?? PLACEHOLDER_PROJECT;
  const where = project
    ? `the project "${project.name.replace(/\s+/g, ' ')}"`
    : 'a project (none yet: the last tab creates one, then put its id in the variables)';
  const variables = (values: Record<string, string>) => JSON.stringify(values, null, 2);
  return [
    {
      query: `# Trove's GraphQL playground: your API key (or signed-in session) is sent with every
# request for you. Run with Ctrl-Enter (or the ▶ button); Docs are in the side bar.
#
# 1. Hybrid search (keyword + vector, fused, reranked) in ${where}.
query Search($projectId: ID!) {
  search(input: { projectId: $projectId, query: "how do I roll back a release?", limit: 5, mode: HYBRID }) {
    tookMs
    hits { title headingPath text score rerankScore citationUrl }
  }
}
`,
      variables: variables({ projectId }),
    },
    {
      query: `# 2. The projects this key reaches, and the documents of ${where} with their pipeline status.
query ProjectsAndDocuments($projectId: ID!) {
  projects { id name status stats { documentCount chunkCount } }
  documents(projectId: $projectId, first: 20) {
    totalCount
    pageInfo { endCursor hasNextPage }
    nodes { id fileName status error { code message } chunkCount timings { totalMs } }
  }
}
`,
      variables: variables({ projectId }),
    },
    sourceId
      ? {
          query: `# 3. The sources of ${where}, and the last sync runs of one of them.
query SourcesAndRuns($projectId: ID!, $sourceId: ID!) {
  sources(projectId: $projectId) { id name type status lastSyncAt }
  syncRuns(sourceId: $sourceId, first: 3) {
    nodes {
      id mode status stage startedAt finishedAt
      progress { pagesSeen pagesIngested pagesUnchanged pagesSkipped pagesFailed }
      skipped { id reason }
      error { code message }
    }
  }
}
`,
          variables: variables({ projectId, sourceId }),
        }
      : {
          query: `# 3. The sources of ${where} (folders, Notion, web sites, Git…).
query Sources($projectId: ID!) {
  sources(projectId: $projectId) { id name type status lastSyncAt }
}
`,
          variables: variables({ projectId }),
        },
    {
      query: `# 4. Changes: each operation below writes. Pick one to run (the ▶ menu asks which).
#
# Upload a file through REST (multipart field "file"), e.g. with curl:
#
#   curl -H "X-API-Key: $TROVE_ADMIN_API_KEY" -F file=@handbook.pdf \\
#     ${origin}/v1/projects/${projectId}/documents
mutation CreateProject {
  createProject(input: { name: "My project" }) { id name }
}

# A folder source (a path inside TROVE_FOLDER_ROOTS) in ${where}; sourceTypes lists every type.
mutation AddFolder($projectId: ID!) {
  addSource(input: { projectId: $projectId, type: "FOLDER", name: "Handbook site", config: { path: "/srv/docs/handbook" } }) { id summary }
}
${
  sourceId
    ? `
# Sync the source of tab 3: only what changed since its last sync.
mutation Sync($sourceId: ID!) {
  syncSource(id: $sourceId, mode: INCREMENTAL) { id status }
}
`
    : ''
}`,
      variables: variables(sourceId ? { projectId, sourceId } : { projectId }),
    },
  ];
}
