export * from './local-blob-store';
export * from './s3-blob-store';
export * from './blob-store.factory';
export * from './stream-meter';
export * from './allowed-path';
