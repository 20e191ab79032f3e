export * from './source-definitions';
export * from './source-plugins';
