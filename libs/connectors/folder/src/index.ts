export * from './folder.connector';
export * from './folder.definition';
