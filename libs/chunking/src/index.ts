export * from './chunker';
export * from './language';
export * from './token-counter';
