export * from './beir';
export * from './metrics';
export * from './answer-quality';
export * from './answer-questions';
export * from './rank-documents';
export * from './retrieval-gate';
