export * from './folder.connector';
export * from './folder.definition';
export * from './folder.plugin';
export * from './folder-source';
