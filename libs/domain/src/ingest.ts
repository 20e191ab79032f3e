/** The contract between the API (which starts ingests) and the worker (which runs them). */
import type { SourceEvent } from './source-connector';

export const INGEST_DOCUMENT_WORKFLOW = 'ingestDocument';

export interface IngestDocumentInput {
  documentId: string;
}

export interface IngestDocumentResult {
  documentId: string;
  chunkCount: number;
  reusedEmbeddings: number;
}

export const SYNC_SOURCE_WORKFLOW = 'syncSource';
export const SCHEDULED_SYNC_WORKFLOW = 'scheduledSync';

/** One sync at a time per source. */
export function syncWorkflowId(sourceId: string): string {
  return `sync-source-${sourceId}`;
}

export function syncScheduleId(sourceId: string): string {
  return `sync-schedule-${sourceId}`;
}

export const NOTION_WEBHOOK_WORKFLOW = 'notionWebhookEvents';
export const NOTION_EVENTS_SIGNAL = 'notionEvents';

/** A Notion webhook event reduced to what the sync needs. */
export type NotionEvent = SourceEvent;

/** How the webhook workflow batches events and when it starts a fresh history (set by the api). */
export interface NotionWebhookTiming {
  /** Apply after this long without new events… */
  quietMs: number;
  /** …or at the latest this long after the first pending event. */
  maxDelayMs: number;
  /** Continue as new once the history has this many events (or when Temporal suggests it). */
  historyLimit: number;
}

/** One long-lived workflow per source collects webhook events, so bursts are debounced together. */
export function notionWebhookWorkflowId(sourceId: string): string {
  return `notion-webhook-${sourceId}`;
}

/** One ingest workflow per document: re-running it replaces the previous run's chunks. */
export function ingestWorkflowId(documentId: string): string {
  return `ingest-document-${documentId}`;
}

export const DELETE_PROJECT_WORKFLOW = 'deleteProject';

/** One delete workflow per project: asking twice joins the running one. */
export function deleteProjectWorkflowId(projectId: string): string {
  return `delete-project-${projectId}`;
}

export const REMOVE_SOURCE_WORKFLOW = 'removeSource';

export function removeSourceWorkflowId(sourceId: string): string {
  return `remove-source-${sourceId}`;
}
