export * from './rag-settings';
export * from './rag-config-store';
export * from './rag-search';
