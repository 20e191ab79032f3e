export * from './ingest-document.workflow';
export * from './sync-source.workflow';
