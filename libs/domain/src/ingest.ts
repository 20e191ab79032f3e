/** The contract between the API (which starts ingests) and the worker (which runs them). */

export const INGEST_DOCUMENT_WORKFLOW = 'ingestDocument';

export interface IngestDocumentInput {
  documentId: string;
}

export interface IngestDocumentResult {
  documentId: string;
  chunkCount: number;
  reusedEmbeddings: number;
}

/** One ingest workflow per document: re-running it replaces the previous run's chunks. */
export function ingestWorkflowId(documentId: string): string {
  return `ingest-document-${documentId}`;
}
