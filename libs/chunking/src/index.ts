export * from './chunker';
export * from './token-counter';
