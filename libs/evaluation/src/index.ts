export * from './beir';
export * from './metrics';
