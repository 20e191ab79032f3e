export * from './ingest.activities';
