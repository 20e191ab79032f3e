export * from './ingest-document.workflow';
export * from './notion-webhook.workflow';
export * from './sync-source.workflow';
export * from './deletion.workflow';
