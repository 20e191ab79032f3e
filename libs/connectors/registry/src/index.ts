export * from './source-definitions';
