import type { Transaction } from 'kysely';
import { isTroveId, notFoundError, ProjectStatus, SourceStatus, TroveError, TroveErrorCode } from '@trove/domain';
import type { WriteOwner } from './guarded-write';
import type { CatalogTables } from './tables';

/** The refusal of a write to a project being deleted: permanent. */
export function projectDeleting(id: string): TroveError {
  return new TroveError(
    TroveErrorCode.ProjectDeleting,
    `project ${id} is being deleted; nothing can be added to or changed in it`,
    { permanent: true },
  );
}

/** The refusal of a write to a source being removed: permanent. */
export function sourceRemoving(id: string): TroveError {
  return new TroveError(TroveErrorCode.SourceNotFound, `source ${id} is being removed`, { permanent: true });
}

/**
 * The deletion guard for a write inside the catalog, in its transaction: locks the owner's rows
 * (a source and its project, or a project) FOR SHARE until the transaction ends and returns its
 * project, or throws the refusal (gone, being removed, being deleted). Marking an owner for
 * deletion updates its row, which waits for this lock; the deletion lists what to remove only
 * after its mark is committed. So either the mark came first and is seen here (nothing is
 * written), or the write commits before the mark and the deletion's listing finds it. Writes
 * outside the catalog (Temporal, Elasticsearch, blobs) use `guardedWrite` instead.
 */
export async function lockActiveOwner(
  tx: Transaction<CatalogTables>,
  owner: WriteOwner,
): Promise<{ projectId: string }> {
  if ('sourceId' in owner) {
    const row = isTroveId(owner.sourceId)
      ? await tx
          .selectFrom('sources')
          .innerJoin('projects', 'projects.id', 'sources.project_id')
          .select(['sources.project_id', 'sources.status', 'projects.status as project_status'])
          .where('sources.id', '=', owner.sourceId)
          .forShare()
          .executeTakeFirst()
      : undefined;
    if (!row) throw notFoundError('source', owner.sourceId);
    if (row.status === SourceStatus.REMOVING) throw sourceRemoving(owner.sourceId);
    if (row.project_status === ProjectStatus.DELETING) throw projectDeleting(row.project_id);
    return { projectId: row.project_id };
  }
  const row = isTroveId(owner.projectId)
    ? await tx
        .selectFrom('projects')
        .select('status')
        .where('id', '=', owner.projectId)
        .forShare()
        .executeTakeFirst()
    : undefined;
  if (!row) throw notFoundError('project', owner.projectId);
  if (row.status === ProjectStatus.DELETING) throw projectDeleting(owner.projectId);
  return { projectId: owner.projectId };
}
