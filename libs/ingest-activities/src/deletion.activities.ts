import { Context } from '@temporalio/activity';
import {
  ScheduleNotFoundError,
  WorkflowNotFoundError,
  type Client as TemporalClient,
} from '@temporalio/client';
import type {
  ProjectRemovals,
  ProjectSources,
  ProjectDocuments,
  SourceRecords,
  SourceRemovals,
  SyncRunHistory,
} from '@trove/catalog';
import type { BlobStore, Source } from '@trove/domain';
import {
  blobKeys,
  ingestWorkflowId,
  sourceEventsWorkflowId,
  syncScheduleId,
  syncWorkflowId,
  uploadsWorkflowId,
} from '@trove/domain';
import type { ChunkRemoval } from '@trove/search';
import type { SourceConnectors } from './source-connectors';

export interface DeletionDependencies {
  /** What deleting a project or removing a source goes through, step by step. */
  projects: ProjectRemovals;
  sources: SourceRemovals & Pick<SourceRecords, 'getSource'> & Pick<ProjectSources, 'listSources'>;
  documents: Pick<ProjectDocuments, 'documentIds'>;
  runs: Pick<SyncRunHistory, 'runIds'>;
  blobs: BlobStore;
  chunkIndex: ChunkRemoval;
  /** Each forgets what it keeps for a removed source on this machine (unpacked archives). */
  connectors: SourceConnectors;
  /** Cancels the workflows of what is being deleted and removes schedules. */
  temporal: TemporalClient;
  /** How long a cancelled workflow may take to close before it is terminated. */
  cancelGraceMs?: number;
}

/** Workflows asked to cancel (or executions deleted) at once: each is one request to Temporal. */
const CANCEL_CONCURRENCY = 16;
const DEFAULT_CANCEL_GRACE_MS = 120_000;

/**
 * The steps of deleting a project or removing a source, in the order the workflows run them:
 * mark (writes are refused from then on), stop (schedules removed, workflows cancelled and
 * awaited until closed, so nothing writes afterwards), purge (chunks, files, caches, records),
 * and for a project finally its own record. Every step is idempotent: a retry or a second
 * delete request repeats it harmlessly.
 */
export function createDeletionActivities(deps: DeletionDependencies) {
  const { projects, sources, documents, runs } = deps;
  return {
    async markProjectDeleting(input: { projectId: string }): Promise<boolean> {
      return (await projects.markProjectDeleting(input.projectId)) !== undefined;
    },

    async stopProjectWork(input: { projectId: string }): Promise<void> {
      const listed = await sources.listSources(input.projectId);
      await stopWork(deps, listed, () => documents.documentIds({ projectId: input.projectId }), [
        uploadsWorkflowId(input.projectId),
      ]);
    },

    async purgeProjectData(input: { projectId: string }): Promise<void> {
      const listed = await sources.listSources(input.projectId);
      const documentIds = await documents.documentIds({ projectId: input.projectId });
      const runIds = await runs.runIds({ projectId: input.projectId });
      await purgeFiles(deps, listed, documentIds, runIds);
      await deps.chunkIndex.deleteProjectChunks(input.projectId);
      await deleteExecutions(deps.temporal, listed, documentIds, [uploadsWorkflowId(input.projectId)]);
      // The records go with the project row (cascade), in the last step.
    },

    async deleteProjectRecord(input: { projectId: string }): Promise<void> {
      await projects.deleteProject(input.projectId);
    },

    async markSourceRemoving(input: { sourceId: string }): Promise<boolean> {
      return (await sources.markSourceRemoving(input.sourceId)) !== undefined;
    },

    async stopSourceWork(input: { sourceId: string }): Promise<void> {
      const source = await sources.getSource(input.sourceId);
      if (!source) return;
      await stopWork(deps, [source], () => documents.documentIds({ sourceId: source.id }));
    },

    async purgeSourceData(input: { sourceId: string }): Promise<void> {
      const source = await sources.getSource(input.sourceId);
      if (!source) return;
      const documentIds = await documents.documentIds({ sourceId: source.id });
      await purgeFiles(deps, [source], documentIds, await runs.runIds({ sourceId: source.id }));
      for (const [i, id] of documentIds.entries()) {
        await deps.chunkIndex.deleteDocumentChunks(id);
        if (i % 100 === 0) Context.current().heartbeat({ chunksRemovedOf: i });
      }
      await deleteExecutions(deps.temporal, [source], documentIds);
      // Its documents, runs and webhook event ids go with it (cascade).
      await sources.deleteSource(source.id);
    },
  };
}

export type DeletionActivities = ReturnType<typeof createDeletionActivities>;

/**
 * Removes the sources' schedules, then cancels their syncs and webhook workflows (a sync's
 * child ingests are cancelled with it) and every remaining ingest of the documents, and waits
 * until all of them are closed. The ingest and sync workflows wait for their running activity
 * to acknowledge the cancellation, so once closed nothing of theirs writes any more.
 */
