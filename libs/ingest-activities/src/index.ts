export * from './ingest.activities';
export * from './notion-source';
export * from './notion-sync.activities';
export * from './folder-source';
export * from './deletion.activities';
