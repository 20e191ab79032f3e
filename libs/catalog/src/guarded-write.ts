import type { WriteChecks } from './catalog.ports';

/** Whose write it is: a project's (a document, a source) or a source's (a run, a schedule, an event). */
export type WriteOwner = { projectId: string } | { sourceId: string };

/**
 * The owner of what is written for a document: its source when it has one (whose check covers
 * the project too), else its project.
 */
export function documentOwner(document: { projectId: string; sourceId?: string | null }): WriteOwner {
  return document.sourceId ? { sourceId: document.sourceId } : { projectId: document.projectId };
}

/**
 * A write that must not outlive the start of its owner's deletion. `write` runs (the caller has
 * checked the owner before, to refuse early), then the owner is checked again; if it is being
 * deleted or removed by then, or is gone, or the check cannot be made, `undo` takes the write back
 * and the check's error is thrown. Deleting marks the owner first and lists what it removes
 * after, so either this check sees the mark or the deletion's listing sees the write: nothing is
 * left behind either way. A failing `undo` does not hide the refusal. (A source's records
 * created in the catalog itself take the guard inside their transaction: `lockActiveSource`.)
 */
export async function guardedWrite<T>(
  checks: Pick<WriteChecks, 'requireActiveProject'>,
  owner: { projectId: string },
  write: () => Promise<T>,
  undo: (written: T, refusal: unknown) => Promise<unknown>,
): Promise<T>;
export async function guardedWrite<T>(
  checks: Pick<WriteChecks, 'requireActiveSource'>,
  owner: { sourceId: string },
  write: () => Promise<T>,
  undo: (written: T, refusal: unknown) => Promise<unknown>,
): Promise<T>;
export async function guardedWrite<T>(
  checks: WriteChecks,
  owner: WriteOwner,
  write: () => Promise<T>,
  undo: (written: T, refusal: unknown) => Promise<unknown>,
): Promise<T>;
export async function guardedWrite<T>(
  checks: Partial<WriteChecks>,
  owner: WriteOwner,
  write: () => Promise<T>,
  undo: (written: T, refusal: unknown) => Promise<unknown>,
): Promise<T> {
  const written = await write();
  try {
    if ('sourceId' in owner) await checks.requireActiveSource!(owner.sourceId);
    else await checks.requireActiveProject!(owner.projectId);
  } catch (refusal) {
    await undo(written, refusal).catch(() => undefined);
    throw refusal;
  }
  return written;
}
