/**
 * The workflows and signals the worker registers, as their starters see them. The api may not
 * import the workflow code (it belongs to the worker), so it starts workflows by these names with
 * these argument types; `libs/workflows` checks at compile time that its exported functions
 * implement this contract, so a renamed workflow or a changed parameter breaks the build.
 *
 * Members are function-typed properties rather than methods: methods are compared bivariantly,
 * which would let a workflow narrow a parameter type without a compile error.
 */
import type { IngestDocumentInput, IngestDocumentResult, NotionEvent, NotionWebhookTiming } from './ingest';
import type { SyncRun } from './model';

export interface TroveWorkflows {
  /** Ingests one document: fetch → parse → chunk → embed → upsert. Id: `ingestWorkflowId`. */
  ingestDocument: (input: IngestDocumentInput) => Promise<IngestDocumentResult>;
  /** Executes one sync run recorded beforehand. Id: `syncWorkflowId`. */
  syncSource: (input: { runId: string }) => Promise<SyncRun>;
  /** What a source's Temporal Schedule starts: records a run and executes `syncSource`. */
  scheduledSync: (sourceId: string) => Promise<void>;
  /** Debounces and applies a source's webhook events (signal `notionEvents`). Id: `notionWebhookWorkflowId`. */
  notionWebhookEvents: (
    sourceId: string,
    carried?: NotionEvent[],
    timing?: Partial<NotionWebhookTiming>,
  ) => Promise<void>;
  /** Deletes a project and everything in it. Id: `deleteProjectWorkflowId`. */
  deleteProject: (projectId: string) => Promise<void>;
  /** Removes a source and everything it produced. Id: `removeSourceWorkflowId`. */
  removeSource: (sourceId: string) => Promise<void>;
}

/** Signal names and their argument tuples. */
export interface TroveSignals {
  /** Webhook events for `notionWebhookEvents`, in the order received. */
  notionEvents: [events: NotionEvent[]];
}
