export * from './local-blob-store';
export * from './allowed-path';
