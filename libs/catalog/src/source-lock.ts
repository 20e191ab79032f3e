import type { Transaction } from 'kysely';
import {
  isTroveId,
  type Project,
  notFoundError,
  ProjectStatus,
  SourceStatus,
  TroveError,
  TroveErrorCode,
} from '@trove/domain';
import type { CatalogTables } from './tables';

/** The refusal of a write to a project being deleted: permanent. */
export function projectDeleting(id: string): TroveError {
  return new TroveError(
    TroveErrorCode.ProjectDeleting,
    `project ${id} is being deleted; nothing can be added to or changed in it`,
    { permanent: true },
  );
}

/** The project, unless it is being deleted: then the refusal every write to it gets. */
export function activeProject(project: Project): Project {
  if (project.status === ProjectStatus.DELETING) throw projectDeleting(project.id);
  return project;
}

/** The refusal of a write to a source being removed: permanent. */
export function sourceRemoving(id: string): TroveError {
  return new TroveError(TroveErrorCode.SourceNotFound, `source ${id} is being removed`, { permanent: true });
}

/**
 * The deletion guard for a write of a source's records inside the catalog, in its transaction:
 * locks the source's row and its project's FOR SHARE until the transaction ends and returns the
 * project, or throws the refusal (gone, being removed, its project being deleted). Marking either
 * for deletion updates its row, which waits for this lock, and the deletion lists what to remove
 * only after its mark is committed. So either the mark came first and is seen here (nothing is
 * written), or the write commits before the mark and the deletion's listing finds it. Writes
 * outside the catalog (Temporal, Elasticsearch, blobs) take `guardedWrite` instead.
 */
export async function lockActiveSource(
  tx: Transaction<CatalogTables>,
  sourceId: string,
): Promise<{ projectId: string }> {
  const row = isTroveId(sourceId)
    ? await tx
        .selectFrom('sources')
        .innerJoin('projects', 'projects.id', 'sources.project_id')
        .select(['sources.project_id', 'sources.status', 'projects.status as project_status'])
        .where('sources.id', '=', sourceId)
        .forShare()
        .executeTakeFirst()
    : undefined;
  if (!row) throw notFoundError('source', sourceId);
  if (row.status === SourceStatus.REMOVING) throw sourceRemoving(sourceId);
  if (row.project_status === ProjectStatus.DELETING) throw projectDeleting(row.project_id);
  return { projectId: row.project_id };
}
