export * from './ingest-document.workflow';
