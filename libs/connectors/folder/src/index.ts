export * from './folder.connector';
