/**
 * The deletion guard as activities use it: every activity that writes for a project or source
 * (ingest, sync, uploads, webhooks) checks it is still writable, so an ingest or sync that slipped
 * past a deletion cannot recreate data.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { documentOwner, guardedWrite, type WriteChecks } from '@trove/catalog';
import { isTroveError, TroveErrorCode } from '@trove/domain';

/**
 * Defence in depth for activities that write for a project or source: once it is being deleted
 * (or gone), refuse for good, so an ingest or sync that slipped through cannot recreate data.
 */
export async function assertWritable(
  checks: WriteChecks,
  target: { projectId: string; sourceId?: string },
): Promise<void> {
  try {
    if (target.sourceId) await checks.requireActiveSource(target.sourceId);
    else await checks.requireActiveProject(target.projectId);
  } catch (error) {
    throw refusalFailure(error);
  }
}

/**
 * `guardedWrite` (the catalog's deletion guard) for what an activity writes outside the catalog
 * for documents (chunks, stored originals) of these owners: taken back by `undo` if a project or
 * source started being deleted meanwhile, the refusal failing the activity for good.
 */
export async function guardedDocumentWrite<T>(
  checks: WriteChecks,
  owners: readonly { projectId: string; sourceId?: string | null }[],
  write: () => Promise<T>,
  undo: () => Promise<unknown>,
): Promise<T> {
  // Each owner's check wraps the write; the first refusal undoes it once and ends the rest.
  const guarded = owners.reduce<() => Promise<T>>(
    (inner, owner) => () => guardedWrite(checks, documentOwner(owner), inner, undo),
    write,
  );
  try {
    return await guarded();
  } catch (error) {
    throw refusalFailure(error);
  }
}

/** An owner's refusal (being deleted, or gone) as a non-retryable failure; other errors as they are. */
function refusalFailure(error: unknown): unknown {
  if (isTroveError(error) && OWNER_REFUSALS.has(error.code)) {
    return ApplicationFailure.create({ nonRetryable: true, type: error.code, message: error.message });
  }
  return error;
}

/** What writes to a document hear while its project or source is being deleted (or is gone). */
export const OWNER_REFUSALS = new Set<string>([
  TroveErrorCode.ProjectDeleting,
  TroveErrorCode.ProjectNotFound,
  TroveErrorCode.SourceNotFound,
]);
