/**
 * The workflows and signals the worker registers, as their starters see them. The api may not
 * import the workflow code (it belongs to the worker), so it starts workflows by these names with
 * these argument types; `libs/workflows` checks at compile time that its exported functions
 * implement this contract, so a renamed workflow or a changed parameter breaks the build.
 *
 * Members are function-typed properties rather than methods: methods are compared bivariantly,
 * which would let a workflow narrow a parameter type without a compile error.
 */
import type { IngestDocumentInput, IngestDocumentResult, SourceEventsTiming } from './ingest';
import type { IndexRebuildProgress, SyncRun } from './model';
import type { SourceEvent } from './source-connector';

export interface TroveWorkflows {
  /** Ingests one document: fetch → parse → chunk → embed → upsert. Id: `ingestWorkflowId`. */
  ingestDocument: (input: IngestDocumentInput) => Promise<IngestDocumentResult>;
  /**
   * Ingests a project's PENDING uploads in batches, until none is left for a while (signal
   * `uploaded` wakes it). Id: `uploadsWorkflowId`.
   */
  ingestUploads: (input: { projectId: string }) => Promise<void>;
  /** Executes one sync run recorded beforehand. Id: `syncWorkflowId`. */
  syncSource: (input: { runId: string }) => Promise<SyncRun>;
  /** What a source's Temporal Schedule starts: records a run and executes `syncSource`. */
  scheduledSync: (sourceId: string) => Promise<void>;
  /** Debounces and applies a source's webhook events (signal `sourceEvents`). Id: `sourceEventsWorkflowId`. */
  sourceEvents: (
    sourceId: string,
    carried?: SourceEvent[],
    timing?: Partial<SourceEventsTiming>,
  ) => Promise<void>;
  /**
   * `sourceEvents` under its type of the previous release: still registered so runs started by
   * that release finish. Nothing starts it any more.
   */
  notionWebhookEvents: (
    sourceId: string,
    carried?: SourceEvent[],
    timing?: Partial<SourceEventsTiming>,
  ) => Promise<void>;
  /** Deletes a project and everything in it. Id: `deleteProjectWorkflowId`. */
  deleteProject: (projectId: string) => Promise<void>;
  /** Removes a source and everything it produced. Id: `removeSourceWorkflowId`. */
  removeSource: (sourceId: string) => Promise<void>;
  /**
   * Rebuilds the chunk index for a BUILDING generation (a new embedding model) and swaps it in.
   * Id: `rebuildIndexWorkflowId`.
   */
  rebuildIndex: (input: RebuildIndexInput) => Promise<IndexRebuildProgress>;
}

export interface RebuildIndexInput {
  generationId: number;
  /** How long every process may still use what it read about generations (their cache TTL, ×2). */
  settleMs: number;
  /** How long the old index stays after the swap, for searches that started before it. */
  graceMs: number;
  /** Carried over by continue-as-new: where the copy is, and what it did so far. */
  after?: string;
  progress?: IndexRebuildProgress;
}

/**
 * One rebuild per generation, named by its index (unique across installs sharing a Temporal
 * namespace, unlike the generation's number).
 */
export function rebuildIndexWorkflowId(indexName: string): string {
  return `rebuild-index-${indexName}`;
}

/** Signal names and their argument tuples. */
export interface TroveSignals {
  /** Webhook events for `sourceEvents`, in the order received. */
  sourceEvents: [events: SourceEvent[]];
  /** `sourceEvents` under its name of the previous release, still handled (see the workflow). */
  notionEvents: [events: SourceEvent[]];
  /** A file was uploaded to the project of `ingestUploads` (its record is PENDING in the catalog). */
  uploaded: [];
}
