/**
 * The project a person last opened, kept in this browser (local storage, not per tab) so that the
 * dashboard reopens it and the playground's examples use it. An id only: nothing secret.
 */
export const LAST_PROJECT_STORAGE = 'trove.lastProject';

export function lastProjectId(): string | null {
  try {
    return localStorage.getItem(LAST_PROJECT_STORAGE);
  } catch {
    return null;
  }
}

export function rememberProject(projectId: string): void {
  try {
    localStorage.setItem(LAST_PROJECT_STORAGE, projectId);
  } catch {
    // Storage refused (private mode, quota): the dashboard just opens on the project list.
  }
}

interface ProjectLike {
  id: string;
  stats?: { documentCount: number } | null;
}

/**
 * The project to start with: the last one opened if the caller still reaches it, else the first
 * that holds documents (the quick start's demo), else the first one; undefined when there is none.
 */
export function startingProject<P extends ProjectLike>(
  projects: readonly P[],
  lastId: string | null,
): P | undefined {
  return (
    projects.find((p) => p.id === lastId) ??
    projects.find((p) => (p.stats?.documentCount ?? 0) > 0) ??
    projects[0]
  );
}