async function stopWork(
  deps: DeletionDependencies,
  sources: Source[],
  documentIds: () => Promise<string[]>,
  ownWorkflowIds: string[] = [],
): Promise<void> {
  const { temporal } = deps;
  for (const source of sources) {
    try {
      await temporal.schedule.getHandle(syncScheduleId(source.id)).delete();
    } catch (error) {
      if (!(error instanceof ScheduleNotFoundError)) throw error;
    }
  }
  const grace = deps.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS;
  // Syncs, webhook and upload workflows first: they start ingests and create document records.
  await closeAll(
    temporal,
    [...sources.flatMap((s) => [syncWorkflowId(s.id), sourceEventsWorkflowId(s.id)]), ...ownWorkflowIds],
    grace,
  );
  // Listed after the syncs are closed, so documents they created are included.
  await closeAll(
    temporal,
    (await documentIds()).map((id) => ingestWorkflowId(id)),
    grace,
  );
}

async function closeAll(temporal: TemporalClient, workflowIds: string[], graceMs: number): Promise<void> {
  for (let i = 0; i < workflowIds.length; i += CANCEL_CONCURRENCY) {
    await Promise.all(
      workflowIds.slice(i, i + CANCEL_CONCURRENCY).map((id) => closeWorkflow(temporal, id, graceMs)),
    );
    Context.current().heartbeat({ closed: Math.min(i + CANCEL_CONCURRENCY, workflowIds.length) });
  }
}

/** Cancels a workflow and waits until it is closed; terminates it if it does not close in time. */
export async function closeWorkflow(
  temporal: TemporalClient,
  workflowId: string,
  graceMs: number,
): Promise<void> {
  const handle = temporal.workflow.getHandle(workflowId);
  try {
    const { status } = await handle.describe();
    if (status.name !== 'RUNNING') return;
    await handle.cancel();
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return;
    throw error;
  }
  // The grace timer is cleared as soon as the workflow closes: left pending it would hold a
  // stopping worker's process open for the rest of the grace period.
  let graceTimer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    handle.result().then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => (graceTimer = setTimeout(() => resolve(false), graceMs))),
  ]).finally(() => clearTimeout(graceTimer));
  if (closed) return;
  try {
    await handle.terminate('its project or source is being deleted and it did not stop when cancelled');
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
  }
}

/** Workflow ids listed in one visibility query. */
const IDS_PER_QUERY = 100;

/**
 * Deletes the workflow executions of the sources and documents (every run of their syncs,
 * scheduled syncs, webhook workflows and ingests) from Temporal: their histories hold file names,
 * page titles and error texts, which must not outlive the source under the namespace's retention.
 * Temporal deletes asynchronously; an execution already gone is skipped.
 */
async function deleteExecutions(
  temporal: TemporalClient,
  sources: Source[],
  documentIds: string[],
  ownWorkflowIds: string[] = [],
): Promise<void> {
  const ids = [
    ...sources.flatMap((s) => [syncWorkflowId(s.id), sourceEventsWorkflowId(s.id)]),
    ...ownWorkflowIds,
    ...documentIds.map((id) => ingestWorkflowId(id)),
  ];
  const queries: string[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
    queries.push(
      `WorkflowId IN (${ids
        .slice(i, i + IDS_PER_QUERY)
        .map(quote)
        .join(', ')})`,
    );
  }
  // A schedule's workflows are named after it, with the start time appended.
  for (const source of sources)
    queries.push(`WorkflowId STARTS_WITH ${quote(`${syncScheduleId(source.id)}-`)}`);
  // Listed in full before deleting, so pages of a listing do not shift under it. Every execution
  // is closed by now (stopWork); one visibility may still show as running is deleted all the same.
  const executions: { workflowId: string; runId: string }[] = [];
  for (const query of queries) {
    for await (const { workflowId, runId } of temporal.workflow.list({ query }))
      executions.push({ workflowId, runId });
  }
  const namespace = temporal.options.namespace;
  const deleteOne = async (workflowExecution: { workflowId: string; runId: string }) => {
    try {
      await temporal.workflowService.deleteWorkflowExecution({ namespace, workflowExecution });
    } catch (error) {
      if ((error as { code?: number }).code !== GRPC_NOT_FOUND) throw error;
    }
  };
  for (let i = 0; i < executions.length; i += CANCEL_CONCURRENCY) {
    await Promise.all(executions.slice(i, i + CANCEL_CONCURRENCY).map(deleteOne));
    Context.current().heartbeat({ executionsDeleted: i });
  }
}

const GRPC_NOT_FOUND = 5;

/** A string literal of Temporal's visibility query language (ids are ours: no quote inside). */
function quote(value: string): string {
  return `'${value.replace(/['\\]/g, '')}'`;
}

/** Originals, scratch files, sync-run blobs, uploaded archives and their unpacked caches. */
async function purgeFiles(
  deps: DeletionDependencies,
  sources: Source[],
  documentIds: string[],
  runIds: string[],
): Promise<void> {
  const { blobs, connectors } = deps;
  for (const [i, id] of documentIds.entries()) {
    await blobs.deletePrefix(blobKeys.originals(id));
    await blobs.deletePrefix(blobKeys.work(id));
    if (i % 100 === 0) Context.current().heartbeat({ documentsPurged: i });
  }
  for (const id of runIds) await blobs.deletePrefix(blobKeys.syncRun(id));
  for (const source of sources) {
    await blobs.deletePrefix(blobKeys.source(source.id));
    await connectors.for(source).forget?.(source);
  }
}
