export * from './folder.connector';
export * from './folder.definition';
export * from './folder.plugin';
