export * from './create-reranker';
export * from './http-reranker';
export * from './learned/features';
export * from './learned/feedback';
export * from './learned/learned-reranker';
export * from './learned/linear-model';
export * from './llm-reranker';
export * from './truncate';
