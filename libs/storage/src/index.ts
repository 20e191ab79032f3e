export * from './local-blob-store';
