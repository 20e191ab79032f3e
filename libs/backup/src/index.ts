export * from './backup';
export * from './restore';
export { findPgTools, type PgTools } from './pg-tools';
export { exportConfig } from './config-export';
export { formatBytes, type Progress } from './snapshot';
export * from './manifest';
export { blobLocation, type BlobLocation } from './blob-location';
