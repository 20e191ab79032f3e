import { ProjectsDocument, type ProjectsQuery, TroveApiError, type TroveOperations } from '@trove/api-client';
import { TroveErrorCode } from '@trove/domain';

export type ProjectSummary = ProjectsQuery['projects'][number];

/**
 * Picks the project a tool argument names: its id, or its exact name (names are unique ignoring
 * case, so a case-insensitive match is still one project). Without an argument, the only project
 * the key reaches. Throws PROJECT_NOT_FOUND or BAD_REQUEST with the choices an agent can retry with.
 */
export function pickProject(projects: ProjectSummary[], wanted: string | undefined): ProjectSummary {
  const name = wanted?.trim();
  if (!name) {
    if (projects.length === 1) return projects[0];
    if (projects.length === 0) {
      throw new TroveApiError('this API key reaches no project yet', TroveErrorCode.ProjectNotFound);
    }
    throw new TroveApiError(
      `this API key reaches ${projects.length} projects; pass \`project\` (id or name): ${choices(projects)}`,
      TroveErrorCode.BadRequest,
    );
  }
  const match =
    projects.find((project) => project.id === name) ??
    projects.find((project) => project.name === name) ??
    projects.find((project) => project.name.toLowerCase() === name.toLowerCase());
  if (!match) {
    throw new TroveApiError(
      `no project "${name}" among those this API key reaches: ${choices(projects) || 'none'}`,
      TroveErrorCode.ProjectNotFound,
    );
  }
  return match;
}

/** Resolves a `project` argument against the projects the key reaches. */
export async function resolveProject(
  client: TroveOperations,
  wanted: string | undefined,
): Promise<ProjectSummary> {
  const { projects } = await client.request(ProjectsDocument);
  return pickProject(projects, wanted);
}

function choices(projects: ProjectSummary[]): string {
  const shown = projects.slice(0, 20).map((project) => `"${project.name}" (${project.id})`);
  return projects.length > shown.length ? `${shown.join(', ')}, …` : shown.join(', ');
}
