export * from './ingest.activities';
export * from './ingest-batch.activities';
export * from './sync.activities';
export * from './sync-runs.activities';
export * from './webhook.activities';
export * from './deletion.activities';
export * from './source-connectors';
export * from './index-rebuild.activities';
