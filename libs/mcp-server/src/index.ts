export * from './trove-mcp-server';
export { DOCUMENT_URI_TEMPLATE, documentUri } from './document-uri';
export { ERROR_META_KEY } from './tool-result';
