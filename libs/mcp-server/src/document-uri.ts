/** The URI template of documents as MCP resources. */
export const DOCUMENT_URI_TEMPLATE = 'trove://projects/{projectId}/documents/{documentId}';

/** `trove://projects/<projectId>/documents/<documentId>` */
export function documentUri(projectId: string, documentId: string): string {
  return `trove://projects/${encodeURIComponent(projectId)}/documents/${encodeURIComponent(documentId)}`;
}
