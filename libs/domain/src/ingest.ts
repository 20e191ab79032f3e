/**
 * The contract between the API (which starts ingests) and the worker (which runs them): inputs,
 * results and workflow ids. Workflow and signal names are in `workflows.ts`.
 */
export interface IngestDocumentInput {
  documentId: string;
  /** Whose activity slots run its steps: `bulk` (syncs, uploads; the default) or `interactive`. */
  lane?: IngestLane;
  /** Embed every chunk again instead of reusing the stored vector of the same text (a REBUILD sync). */
  reembed?: boolean;
}

/**
 * Ingest work has two lanes of its own, apart from control work (planning, webhook events,
 * deletions, bookkeeping), which stays on the workflows' task queue: `bulk` for syncs and uploads,
 * `interactive` for a single document someone is waiting for (a webhook edit, a reindex). Each is
 * a task queue with its own worker slots, so neither control work nor an edit queues behind an import.
 */
export type IngestLane = 'bulk' | 'interactive';

/** The task queue of a lane's activities, next to the workflows' (control) task queue. */
export function laneTaskQueue(controlTaskQueue: string, lane: IngestLane): string {
  return `${controlTaskQueue}.${lane}`;
}

/** The lane whose task queue this is (`undefined`: the control task queue, or another). */
export function laneOfTaskQueue(taskQueue: string): IngestLane | undefined {
  const lane = taskQueue.slice(taskQueue.lastIndexOf('.') + 1);
  return lane === 'bulk' || lane === 'interactive' ? lane : undefined;
}

export interface IngestDocumentResult {
  documentId: string;
  chunkCount: number;
  reusedEmbeddings: number;
}

/** One sync at a time per source. */
export function syncWorkflowId(sourceId: string): string {
  return `sync-source-${sourceId}`;
}

export function syncScheduleId(sourceId: string): string {
  return `sync-schedule-${sourceId}`;
}

/** How the webhook workflow batches events and when it starts a fresh history (set by the api). */
export interface SourceEventsTiming {
  /** Apply after this long without new events… */
  quietMs: number;
  /** …or at the latest this long after the first pending event. */
  maxDelayMs: number;
  /** Continue as new once the history has this many events (or when Temporal suggests it). */
  historyLimit: number;
}

/**
 * One long-lived workflow per source collects webhook events, so bursts are debounced together.
 * The id keeps the prefix of the release that only had Notion webhooks: a run it started and a
 * new event must meet under one id, or a source would get two workflows applying its events.
 */
export function sourceEventsWorkflowId(sourceId: string): string {
  return `notion-webhook-${sourceId}`;
}

/** One ingest workflow per document: re-running it replaces the previous run's chunks. */
export function ingestWorkflowId(documentId: string): string {
  return `ingest-document-${documentId}`;
}

/**
 * One workflow per project ingests its uploaded files in batches: each upload signals it
 * (starting it if needed), and it works off the project's PENDING uploads from the catalog.
 */
export function uploadsWorkflowId(projectId: string): string {
  return `ingest-uploads-${projectId}`;
}

/**
 * The Temporal priority of a project's ingest (its syncs and uploads; their child workflows and
 * activities inherit it): its fairness key is the project, so where the server dispatches task
 * queues fairly (Temporal's task queue fairness), the bulk lane's backlog is served round robin by
 * project instead of first come, first served. Elsewhere it changes nothing.
 */
export function ingestPriority(projectId: string): { fairnessKey: string } {
  return { fairnessKey: projectId };
}

/** One delete workflow per project: asking twice joins the running one. */
export function deleteProjectWorkflowId(projectId: string): string {
  return `delete-project-${projectId}`;
}

export function removeSourceWorkflowId(sourceId: string): string {
  return `remove-source-${sourceId}`;
}
