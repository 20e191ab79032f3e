import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ProjectsDocument } from '@trove/api-client';
import { listProjectsOutput, type ListProjectsOutput } from '../output-schemas';
import { renderProjects } from '../render';
import type { ToolContext } from '../tool-context';
import { runTool, toolResult } from '../tool-result';

export function registerProjectTools(server: McpServer, { client, log }: ToolContext): void {
  server.registerTool(
    'list_projects',
    {
      title: 'List projects',
      description:
        'Lists the projects (separate knowledge bases) this API key may use, with their document and chunk counts. ' +
        'Use it first when unsure which project to search; every other tool takes a project id or name.',
      inputSchema: {},
      outputSchema: listProjectsOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      runTool(async () => {
        const { projects } = await client.request(ProjectsDocument);
        const result: ListProjectsOutput = {
          projects: projects.map((project) => ({
            id: project.id,
            name: project.name,
            status: project.status,
            createdAt: project.createdAt,
            documentCount: project.stats.documentCount,
            chunkCount: project.stats.chunkCount,
          })),
        };
        return toolResult(result, renderProjects(result));
      }, log),
  );
}
